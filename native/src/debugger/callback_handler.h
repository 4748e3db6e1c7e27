// What the debugger thread does with each ICorDebug callback. Every method runs on the debugger
// thread; `owner` is the controller the callback must be continued on (unless the handler holds it).
#pragma once

#include <string>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"

namespace dbg {

using Controller = ComPtr<ICorDebugController>;

class CallbackHandler {
 public:
  virtual ~CallbackHandler() = default;
  virtual void OnCreateProcess(ComPtr<ICorDebugProcess> process) = 0;
  virtual void OnExitProcess() = 0;
  virtual void OnCreateAppDomain(ComPtr<ICorDebugAppDomain> appDomain) = 0;
  virtual void OnCreateThread(Controller owner, ComPtr<ICorDebugThread> thread) = 0;
  virtual void OnExitThread(Controller owner, ComPtr<ICorDebugThread> thread) = 0;
  virtual void OnLoadModule(Controller owner, ComPtr<ICorDebugModule> module) = 0;
  virtual void OnUnloadModule(Controller owner, ComPtr<ICorDebugModule> module) = 0;
  virtual void OnUserBreak(Controller owner, ComPtr<ICorDebugThread> thread) = 0;
  virtual void OnBreakpoint(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugBreakpoint> breakpoint) = 0;
  virtual void OnStepComplete(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugStepper> stepper,
                              CorDebugStepReason reason) = 0;
  /** `frame` and `offset`: where the exception is (first chance) or where it will be caught (catch handler found). */
  virtual void OnException(Controller owner, ComPtr<ICorDebugThread> thread, CorDebugExceptionCallbackType kind,
                           ComPtr<ICorDebugFrame> frame, ULONG32 offset) = 0;
  /** A func-eval finished (`threw`: its result is the exception it threw). */
  virtual void OnEvalComplete(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugEval> eval, bool threw) = 0;
  virtual void OnLogMessage(Controller owner, std::string message) = 0;
  /** A frame running an older version of an edited method reached a point where it may move to the new one. */
  virtual void OnRemapOpportunity(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugFunction> oldFunction,
                                  ComPtr<ICorDebugFunction> newFunction, ULONG32 oldILOffset) = 0;
  /** The frame moved to the new version (a step that was under way must start again from there). */
  virtual void OnRemapComplete(Controller owner, ComPtr<ICorDebugThread> thread) = 0;
  virtual void OnDebuggerError(HRESULT hr, DWORD code) = 0;
  /** Callbacks the engine does not act on: continue at once. */
  virtual void OnIgnored(Controller owner, const char* name) = 0;
};

}  // namespace dbg
