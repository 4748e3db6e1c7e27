// RAII owner of one COM reference. Copy = AddRef, destruction = Release, so a closure queued for the
// debugger thread keeps the objects a callback handed us alive until the thread is done with them.
#pragma once

#include <utility>

#include "com.h"

namespace dbg {

template <typename T>
class ComPtr {
 public:
  ComPtr() = default;
  /** Takes over a reference the caller already owns (e.g. an out-parameter). */
  static ComPtr Adopt(T* raw) { ComPtr p; p.ptr_ = raw; return p; }
  /** Adds a reference of its own (e.g. to a callback argument the runtime still owns). */
  static ComPtr Retain(T* raw) { if (raw) raw->AddRef(); return Adopt(raw); }

  ComPtr(const ComPtr& other) : ptr_(other.ptr_) { if (ptr_) ptr_->AddRef(); }
  ComPtr(ComPtr&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  ComPtr& operator=(ComPtr other) noexcept { std::swap(ptr_, other.ptr_); return *this; }
  ~ComPtr() { Reset(); }

  void Reset() { if (ptr_) std::exchange(ptr_, nullptr)->Release(); }
  T* Get() const { return ptr_; }
  T* operator->() const { return ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }

  /** The address of the slot for an out-parameter; the slot must be empty. */
  T** Out() { Reset(); return &ptr_; }
  void** OutVoid() { return reinterpret_cast<void**>(Out()); }

  template <typename U>
  HRESULT As(REFIID iid, ComPtr<U>& out) const {
    if (!ptr_) return E_POINTER;
    return ptr_->QueryInterface(iid, out.OutVoid());
  }

 private:
  T* ptr_ = nullptr;
};

}  // namespace dbg
