#include "object_reader.h"

#include <vector>

#include "../cordebug/metadata.h"
#include "../util/utf.h"

namespace dbg {

namespace {

ComPtr<IMetaDataImport> MetadataOf(ICorDebugClass* cls, mdTypeDef& token) {
  ComPtr<IMetaDataImport> metadata;
  ComPtr<ICorDebugModule> module;
  if (Failed(cls->GetModule(module.Out())) || Failed(cls->GetToken(&token))) return metadata;
  ComPtr<IUnknown> unknown;
  if (Failed(module->GetMetaDataInterface(IID_IMetaDataImport, unknown.Out()))) return metadata;
  unknown.As(IID_IMetaDataImport, metadata);
  return metadata;
}

bool ReadString(ComPtr<ICorDebugValue> value, std::string& out) {
  value = Dereference(value);
  ComPtr<ICorDebugStringValue> text;
  if (!value || Failed(value.As(IID_ICorDebugStringValue, text))) return false;
  ULONG32 length = 0;
  if (Failed(text->GetLength(&length))) return false;
  std::vector<WCHAR> buffer(length + 1);
  ULONG32 fetched = 0;
  if (Failed(text->GetString(length + 1, &fetched, buffer.data()))) return false;
  out = ToUtf8(buffer.data(), fetched > length ? length : fetched);
  return true;
}

}  // namespace

std::string ClassName(ICorDebugClass* cls) {
  mdTypeDef token = 0;
  auto metadata = MetadataOf(cls, token);
  if (!metadata) return {};
  WCHAR name[1024];
  ULONG length = 0;
  DWORD flags = 0;
  mdToken extends = 0;
  if (Failed(metadata->GetTypeDefProps(token, name, 1024, &length, &flags, &extends)) || length == 0) return {};
  return ToUtf8(name, length - 1);  // length counts the terminator
}

ComPtr<ICorDebugValue> Dereference(ComPtr<ICorDebugValue> value) {
  for (int depth = 0; value && depth < 4; ++depth) {
    ComPtr<ICorDebugReferenceValue> reference;
    if (Failed(value.As(IID_ICorDebugReferenceValue, reference))) return value;
    BOOL isNull = 0;
    if (Failed(reference->IsNull(&isNull)) || isNull) return {};
    ComPtr<ICorDebugValue> target;
    if (Failed(reference->Dereference(target.Out()))) return {};
    value = target;
  }
  return value;
}

std::vector<std::string> TypeChain(ComPtr<ICorDebugValue> value) {
  std::vector<std::string> names;
  value = Dereference(value);
  ComPtr<ICorDebugValue2> typed;
  ComPtr<ICorDebugType> type;
  if (!value || Failed(value.As(IID_ICorDebugValue2, typed)) || Failed(typed->GetExactType(type.Out()))) return names;
  for (int depth = 0; type && depth < 32; ++depth) {
    ComPtr<ICorDebugClass> cls;
    if (Failed(type->GetClass(cls.Out())) || !cls) break;
    names.push_back(ClassName(cls.Get()));
    ComPtr<ICorDebugType> base;
    if (Failed(type->GetBase(base.Out()))) break;
    type = base;
  }
  return names;
}

bool ReadStringField(ComPtr<ICorDebugValue> value, const std::string& declaringType, const char16_t* field,
                     std::string& out) {
  value = Dereference(value);
  ComPtr<ICorDebugObjectValue> object;
  ComPtr<ICorDebugValue2> typed;
  if (!value || Failed(value.As(IID_ICorDebugObjectValue, object)) || Failed(value.As(IID_ICorDebugValue2, typed))) {
    return false;
  }
  ComPtr<ICorDebugType> type;
  if (Failed(typed->GetExactType(type.Out()))) return false;
  // Walk up the class hierarchy to the class that declares the field.
  for (int depth = 0; type && depth < 32; ++depth) {
    ComPtr<ICorDebugClass> cls;
    if (Failed(type->GetClass(cls.Out())) || !cls) return false;
    if (ClassName(cls.Get()) == declaringType) {
      mdTypeDef token = 0;
      auto metadata = MetadataOf(cls.Get(), token);
      mdToken fieldToken = 0;
      if (!metadata || Failed(metadata->FindField(token, field, nullptr, 0, &fieldToken))) return false;
      ComPtr<ICorDebugValue> fieldValue;
      if (Failed(object->GetFieldValue(cls.Get(), fieldToken, fieldValue.Out()))) return false;
      return ReadString(fieldValue, out);
    }
    ComPtr<ICorDebugType> base;
    if (Failed(type->GetBase(base.Out()))) return false;
    type = base;
  }
  return false;
}

}  // namespace dbg
