#include "type_json.h"

#include "../com/com_ptr.h"
#include "../util/json.h"

namespace dbg {

namespace {
constexpr int kMaxDepth = 8;

std::string TypeListJson(ICorDebugTypeEnum* types, const ModuleTable& modules, int depth) {
  std::string out = "[";
  while (true) {
    ICorDebugType* raw = nullptr;
    ULONG fetched = 0;
    if (Failed(types->Next(1, &raw, &fetched)) || fetched == 0) break;
    auto type = ComPtr<ICorDebugType>::Adopt(raw);
    if (out.size() > 1) out += ",";
    out += TypeJson(type.Get(), modules, depth + 1);
  }
  return out + "]";
}
}  // namespace

std::string TypeJson(ICorDebugType* type, const ModuleTable& modules, int depth) {
  CorElementType et = 0;
  if (!type || Failed(type->GetType(&et)) || depth > kMaxDepth) return "null";
  JsonObject json;
  json.Int("et", et);
  if (et == ELEMENT_TYPE_CLASS || et == ELEMENT_TYPE_VALUETYPE) {
    ComPtr<ICorDebugClass> cls;
    if (!Failed(type->GetClass(cls.Out())) && cls) {
      ComPtr<ICorDebugModule> module;
      mdTypeDef token = 0;
      cls->GetModule(module.Out());
      cls->GetToken(&token);
      json.Int("module", modules.HandleOf(module.Get())).Int("token", token);
      if (module) json.Str("path", ModulePath(module.Get()));
    }
    ComPtr<ICorDebugTypeEnum> args;
    if (!Failed(type->EnumerateTypeParameters(args.Out())) && args) json.Raw("args", TypeListJson(args.Get(), modules, depth));
  } else if (et == ELEMENT_TYPE_ARRAY || et == ELEMENT_TYPE_SZARRAY || et == ELEMENT_TYPE_PTR || et == ELEMENT_TYPE_BYREF) {
    ULONG32 rank = 0;
    if (et == ELEMENT_TYPE_ARRAY || et == ELEMENT_TYPE_SZARRAY) type->GetRank(&rank);
    if (rank) json.Int("rank", rank);
    ComPtr<ICorDebugType> element;
    if (!Failed(type->GetFirstTypeParameter(element.Out())) && element) {
      json.Raw("elem", TypeJson(element.Get(), modules, depth + 1));
    }
  }
  return json.Done();
}

}  // namespace dbg
