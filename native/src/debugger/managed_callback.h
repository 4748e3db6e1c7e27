// ICorDebugManagedCallback 1-4 on mscordbi's threads: take references, queue, return. Nothing here
// touches debugger state; the debugger thread decides whether and when to continue.
#pragma once

#include <atomic>
#include <memory>

#include "../cordebug/cordebug.h"
#include "callback_handler.h"
#include "work_queue.h"

namespace dbg {

class ManagedCallback final : public ICorDebugManagedCallback,
                              public ICorDebugManagedCallback2,
                              public ICorDebugManagedCallback3,
                              public ICorDebugManagedCallback4 {
 public:
  ManagedCallback(std::shared_ptr<WorkQueue> queue, CallbackHandler* handler);

  HRESULT DBG_STDCALL QueryInterface(REFIID riid, void** ppv) override;
  ULONG DBG_STDCALL AddRef() override;
  ULONG DBG_STDCALL Release() override;

  // ICorDebugManagedCallback
  HRESULT DBG_STDCALL Breakpoint(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugBreakpoint* breakpoint) override;
  HRESULT DBG_STDCALL StepComplete(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugStepper* stepper, CorDebugStepReason reason) override;
  HRESULT DBG_STDCALL Break(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) override;
  HRESULT DBG_STDCALL Exception(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, BOOL unhandled) override;
  HRESULT DBG_STDCALL EvalComplete(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugEval* eval) override;
  HRESULT DBG_STDCALL EvalException(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugEval* eval) override;
  HRESULT DBG_STDCALL CreateProcess(ICorDebugProcess* process) override;
  HRESULT DBG_STDCALL ExitProcess(ICorDebugProcess* process) override;
  HRESULT DBG_STDCALL CreateThread(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) override;
  HRESULT DBG_STDCALL ExitThread(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) override;
  HRESULT DBG_STDCALL LoadModule(ICorDebugAppDomain* appDomain, ICorDebugModule* module) override;
  HRESULT DBG_STDCALL UnloadModule(ICorDebugAppDomain* appDomain, ICorDebugModule* module) override;
  HRESULT DBG_STDCALL LoadClass(ICorDebugAppDomain* appDomain, ICorDebugClass* cls) override;
  HRESULT DBG_STDCALL UnloadClass(ICorDebugAppDomain* appDomain, ICorDebugClass* cls) override;
  HRESULT DBG_STDCALL DebuggerError(ICorDebugProcess* process, HRESULT errorHr, DWORD errorCode) override;
  HRESULT DBG_STDCALL LogMessage(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, LONG level, WCHAR* switchName, WCHAR* message) override;
  HRESULT DBG_STDCALL LogSwitch(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, LONG level, ULONG reason, WCHAR* switchName, WCHAR* parentName) override;
  HRESULT DBG_STDCALL CreateAppDomain(ICorDebugProcess* process, ICorDebugAppDomain* appDomain) override;
  HRESULT DBG_STDCALL ExitAppDomain(ICorDebugProcess* process, ICorDebugAppDomain* appDomain) override;
  HRESULT DBG_STDCALL LoadAssembly(ICorDebugAppDomain* appDomain, ICorDebugAssembly* assembly) override;
  HRESULT DBG_STDCALL UnloadAssembly(ICorDebugAppDomain* appDomain, ICorDebugAssembly* assembly) override;
  HRESULT DBG_STDCALL ControlCTrap(ICorDebugProcess* process) override;
  HRESULT DBG_STDCALL NameChange(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) override;
  HRESULT DBG_STDCALL UpdateModuleSymbols(ICorDebugAppDomain* appDomain, ICorDebugModule* module, IStream* symbols) override;
  HRESULT DBG_STDCALL EditAndContinueRemap(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFunction* function, BOOL accurate) override;
  HRESULT DBG_STDCALL BreakpointSetError(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugBreakpoint* breakpoint, DWORD error) override;

  // ICorDebugManagedCallback2
  HRESULT DBG_STDCALL FunctionRemapOpportunity(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFunction* oldFunction, ICorDebugFunction* newFunction, ULONG32 oldILOffset) override;
  HRESULT DBG_STDCALL CreateConnection(ICorDebugProcess* process, CONNID id, WCHAR* name) override;
  HRESULT DBG_STDCALL ChangeConnection(ICorDebugProcess* process, CONNID id) override;
  HRESULT DBG_STDCALL DestroyConnection(ICorDebugProcess* process, CONNID id) override;
  HRESULT DBG_STDCALL Exception(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFrame* frame, ULONG32 offset, CorDebugExceptionCallbackType type, DWORD flags) override;
  HRESULT DBG_STDCALL ExceptionUnwind(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, CorDebugExceptionUnwindCallbackType type, DWORD flags) override;
  HRESULT DBG_STDCALL FunctionRemapComplete(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFunction* function) override;
  HRESULT DBG_STDCALL MDANotification(ICorDebugController* controller, ICorDebugThread* thread, ICorDebugMDA* mda) override;

  // ICorDebugManagedCallback3
  HRESULT DBG_STDCALL CustomNotification(ICorDebugThread* thread, ICorDebugAppDomain* appDomain) override;

  // ICorDebugManagedCallback4
  HRESULT DBG_STDCALL BeforeGarbageCollection(ICorDebugProcess* process) override;
  HRESULT DBG_STDCALL AfterGarbageCollection(ICorDebugProcess* process) override;
  HRESULT DBG_STDCALL DataBreakpoint(ICorDebugProcess* process, ICorDebugThread* thread, BYTE* context, ULONG32 contextSize) override;

 private:
  HRESULT Ignore(ICorDebugController* owner, const char* name);
  std::atomic<ULONG> refs_{1};
  std::shared_ptr<WorkQueue> queue_;
  CallbackHandler* handler_;
};

}  // namespace dbg
