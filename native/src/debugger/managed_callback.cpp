#include "managed_callback.h"

#include "../util/utf.h"

namespace dbg {

namespace {
template <typename T>
ComPtr<T> Hold(T* raw) { return ComPtr<T>::Retain(raw); }

Controller AsController(ICorDebugController* raw) { return ComPtr<ICorDebugController>::Retain(raw); }

size_t Length(const WCHAR* text) {
  size_t n = 0;
  if (text) while (text[n]) ++n;
  return n;
}
}  // namespace

ManagedCallback::ManagedCallback(std::shared_ptr<WorkQueue> queue, CallbackHandler* handler)
    : queue_(std::move(queue)), handler_(handler) {}

HRESULT ManagedCallback::QueryInterface(REFIID riid, void** ppv) {
  if (!ppv) return E_POINTER;
  if (riid == IID_ICorDebugManagedCallback || riid == IID_IUnknown) {
    *ppv = static_cast<ICorDebugManagedCallback*>(this);
  } else if (riid == IID_ICorDebugManagedCallback2) {
    *ppv = static_cast<ICorDebugManagedCallback2*>(this);
  } else if (riid == IID_ICorDebugManagedCallback3) {
    *ppv = static_cast<ICorDebugManagedCallback3*>(this);
  } else if (riid == IID_ICorDebugManagedCallback4) {
    *ppv = static_cast<ICorDebugManagedCallback4*>(this);
  } else {
    *ppv = nullptr;
    return E_NOINTERFACE;
  }
  AddRef();
  return S_OK;
}

ULONG ManagedCallback::AddRef() { return ++refs_; }

ULONG ManagedCallback::Release() {
  ULONG left = --refs_;
  if (left == 0) delete this;
  return left;
}

HRESULT ManagedCallback::Ignore(ICorDebugController* owner, const char* name) {
  auto h = handler_;
  queue_->Post([h, owner = AsController(owner), name] { h->OnIgnored(owner, name); });
  return S_OK;
}

// ---- callbacks the engine acts on ----

HRESULT ManagedCallback::CreateProcess(ICorDebugProcess* process) {
  auto h = handler_;
  queue_->Post([h, p = Hold(process)] { h->OnCreateProcess(p); });
  return S_OK;
}

HRESULT ManagedCallback::ExitProcess(ICorDebugProcess*) {
  auto h = handler_;
  queue_->Post([h] { h->OnExitProcess(); });
  return S_OK;
}

HRESULT ManagedCallback::CreateThread(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread)] { h->OnCreateThread(o, t); });
  return S_OK;
}

HRESULT ManagedCallback::ExitThread(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread)] { h->OnExitThread(o, t); });
  return S_OK;
}

HRESULT ManagedCallback::LoadModule(ICorDebugAppDomain* appDomain, ICorDebugModule* module) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), m = Hold(module)] { h->OnLoadModule(o, m); });
  return S_OK;
}

HRESULT ManagedCallback::UnloadModule(ICorDebugAppDomain* appDomain, ICorDebugModule* module) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), m = Hold(module)] { h->OnUnloadModule(o, m); });
  return S_OK;
}

HRESULT ManagedCallback::Break(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread)] { h->OnUserBreak(o, t); });
  return S_OK;
}

HRESULT ManagedCallback::Exception(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFrame* frame,
                                   ULONG32 offset, CorDebugExceptionCallbackType type, DWORD) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread), f = Hold(frame), offset, type] { h->OnException(o, t, type, f, offset); });
  return S_OK;
}

HRESULT ManagedCallback::LogMessage(ICorDebugAppDomain* appDomain, ICorDebugThread*, LONG, WCHAR*, WCHAR* message) {
  auto h = handler_;
  std::string text = ToUtf8(message, Length(message));
  queue_->Post([h, o = AsController(appDomain), text] { h->OnLogMessage(o, text); });
  return S_OK;
}

HRESULT ManagedCallback::DebuggerError(ICorDebugProcess*, HRESULT errorHr, DWORD errorCode) {
  auto h = handler_;
  queue_->Post([h, errorHr, errorCode] { h->OnDebuggerError(errorHr, errorCode); });
  return S_OK;
}

HRESULT ManagedCallback::Breakpoint(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugBreakpoint* breakpoint) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread), b = Hold(breakpoint)] { h->OnBreakpoint(o, t, b); });
  return S_OK;
}

HRESULT ManagedCallback::StepComplete(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugStepper* stepper,
                                      CorDebugStepReason reason) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread), s = Hold(stepper), reason] { h->OnStepComplete(o, t, s, reason); });
  return S_OK;
}

HRESULT ManagedCallback::EvalComplete(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugEval* eval) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread), e = Hold(eval)] { h->OnEvalComplete(o, t, e, false); });
  return S_OK;
}

HRESULT ManagedCallback::EvalException(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugEval* eval) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread), e = Hold(eval)] { h->OnEvalComplete(o, t, e, true); });
  return S_OK;
}

HRESULT ManagedCallback::FunctionRemapOpportunity(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFunction* oldFunction,
                                                  ICorDebugFunction* newFunction, ULONG32 oldILOffset) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread), f = Hold(oldFunction), n = Hold(newFunction), oldILOffset] {
    h->OnRemapOpportunity(o, t, f, n, oldILOffset);
  });
  return S_OK;
}

HRESULT ManagedCallback::FunctionRemapComplete(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFunction*) {
  auto h = handler_;
  queue_->Post([h, o = AsController(appDomain), t = Hold(thread)] { h->OnRemapComplete(o, t); });
  return S_OK;
}

// ---- callbacks continued at once ----

// The v1 exception callback arrives alongside the v2 one, which carries the detail.
HRESULT ManagedCallback::Exception(ICorDebugAppDomain* a, ICorDebugThread*, BOOL) { return Ignore(a, "Exception"); }
HRESULT ManagedCallback::LoadClass(ICorDebugAppDomain* a, ICorDebugClass*) { return Ignore(a, "LoadClass"); }
HRESULT ManagedCallback::UnloadClass(ICorDebugAppDomain* a, ICorDebugClass*) { return Ignore(a, "UnloadClass"); }
HRESULT ManagedCallback::LogSwitch(ICorDebugAppDomain* a, ICorDebugThread*, LONG, ULONG, WCHAR*, WCHAR*) { return Ignore(a, "LogSwitch"); }
HRESULT ManagedCallback::CreateAppDomain(ICorDebugProcess*, ICorDebugAppDomain* a) {
  auto h = handler_;
  queue_->Post([h, d = Hold(a)] { h->OnCreateAppDomain(d); });
  return S_OK;
}
HRESULT ManagedCallback::ExitAppDomain(ICorDebugProcess*, ICorDebugAppDomain* a) { return Ignore(a, "ExitAppDomain"); }
HRESULT ManagedCallback::LoadAssembly(ICorDebugAppDomain* a, ICorDebugAssembly*) { return Ignore(a, "LoadAssembly"); }
HRESULT ManagedCallback::UnloadAssembly(ICorDebugAppDomain* a, ICorDebugAssembly*) { return Ignore(a, "UnloadAssembly"); }
HRESULT ManagedCallback::ControlCTrap(ICorDebugProcess* p) { return Ignore(p, "ControlCTrap"); }
HRESULT ManagedCallback::NameChange(ICorDebugAppDomain* a, ICorDebugThread*) { return Ignore(a, "NameChange"); }
HRESULT ManagedCallback::UpdateModuleSymbols(ICorDebugAppDomain* a, ICorDebugModule*, IStream*) { return Ignore(a, "UpdateModuleSymbols"); }
HRESULT ManagedCallback::EditAndContinueRemap(ICorDebugAppDomain* a, ICorDebugThread*, ICorDebugFunction*, BOOL) { return Ignore(a, "EditAndContinueRemap"); }
HRESULT ManagedCallback::BreakpointSetError(ICorDebugAppDomain* a, ICorDebugThread*, ICorDebugBreakpoint*, DWORD) { return Ignore(a, "BreakpointSetError"); }
HRESULT ManagedCallback::CreateConnection(ICorDebugProcess* p, CONNID, WCHAR*) { return Ignore(p, "CreateConnection"); }
HRESULT ManagedCallback::ChangeConnection(ICorDebugProcess* p, CONNID) { return Ignore(p, "ChangeConnection"); }
HRESULT ManagedCallback::DestroyConnection(ICorDebugProcess* p, CONNID) { return Ignore(p, "DestroyConnection"); }
HRESULT ManagedCallback::ExceptionUnwind(ICorDebugAppDomain* a, ICorDebugThread*, CorDebugExceptionUnwindCallbackType, DWORD) { return Ignore(a, "ExceptionUnwind"); }
HRESULT ManagedCallback::MDANotification(ICorDebugController* c, ICorDebugThread*, ICorDebugMDA*) { return Ignore(c, "MDANotification"); }
HRESULT ManagedCallback::CustomNotification(ICorDebugThread*, ICorDebugAppDomain* a) { return Ignore(a, "CustomNotification"); }
HRESULT ManagedCallback::BeforeGarbageCollection(ICorDebugProcess* p) { return Ignore(p, "BeforeGarbageCollection"); }
HRESULT ManagedCallback::AfterGarbageCollection(ICorDebugProcess* p) { return Ignore(p, "AfterGarbageCollection"); }
HRESULT ManagedCallback::DataBreakpoint(ICorDebugProcess* p, ICorDebugThread*, BYTE*, ULONG32) { return Ignore(p, "DataBreakpoint"); }

}  // namespace dbg
