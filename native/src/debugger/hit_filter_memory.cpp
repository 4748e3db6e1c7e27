#include "hit_filter_memory.h"

#include <cstring>

namespace dbg {

namespace {
// Where CONTEXT (the debugger's DT_CONTEXT) keeps its flags, stack and instruction pointers, and the
// flags asking for the control and integer registers.
#if defined(__x86_64__) || defined(_M_X64)
constexpr size_t kFlagsAt = 0x30, kSpAt = 0x98, kIpAt = 0xf8;
constexpr uint32_t kControlAndInteger = 0x100003;
#elif defined(__aarch64__) || defined(_M_ARM64)
constexpr size_t kFlagsAt = 0x0, kSpAt = 0x100, kIpAt = 0x108;
constexpr uint32_t kControlAndInteger = 0x400003;
#else
constexpr size_t kFlagsAt = 0, kSpAt = 0, kIpAt = 0;
constexpr uint32_t kControlAndInteger = 0;
#endif
/** A variable of the innermost frame lies this close above the stack pointer, or the pointer was misread. */
constexpr uint64_t kLargestFrame = 64 * 1024;

constexpr size_t kLargestContext = 16 * 1024;
alignas(64) uint8_t context[kLargestContext];

/** sizeof(DT_CONTEXT) as this runtime's debugger has it (it refuses any other), asked once of a stack walk. */
ULONG32 ContextSize(ICorDebugThread* thread) {
  static ULONG32 size = 0;
  if (size != 0) return size;
  ComPtr<ICorDebugThread3> thread3;
  ComPtr<ICorDebugStackWalk> walk;
  ULONG32 needed = 0;
  if (!Failed(ComPtr<ICorDebugThread>::Retain(thread).As(IID_ICorDebugThread3, thread3)) && !Failed(thread3->CreateStackWalk(walk.Out())) &&
      walk && !Failed(walk->GetContext(kControlAndInteger, kLargestContext, &needed, context)) && needed > kIpAt && needed <= kLargestContext) {
    size = needed;
  }
  return size;
}

/**
 * The bytes a value of type `et` holds where it lies, through the runtime: a primitive's, or a
 * reference's object address (a struct read as CLASS is neither, and is refused).
 */
bool ValueBytes(ICorDebugValue* value, CorElementType et, uint8_t* out) {
  ComPtr<ICorDebugValue> held = ComPtr<ICorDebugValue>::Retain(value);
  ComPtr<ICorDebugReferenceValue> reference;
  bool isReference = !Failed(held.As(IID_ICorDebugReferenceValue, reference));
  if (et == ELEMENT_TYPE_CLASS) {
    CORDB_ADDRESS address = 0;
    if (!isReference || Failed(reference->GetValue(&address))) return false;
    std::memcpy(out, &address, sizeof address);
    return true;
  }
  CorElementType actual = 0;
  ULONG32 size = 0;
  ComPtr<ICorDebugGenericValue> generic;
  return !isReference && !Failed(value->GetType(&actual)) && actual == et && !Failed(value->GetSize(&size)) && size == StoredSize(et) &&
         !Failed(held.As(IID_ICorDebugGenericValue, generic)) && !Failed(generic->GetValue(out));
}

/** Whether `value` lies at `address`, holding there what the runtime says it holds. */
bool LiesAt(ICorDebugProcess* process, ICorDebugValue* value, CorElementType et, uint64_t address) {
  uint8_t expected[16] = {}, found[16] = {};
  size_t size = StoredSize(et);
  return size != 0 && ValueBytes(value, et, expected) && ReadTarget(process, address, found, size) && std::memcmp(expected, found, size) == 0;
}
}  // namespace

bool ReadStopPoint(ICorDebugThread* thread, ICorDebugProcess* process, StopPoint& out) {
  if (kIpAt == 0) return false;
  ULONG32 size = ContextSize(thread);
  DWORD id = 0;
  if (size == 0 || Failed(thread->GetID(&id))) return false;
  std::memset(context, 0, size);
  std::memcpy(context + kFlagsAt, &kControlAndInteger, sizeof kControlAndInteger);
  if (process->GetThreadContext(id, size, context) != S_OK) return false;
  std::memcpy(&out.ip, context + kIpAt, sizeof out.ip);
  std::memcpy(&out.sp, context + kSpAt, sizeof out.sp);
  return out.ip != 0 && out.sp != 0;
}

bool ReadTarget(ICorDebugProcess* process, uint64_t address, void* out, size_t size) {
  size_t read = 0;
  return address != 0 && !Failed(process->ReadMemory(address, static_cast<DWORD>(size), static_cast<BYTE*>(out), &read)) && read == size;
}

size_t StoredSize(CorElementType et) {
  switch (et) {
    case ELEMENT_TYPE_BOOLEAN:
    case ELEMENT_TYPE_I1:
    case ELEMENT_TYPE_U1: return 1;
    case ELEMENT_TYPE_CHAR:
    case ELEMENT_TYPE_I2:
    case ELEMENT_TYPE_U2: return 2;
    case ELEMENT_TYPE_I4:
    case ELEMENT_TYPE_U4:
    case ELEMENT_TYPE_R4: return 4;
    case ELEMENT_TYPE_I8:
    case ELEMENT_TYPE_U8:
    case ELEMENT_TYPE_R8: return 8;
    case ELEMENT_TYPE_CLASS: return sizeof(CORDB_ADDRESS);
    default: return 0;
  }
}

bool FrameIsAt(ICorDebugFrame* frame, const StopPoint& at) {
  ComPtr<ICorDebugNativeFrame> native;
  ComPtr<ICorDebugCode> code;
  ULONG32 offset = 0;
  CORDB_ADDRESS start = 0;
  return !Failed(ComPtr<ICorDebugFrame>::Retain(frame).As(IID_ICorDebugNativeFrame, native)) && !Failed(native->GetIP(&offset)) &&
         !Failed(frame->GetCode(code.Out())) && code && !Failed(code->GetAddress(&start)) && start != 0 && start + offset == at.ip;
}

bool LearnSlot(ICorDebugProcess* process, ICorDebugValue* value, CorElementType et, const StopPoint& at, int64_t& slot) {
  CORDB_ADDRESS address = 0;
  // A value held in a register has no address: it stays with the frame.
  if (Failed(value->GetAddress(&address)) || address < at.sp || address - at.sp >= kLargestFrame || !LiesAt(process, value, et, address)) {
    return false;
  }
  slot = static_cast<int64_t>(address - at.sp);
  return true;
}

bool LearnField(ICorDebugProcess* process, ICorDebugValue* object, ICorDebugValue* field, CorElementType et, uint64_t& methodTable,
                int64_t& offset) {
  ComPtr<ICorDebugReferenceValue> reference;
  CORDB_ADDRESS start = 0, address = 0;
  // Only a field of an object on the heap (a struct's lies wherever the struct does).
  if (Failed(ComPtr<ICorDebugValue>::Retain(object).As(IID_ICorDebugReferenceValue, reference)) || Failed(reference->GetValue(&start)) ||
      start == 0 || Failed(field->GetAddress(&address)) || address <= start || !ReadTarget(process, start, &methodTable, sizeof methodTable) ||
      !LiesAt(process, field, et, address)) {
    return false;
  }
  offset = static_cast<int64_t>(address - start);
  return true;
}

}  // namespace dbg
