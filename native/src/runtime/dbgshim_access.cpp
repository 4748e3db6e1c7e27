// Runtime access through a real dbgshim (the Microsoft.Diagnostics.DbgShim package).
// UNVERIFIED: no libdbgshim exists on the machines this was written on; signatures follow dbgshim.h.
#include <condition_variable>
#include <mutex>
#include <vector>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"
#include "../platform/dynlib.h"
#include "../util/utf.h"
#include "runtime_access.h"

namespace dbg {

namespace {

using StartupCallback = void (*)(IUnknown* cordebug, void* parameter, HRESULT hr);
using RegisterForRuntimeStartupFn = HRESULT (*)(DWORD pid, StartupCallback callback, void* parameter, void** token);
using UnregisterForRuntimeStartupFn = HRESULT (*)(void* token);
using EnumerateCLRsFn = HRESULT (*)(DWORD pid, void*** handles, WCHAR*** paths, DWORD* count);
using CloseCLREnumerationFn = HRESULT (*)(void** handles, WCHAR** paths, DWORD count);
using CreateVersionStringFromModuleFn = HRESULT (*)(DWORD pid, const WCHAR* module, WCHAR* buffer, DWORD size, DWORD* length);
using CreateDebuggingInterfaceFromVersionExFn = HRESULT (*)(int version, const WCHAR* runtimeVersion, IUnknown** cordebug);

/** The startup callback arrives on dbgshim's thread: it hands the ICorDebug over and waits until attached. */
struct StartupRendezvous {
  std::mutex mutex;
  std::condition_variable changed;
  ComPtr<IUnknown> cordebug;
  HRESULT hr = S_OK;
  bool arrived = false;
  bool attached = false;

  static void OnStartup(IUnknown* cordebug, void* parameter, HRESULT hr) {
    auto* self = static_cast<StartupRendezvous*>(parameter);
    std::unique_lock<std::mutex> lock(self->mutex);
    self->cordebug = ComPtr<IUnknown>::Retain(cordebug);
    self->hr = hr;
    self->arrived = true;
    self->changed.notify_all();
    // dbgshim lets the runtime go on when this returns: wait (bounded) for the attach first.
    self->changed.wait_for(lock, std::chrono::seconds(30), [self] { return self->attached; });
  }
};

class DbgShimAccess final : public RuntimeAccess {
 public:
  explicit DbgShimAccess(void* library) : library_(library) {}
  const char* Name() const override { return "dbgshim"; }

  Status AttachAtStartup(uint32_t pid, int timeoutMs, const std::function<void()>& resume,
                         const AttachStep& attach) override {
    if (!resume) return Status::Fail("BAD_LAUNCH", "dbgshim makes its own startup handshake: the program must wait for it");
    auto registerFn = reinterpret_cast<RegisterForRuntimeStartupFn>(FindSymbol(library_, "RegisterForRuntimeStartup"));
    auto unregisterFn = reinterpret_cast<UnregisterForRuntimeStartupFn>(FindSymbol(library_, "UnregisterForRuntimeStartup"));
    if (!registerFn || !unregisterFn) return Status::Fail("DBGSHIM_INVALID", "dbgshim lacks RegisterForRuntimeStartup");
    auto rendezvous = std::make_shared<StartupRendezvous>();
    void* token = nullptr;
    HRESULT hr = registerFn(pid, &StartupRendezvous::OnStartup, rendezvous.get(), &token);
    if (Failed(hr)) return Status::Fail("DBGSHIM_FAILED", "RegisterForRuntimeStartup failed", hr);
    resume();
    Status status;
    {
      std::unique_lock<std::mutex> lock(rendezvous->mutex);
      if (!rendezvous->changed.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return rendezvous->arrived; })) {
        status = Status::Fail("RUNTIME_STARTUP_TIMEOUT", "the program's .NET runtime did not start in time");
      } else if (Failed(rendezvous->hr) || !rendezvous->cordebug) {
        status = Status::Fail("DBGSHIM_FAILED", "dbgshim could not create ICorDebug for the program", rendezvous->hr);
      }
    }
    if (status.Ok()) status = attach(rendezvous->cordebug.Get());
    {
      std::lock_guard<std::mutex> lock(rendezvous->mutex);
      rendezvous->attached = true;
      rendezvous->changed.notify_all();
    }
    unregisterFn(token);
    return status;
  }

  Status AttachRunning(uint32_t pid, int /*timeoutMs*/, const AttachStep& attach) override {
    auto enumerate = reinterpret_cast<EnumerateCLRsFn>(FindSymbol(library_, "EnumerateCLRs"));
    auto close = reinterpret_cast<CloseCLREnumerationFn>(FindSymbol(library_, "CloseCLREnumeration"));
    auto version = reinterpret_cast<CreateVersionStringFromModuleFn>(FindSymbol(library_, "CreateVersionStringFromModule"));
    auto create = reinterpret_cast<CreateDebuggingInterfaceFromVersionExFn>(
        FindSymbol(library_, "CreateDebuggingInterfaceFromVersionEx"));
    if (!enumerate || !close || !version || !create) return Status::Fail("DBGSHIM_INVALID", "dbgshim lacks the attach exports");
    void** handles = nullptr;
    WCHAR** paths = nullptr;
    DWORD count = 0;
    HRESULT hr = enumerate(pid, &handles, &paths, &count);
    if (Failed(hr) || count == 0) return Status::Fail("RUNTIME_NOT_FOUND", "no .NET runtime found in the process", hr);
    std::vector<WCHAR> buffer(256);
    DWORD length = 0;
    hr = version(pid, paths[0], buffer.data(), static_cast<DWORD>(buffer.size()), &length);
    close(handles, paths, count);
    if (Failed(hr)) return Status::Fail("DBGSHIM_FAILED", "CreateVersionStringFromModule failed", hr);
    ComPtr<IUnknown> cordebug;
    hr = create(CorDebugVersion_4_0, buffer.data(), cordebug.Out());
    if (Failed(hr)) return Status::Fail("CORDEBUG_CREATE_FAILED", "CreateDebuggingInterfaceFromVersionEx failed", hr);
    return attach(cordebug.Get());
  }

 private:
  void* library_;  // never unloaded
};

}  // namespace

std::unique_ptr<RuntimeAccess> CreateDbgShimAccess(const std::string& path, std::string& error) {
  void* library = OpenLibrary(path, error);
  if (!library) return nullptr;
  return std::make_unique<DbgShimAccess>(library);
}

}  // namespace dbg
