#include "value_json.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../util/json.h"
#include "../util/utf.h"
#include "type_json.h"

namespace dbg {

namespace {

template <typename T>
T Read(const uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

std::string PrimitiveText(CorElementType et, const uint8_t* bytes) {
  char buf[40];
  switch (et) {
    case ELEMENT_TYPE_BOOLEAN: return bytes[0] ? "true" : "false";
    case ELEMENT_TYPE_CHAR: return std::to_string(Read<uint16_t>(bytes));
    case ELEMENT_TYPE_I1: return std::to_string(Read<int8_t>(bytes));
    case ELEMENT_TYPE_U1: return std::to_string(Read<uint8_t>(bytes));
    case ELEMENT_TYPE_I2: return std::to_string(Read<int16_t>(bytes));
    case ELEMENT_TYPE_U2: return std::to_string(Read<uint16_t>(bytes));
    case ELEMENT_TYPE_I4: return std::to_string(Read<int32_t>(bytes));
    case ELEMENT_TYPE_U4: return std::to_string(Read<uint32_t>(bytes));
    case ELEMENT_TYPE_I8:
    case ELEMENT_TYPE_I: return std::to_string(Read<int64_t>(bytes));
    case ELEMENT_TYPE_U8:
    case ELEMENT_TYPE_U: return std::to_string(Read<uint64_t>(bytes));
    case ELEMENT_TYPE_R4:
      std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(Read<float>(bytes)));
      return buf;
    case ELEMENT_TYPE_R8:
      std::snprintf(buf, sizeof buf, "%.17g", Read<double>(bytes));
      return buf;
    default: return {};
  }
}

bool IsPrimitive(CorElementType et) {
  return (et >= ELEMENT_TYPE_BOOLEAN && et <= ELEMENT_TYPE_R8) || et == ELEMENT_TYPE_I || et == ELEMENT_TYPE_U;
}

ComPtr<ICorDebugType> ExactType(const ComPtr<ICorDebugValue>& value) {
  ComPtr<ICorDebugValue2> typed;
  ComPtr<ICorDebugType> type;
  if (!value || Failed(value.As(IID_ICorDebugValue2, typed)) || Failed(typed->GetExactType(type.Out()))) return {};
  return type;
}

/** The type, then each base class, as TypeJson objects. */
std::string ChainJson(ComPtr<ICorDebugType> type, const ModuleTable& modules) {
  std::string out = "[";
  for (int depth = 0; type && depth < 32; ++depth) {
    if (out.size() > 1) out += ",";
    out += TypeJson(type.Get(), modules);
    ComPtr<ICorDebugType> base;
    if (Failed(type->GetBase(base.Out()))) break;
    type = base;
  }
  return out + "]";
}

}  // namespace

std::string ValueJson(ValueTable& table, ComPtr<ICorDebugValue> value, const ModuleTable& modules, uint32_t maxChars) {
  JsonObject json;
  json.Int("h", table.Add(value));
  // An object's address tells two references to the same object apart (`a == b` in expressions); an
  // object the runtime handed over itself (a thread's blocking object, a heap walk's) has one too.
  ComPtr<ICorDebugReferenceValue> reference;
  ComPtr<ICorDebugHeapValue> heapObject;
  CORDB_ADDRESS address = 0;
  if (!Failed(value.As(IID_ICorDebugReferenceValue, reference))) {
    if (Failed(reference->GetValue(&address))) address = 0;
  } else if (!Failed(value.As(IID_ICorDebugHeapValue, heapObject)) && Failed(value->GetAddress(&address))) {
    address = 0;
  }
  if (address) json.Str("addr", std::to_string(address));
  bool boxed = false;
  ComPtr<ICorDebugValue> target = Target(value, &boxed);
  if (!target) {
    json.Bool("null", true);
    auto declared = ExactType(value);
    if (declared) json.Raw("type", TypeJson(declared.Get(), modules));
    return json.Done();
  }
  CorElementType et = 0;
  target->GetType(&et);
  json.Int("et", et);
  if (boxed) json.Bool("boxed", true);
  if (IsPrimitive(et)) {
    ComPtr<ICorDebugGenericValue> generic;
    ULONG32 size = 0;
    uint8_t bytes[16] = {};
    if (!Failed(target.As(IID_ICorDebugGenericValue, generic)) && !Failed(target->GetSize(&size)) && size <= sizeof bytes &&
        !Failed(generic->GetValue(bytes))) {
      json.Str("v", PrimitiveText(et, bytes));
    }
    return json.Done();
  }
  if (et == ELEMENT_TYPE_STRING) {
    ComPtr<ICorDebugStringValue> text;
    ULONG32 length = 0;
    if (!Failed(target.As(IID_ICorDebugStringValue, text)) && !Failed(text->GetLength(&length))) {
      ULONG32 take = length < maxChars ? length : maxChars;
      std::vector<WCHAR> buffer(take + 1);
      ULONG32 fetched = 0;
      // GetString copies at most cchString - 1 characters and a terminator.
      if (!Failed(text->GetString(take + 1, &fetched, buffer.data()))) {
        json.Str("str", ToUtf8(buffer.data(), fetched > take ? take : fetched));
      }
      json.Int("len", length);
    }
    return json.Done();
  }
  auto type = ExactType(target);
  if (et == ELEMENT_TYPE_SZARRAY || et == ELEMENT_TYPE_ARRAY) {
    ComPtr<ICorDebugArrayValue> array;
    ULONG32 count = 0, rank = 0;
    if (!Failed(target.As(IID_ICorDebugArrayValue, array))) {
      array->GetCount(&count);
      array->GetRank(&rank);
      std::vector<ULONG32> dims(rank ? rank : 1);
      array->GetDimensions(rank, dims.data());
      std::string list = "[";
      for (ULONG32 i = 0; i < rank; ++i) list += (i ? "," : "") + std::to_string(dims[i]);
      json.Int("len", count).Raw("dims", list + "]");
    }
    if (type) json.Raw("type", TypeJson(type.Get(), modules));
    return json.Done();
  }
  if (type) json.Raw("chain", ChainJson(type, modules));
  return json.Done();
}

HRESULT SetPrimitive(ICorDebugGenericValue* target, CorElementType et, const std::string& text) {
  uint8_t bytes[16] = {};
  try {
    switch (et) {
      case ELEMENT_TYPE_BOOLEAN: bytes[0] = text == "true" ? 1 : 0; break;
      case ELEMENT_TYPE_CHAR:
      case ELEMENT_TYPE_U2: { auto v = static_cast<uint16_t>(std::stoul(text)); std::memcpy(bytes, &v, 2); break; }
      case ELEMENT_TYPE_I1: { auto v = static_cast<int8_t>(std::stol(text)); std::memcpy(bytes, &v, 1); break; }
      case ELEMENT_TYPE_U1: { auto v = static_cast<uint8_t>(std::stoul(text)); std::memcpy(bytes, &v, 1); break; }
      case ELEMENT_TYPE_I2: { auto v = static_cast<int16_t>(std::stol(text)); std::memcpy(bytes, &v, 2); break; }
      case ELEMENT_TYPE_I4: { auto v = static_cast<int32_t>(std::stol(text)); std::memcpy(bytes, &v, 4); break; }
      case ELEMENT_TYPE_U4: { auto v = static_cast<uint32_t>(std::stoul(text)); std::memcpy(bytes, &v, 4); break; }
      case ELEMENT_TYPE_I8:
      case ELEMENT_TYPE_I: { auto v = static_cast<int64_t>(std::stoll(text)); std::memcpy(bytes, &v, 8); break; }
      case ELEMENT_TYPE_U8:
      case ELEMENT_TYPE_U: { auto v = static_cast<uint64_t>(std::stoull(text)); std::memcpy(bytes, &v, 8); break; }
      case ELEMENT_TYPE_R4: { auto v = std::stof(text); std::memcpy(bytes, &v, 4); break; }
      case ELEMENT_TYPE_R8: { auto v = std::stod(text); std::memcpy(bytes, &v, 8); break; }
      default: return E_INVALIDARG;
    }
  } catch (...) {
    return E_INVALIDARG;
  }
  return target->SetValue(bytes);
}

}  // namespace dbg
