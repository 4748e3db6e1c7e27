// The one function evaluation (func-eval) in progress. The program runs only the evaluating thread
// (the others are suspended) until EvalComplete / EvalException, where it stops again; the reply is
// answered there. A breakpoint reached inside the evaluation ends it (aborted, with the reason).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"
#include "../runtime/status.h"
#include "module_table.h"
#include "reply.h"
#include "value_table.h"

namespace dbg {

class EvalRunner {
 public:
  using Begin = std::function<HRESULT(ICorDebugEval*)>;
  /** Work on the result before it is answered (a new box gets its value); a failure fails the evaluation. */
  using Finish = std::function<HRESULT(ICorDebugValue*)>;

  bool Running() const { return static_cast<bool>(eval_); }
  /** The thread the evaluation runs on (while Running). */
  DWORD ThreadId() const { return thread_; }
  /** Creates the eval on `thread`, lets `begin` start it, suspends the other threads; the caller resumes the process. */
  Status Start(ICorDebugProcess* process, ICorDebugThread* thread, const Begin& begin, Reply reply, Finish finish = {});
  /** Keeps another thread where it is until the evaluation ends (one that started during it). */
  void Suspend(ICorDebugThread* thread);
  /** Ends the evaluation early; `why` becomes the failure the reply carries. */
  Status Abort(const std::string& why, bool rude);
  /**
   * Its thread sleeps, waits or joins (the process synchronized). On Linux an abort does not wake a
   * sleep: the runtime only signals the thread (InjectActivation), where Windows queues the APC that
   * Thread.Interrupt queues.
   */
  bool Waiting(ICorDebugProcess* process) const;
  /** Lets the threads held for the evaluation run again (the process synchronized): code that waits on them can end. */
  void ResumeOthers();
  /** The evaluation finished (or threw, or was aborted): restores the threads and answers. */
  void Complete(ICorDebugEval* eval, bool threw, ValueTable& values, const ModuleTable& modules, uint32_t maxChars);
  /** The process went away with an evaluation running. */
  void Fail(const std::string& why);

 private:
  ComPtr<ICorDebugEval> eval_;
  DWORD thread_ = 0;
  Reply reply_;
  Finish finish_;
  std::string abortReason_;
  std::vector<ComPtr<ICorDebugThread>> suspended_;
};

}  // namespace dbg
