// One debuggee as seen from the debugger thread: owns the ICorDebug objects, turns callbacks into
// events for JavaScript, and keeps the stop state: which callback is held, whether a pause is in
// force. Every method runs on the debugger thread (commands are queued by the addon, callbacks by
// ManagedCallback). The decisions (what a breakpoint means, whether a step is done) are JavaScript's.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../runtime/status.h"
#include "breakpoint_table.h"
#include "callback_handler.h"
#include "managed_callback.h"
#include "module_table.h"
#include "eval_runner.h"
#include "step_controller.h"
#include "value_table.h"
#include "work_queue.h"

namespace dbg {

struct SessionOptions {
  /** Hold the process at exceptions thrown in (or entering) the user's code, for JavaScript to decide. */
  bool stopOnFirstChance = false;
  bool stopOnUnhandled = true;
  /** LoadModule holds the process until JavaScript continues (to read symbols and bind breakpoints first). */
  bool holdModuleLoads = false;
};

/**
 * The process is stopped while a callback is held (at most one: ICorDebug dispatches the next only
 * after Continue) or while a pause is in force. Each needs its own Continue.
 */
struct StopState {
  Controller heldCallback;
  bool paused = false;
  bool Stopped() const { return static_cast<bool>(heldCallback) || paused; }
};

class DebugSession final : public CallbackHandler {
 public:
  using EventSink = std::function<void(std::string json)>;
  DebugSession(std::shared_ptr<WorkQueue> queue, EventSink sink);
  ~DebugSession() override;

  /**
   * `resume`: how the suspended debuggee is let go (platform/spawn.h ResumeSpawned); < 0 when the
   * launcher prepared the startup handshake and the program runs already (Linux).
   */
  Status AttachAtStartup(uint32_t pid, int resume, int timeoutMs, const std::string& dbgshimPath, std::string& access);
  Status AttachRunning(uint32_t pid, int timeoutMs, const std::string& dbgshimPath, std::string& access);
  SessionOptions& Options() { return options_; }
  /** Lets the process run: releases the held callback and the pause. Answers whether it was stopped. */
  Status Continue(bool& wasStopped);
  /** Lets the held callback go (a module load handled, a breakpoint whose condition is false); a pause stays. */
  Status Release(bool& released);
  Status Pause(bool& wasRunning);
  /** Runs `read` with the process synchronized: stops it briefly when it runs. */
  Status WithProcessStopped(const std::function<Status()>& read);
  Status Detach();
  void Close();

  bool Exited() const { return exited_; }
  bool Stopped() const { return stop_.Stopped(); }
  ICorDebugProcess* Process() const { return process_.Get(); }
  Status Thread(uint32_t threadId, ComPtr<ICorDebugThread>& thread) const;
  ModuleTable& Modules() { return modules_; }
  BreakpointTable& Breakpoints() { return breakpoints_; }
  StepController& Stepper() { return stepper_; }
  ValueTable& Values() { return values_; }
  KeptObjects& Kept() { return kept_; }
  const ModuleTable& ModulesView() const { return modules_; }
  /** Starts a func-eval on `thread` and lets the process run it; `reply` is answered when it ends. */
  Status Evaluate(ICorDebugThread* thread, const EvalRunner::Begin& begin, Reply reply, EvalRunner::Finish finish = {});
  /**
   * Past its timeout, as Visual Studio does: the other threads run again (the evaluated code may wait
   * on a timer or a task they run), then the evaluation is aborted; `rude` when a plain abort did not end it.
   * `waiting`: its thread sleeps, waits or joins, where the abort may take effect only when the wait ends.
   */
  Status AbortEvaluation(bool rude, bool& waiting);
  /** Longest string text a value description carries. */
  static constexpr uint32_t kMaxStringChars = 100000;

  // CallbackHandler
  void OnCreateProcess(ComPtr<ICorDebugProcess> process) override;
  void OnExitProcess() override;
  void OnCreateAppDomain(ComPtr<ICorDebugAppDomain> appDomain) override;
  void OnCreateThread(Controller owner, ComPtr<ICorDebugThread> thread) override;
  void OnExitThread(Controller owner, ComPtr<ICorDebugThread> thread) override;
  void OnLoadModule(Controller owner, ComPtr<ICorDebugModule> module) override;
  void OnUnloadModule(Controller owner, ComPtr<ICorDebugModule> module) override;
  void OnUserBreak(Controller owner, ComPtr<ICorDebugThread> thread) override;
  void OnBreakpoint(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugBreakpoint> breakpoint) override;
  void OnStepComplete(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugStepper> stepper,
                      CorDebugStepReason reason) override;
  void OnException(Controller owner, ComPtr<ICorDebugThread> thread, CorDebugExceptionCallbackType kind,
                   ComPtr<ICorDebugFrame> frame, ULONG32 offset) override;
  void OnEvalComplete(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugEval> eval, bool threw) override;
  void OnLogMessage(Controller owner, std::string message) override;
  void OnRemapOpportunity(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugFunction> oldFunction,
                          ComPtr<ICorDebugFunction> newFunction, ULONG32 oldILOffset) override;
  void OnRemapComplete(Controller owner, ComPtr<ICorDebugThread> thread) override;
  void OnDebuggerError(HRESULT hr, DWORD code) override;
  void OnIgnored(Controller owner, const char* name) override;

 private:
  Status AttachWith(IUnknown* cordebug, uint32_t pid);
  Status SelectAccess(const std::string& dbgshimPath, std::unique_ptr<class RuntimeAccess>& access);
  void Resume(const Controller& owner);
  void EmitBreakpoint(int id, ICorDebugThread* thread);
  /**
   * Reports a breakpoint another thread reached just before an evaluation began (its callback came
   * during the evaluation, which had to go on) instead of letting the process run: that thread is
   * still at the breakpoint. False when none is left to report.
   */
  bool ReportDeferredHit();
  /** A hit of breakpoint `id` whose filter finds its condition false: it need not reach JavaScript. */
  bool FilteredOut(int id, ICorDebugThread* thread);
  /** A module of the shared framework's folder, with no symbols beside it: not held when it loads. */
  bool IsFrameworkModule(const std::string& path);
  /** Keeps the process stopped in the current callback until JavaScript continues. */
  void Hold(const Controller& owner);
  /** Before the process may run: its cached memory is forgotten (see debuggee_memory_cache.h). */
  void Running();
  void Emit(const std::string& json) { sink_(json); }
  void Forget();
  /** Lets the process run (releasing the held callback and the pause), values kept: for a func-eval. */
  Status ReleaseAll();

  std::shared_ptr<WorkQueue> queue_;
  EventSink sink_;
  SessionOptions options_;
  ComPtr<ICorDebug> cordebug_;
  ComPtr<ICorDebugProcess> process_;
  ManagedCallback* callback_ = nullptr;
  StopState stop_;
  uint32_t pid_ = 0;
  bool exited_ = false;
  bool detached_ = false;
  ModuleTable modules_;
  std::string frameworkDir_;
  /** The framework library's metadata was read into mscordbi (OnLoadModule). */
  bool frameworkMetadataRead_ = false;
  BreakpointTable breakpoints_;
  StepController stepper_;
  ValueTable values_;
  KeptObjects kept_;
  EvalRunner eval_;
  /** Breakpoint hits of other threads that arrived during an evaluation: (breakpoint id, thread id). */
  std::vector<std::pair<int, DWORD>> deferredHits_;
};

}  // namespace dbg
