// One debuggee as seen from the debugger thread: owns the ICorDebug objects, turns callbacks into
// events for JavaScript, and decides which callbacks hold the process stopped. Every method runs on
// the debugger thread (commands are queued by the addon, callbacks by ManagedCallback).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "../runtime/status.h"
#include "callback_handler.h"
#include "managed_callback.h"
#include "work_queue.h"

namespace dbg {

struct CommandResult {
  Status status;
  std::string json = "null";  // the result for JavaScript, as JSON text
};

struct SessionOptions {
  bool stopOnFirstChance = false;
  bool stopOnUnhandled = true;
  /** LoadModule holds the process until JavaScript continues (to bind breakpoints first). */
  bool holdModuleLoads = false;
  /** Ask the JIT for debuggable code in modules outside the framework folder. */
  bool disableUserOptimizations = true;
};

class DebugSession final : public CallbackHandler {
 public:
  using EventSink = std::function<void(std::string json)>;
  DebugSession(std::shared_ptr<WorkQueue> queue, EventSink sink);
  ~DebugSession() override;

  CommandResult AttachAtStartup(uint32_t pid, int resumeFd, int timeoutMs, const std::string& dbgshimPath);
  CommandResult AttachRunning(uint32_t pid, int timeoutMs, const std::string& dbgshimPath);
  CommandResult Continue();
  CommandResult Pause(int timeoutMs);
  CommandResult Threads(int timeoutMs);
  CommandResult Detach(int timeoutMs);
  CommandResult Configure(const SessionOptions& options);
  void Close();

  // CallbackHandler
  void OnCreateProcess(ComPtr<ICorDebugProcess> process) override;
  void OnExitProcess() override;
  void OnCreateAppDomain(ComPtr<ICorDebugAppDomain> appDomain) override;
  void OnCreateThread(Controller owner, ComPtr<ICorDebugThread> thread) override;
  void OnExitThread(Controller owner, ComPtr<ICorDebugThread> thread) override;
  void OnLoadModule(Controller owner, ComPtr<ICorDebugModule> module) override;
  void OnUnloadModule(Controller owner, ComPtr<ICorDebugModule> module) override;
  void OnUserBreak(Controller owner, ComPtr<ICorDebugThread> thread) override;
  void OnException(Controller owner, ComPtr<ICorDebugThread> thread, CorDebugExceptionCallbackType kind) override;
  void OnLogMessage(Controller owner, std::string message) override;
  void OnDebuggerError(HRESULT hr, DWORD code) override;
  void OnIgnored(Controller owner, const char* name) override;

 private:
  Status AttachWith(IUnknown* cordebug, uint32_t pid);
  Status SelectAccess(const std::string& dbgshimPath, std::unique_ptr<class RuntimeAccess>& access);
  void Resume(const Controller& owner);
  /** Keeps the process stopped in the current callback until JavaScript continues. */
  void Hold() { ++owedContinues_; }
  CommandResult ThreadList();
  void Emit(const std::string& json) { sink_(json); }

  std::shared_ptr<WorkQueue> queue_;
  EventSink sink_;
  SessionOptions options_;
  ComPtr<ICorDebug> cordebug_;
  ComPtr<ICorDebugProcess> process_;
  ManagedCallback* callback_ = nullptr;
  int owedContinues_ = 0;  // Continue calls owed for held callbacks and Stop()
  bool exited_ = false;
  bool detached_ = false;
  int nextModuleHandle_ = 1;
  std::map<int, ComPtr<ICorDebugModule>> modules_;
  std::string frameworkDir_;
};

}  // namespace dbg
