// The addon's own runtime access on Linux, for machines without libdbgshim: the same steps dbgshim
// takes (startup semaphores, find libcoreclr in the target, load libmscordbi beside it, create ICorDebug).
#include <sys/stat.h>

#include "../com/com_ptr.h"
#include "../platform/linux/proc.h"
#include "../platform/linux/startup_semaphores.h"
#include "../util/log.h"
#include "dbi_loader.h"
#include "runtime_access.h"

namespace dbg {

namespace {

bool Exists(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}

std::string Directory(const std::string& path) { return path.substr(0, path.rfind('/')); }

/** Finds the runtime and the debugger pipes of a process whose runtime is up, then attaches. */
Status CreateAndAttach(uint32_t pid, uint64_t key, const AttachStep& attach) {
  auto coreclr = linux_proc::FindCoreClr(pid);
  if (coreclr.path.empty()) {
    return Status::Fail("RUNTIME_NOT_FOUND", "no libcoreclr.so is mapped in process " + std::to_string(pid) +
                                                 " (is it a .NET process, and is /proc/<pid>/maps readable?)");
  }
  std::string pipe = linux_proc::TransportPipe(pid, key, "in");
  if (!Exists(pipe)) {
    return Status::Fail("TRANSPORT_NOT_FOUND",
                        "the runtime's debugger pipe " + pipe +
                            " does not exist: debugging is disabled in the target (DOTNET_EnableDiagnostics=0) "
                            "or it runs with a different TMPDIR than the debugger");
  }
  ComPtr<IUnknown> cordebug;
  Status created = CreateCordebugFromDbi(Directory(coreclr.path), pid, coreclr.base, cordebug.Out());
  if (!created.Ok()) return created;
  StartupMark("dbiLoaded");
  Status attached = attach(cordebug.Get());
  StartupMark("attached");
  return attached;
}

class OwnLinuxAccess final : public RuntimeAccess {
 public:
  const char* Name() const override { return "own-linux"; }

  Status AttachAtStartup(uint32_t pid, int timeoutMs, const std::function<void()>& resume,
                         const AttachStep& attach) override {
    uint64_t key = linux_proc::StartTime(pid);
    StartupSemaphores semaphores(pid, key);
    Status status = resume ? semaphores.Create() : semaphores.Open();
    if (!status.Ok()) return status;
    if (resume) resume();
    StartupMark("resumed");
    status = semaphores.WaitForStartup(timeoutMs);
    if (!status.Ok()) return status;
    StartupMark("runtimeStarted");
    Log("runtime of pid %u started (key %llu)", pid, static_cast<unsigned long long>(key));
    status = CreateAndAttach(pid, key, attach);
    semaphores.PostContinue();
    return status;
  }

  Status AttachRunning(uint32_t pid, int /*timeoutMs*/, const AttachStep& attach) override {
    if (!linux_proc::IsAlive(pid)) return Status::Fail("NO_PROCESS", "there is no process " + std::to_string(pid));
    return CreateAndAttach(pid, linux_proc::StartTime(pid), attach);
  }
};

}  // namespace

std::unique_ptr<RuntimeAccess> CreateOwnRuntimeAccess() { return std::make_unique<OwnLinuxAccess>(); }

}  // namespace dbg
