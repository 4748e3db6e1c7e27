#include "eval_runner.h"

#include "../cordebug/cordebug_errors.h"
#include "../util/json.h"
#include "value_json.h"

namespace dbg {

Status EvalRunner::Start(ICorDebugProcess* process, ICorDebugThread* thread, const Begin& begin, Reply reply, Finish finish) {
  if (Running()) return Status::Fail("EVAL_BUSY", "another evaluation is running");
  ComPtr<ICorDebugEval> eval;
  HRESULT hr = thread->CreateEval(eval.Out());
  if (Failed(hr)) return Status::Fail("EVAL_FAILED", "ICorDebugThread::CreateEval failed", hr);
  hr = begin(eval.Get());
  if (hr == CORDBG_E_ILLEGAL_AT_GC_UNSAFE_POINT || hr == CORDBG_E_ILLEGAL_IN_PROLOG || hr == CORDBG_E_ILLEGAL_IN_NATIVE_CODE ||
      hr == CORDBG_E_FUNC_EVAL_BAD_START_POINT || hr == CORDBG_E_ILLEGAL_IN_OPTIMIZED_CODE) {
    return Status::Fail("EVAL_IMPOSSIBLE", "the program is stopped where code cannot run for an evaluation (native code, a prolog or an unsafe point)", hr);
  }
  if (Failed(hr)) return Status::Fail("EVAL_FAILED", "the runtime refused the evaluation", hr);
  DWORD evalThread = 0;
  thread->GetID(&evalThread);
  ComPtr<ICorDebugThreadEnum> threads;
  if (!Failed(process->EnumerateThreads(threads.Out())) && threads) {
    while (true) {
      ICorDebugThread* raw = nullptr;
      ULONG fetched = 0;
      if (Failed(threads->Next(1, &raw, &fetched)) || fetched == 0) break;
      auto other = ComPtr<ICorDebugThread>::Adopt(raw);
      DWORD id = 0;
      CorDebugThreadState state = THREAD_RUN;
      other->GetID(&id);
      if (id == evalThread || Failed(other->GetDebugState(&state)) || state != THREAD_RUN) continue;
      if (!Failed(other->SetDebugState(THREAD_SUSPEND))) suspended_.push_back(other);
    }
  }
  eval_ = eval;
  thread_ = evalThread;
  reply_ = std::move(reply);
  finish_ = std::move(finish);
  abortReason_.clear();
  return Status::Success();
}

Status EvalRunner::Abort(const std::string& why, bool rude) {
  if (!Running()) return Status::Success();
  if (abortReason_.empty()) abortReason_ = why;
  HRESULT hr = E_FAIL;
  if (rude) {
    ComPtr<ICorDebugEval2> eval2;
    if (!Failed(eval_.As(IID_ICorDebugEval2, eval2))) hr = eval2->RudeAbort();
  } else {
    hr = eval_->Abort();
  }
  if (Failed(hr)) return Status::Fail("EVAL_ABORT_FAILED", "the runtime could not abort the evaluation", hr);
  return Status::Success();
}

bool EvalRunner::Waiting(ICorDebugProcess* process) const {
  ComPtr<ICorDebugThread> thread;
  CorDebugUserState state = static_cast<CorDebugUserState>(0);
  if (!Running() || Failed(process->GetThread(thread_, thread.Out())) || Failed(thread->GetUserState(&state))) return false;
  return (state & USER_WAIT_SLEEP_JOIN) != 0;
}

void EvalRunner::Suspend(ICorDebugThread* thread) {
  CorDebugThreadState state = THREAD_RUN;
  if (Failed(thread->GetDebugState(&state)) || state != THREAD_RUN) return;
  if (!Failed(thread->SetDebugState(THREAD_SUSPEND))) suspended_.push_back(ComPtr<ICorDebugThread>::Retain(thread));
}

void EvalRunner::ResumeOthers() {
  for (auto& thread : suspended_) thread->SetDebugState(THREAD_RUN);
  suspended_.clear();
}

void EvalRunner::Complete(ICorDebugEval* eval, bool threw, ValueTable& values, const ModuleTable& modules, uint32_t maxChars) {
  if (!Running() || eval != eval_.Get()) return;
  ResumeOthers();
  Reply reply = std::move(reply_);
  Finish finish = std::move(finish_);
  finish_ = nullptr;
  std::string abortReason = abortReason_;
  eval_.Reset();
  ComPtr<ICorDebugValue> result;
  HRESULT hr = eval->GetResult(result.Out());
  if (hr == CORDBG_S_FUNC_EVAL_ABORTED || !abortReason.empty()) {
    reply.Fail("EVAL_ABORTED", abortReason.empty() ? "the evaluation was aborted" : abortReason);
    return;
  }
  if (hr == CORDBG_S_FUNC_EVAL_HAS_NO_RESULT) {
    reply.Ok(JsonObject().Bool("void", true).Done());
    return;
  }
  if (Failed(hr) || !result) {
    reply.Fail("EVAL_FAILED", "the evaluation gave no result", hr);
    return;
  }
  if (!threw && finish) {
    hr = finish(result.Get());
    if (Failed(hr)) {
      reply.Fail("EVAL_FAILED", "the new value could not be filled in", hr);
      return;
    }
  }
  std::string value = ValueJson(values, result, modules, maxChars);
  reply.Ok(threw ? JsonObject().Raw("exception", value).Done() : JsonObject().Raw("value", value).Done());
}

void EvalRunner::Fail(const std::string& why) {
  if (!Running()) return;
  suspended_.clear();
  eval_.Reset();
  finish_ = nullptr;
  reply_.Fail("EVAL_ABORTED", why);
}

}  // namespace dbg
