#include "debug_session.h"

#include "../cordebug/cordebug_errors.h"
#include "../platform/spawn.h"
#include "../runtime/debuggee_memory_cache.h"
#include "../runtime/runtime_access.h"
#include "../util/hresult.h"
#include "../util/log.h"

namespace dbg {

DebugSession::DebugSession(std::shared_ptr<WorkQueue> queue, EventSink sink)
    : queue_(std::move(queue)), sink_(std::move(sink)) {}

DebugSession::~DebugSession() { Close(); }

Status DebugSession::SelectAccess(const std::string& dbgshimPath, std::unique_ptr<RuntimeAccess>& access) {
  if (!dbgshimPath.empty()) {
    std::string error;
    access = CreateDbgShimAccess(dbgshimPath, error);
    if (!access) return Status::Fail("DBGSHIM_LOAD_FAILED", "cannot load dbgshim " + dbgshimPath + ": " + error);
    return Status::Success();
  }
  access = CreateOwnRuntimeAccess();
  if (!access) {
    return Status::Fail("DBGSHIM_REQUIRED",
                        "this platform needs libdbgshim (NuGet package Microsoft.Diagnostics.DbgShim); set DBGSHIM_PATH");
  }
  return Status::Success();
}

Status DebugSession::AttachWith(IUnknown* unknown, uint32_t pid) {
  ComPtr<ICorDebug> cordebug;
  HRESULT hr = unknown->QueryInterface(IID_ICorDebug, cordebug.OutVoid());
  if (Failed(hr)) return Status::Fail("CORDEBUG_CREATE_FAILED", "the runtime's object is not ICorDebug", hr);
  hr = cordebug->Initialize();
  if (Failed(hr)) return Status::Fail("CORDEBUG_CREATE_FAILED", "ICorDebug::Initialize failed", hr);
  if (!callback_) callback_ = new ManagedCallback(queue_, this);
  hr = cordebug->SetManagedHandler(static_cast<ICorDebugManagedCallback*>(callback_));
  if (Failed(hr)) return Status::Fail("CORDEBUG_CREATE_FAILED", "ICorDebug::SetManagedHandler failed", hr);
  ComPtr<ICorDebugProcess> process;
  hr = cordebug->DebugActiveProcess(pid, 0, process.Out());
  cordebug_ = cordebug;
  if (Failed(hr)) {
    return Status::Fail("ATTACH_FAILED", "ICorDebug::DebugActiveProcess failed for process " + std::to_string(pid), hr);
  }
  process_ = process;
  pid_ = pid;
  debuggee_memory::InstallHooks();
  return Status::Success();
}

Status DebugSession::AttachAtStartup(uint32_t pid, int resume, int timeoutMs, const std::string& dbgshimPath,
                                     std::string& accessName) {
  bool resumed = false;
  auto letRun = [&] {
    if (resumed) return;
    resumed = true;
    ResumeSpawned(resume);
  };
  ResetStartupMarks();
  StartupMark("attachCalled");
  std::unique_ptr<RuntimeAccess> access;
  Status status = SelectAccess(dbgshimPath, access);
  if (status.Ok()) {
    Log("launch attach to pid %u through %s", pid, access->Name());
    accessName = access->Name();
    status = access->AttachAtStartup(pid, timeoutMs, resume >= 0 ? std::function<void()>(letRun) : std::function<void()>(),
                                     [this, pid](IUnknown* cordebug) { return AttachWith(cordebug, pid); });
  }
  // Never leave the debuggee blocked before exec: on POSIX the pipe closing without the byte makes it exit.
  if (!resumed) AbandonResume(resume);
  return status;
}

Status DebugSession::AttachRunning(uint32_t pid, int timeoutMs, const std::string& dbgshimPath, std::string& accessName) {
  std::unique_ptr<RuntimeAccess> access;
  Status status = SelectAccess(dbgshimPath, access);
  if (!status.Ok()) return status;
  accessName = access->Name();
  return access->AttachRunning(pid, timeoutMs, [this, pid](IUnknown* cordebug) { return AttachWith(cordebug, pid); });
}

Status DebugSession::Thread(uint32_t threadId, ComPtr<ICorDebugThread>& thread) const {
  if (!process_ || exited_) return Status::Fail("NOT_RUNNING", "the process has exited");
  HRESULT hr = process_->GetThread(threadId, thread.Out());
  if (Failed(hr) || !thread) return Status::Fail("NO_THREAD", "no managed thread " + std::to_string(threadId), hr);
  return Status::Success();
}

// ---- the stop state ----

void DebugSession::Resume(const Controller& owner) {
  if (exited_ || detached_) return;
  Running();
  HRESULT hr = owner ? owner->Continue(0) : (process_ ? process_->Continue(0) : E_POINTER);
  if (Failed(hr) && hr != CORDBG_E_PROCESS_TERMINATED) LogFailure("Continue", hr, __FILE__, __LINE__);
}

void DebugSession::Hold(const Controller& owner) {
  if (stop_.heldCallback) {
    // ICorDebug dispatches one callback at a time; a second one means the first was continued
    // behind our back. Release it rather than owing a Continue forever.
    Log("a callback was already held; releasing it");
    Resume(stop_.heldCallback);
  }
  stop_.heldCallback = owner ? owner : Controller::Retain(process_.Get());
  debuggee_memory::Enable(pid_);
}

void DebugSession::Running() { debuggee_memory::Disable(pid_); }

Status DebugSession::ReleaseAll() {
  Running();
  if (stop_.heldCallback) {
    Controller owner = stop_.heldCallback;
    stop_.heldCallback.Reset();
    HRESULT hr = owner->Continue(0);
    if (Failed(hr)) return Status::Fail("CONTINUE_FAILED", "ICorDebugController::Continue failed", hr);
  }
  if (stop_.paused) {
    stop_.paused = false;
    HRESULT hr = process_->Continue(0);
    if (Failed(hr)) return Status::Fail("CONTINUE_FAILED", "ICorDebugProcess::Continue failed", hr);
  }
  return Status::Success();
}

Status DebugSession::Continue(bool& wasStopped) {
  wasStopped = stop_.Stopped();
  if (exited_) return Status::Fail("NOT_RUNNING", "the process has exited");
  if (!process_) return Status::Fail("NOT_ATTACHED", "no process is attached");
  if (eval_.Running()) return Status::Fail("EVAL_BUSY", "an evaluation is running");
  values_.Clear();
  if (stop_.heldCallback && !deferredHits_.empty()) {
    if (stop_.paused) {
      stop_.paused = false;  // one Continue for the pause; the held callback keeps the process stopped
      HRESULT hr = process_->Continue(0);
      if (Failed(hr)) return Status::Fail("CONTINUE_FAILED", "ICorDebugProcess::Continue failed", hr);
    }
    if (ReportDeferredHit()) return Status::Success();
  }
  return ReleaseAll();
}

Status DebugSession::Evaluate(ICorDebugThread* thread, const EvalRunner::Begin& begin, Reply reply, EvalRunner::Finish finish) {
  if (exited_ || !process_) return Status::Fail("NOT_RUNNING", "the process has exited");
  if (!stop_.Stopped()) return Status::Fail("NOT_STOPPED", "evaluation needs the program stopped");
  // Values read so far must survive the run: object references become GC handles.
  values_.PinObjects();
  Status status = eval_.Start(process_.Get(), thread, begin, std::move(reply), std::move(finish));
  if (!status.Ok()) return status;
  return ReleaseAll();
}

Status DebugSession::AbortEvaluation(bool rude, bool& waiting) {
  waiting = false;
  if (!eval_.Running()) return Status::Success();
  return WithProcessStopped([&] {
    eval_.ResumeOthers();
    waiting = eval_.Waiting(process_.Get());
    return eval_.Abort("the evaluation did not finish in time and was aborted", rude);
  });
}

Status DebugSession::Release(bool& released) {
  released = static_cast<bool>(stop_.heldCallback);
  if (exited_ || !released) return Status::Success();
  values_.Clear();
  if (ReportDeferredHit()) return Status::Success();  // the held callback now stands for that hit
  Controller owner = stop_.heldCallback;
  stop_.heldCallback.Reset();
  Running();
  HRESULT hr = owner->Continue(0);
  if (Failed(hr)) return Status::Fail("CONTINUE_FAILED", "ICorDebugController::Continue failed", hr);
  if (stop_.paused) debuggee_memory::Enable(pid_);  // the pause still holds it
  return Status::Success();
}

Status DebugSession::Pause(bool& wasRunning) {
  wasRunning = !stop_.Stopped();
  if (exited_) return Status::Fail("NOT_RUNNING", "the process has exited");
  if (!process_) return Status::Fail("NOT_ATTACHED", "no process is attached");
  // A held callback the JavaScript side is still handling (a module load) will be released: the
  // pause must outlast it, so it takes a stop of its own.
  if (stop_.paused) return Status::Success();
  HRESULT hr = process_->Stop(0);
  if (Failed(hr)) return Status::Fail("PAUSE_FAILED", "ICorDebugProcess::Stop failed", hr);
  stop_.paused = true;
  debuggee_memory::Enable(pid_);
  return Status::Success();
}

Status DebugSession::WithProcessStopped(const std::function<Status()>& read) {
  if (exited_) return Status::Fail("NOT_RUNNING", "the process has exited");
  if (!process_) return Status::Fail("NOT_ATTACHED", "no process is attached");
  if (stop_.Stopped()) return read();
  HRESULT hr = process_->Stop(0);
  if (Failed(hr)) return Status::Fail("PAUSE_FAILED", "ICorDebugProcess::Stop failed", hr);
  debuggee_memory::Enable(pid_);
  Status status = read();
  Running();
  process_->Continue(0);
  return status;
}

Status DebugSession::Detach() {
  if (exited_ || !process_) return Status::Success();
  stepper_.Cancel();
  breakpoints_.Clear();
  if (!stop_.Stopped()) {
    HRESULT hr = process_->Stop(0);
    if (Failed(hr)) return Status::Fail("DETACH_FAILED", "ICorDebugProcess::Stop before detach failed", hr);
    stop_.paused = true;
  }
  Running();
  HRESULT hr = process_->Detach();
  if (Failed(hr)) return Status::Fail("DETACH_FAILED", "ICorDebugProcess::Detach failed", hr);
  detached_ = true;
  Forget();
  if (cordebug_) cordebug_->Terminate();
  cordebug_.Reset();
  return Status::Success();
}

void DebugSession::Forget() {
  Running();
  eval_.Fail("the debugger detached during the evaluation");
  values_.Clear();
  kept_.Clear();
  stop_ = StopState{};
  deferredHits_.clear();
  stepper_ = StepController{};
  breakpoints_.Clear();
  modules_.Clear();
  process_.Reset();
}

void DebugSession::Close() {
  Forget();
  if (cordebug_) {
    HRESULT hr = cordebug_->Terminate();
    if (Failed(hr)) Log("ICorDebug::Terminate: 0x%08x", static_cast<unsigned>(hr));
    cordebug_.Reset();
  }
  if (callback_) {
    static_cast<ICorDebugManagedCallback*>(callback_)->Release();
    callback_ = nullptr;
  }
}

}  // namespace dbg
