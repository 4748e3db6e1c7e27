// The types the ICorDebug interfaces share: forward declarations, metadata typedefs, the enums and
// structs of cordebug.idl (exact numeric values; every enum here is 32 bits, as in the C headers),
// the CorElementType values of corhdr.h, and ICorDebugEnum, the base of every enumerator.
// Included by cordebug.h and by each of its sibling headers.
#pragma once

#include "../com/com.h"

namespace dbg {

// Metadata tokens and the idl's other scalar typedefs (cor.h / cordebug.idl).
using mdMethodDef = uint32_t;
using mdFieldDef = uint32_t;
using mdMemberRef = uint32_t;
using mdSignature = uint32_t;
using mdModule = uint32_t;
using CorElementType = uint32_t;       // corhdr.h enum, 32 bits; values below
using PCCOR_SIGNATURE = const BYTE*;   // corhdr.h: const COR_SIGNATURE* (COR_SIGNATURE = uint8_t)
using CORDB_REGISTER = uint64_t;
using TASKID = uint64_t;

constexpr mdToken mdTokenNil = 0;
constexpr mdSignature mdSignatureNil = 0x11000000;

struct ICorDebug;
struct ICorDebugUnmanagedCallback;
struct ICorDebugManagedCallback;
struct ICorDebugController;
struct ICorDebugProcess;
struct ICorDebugAppDomain;
struct ICorDebugAssembly;
struct ICorDebugThread;
struct ICorDebugThread2;
struct ICorDebugModule;
struct ICorDebugModuleBreakpoint;       // not declared (not needed)
struct ICorDebugValueBreakpoint;
struct ICorDebugFunctionBreakpoint;
struct ICorDebugBreakpoint;
struct ICorDebugStepper;
struct ICorDebugEval;
struct ICorDebugRegisterSet;
struct ICorDebugStackWalk;
struct ICorDebugChain;
struct ICorDebugFrame;
struct ICorDebugInternalFrame2;
struct ICorDebugNativeFrame2;
struct ICorDebugFunction;
struct ICorDebugFunction2;
struct ICorDebugCode;
struct ICorDebugILCode;
struct ICorDebugClass;
struct ICorDebugType;
struct ICorDebugValue;
struct ICorDebugReferenceValue;
struct ICorDebugHandleValue;
struct ICorDebugObjectValue;
struct ICorDebugContext;
struct ICorDebugMDA;
struct ICorDebugObjectEnum;
struct ICorDebugProcessEnum;
struct ICorDebugBreakpointEnum;
struct ICorDebugStepperEnum;
struct ICorDebugModuleEnum;
struct ICorDebugThreadEnum;
struct ICorDebugChainEnum;
struct ICorDebugFrameEnum;
struct ICorDebugValueEnum;
struct ICorDebugCodeEnum;
struct ICorDebugTypeEnum;
struct ICorDebugAppDomainEnum;
struct ICorDebugAssemblyEnum;
struct ICorDebugBlockingObjectEnum;
struct ICorDebugExceptionObjectCallStackEnum;
struct ICorDebugHeapEnum;
struct ICorDebugHeapSegmentEnum;         // not declared
struct ICorDebugGCReferenceEnum;         // not declared
struct ICorDebugErrorInfoEnum;           // deprecated, not declared
struct ICorDebugEditAndContinueSnapshot; // deprecated, not declared

// objidl's IStream, only ever passed along (UpdateModuleSymbols).
struct IStream : IUnknown {};

// CorElementType (corhdr.h).
constexpr CorElementType ELEMENT_TYPE_END = 0x00;
constexpr CorElementType ELEMENT_TYPE_VOID = 0x01;
constexpr CorElementType ELEMENT_TYPE_BOOLEAN = 0x02;
constexpr CorElementType ELEMENT_TYPE_CHAR = 0x03;
constexpr CorElementType ELEMENT_TYPE_I1 = 0x04;
constexpr CorElementType ELEMENT_TYPE_U1 = 0x05;
constexpr CorElementType ELEMENT_TYPE_I2 = 0x06;
constexpr CorElementType ELEMENT_TYPE_U2 = 0x07;
constexpr CorElementType ELEMENT_TYPE_I4 = 0x08;
constexpr CorElementType ELEMENT_TYPE_U4 = 0x09;
constexpr CorElementType ELEMENT_TYPE_I8 = 0x0a;
constexpr CorElementType ELEMENT_TYPE_U8 = 0x0b;
constexpr CorElementType ELEMENT_TYPE_R4 = 0x0c;
constexpr CorElementType ELEMENT_TYPE_R8 = 0x0d;
constexpr CorElementType ELEMENT_TYPE_STRING = 0x0e;
constexpr CorElementType ELEMENT_TYPE_PTR = 0x0f;
constexpr CorElementType ELEMENT_TYPE_BYREF = 0x10;
constexpr CorElementType ELEMENT_TYPE_VALUETYPE = 0x11;
constexpr CorElementType ELEMENT_TYPE_CLASS = 0x12;
constexpr CorElementType ELEMENT_TYPE_VAR = 0x13;
constexpr CorElementType ELEMENT_TYPE_ARRAY = 0x14;
constexpr CorElementType ELEMENT_TYPE_GENERICINST = 0x15;
constexpr CorElementType ELEMENT_TYPE_TYPEDBYREF = 0x16;
constexpr CorElementType ELEMENT_TYPE_I = 0x18;
constexpr CorElementType ELEMENT_TYPE_U = 0x19;
constexpr CorElementType ELEMENT_TYPE_FNPTR = 0x1b;
constexpr CorElementType ELEMENT_TYPE_OBJECT = 0x1c;
constexpr CorElementType ELEMENT_TYPE_SZARRAY = 0x1d;
constexpr CorElementType ELEMENT_TYPE_MVAR = 0x1e;
constexpr CorElementType ELEMENT_TYPE_CMOD_REQD = 0x1f;
constexpr CorElementType ELEMENT_TYPE_CMOD_OPT = 0x20;
constexpr CorElementType ELEMENT_TYPE_INTERNAL = 0x21;
constexpr CorElementType ELEMENT_TYPE_MODIFIER = 0x40;
constexpr CorElementType ELEMENT_TYPE_SENTINEL = 0x41;  // 0x01 | MODIFIER
constexpr CorElementType ELEMENT_TYPE_PINNED = 0x45;    // 0x05 | MODIFIER

// CorDebugInterfaceVersion values accepted by the DBI's factory.
constexpr int CorDebugVersion_2_0 = 3;
constexpr int CorDebugVersion_4_0 = 4;

enum CorDebugCreateProcessFlags { DEBUG_NO_SPECIAL_OPTIONS = 0 };
enum CorDebugThreadState { THREAD_RUN = 0, THREAD_SUSPEND = 1 };
enum CorDebugUserState {
  USER_STOP_REQUESTED = 0x01,
  USER_SUSPEND_REQUESTED = 0x02,
  USER_BACKGROUND = 0x04,
  USER_UNSTARTED = 0x08,
  USER_STOPPED = 0x10,
  USER_WAIT_SLEEP_JOIN = 0x20,
  USER_SUSPENDED = 0x40,
  USER_UNSAFE_POINT = 0x80,
  USER_THREADPOOL = 0x100,
};
enum CorDebugHandleType { HANDLE_STRONG = 1, HANDLE_WEAK_TRACK_RESURRECTION = 2, HANDLE_PINNED = 3 };
enum CorDebugJITCompilerFlags {
  CORDEBUG_JIT_DEFAULT = 0x1,
  CORDEBUG_JIT_DISABLE_OPTIMIZATION = 0x3,
  CORDEBUG_JIT_ENABLE_ENC = 0x7,
};
enum CorDebugExceptionCallbackType {
  DEBUG_EXCEPTION_FIRST_CHANCE = 1,
  DEBUG_EXCEPTION_USER_FIRST_CHANCE = 2,
  DEBUG_EXCEPTION_CATCH_HANDLER_FOUND = 3,
  DEBUG_EXCEPTION_UNHANDLED = 4,
};
enum CorDebugExceptionFlags { DEBUG_EXCEPTION_NONE = 0, DEBUG_EXCEPTION_CAN_BE_INTERCEPTED = 0x1 };
enum CorDebugExceptionUnwindCallbackType { DEBUG_EXCEPTION_UNWIND_BEGIN = 1, DEBUG_EXCEPTION_INTERCEPTED = 2 };
enum CorDebugStepReason {
  STEP_NORMAL = 0,
  STEP_RETURN = 1,
  STEP_CALL = 2,
  STEP_EXCEPTION_FILTER = 3,
  STEP_EXCEPTION_HANDLER = 4,
  STEP_INTERCEPT = 5,
  STEP_EXIT = 6,
};
enum CorDebugIntercept {
  INTERCEPT_NONE = 0x0,
  INTERCEPT_CLASS_INIT = 0x01,
  INTERCEPT_EXCEPTION_FILTER = 0x02,
  INTERCEPT_SECURITY = 0x04,
  INTERCEPT_CONTEXT_POLICY = 0x08,
  INTERCEPT_INTERCEPTION = 0x10,
  INTERCEPT_ALL = 0xffff,
};
enum CorDebugUnmappedStop {
  STOP_NONE = 0x0,
  STOP_PROLOG = 0x01,
  STOP_EPILOG = 0x02,
  STOP_NO_MAPPING_INFO = 0x04,
  STOP_OTHER_UNMAPPED = 0x08,
  STOP_UNMANAGED = 0x10,
  STOP_ALL = 0xffff,
};
enum CorDebugMappingResult {
  MAPPING_PROLOG = 0x1,
  MAPPING_EPILOG = 0x2,
  MAPPING_NO_INFO = 0x4,
  MAPPING_UNMAPPED_ADDRESS = 0x8,
  MAPPING_EXACT = 0x10,
  MAPPING_APPROXIMATE = 0x20,
};
enum CorDebugChainReason {
  CHAIN_NONE = 0x000,
  CHAIN_CLASS_INIT = 0x001,
  CHAIN_EXCEPTION_FILTER = 0x002,
  CHAIN_SECURITY = 0x004,
  CHAIN_CONTEXT_POLICY = 0x008,
  CHAIN_INTERCEPTION = 0x010,
  CHAIN_PROCESS_START = 0x020,
  CHAIN_THREAD_START = 0x040,
  CHAIN_ENTER_MANAGED = 0x080,
  CHAIN_ENTER_UNMANAGED = 0x100,
  CHAIN_DEBUGGER_EVAL = 0x200,
  CHAIN_CONTEXT_SWITCH = 0x400,
  CHAIN_FUNC_EVAL = 0x800,
};
enum CorDebugInternalFrameType {
  STUBFRAME_NONE = 0x0,
  STUBFRAME_M2U = 0x1,
  STUBFRAME_U2M = 0x2,
  STUBFRAME_APPDOMAIN_TRANSITION = 0x3,
  STUBFRAME_LIGHTWEIGHT_FUNCTION = 0x4,
  STUBFRAME_FUNC_EVAL = 0x5,
  STUBFRAME_INTERNALCALL = 0x6,
  STUBFRAME_CLASS_INIT = 0x7,
  STUBFRAME_EXCEPTION = 0x8,
  STUBFRAME_SECURITY = 0x9,
  STUBFRAME_JIT_COMPILATION = 0xa,
};
enum CorDebugSetContextFlag { SET_CONTEXT_FLAG_ACTIVE_FRAME = 0x1, SET_CONTEXT_FLAG_UNWIND_FRAME = 0x2 };
// CorDebugRegister: only the architecture-neutral values; the per-architecture ones (AMD64, ARM64, ...)
// restart at 0 and are not declared. Passed by value to ICorDebugNativeFrame, hence the type.
enum CorDebugRegister { REGISTER_INSTRUCTION_POINTER = 0, REGISTER_STACK_POINTER = 1, REGISTER_FRAME_POINTER = 2 };
enum ILCodeKind { ILCODE_ORIGINAL_IL = 0x1, ILCODE_REJIT_IL = 0x2 };
enum CorDebugBlockingReason {
  BLOCKING_NONE = 0x0,
  BLOCKING_MONITOR_CRITICAL_SECTION = 0x1,
  BLOCKING_MONITOR_EVENT = 0x2,
};
enum CorDebugMDAFlags { MDA_FLAG_SLIP = 0x2 };
enum CorDebugNGENPolicy { DISABLE_LOCAL_NIC = 1 };  // ICorDebugProcess5::EnableNGENPolicy
enum CorDebugGCType { CorDebugWorkstationGC = 0, CorDebugServerGC = 1 };
enum CorGCReferenceType : uint32_t {
  CorHandleStrong = 1u << 0,
  CorHandleStrongPinning = 1u << 1,
  CorHandleWeakShort = 1u << 2,
  CorHandleWeakLong = 1u << 3,
  CorHandleWeakRefCount = 1u << 4,
  CorHandleStrongRefCount = 1u << 5,
  CorHandleStrongDependent = 1u << 6,
  CorHandleStrongAsyncPinned = 1u << 7,
  CorHandleStrongSizedByref = 1u << 8,
  CorHandleWeakNativeCom = 1u << 9,
  CorHandleWeakWinRT = CorHandleWeakNativeCom,
  CorReferenceStack = 0x80000001u,
  CorReferenceFinalizer = 80000002u,  // decimal in cordebug.idl (sic)
  CorHandleStrongOnly = 0x1E3,
  CorHandleWeakOnly = 0x21C,
  CorHandleAll = 0x7FFFFFFF,
};

// COR_DEBUG_IL_TO_NATIVE_MAP::ilOffset may hold one of these (CorDebugIlToNativeMappingTypes:
// NO_MAPPING = -1, PROLOG = -2, EPILOG = -3, seen through the ULONG32 field).
constexpr ULONG32 NO_MAPPING = 0xffffffffu;
constexpr ULONG32 PROLOG = 0xfffffffeu;
constexpr ULONG32 EPILOG = 0xfffffffdu;

struct COR_DEBUG_IL_TO_NATIVE_MAP {
  ULONG32 ilOffset;
  ULONG32 nativeStartOffset;
  ULONG32 nativeEndOffset;
};
struct COR_DEBUG_STEP_RANGE {
  ULONG32 startOffset;
  ULONG32 endOffset;
};
struct CodeChunkInfo {
  CORDB_ADDRESS startAddr;
  ULONG32 length;
};
struct CorDebugEHClause {
  ULONG32 Flags;
  ULONG32 TryOffset;
  ULONG32 TryLength;
  ULONG32 HandlerOffset;
  ULONG32 HandlerLength;
  ULONG32 ClassToken;
  ULONG32 FilterOffset;
};
struct COR_ACTIVE_FUNCTION {
  ICorDebugAppDomain* pAppDomain;
  ICorDebugModule* pModule;
  ICorDebugFunction2* pFunction;
  ULONG32 ilOffset;
  ULONG32 flags;
};
struct COR_VERSION {
  DWORD dwMajor;
  DWORD dwMinor;
  DWORD dwBuild;
  DWORD dwSubBuild;
};
struct CorDebugBlockingObject {
  ICorDebugValue* pBlockingObject;
  DWORD dwTimeout;
  CorDebugBlockingReason blockingReason;
};
struct CorDebugExceptionObjectStackFrame {
  ICorDebugModule* pModule;
  CORDB_ADDRESS ip;
  mdMethodDef methodDef;
  BOOL isLastForeignExceptionFrame;
};
struct COR_TYPEID {  // passed by value (ICorDebugProcess5): two 64-bit integers
  uint64_t token1;
  uint64_t token2;
};
struct COR_HEAPOBJECT {
  CORDB_ADDRESS address;
  uint64_t size;
  COR_TYPEID type;
};
struct COR_HEAPINFO {
  BOOL areGCStructuresValid;
  DWORD pointerSize;
  DWORD numHeaps;
  BOOL concurrent;
  CorDebugGCType gcType;
};
struct COR_ARRAY_LAYOUT {
  COR_TYPEID componentID;
  CorElementType componentType;
  ULONG32 firstElementOffset;
  ULONG32 elementSize;
  ULONG32 countOffset;
  ULONG32 rankSize;
  ULONG32 numRanks;
  ULONG32 rankOffset;
};
struct COR_TYPE_LAYOUT {
  COR_TYPEID parentID;
  ULONG32 objectSize;
  ULONG32 numFields;
  ULONG32 boxOffset;
  CorElementType type;
};
struct COR_FIELD {
  mdFieldDef token;
  ULONG32 offset;
  COR_TYPEID id;
  CorElementType fieldType;
};

static_assert(sizeof(CorDebugStepReason) == 4 && sizeof(CorDebugRegister) == 4 && sizeof(CorGCReferenceType) == 4,
              "idl enums are 32 bits");
static_assert(sizeof(COR_DEBUG_IL_TO_NATIVE_MAP) == 12 && sizeof(COR_DEBUG_STEP_RANGE) == 8, "idl struct layout");
static_assert(sizeof(CorDebugEHClause) == 28 && sizeof(COR_VERSION) == 16 && sizeof(COR_HEAPINFO) == 20, "idl struct layout");
static_assert(sizeof(COR_TYPEID) == 16 && sizeof(COR_HEAPOBJECT) == 32 && sizeof(COR_ARRAY_LAYOUT) == 48 && sizeof(COR_TYPE_LAYOUT) == 32, "idl struct layout");
static_assert(sizeof(void*) != 8 || (sizeof(CodeChunkInfo) == 16 && sizeof(COR_ACTIVE_FUNCTION) == 32 &&
                                     sizeof(CorDebugBlockingObject) == 16 &&
                                     sizeof(CorDebugExceptionObjectStackFrame) == 24 && sizeof(COR_FIELD) == 32),
              "idl struct layout (64-bit)");

struct ICorDebugEnum : IUnknown {
  virtual HRESULT DBG_STDCALL Skip(ULONG count) = 0;
  virtual HRESULT DBG_STDCALL Reset() = 0;
  virtual HRESULT DBG_STDCALL Clone(ICorDebugEnum** clone) = 0;
  virtual HRESULT DBG_STDCALL GetCount(ULONG* count) = 0;
};

constexpr GUID IID_ICorDebugEnum = {0xcc7bcb01, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};

}  // namespace dbg
