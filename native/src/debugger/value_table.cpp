#include "value_table.h"

namespace dbg {

ComPtr<ICorDebugValue> Target(ComPtr<ICorDebugValue> value, bool* boxed) {
  if (boxed) *boxed = false;
  for (int depth = 0; value && depth < 4; ++depth) {
    ComPtr<ICorDebugReferenceValue> reference;
    if (!Failed(value.As(IID_ICorDebugReferenceValue, reference))) {
      BOOL isNull = 0;
      if (Failed(reference->IsNull(&isNull)) || isNull) return {};
      ComPtr<ICorDebugValue> target;
      if (Failed(reference->Dereference(target.Out()))) return {};
      value = target;
      continue;
    }
    ComPtr<ICorDebugBoxValue> box;
    if (!Failed(value.As(IID_ICorDebugBoxValue, box))) {
      ComPtr<ICorDebugObjectValue> inner;
      if (Failed(box->GetObject(inner.Out())) || !inner) return {};
      if (boxed) *boxed = true;
      value = ComPtr<ICorDebugValue>::Retain(inner.Get());
      continue;
    }
    return value;
  }
  return value;
}

int ValueTable::Add(ComPtr<ICorDebugValue> value) {
  values_.push_back(std::move(value));
  return static_cast<int>(values_.size());
}

ComPtr<ICorDebugValue> ValueTable::Get(int handle) const {
  if (handle < 1 || static_cast<size_t>(handle) > values_.size()) return {};
  return values_[handle - 1];
}

void ValueTable::PinObjects() {
  for (auto& value : values_) {
    if (!value) continue;
    ComPtr<ICorDebugHandleValue> existing;
    if (!Failed(value.As(IID_ICorDebugHandleValue, existing))) continue;
    ComPtr<ICorDebugValue> object = value;
    ComPtr<ICorDebugReferenceValue> reference;
    if (!Failed(value.As(IID_ICorDebugReferenceValue, reference))) {
      BOOL isNull = 0;
      if (Failed(reference->IsNull(&isNull)) || isNull || Failed(reference->Dereference(object.Out()))) continue;
    }
    ComPtr<ICorDebugHeapValue2> heap;
    ComPtr<ICorDebugHandleValue> handle;
    if (Failed(object.As(IID_ICorDebugHeapValue2, heap)) || Failed(heap->CreateHandle(HANDLE_STRONG, handle.Out()))) continue;
    handles_.push_back(handle);
    value = ComPtr<ICorDebugValue>::Retain(handle.Get());
  }
}

namespace {
CORDB_ADDRESS AddressOf(const ComPtr<ICorDebugValue>& value) {
  ComPtr<ICorDebugReferenceValue> reference;
  CORDB_ADDRESS address = 0;
  if (value && !Failed(value.As(IID_ICorDebugReferenceValue, reference))) reference->GetValue(&address);
  else if (value) value->GetAddress(&address);
  return address;
}
}  // namespace

int KeptObjects::Keep(const ComPtr<ICorDebugValue>& value) {
  auto object = Target(value);
  ComPtr<ICorDebugHeapValue2> heap;
  ComPtr<ICorDebugHandleValue> handle;
  if (!object || Failed(object.As(IID_ICorDebugHeapValue2, heap)) || Failed(heap->CreateHandle(HANDLE_STRONG, handle.Out()))) return 0;
  handles_.emplace_back(next_, handle);
  return next_++;
}

void KeptObjects::Drop(int id) {
  for (auto it = handles_.begin(); it != handles_.end(); ++it) {
    if (it->first != id) continue;
    it->second->Dispose();
    handles_.erase(it);
    return;
  }
}

bool KeptObjects::Same(int id, const ComPtr<ICorDebugValue>& value) const {
  for (const auto& [kept, handle] : handles_) {
    if (kept != id) continue;
    CORDB_ADDRESS address = AddressOf(value);
    return address != 0 && address == AddressOf(ComPtr<ICorDebugValue>::Retain(handle.Get()));
  }
  return false;
}

void KeptObjects::Clear() {
  for (auto& [id, handle] : handles_) handle->Dispose();
  handles_.clear();
}

void ValueTable::Clear() {
  for (auto& handle : handles_) handle->Dispose();
  handles_.clear();
  values_.clear();
}

}  // namespace dbg
