#include "debug_session.h"

#include <cstdio>
#include <fstream>

#include "../util/hresult.h"
#include "../util/json.h"
#include "../util/log.h"
#include "../cordebug/metadata.h"
#include "object_reader.h"

// The ICorDebug callbacks of a DebugSession: each becomes an event for JavaScript, and the callback
// is held (the process stays stopped until JavaScript continues) or let go at once. During a
// func-eval most are let go: the evaluation must finish.

namespace dbg {

namespace {

std::string Hex(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

DWORD ThreadId(ICorDebugThread* thread) {
  DWORD id = 0;
  thread->GetID(&id);
  return id;
}

const char* ExceptionKind(CorDebugExceptionCallbackType kind) {
  switch (kind) {
    case DEBUG_EXCEPTION_FIRST_CHANCE: return "firstChance";
    case DEBUG_EXCEPTION_USER_FIRST_CHANCE: return "userFirstChance";
    case DEBUG_EXCEPTION_CATCH_HANDLER_FOUND: return "catchHandlerFound";
    case DEBUG_EXCEPTION_UNHANDLED: return "unhandled";
  }
  return "unknown";
}

std::string StepReason(CorDebugStepReason reason) {
  switch (reason) {
    case STEP_NORMAL: return "normal";
    case STEP_RETURN: return "return";
    case STEP_CALL: return "call";
    case STEP_EXCEPTION_FILTER: return "exceptionFilter";
    case STEP_EXCEPTION_HANDLER: return "exceptionHandler";
    case STEP_INTERCEPT: return "intercept";
    case STEP_EXIT: return "exit";
  }
  return "unknown";
}

}  // namespace

void DebugSession::OnCreateProcess(ComPtr<ICorDebugProcess> process) {
  if (!process_) process_ = process;
  DWORD pid = 0;
  process->GetID(&pid);
  Emit(JsonObject().Str("event", "process").Int("pid", pid).Done());
  Resume(Controller::Retain(process.Get()));
}

void DebugSession::OnExitProcess() {
  // No Continue after ExitProcess: the process is gone.
  eval_.Fail("the program exited during the evaluation");
  exited_ = true;
  Running();
  stop_ = StopState{};
  deferredHits_.clear();
  stepper_ = StepController{};
  values_ = ValueTable{};
  kept_ = KeptObjects{};
  breakpoints_.Clear();
  modules_.Clear();
  Emit(JsonObject().Str("event", "exited").Done());
}

void DebugSession::OnCreateAppDomain(ComPtr<ICorDebugAppDomain> appDomain) {
  appDomain->Attach();
  Resume(Controller::Retain(appDomain.Get()));
}

void DebugSession::OnCreateThread(Controller owner, ComPtr<ICorDebugThread> thread) {
  Emit(JsonObject().Str("event", "thread").Str("reason", "started").Int("threadId", ThreadId(thread.Get())).Done());
  Resume(owner);
}

void DebugSession::OnExitThread(Controller owner, ComPtr<ICorDebugThread> thread) {
  Emit(JsonObject().Str("event", "thread").Str("reason", "exited").Int("threadId", ThreadId(thread.Get())).Done());
  Resume(owner);
}

void DebugSession::OnLoadModule(Controller owner, ComPtr<ICorDebugModule> module) {
  int handle = modules_.Add(module);
  CORDB_ADDRESS base = 0;
  ULONG32 size = 0;
  BOOL dynamic = 0, inMemory = 0;
  module->GetBaseAddress(&base);
  module->GetSize(&size);
  module->IsDynamic(&dynamic);
  module->IsInMemory(&inMemory);
  std::string path = ModulePath(module.Get());
  bool framework = IsFrameworkModule(path);
  // During a func-eval JavaScript waits for the evaluation: it cannot handle a held load now. A
  // framework module gives the host nothing to do before its code runs (no symbols, no breakpoints).
  bool hold = options_.holdModuleLoads && !eval_.Running() && !framework;
  if (hold) Hold(owner);
  Emit(JsonObject()
           .Str("event", "module")
           .Str("reason", "load")
           .Int("handle", handle)
           .Str("path", path)
           .Bool("framework", framework)
           .Str("base", Hex(base))
           .Int("size", size)
           .Bool("dynamic", dynamic != 0)
           .Bool("inMemory", inMemory != 0)
           .Bool("held", hold)
           .Done());
  if (!hold) Resume(owner);
  if (framework && !frameworkMetadataRead_) {
    // System.Private.CoreLib's frames are on every stack: the first stack walk through one has
    // mscordbi copy the library's metadata (3.3 MB) out of the program and open it, ~75% of that
    // walk's time. Read now, while the runtime goes on starting, it is kept for the process's life.
    frameworkMetadataRead_ = true;
    ComPtr<IUnknown> metadata;
    module->GetMetaDataInterface(IID_IMetaDataImport, metadata.Out());
  }
}

bool DebugSession::IsFrameworkModule(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  if (slash == std::string::npos) return false;
  std::string directory = path.substr(0, slash);
  // System.Private.CoreLib loads first, from the shared framework's folder.
  if (frameworkDir_.empty()) frameworkDir_ = directory;
  if (directory != frameworkDir_) return false;
  // A self-contained app shares that folder with the runtime, and its own assemblies may embed their PDB.
  if (!std::ifstream(path.substr(0, slash + 1) + "Microsoft.NETCore.App.deps.json").good()) return false;
  size_t dot = path.rfind('.');
  std::string pdb = (dot != std::string::npos && dot > slash ? path.substr(0, dot) : path) + ".pdb";
  return !std::ifstream(pdb).good();  // a private runtime build may carry symbols
}

void DebugSession::OnUnloadModule(Controller owner, ComPtr<ICorDebugModule> module) {
  int handle = modules_.Remove(module.Get());
  if (handle) Emit(JsonObject().Str("event", "module").Str("reason", "unload").Int("handle", handle).Done());
  Resume(owner);
}

void DebugSession::OnUserBreak(Controller owner, ComPtr<ICorDebugThread> thread) {
  if (eval_.Running()) {
    eval_.Abort("the evaluated code called Debugger.Break(); the evaluation was aborted", false);
    Resume(owner);
    return;
  }
  Hold(owner);
  Emit(JsonObject().Str("event", "userBreak").Int("threadId", ThreadId(thread.Get())).Done());
}

void DebugSession::OnBreakpoint(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugBreakpoint> breakpoint) {
  int id = breakpoints_.IdOf(breakpoint.Get());
  if (eval_.Running()) {
    DWORD threadId = ThreadId(thread.Get());
    if (id && threadId == eval_.ThreadId()) eval_.Abort("the evaluated code reached a breakpoint; the evaluation was aborted", false);
    // Another thread's hit (queued before the evaluation began, or a thread started during it): that
    // thread is kept at the breakpoint while the evaluation runs, and reported before the program runs on.
    else if (id) {
      eval_.Suspend(thread.Get());
      deferredHits_.emplace_back(id, threadId);
    }
    Resume(owner);
    return;
  }
  if (id == 0) {
    Resume(owner);  // removed while the hit was on its way
    return;
  }
  Hold(owner);
  if (FilteredOut(id, thread.Get())) {
    bool released = false;
    Release(released);
    return;
  }
  EmitBreakpoint(id, thread.Get());
}

void DebugSession::EmitBreakpoint(int id, ICorDebugThread* thread) {
  Emit(JsonObject().Str("event", "breakpoint").Int("id", id).Int("threadId", ThreadId(thread)).Done());
}

bool DebugSession::ReportDeferredHit() {
  // The hit is reported under the held callback, which keeps the process stopped until it is released.
  while (!deferredHits_.empty() && !eval_.Running() && stop_.heldCallback) {
    auto [id, threadId] = deferredHits_.front();
    deferredHits_.erase(deferredHits_.begin());
    ComPtr<ICorDebugThread> thread;
    if (!breakpoints_.Has(id) || !Thread(threadId, thread).Ok() || FilteredOut(id, thread.Get())) continue;
    EmitBreakpoint(id, thread.Get());
    return true;
  }
  return false;
}

bool DebugSession::FilteredOut(int id, ICorDebugThread* thread) {
  const HitFilter* filter = breakpoints_.FilterOf(id);
  return filter && filter->CertainlyFalse(thread, modules_);
}

void DebugSession::OnStepComplete(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugStepper> stepper,
                                  CorDebugStepReason reason) {
  if (eval_.Running() || !stepper_.Completes(stepper.Get())) {
    Resume(owner);  // a cancelled step
    return;
  }
  Hold(owner);
  Emit(JsonObject()
           .Str("event", "stepComplete")
           .Int("threadId", ThreadId(thread.Get()))
           .Str("reason", StepReason(reason))
           .Done());
}

namespace {
/** Whether a frame runs code the user marked as theirs (Just My Code), so a catch there matters. */
bool IsJustMyCode(ICorDebugFrame* frame) {
  ComPtr<ICorDebugFunction> function;
  ComPtr<ICorDebugFunction2> function2;
  BOOL jmc = 0;
  return frame && !Failed(frame->GetFunction(function.Out())) && function &&
         !Failed(function.As(IID_ICorDebugFunction2, function2)) && !Failed(function2->GetJMCStatus(&jmc)) && jmc;
}

std::string HandlerJson(ICorDebugFrame* frame, ULONG32 offset, const ModuleTable& modules) {
  ComPtr<ICorDebugFunction> function;
  ComPtr<ICorDebugModule> module;
  mdToken token = 0;
  if (!frame || Failed(frame->GetFunction(function.Out())) || !function) return "null";
  function->GetToken(&token);
  function->GetModule(module.Out());
  return JsonObject().Int("module", modules.HandleOf(module.Get())).Int("token", token).Int("ilOffset", offset).Done();
}
}  // namespace

void DebugSession::OnException(Controller owner, ComPtr<ICorDebugThread> thread, CorDebugExceptionCallbackType kind,
                               ComPtr<ICorDebugFrame> frame, ULONG32 offset) {
  // Reported: every first chance (not held, for the output); the first chance in the user's code
  // (held when exceptions stop); a catch in the user's code (held when unhandled exceptions stop:
  // JavaScript decides whether the catch is the compiler's forwarding of an async method's
  // exception to its task, which leaves the user's code unhandled); and unhandled ones.
  if (eval_.Running()) {
    Resume(owner);  // the evaluation ends with EvalException if its code does not catch it
    return;
  }
  bool hold = (kind == DEBUG_EXCEPTION_UNHANDLED && options_.stopOnUnhandled) ||
              (kind == DEBUG_EXCEPTION_USER_FIRST_CHANCE && options_.stopOnFirstChance) ||
              (kind == DEBUG_EXCEPTION_CATCH_HANDLER_FOUND && options_.stopOnUnhandled && IsJustMyCode(frame.Get()));
  bool report = hold || kind == DEBUG_EXCEPTION_FIRST_CHANCE || kind == DEBUG_EXCEPTION_UNHANDLED;
  if (!report) {
    Resume(owner);
    return;
  }
  ComPtr<ICorDebugValue> exception;
  std::vector<std::string> types;
  std::string message;
  if (!Failed(thread->GetCurrentException(exception.Out()))) {
    types = TypeChain(exception);
    ReadStringField(exception, "System.Exception", u"_message", message);
  }
  std::string typeList = "[";
  for (const auto& type : types) typeList += (typeList.size() > 1 ? "," : "") + JsonQuote(type);
  if (hold) Hold(owner);
  Emit(JsonObject()
           .Str("event", "exception")
           .Str("kind", ExceptionKind(kind))
           .Int("threadId", ThreadId(thread.Get()))
           .Str("type", types.empty() ? std::string() : types.front())
           .Raw("types", typeList + "]")
           .Str("message", message)
           .Raw("handler", kind == DEBUG_EXCEPTION_CATCH_HANDLER_FOUND ? HandlerJson(frame.Get(), offset, modules_) : "null")
           .Bool("held", hold)
           .Done());
  if (!hold) Resume(owner);
}

void DebugSession::OnEvalComplete(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugEval> eval, bool threw) {
  // The process stays stopped here: to the user it never stopped being stopped.
  Hold(owner);
  eval_.Complete(eval.Get(), threw, values_, modules_, kMaxStringChars);
}

void DebugSession::OnLogMessage(Controller owner, std::string message) {
  Emit(JsonObject().Str("event", "log").Str("message", message).Done());
  Resume(owner);
}

void DebugSession::OnRemapOpportunity(Controller owner, ComPtr<ICorDebugThread> thread, ComPtr<ICorDebugFunction> oldFunction,
                                      ComPtr<ICorDebugFunction> newFunction, ULONG32 oldILOffset) {
  // During a func-eval the frame stays on its version; the runtime offers again at the next statement.
  if (eval_.Running()) {
    Resume(owner);
    return;
  }
  mdToken token = 0;
  ULONG32 oldVersion = 0, newVersion = 0;
  ComPtr<ICorDebugModule> module;
  ComPtr<ICorDebugFunction2> old2, new2;
  oldFunction->GetToken(&token);
  oldFunction->GetModule(module.Out());
  if (!Failed(oldFunction.As(IID_ICorDebugFunction2, old2))) old2->GetVersionNumber(&oldVersion);
  if (!Failed(newFunction.As(IID_ICorDebugFunction2, new2))) new2->GetVersionNumber(&newVersion);
  Hold(owner);
  Emit(JsonObject()
           .Str("event", "remapOpportunity")
           .Int("threadId", ThreadId(thread.Get()))
           .Int("module", modules_.HandleOf(module.Get()))
           .Int("token", token)
           .Int("oldVersion", oldVersion)
           .Int("newVersion", newVersion)
           .Int("ilOffset", oldILOffset)
           .Done());
}

void DebugSession::OnRemapComplete(Controller owner, ComPtr<ICorDebugThread> thread) {
  if (eval_.Running()) {
    Resume(owner);
    return;
  }
  Hold(owner);
  Emit(JsonObject().Str("event", "remapComplete").Int("threadId", ThreadId(thread.Get())).Done());
}

void DebugSession::OnDebuggerError(HRESULT hr, DWORD code) {
  Emit(JsonObject().Str("event", "debuggerError").Int("hr", static_cast<uint32_t>(hr)).Int("code", code).Done());
}

void DebugSession::OnIgnored(Controller owner, const char* name) {
  Log("callback %s: continued", name);
  Resume(owner);
}

}  // namespace dbg
