// The addon's own runtime access on Windows, for machines without dbgshim.dll: the same steps dbgshim
// takes there (the startup events, coreclr.dll found in the target, mscordbi.dll loaded from beside it,
// ICorDebug created for the process). The Win32 calls live in platform/windows/.
#include "../com/com_ptr.h"
#include "../platform/windows/process.h"
#include "../platform/windows/startup_events.h"
#include "../util/log.h"
#include "dbi_loader.h"
#include "runtime_access.h"

namespace dbg {

namespace {

std::string Directory(const std::string& path) { return path.substr(0, path.find_last_of("\\/")); }

Status FromOutcome(const windows::StepOutcome& outcome) {
  return outcome.Ok() ? Status::Success() : Status::Fail(outcome.code, outcome.message);
}

Status CreateAndAttach(uint32_t pid, const windows_proc::LoadedModule& coreclr, const AttachStep& attach) {
  ComPtr<IUnknown> cordebug;
  Status created = CreateCordebugFromDbi(Directory(coreclr.path), pid, coreclr.base, cordebug.Out());
  if (!created.Ok()) return created;
  return attach(cordebug.Get());
}

Status RuntimeNotFound(uint32_t pid) {
  return Status::Fail("RUNTIME_NOT_FOUND", "no coreclr.dll is loaded in process " + std::to_string(pid) +
                                               " (is it a .NET process, and may this user open it?)");
}

class OwnWindowsAccess final : public RuntimeAccess {
 public:
  const char* Name() const override { return "own-windows"; }

  Status AttachAtStartup(uint32_t pid, int timeoutMs, const std::function<void()>& resume,
                         const AttachStep& attach) override {
    windows::StartupEvents events(pid);
    Status status = FromOutcome(events.Create());
    if (!status.Ok()) return status;
    resume();
    status = FromOutcome(events.WaitForStartup(timeoutMs));
    if (!status.Ok()) return status;
    auto coreclr = windows_proc::FindCoreClr(pid);
    if (coreclr.path.empty()) return RuntimeNotFound(pid);
    Log("runtime of pid %u started (coreclr at 0x%llx)", pid, static_cast<unsigned long long>(coreclr.base));
    status = CreateAndAttach(pid, coreclr, attach);
    Status continued = FromOutcome(events.Continue(coreclr.base));
    return status.Ok() ? continued : status;
  }

  Status AttachRunning(uint32_t pid, int /*timeoutMs*/, const AttachStep& attach) override {
    if (!windows_proc::IsAlive(pid)) return Status::Fail("NO_PROCESS", "there is no process " + std::to_string(pid));
    auto coreclr = windows_proc::FindCoreClr(pid);
    if (coreclr.path.empty()) return RuntimeNotFound(pid);
    return CreateAndAttach(pid, coreclr, attach);
  }
};

}  // namespace

std::unique_ptr<RuntimeAccess> CreateOwnRuntimeAccess() { return std::make_unique<OwnWindowsAccess>(); }

}  // namespace dbg
