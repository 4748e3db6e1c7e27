// The Node-API surface of the .NET debugger. Deliberately thin: it starts processes, queues commands
// for the debugger thread and hands back JSON; the TypeScript engine owns every decision it can.
//
//   initialize(ErrorClass)                       error class thrown/rejected for native failures
//   spawnSuspended({file, argv, env, cwd})       -> {pid, keeperPid, stdoutFd, stderrFd, resumeFd, statusFd}
//   reapKeeper(keeperPid)                        -> boolean
//   new Session(onEvent(json))                   one debuggee; every method returns a Promise of JSON text
//     .attachAtStartup({pid, resumeFd, timeoutMs, dbgshimPath})
//     .attachRunning({pid, timeoutMs, dbgshimPath})
//     .configure({stopOnFirstChance, stopOnUnhandled, holdModuleLoads, disableUserOptimizations})
//     .continue() .pause(timeoutMs) .threads(timeoutMs) .detach(timeoutMs) .close()
#include <napi.h>

#include <memory>

#include "debugger/debug_session.h"
#include "debugger/work_queue.h"
#include "platform/spawn.h"

namespace {

using dbg::CommandResult;
using dbg::DebugSession;
using dbg::WorkQueue;

struct AddonData {
  Napi::FunctionReference errorClass;
};

Napi::Error MakeError(Napi::Env env, const dbg::Status& status) {
  auto* data = env.GetInstanceData<AddonData>();
  Napi::Object details = Napi::Object::New(env);
  details.Set("code", status.code);
  details.Set("hresult", Napi::Number::New(env, static_cast<uint32_t>(status.hr)));
  if (data && !data->errorClass.IsEmpty()) {
    Napi::Value error = data->errorClass.New({Napi::String::New(env, status.message), details});
    return Napi::Error(env, error);
  }
  Napi::Error error = Napi::Error::New(env, status.code + ": " + status.message);
  error.Set("code", status.code);
  return error;
}

/** What crosses from the debugger thread to JavaScript: an event, or a command's completion. */
struct Delivery {
  Delivery(std::string json, Napi::Promise::Deferred* deferred = nullptr, dbg::Status status = {})
      : json(std::move(json)), deferred(deferred), status(std::move(status)) {}
  std::string json;
  Napi::Promise::Deferred* deferred;  // null for events
  dbg::Status status;
};

void DeliverToJs(Napi::Env env, Napi::Function onEvent, void* /*context*/, Delivery* delivery) {
  std::unique_ptr<Delivery> owned(delivery);
  std::unique_ptr<Napi::Promise::Deferred> deferred(delivery->deferred);
  if (env == nullptr) return;  // environment going away
  Napi::HandleScope scope(env);
  if (!deferred) {
    onEvent.Call({Napi::String::New(env, delivery->json)});
    return;
  }
  if (delivery->status.Ok()) {
    deferred->Resolve(Napi::String::New(env, delivery->json));
  } else {
    deferred->Reject(MakeError(env, delivery->status).Value());
  }
}

using Channel = Napi::TypedThreadSafeFunction<void, Delivery, DeliverToJs>;

int IntOption(const Napi::Object& options, const char* key, int fallback) {
  Napi::Value v = options.Get(key);
  return v.IsNumber() ? v.As<Napi::Number>().Int32Value() : fallback;
}

std::string StringOption(const Napi::Object& options, const char* key) {
  Napi::Value v = options.Get(key);
  return v.IsString() ? v.As<Napi::String>().Utf8Value() : std::string();
}

bool BoolOption(const Napi::Object& options, const char* key, bool fallback) {
  Napi::Value v = options.Get(key);
  return v.IsBoolean() ? v.As<Napi::Boolean>().Value() : fallback;
}

class Session : public Napi::ObjectWrap<Session> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Session",
                       {InstanceMethod("attachAtStartup", &Session::AttachAtStartup),
                        InstanceMethod("attachRunning", &Session::AttachRunning),
                        InstanceMethod("configure", &Session::Configure),
                        InstanceMethod("continue", &Session::Continue),
                        InstanceMethod("pause", &Session::Pause),
                        InstanceMethod("threads", &Session::Threads),
                        InstanceMethod("detach", &Session::Detach),
                        InstanceMethod("close", &Session::Close)});
  }

  explicit Session(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Session>(info) {
    Napi::Env env = info.Env();
    if (!info[0].IsFunction()) {
      Napi::TypeError::New(env, "Session(onEvent): onEvent must be a function").ThrowAsJavaScriptException();
      return;
    }
    channel_ = Channel::New(env, info[0].As<Napi::Function>(), "debugbridge-dotnet-events", 0, 1);
    queue_ = std::make_shared<WorkQueue>();
    Channel channel = channel_;
    session_ = std::make_shared<DebugSession>(queue_, [channel](std::string json) mutable {
      auto* delivery = new Delivery(std::move(json));
      if (channel.NonBlockingCall(delivery) != napi_ok) delete delivery;
    });
  }

  ~Session() override {
    if (!closed_ && queue_) {
      auto session = session_;
      queue_->Post([session] { session->Close(); });
      channel_.Release();
    }
    if (queue_) queue_->Stop();
  }

 private:
  using Command = std::function<CommandResult(DebugSession&)>;

  Napi::Value Queue(const Napi::CallbackInfo& info, Command command, bool closing = false) {
    Napi::Env env = info.Env();
    auto* deferred = new Napi::Promise::Deferred(env);
    Napi::Promise promise = deferred->Promise();
    if (closed_) {
      deferred->Reject(MakeError(env, dbg::Status::Fail("CLOSED", "the debugger session is closed")).Value());
      delete deferred;
      return promise;
    }
    if (closing) closed_ = true;
    auto session = session_;
    auto queue = queue_;
    Channel channel = channel_;
    queue_->Post([session, queue, channel, command, deferred, closing]() mutable {
      CommandResult result = command(*session);
      auto* delivery = new Delivery(std::move(result.json), deferred, std::move(result.status));
      if (channel.NonBlockingCall(delivery) != napi_ok) {
        delete delivery;  // JavaScript is gone; the deferred dies with it
      }
      if (closing) {
        channel.Release();
        queue->RequestStop();
      }
    });
    return promise;
  }

  Napi::Value AttachAtStartup(const Napi::CallbackInfo& info) {
    Napi::Object o = info[0].As<Napi::Object>();
    auto pid = static_cast<uint32_t>(IntOption(o, "pid", 0));
    int resumeFd = IntOption(o, "resumeFd", -1);
    int timeoutMs = IntOption(o, "timeoutMs", 30000);
    std::string shim = StringOption(o, "dbgshimPath");
    return Queue(info, [=](DebugSession& s) { return s.AttachAtStartup(pid, resumeFd, timeoutMs, shim); });
  }

  Napi::Value AttachRunning(const Napi::CallbackInfo& info) {
    Napi::Object o = info[0].As<Napi::Object>();
    auto pid = static_cast<uint32_t>(IntOption(o, "pid", 0));
    int timeoutMs = IntOption(o, "timeoutMs", 30000);
    std::string shim = StringOption(o, "dbgshimPath");
    return Queue(info, [=](DebugSession& s) { return s.AttachRunning(pid, timeoutMs, shim); });
  }

  Napi::Value Configure(const Napi::CallbackInfo& info) {
    Napi::Object o = info[0].As<Napi::Object>();
    dbg::SessionOptions options;
    options.stopOnFirstChance = BoolOption(o, "stopOnFirstChance", options.stopOnFirstChance);
    options.stopOnUnhandled = BoolOption(o, "stopOnUnhandled", options.stopOnUnhandled);
    options.holdModuleLoads = BoolOption(o, "holdModuleLoads", options.holdModuleLoads);
    options.disableUserOptimizations = BoolOption(o, "disableUserOptimizations", options.disableUserOptimizations);
    return Queue(info, [=](DebugSession& s) { return s.Configure(options); });
  }

  Napi::Value Continue(const Napi::CallbackInfo& info) {
    return Queue(info, [](DebugSession& s) { return s.Continue(); });
  }

  Napi::Value Pause(const Napi::CallbackInfo& info) {
    int timeoutMs = info[0].IsNumber() ? info[0].As<Napi::Number>().Int32Value() : 5000;
    return Queue(info, [=](DebugSession& s) { return s.Pause(timeoutMs); });
  }

  Napi::Value Threads(const Napi::CallbackInfo& info) {
    int timeoutMs = info[0].IsNumber() ? info[0].As<Napi::Number>().Int32Value() : 5000;
    return Queue(info, [=](DebugSession& s) { return s.Threads(timeoutMs); });
  }

  Napi::Value Detach(const Napi::CallbackInfo& info) {
    int timeoutMs = info[0].IsNumber() ? info[0].As<Napi::Number>().Int32Value() : 5000;
    return Queue(info, [=](DebugSession& s) { return s.Detach(timeoutMs); });
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    return Queue(info, [](DebugSession& s) { s.Close(); return CommandResult{}; }, true);
  }

  Channel channel_;
  std::shared_ptr<WorkQueue> queue_;
  std::shared_ptr<DebugSession> session_;
  bool closed_ = false;
};

Napi::Value Initialize(const Napi::CallbackInfo& info) {
  auto* data = info.Env().GetInstanceData<AddonData>();
  if (info[0].IsFunction()) data->errorClass = Napi::Persistent(info[0].As<Napi::Function>());
  return info.Env().Undefined();
}

std::vector<std::string> StringArray(const Napi::Value& value) {
  std::vector<std::string> out;
  if (!value.IsArray()) return out;
  auto array = value.As<Napi::Array>();
  for (uint32_t i = 0; i < array.Length(); ++i) out.push_back(array.Get(i).ToString().Utf8Value());
  return out;
}

Napi::Value SpawnSuspended(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsObject()) {
    Napi::TypeError::New(env, "spawnSuspended(options): options must be an object").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Object o = info[0].As<Napi::Object>();
  dbg::SpawnRequest request{StringOption(o, "file"), StringArray(o.Get("argv")), StringArray(o.Get("env")),
                            StringOption(o, "cwd")};
  dbg::SpawnResult result = dbg::SpawnSuspended(request);
  if (!result.error.empty()) {
    MakeError(env, dbg::Status::Fail("SPAWN_FAILED", result.error)).ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("pid", result.pid);
  out.Set("keeperPid", result.keeperPid);
  out.Set("stdoutFd", result.stdoutFd);
  out.Set("stderrFd", result.stderrFd);
  out.Set("resumeFd", result.resumeFd);
  out.Set("statusFd", result.statusFd);
  return out;
}

Napi::Value ReapKeeper(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), dbg::ReapKeeper(info[0].As<Napi::Number>().Int32Value()));
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new AddonData());
  exports.Set("initialize", Napi::Function::New(env, Initialize));
  exports.Set("spawnSuspended", Napi::Function::New(env, SpawnSuspended));
  exports.Set("reapKeeper", Napi::Function::New(env, ReapKeeper));
  exports.Set("Session", Session::Define(env));
#ifdef __linux__
  exports.Set("ownRuntimeAccess", Napi::Boolean::New(env, true));
#else
  exports.Set("ownRuntimeAccess", Napi::Boolean::New(env, false));
#endif
  return exports;
}

}  // namespace

NODE_API_MODULE(debugbridge_dotnet, Init)
