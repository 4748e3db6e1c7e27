#include "debug_session.h"

#ifndef _WIN32
#include <unistd.h>
#endif

#include <cstdio>
#include <vector>

#include "../runtime/runtime_access.h"
#include "../util/hresult.h"
#include "../util/json.h"
#include "../util/log.h"
#include "../util/utf.h"
#include "object_reader.h"

namespace dbg {

namespace {

constexpr HRESULT CORDBG_E_PROCESS_TERMINATED = static_cast<HRESULT>(0x80131301u);

std::string Hex(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

std::string ModulePath(ICorDebugModule* module) {
  WCHAR name[2048];
  ULONG32 length = 0;
  if (Failed(module->GetName(2048, &length, name)) || length == 0) return {};
  return ToUtf8(name, length - 1);
}

DWORD ThreadId(ICorDebugThread* thread) {
  DWORD id = 0;
  thread->GetID(&id);
  return id;
}

std::string Directory(const std::string& path) {
  auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
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

CommandResult Fail(const char* code, const std::string& message, HRESULT hr = E_FAIL) {
  return {Status::Fail(code, message, hr)};
}

}  // namespace

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
  return Status::Success();
}

CommandResult DebugSession::AttachAtStartup(uint32_t pid, int resumeFd, int timeoutMs, const std::string& dbgshimPath) {
  auto resume = [&resumeFd] {
#ifndef _WIN32
    if (resumeFd >= 0) {
      ssize_t unused = write(resumeFd, "g", 1);
      (void)unused;
      close(resumeFd);
      resumeFd = -1;
    }
#endif
  };
  std::unique_ptr<RuntimeAccess> access;
  Status status = SelectAccess(dbgshimPath, access);
  if (status.Ok()) {
    Log("launch attach to pid %u through %s", pid, access->Name());
    status = access->AttachAtStartup(pid, timeoutMs, resume,
                                     [this, pid](IUnknown* cordebug) { return AttachWith(cordebug, pid); });
  }
#ifndef _WIN32
  // Never leave the debuggee blocked before exec: closing without the byte makes it exit.
  if (resumeFd >= 0) close(resumeFd);
#endif
  if (!status.Ok()) return {status};
  return {Status::Success(), JsonObject().Int("pid", pid).Str("access", access->Name()).Done()};
}

CommandResult DebugSession::AttachRunning(uint32_t pid, int timeoutMs, const std::string& dbgshimPath) {
  std::unique_ptr<RuntimeAccess> access;
  Status status = SelectAccess(dbgshimPath, access);
  if (status.Ok()) {
    status = access->AttachRunning(pid, timeoutMs, [this, pid](IUnknown* cordebug) { return AttachWith(cordebug, pid); });
  }
  if (!status.Ok()) return {status};
  return {Status::Success(), JsonObject().Int("pid", pid).Str("access", access->Name()).Done()};
}

CommandResult DebugSession::Configure(const SessionOptions& options) {
  options_ = options;
  return {};
}

void DebugSession::Resume(const Controller& owner) {
  if (exited_ || detached_) return;
  HRESULT hr = owner ? owner->Continue(0) : (process_ ? process_->Continue(0) : E_POINTER);
  if (Failed(hr) && hr != CORDBG_E_PROCESS_TERMINATED) LogFailure("Continue", hr, __FILE__, __LINE__);
}

CommandResult DebugSession::Continue() {
  if (exited_) return Fail("NOT_RUNNING", "the process has exited");
  if (!process_) return Fail("NOT_ATTACHED", "no process is attached");
  if (owedContinues_ == 0) return {Status::Success(), JsonObject().Bool("continued", false).Done()};
  while (owedContinues_ > 0) {
    --owedContinues_;
    HRESULT hr = process_->Continue(0);
    if (Failed(hr)) return Fail("CONTINUE_FAILED", "ICorDebugProcess::Continue failed", hr);
  }
  return {Status::Success(), JsonObject().Bool("continued", true).Done()};
}

CommandResult DebugSession::ThreadList() {
  ComPtr<ICorDebugThreadEnum> threads;
  HRESULT hr = process_->EnumerateThreads(threads.Out());
  if (Failed(hr)) return Fail("THREADS_FAILED", "ICorDebugProcess::EnumerateThreads failed", hr);
  std::string items = "[";
  while (true) {
    ICorDebugThread* raw = nullptr;
    ULONG fetched = 0;
    if (Failed(threads->Next(1, &raw, &fetched)) || fetched == 0) break;
    auto thread = ComPtr<ICorDebugThread>::Adopt(raw);
    JsonObject item;
    item.Int("id", ThreadId(thread.Get()));
    ComPtr<ICorDebugValue> object;
    std::string name;
    if (!Failed(thread->GetObject(object.Out())) &&
        ReadStringField(object, "System.Threading.Thread", u"_name", name)) {
      item.Str("name", name);
    }
    if (items.size() > 1) items += ",";
    items += item.Done();
  }
  items += "]";
  return {Status::Success(), JsonObject().Raw("threads", items).Done()};
}

CommandResult DebugSession::Pause(int timeoutMs) {
  if (exited_) return Fail("NOT_RUNNING", "the process has exited");
  if (!process_) return Fail("NOT_ATTACHED", "no process is attached");
  bool wasRunning = owedContinues_ == 0;
  if (wasRunning) {
    HRESULT hr = process_->Stop(static_cast<DWORD>(timeoutMs));
    if (Failed(hr)) return Fail("PAUSE_FAILED", "ICorDebugProcess::Stop failed", hr);
    Hold();
  }
  CommandResult threads = ThreadList();
  if (!threads.status.Ok()) return threads;
  return {Status::Success(), JsonObject().Bool("wasRunning", wasRunning).Raw("threads", threads.json).Done()};
}

CommandResult DebugSession::Threads(int timeoutMs) {
  if (exited_) return Fail("NOT_RUNNING", "the process has exited");
  if (!process_) return Fail("NOT_ATTACHED", "no process is attached");
  if (owedContinues_ > 0) return ThreadList();
  // Enumerating needs a synchronized process: stop briefly, list, go on.
  HRESULT hr = process_->Stop(static_cast<DWORD>(timeoutMs));
  if (Failed(hr)) return Fail("PAUSE_FAILED", "ICorDebugProcess::Stop failed", hr);
  CommandResult list = ThreadList();
  process_->Continue(0);
  return list;
}

CommandResult DebugSession::Detach(int timeoutMs) {
  if (exited_ || !process_) return {Status::Success(), JsonObject().Bool("detached", false).Done()};
  if (owedContinues_ == 0) {
    HRESULT hr = process_->Stop(static_cast<DWORD>(timeoutMs));
    if (Failed(hr)) return Fail("DETACH_FAILED", "ICorDebugProcess::Stop before detach failed", hr);
    Hold();
  }
  HRESULT hr = process_->Detach();
  if (Failed(hr)) return Fail("DETACH_FAILED", "ICorDebugProcess::Detach failed", hr);
  detached_ = true;
  owedContinues_ = 0;
  modules_.clear();
  process_.Reset();
  if (cordebug_) cordebug_->Terminate();
  return {Status::Success(), JsonObject().Bool("detached", true).Done()};
}

void DebugSession::Close() {
  modules_.clear();
  process_.Reset();
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

// ---- callbacks ----

void DebugSession::OnCreateProcess(ComPtr<ICorDebugProcess> process) {
  if (!process_) process_ = process;
  DWORD pid = 0;
  process->GetID(&pid);
  Emit(JsonObject().Str("event", "process").Int("pid", pid).Done());
  Resume(Controller::Retain(process.Get()));
}

void DebugSession::OnExitProcess() {
  // No Continue after ExitProcess: the process is gone.
  exited_ = true;
  owedContinues_ = 0;
  modules_.clear();
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
  int handle = nextModuleHandle_++;
  modules_[handle] = module;
  std::string path = ModulePath(module.Get());
  if (frameworkDir_.empty()) frameworkDir_ = Directory(path);  // System.Private.CoreLib comes first
  CORDB_ADDRESS base = 0;
  ULONG32 size = 0;
  BOOL dynamic = 0, inMemory = 0;
  module->GetBaseAddress(&base);
  module->GetSize(&size);
  module->IsDynamic(&dynamic);
  module->IsInMemory(&inMemory);
  bool user = !dynamic && !inMemory && Directory(path) != frameworkDir_;
  bool optimizationsDisabled = false;
  if (user && options_.disableUserOptimizations) {
    // Only allowed inside LoadModule; fails for code already jitted (e.g. after an attach).
    ComPtr<ICorDebugModule2> module2;
    if (!Failed(module.As(IID_ICorDebugModule2, module2))) {
      optimizationsDisabled = !Failed(module2->SetJITCompilerFlags(CORDEBUG_JIT_DISABLE_OPTIMIZATION));
    }
  }
  bool hold = options_.holdModuleLoads;
  Emit(JsonObject()
           .Str("event", "module")
           .Str("reason", "load")
           .Int("handle", handle)
           .Str("path", path)
           .Str("base", Hex(base))
           .Int("size", size)
           .Bool("dynamic", dynamic != 0)
           .Bool("inMemory", inMemory != 0)
           .Bool("user", user)
           .Bool("optimizationsDisabled", optimizationsDisabled)
           .Bool("held", hold)
           .Done());
  if (hold) Hold(); else Resume(owner);
}

void DebugSession::OnUnloadModule(Controller owner, ComPtr<ICorDebugModule> module) {
  for (auto it = modules_.begin(); it != modules_.end(); ++it) {
    if (it->second.Get() == module.Get()) {
      Emit(JsonObject().Str("event", "module").Str("reason", "unload").Int("handle", it->first).Done());
      modules_.erase(it);
      break;
    }
  }
  Resume(owner);
}

void DebugSession::OnUserBreak(Controller, ComPtr<ICorDebugThread> thread) {
  Hold();
  Emit(JsonObject().Str("event", "stopped").Str("reason", "userBreak").Int("threadId", ThreadId(thread.Get())).Done());
}

void DebugSession::OnException(Controller owner, ComPtr<ICorDebugThread> thread, CorDebugExceptionCallbackType kind) {
  // Only the first-chance and unhandled notifications are reported: the others repeat the same throw.
  if (kind != DEBUG_EXCEPTION_FIRST_CHANCE && kind != DEBUG_EXCEPTION_UNHANDLED) {
    Resume(owner);
    return;
  }
  bool stop = kind == DEBUG_EXCEPTION_UNHANDLED ? options_.stopOnUnhandled : options_.stopOnFirstChance;
  ComPtr<ICorDebugValue> exception;
  std::string type, message;
  if (!Failed(thread->GetCurrentException(exception.Out()))) {
    type = ObjectTypeName(exception);
    ReadStringField(exception, "System.Exception", u"_message", message);
  }
  if (stop) Hold();
  Emit(JsonObject()
           .Str("event", "exception")
           .Str("kind", ExceptionKind(kind))
           .Int("threadId", ThreadId(thread.Get()))
           .Str("type", type)
           .Str("message", message)
           .Bool("stopped", stop)
           .Done());
  if (!stop) Resume(owner);
}

void DebugSession::OnLogMessage(Controller owner, std::string message) {
  Emit(JsonObject().Str("event", "log").Str("message", message).Done());
  Resume(owner);
}

void DebugSession::OnDebuggerError(HRESULT hr, DWORD code) {
  Emit(JsonObject().Str("event", "debuggerError").Int("hr", static_cast<uint32_t>(hr)).Int("code", code).Done());
}

void DebugSession::OnIgnored(Controller owner, const char* name) {
  Log("callback %s: continued", name);
  Resume(owner);
}

}  // namespace dbg
