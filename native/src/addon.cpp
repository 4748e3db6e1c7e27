// The Node-API surface of the .NET debugger. Deliberately thin: it starts processes, queues commands
// for the debugger thread and hands back JSON; the TypeScript engine owns every decision it can.
//
//   initialize(ErrorClass)                       error class thrown/rejected for native failures
//   spawnSuspended({file, argv, env, cwd, startNow}) -> {pid, keeperPid, stdoutFd, stderrFd, resumeFd, statusFd,
//                                                     startupKey | startupError}  (startNow: Linux, below)
//                                                   Windows: + {stdoutPipe, stderrPipe, statusPipe, resumeThread}
//   discardStartup(pid, startupKey)               removes a prepared startup handshake no debugger took (Linux)
//   reapKeeper(keeperPid)                        -> boolean
//   terminateSpawned(keeperPid, exitCode)        -> boolean (Windows: ends the debuggee's job)
//   new Session(onEvent(json))                   one debuggee on its own debugger thread
//     .call(command, args)                       -> Promise of JSON text (commands: debugger/commands.cpp)
//     .close()                                   ends the session and its thread
#include <napi.h>

#include <memory>

#include "debugger/commands.h"
#include "debugger/debug_session.h"
#include "debugger/work_queue.h"
#include "platform/spawn.h"
#ifdef __linux__
#include "platform/linux/startup_semaphores.h"
#endif

namespace {

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

std::string StringOption(const Napi::Object& options, const char* key) {
  Napi::Value v = options.Get(key);
  return v.IsString() ? v.As<Napi::String>().Utf8Value() : std::string();
}

/** A JavaScript value copied into plain C++ (on the JS thread) for the debugger thread. */
dbg::Args ToArgs(const Napi::Value& value, int depth = 0) {
  if (depth > 8) return {};
  if (value.IsNumber()) return dbg::Args::Number(value.As<Napi::Number>().DoubleValue());
  if (value.IsBoolean()) return dbg::Args::Boolean(value.As<Napi::Boolean>().Value());
  if (value.IsString()) return dbg::Args::String(value.As<Napi::String>().Utf8Value());
  if (value.IsArray()) {
    auto array = value.As<Napi::Array>();
    std::vector<dbg::Args> items;
    for (uint32_t i = 0; i < array.Length(); ++i) items.push_back(ToArgs(array.Get(i), depth + 1));
    return dbg::Args::List(std::move(items));
  }
  if (value.IsObject()) {
    auto object = value.As<Napi::Object>();
    auto names = object.GetPropertyNames();
    std::vector<std::pair<std::string, dbg::Args>> fields;
    for (uint32_t i = 0; i < names.Length(); ++i) {
      std::string key = names.Get(i).ToString().Utf8Value();
      fields.emplace_back(key, ToArgs(object.Get(key), depth + 1));
    }
    return dbg::Args::Object(std::move(fields));
  }
  return {};
}

class Session : public Napi::ObjectWrap<Session> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Session", {InstanceMethod("call", &Session::Call), InstanceMethod("close", &Session::Close)});
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
  /** A promise and the Reply that settles it from the debugger thread. */
  std::pair<Napi::Promise, dbg::Reply> MakeReply(Napi::Env env) {
    auto* deferred = new Napi::Promise::Deferred(env);
    Napi::Promise promise = deferred->Promise();
    Channel channel = channel_;
    dbg::Reply reply([channel, deferred](dbg::Status status, std::string json) mutable {
      auto* delivery = new Delivery(std::move(json), deferred, std::move(status));
      if (channel.NonBlockingCall(delivery) != napi_ok) delete delivery;  // JavaScript is gone
    });
    return {promise, std::move(reply)};
  }

  Napi::Value Rejected(Napi::Env env, const char* code, const std::string& message) {
    auto deferred = Napi::Promise::Deferred::New(env);
    deferred.Reject(MakeError(env, dbg::Status::Fail(code, message)).Value());
    return deferred.Promise();
  }

  Napi::Value Call(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (closed_) return Rejected(env, "CLOSED", "the debugger session is closed");
    if (!info[0].IsString()) return Rejected(env, "BAD_COMMAND", "call(command, args): command must be a string");
    std::string command = info[0].As<Napi::String>().Utf8Value();
    dbg::Args args = ToArgs(info[1]);
    auto [promise, reply] = MakeReply(env);
    auto session = session_;
    queue_->Post([session, command, args = std::move(args), reply = std::move(reply)]() mutable {
      dbg::RunCommand(*session, command, args, std::move(reply));
    });
    return promise;
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (closed_) return Rejected(env, "CLOSED", "the debugger session is closed");
    closed_ = true;
    auto [promise, reply] = MakeReply(env);
    auto session = session_;
    auto queue = queue_;
    Channel channel = channel_;
    queue_->Post([session, queue, channel, reply = std::move(reply)]() mutable {
      session->Close();
      reply.Ok();
      channel.Release();
      queue->RequestStop();
    });
    return promise;
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
  out.Set("statusFd", result.statusFd);
  if (!result.statusPipe.empty()) {
    out.Set("stdoutPipe", result.stdoutPipe);
    out.Set("stderrPipe", result.stderrPipe);
    out.Set("statusPipe", result.statusPipe);
    out.Set("resumeThread", result.resumeThread);
  }
#ifdef __linux__
  // The startup handshake prepared here, the program runs at once: its runtime starts while the
  // debugger host gets ready (and waits for it); else it waits before exec for the host's byte.
  if (o.Get("startNow").ToBoolean().Value()) {
    uint64_t key = 0;
    std::string error;
    if (dbg::StartPrepared(result.pid, result.resumeFd, key, error)) {
      result.resumeFd = -1;
      out.Set("startupKey", std::to_string(key));
    } else {
      out.Set("startupError", error);
    }
  }
#endif
  out.Set("resumeFd", result.resumeFd);
  return out;
}

#ifdef __linux__
Napi::Value DiscardStartup(const Napi::CallbackInfo& info) {
  dbg::DiscardStartup(info[0].As<Napi::Number>().Int32Value(), std::strtoull(info[1].ToString().Utf8Value().c_str(), nullptr, 10));
  return info.Env().Undefined();
}
#endif

Napi::Value ReapKeeper(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), dbg::ReapKeeper(info[0].As<Napi::Number>().Int32Value()));
}

#ifdef _WIN32
Napi::Value TerminateSpawned(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), dbg::TerminateSpawned(info[0].As<Napi::Number>().Int32Value(),
                                                              info[1].As<Napi::Number>().Uint32Value()));
}
#endif

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new AddonData());
  exports.Set("initialize", Napi::Function::New(env, Initialize));
  exports.Set("spawnSuspended", Napi::Function::New(env, SpawnSuspended));
  exports.Set("reapKeeper", Napi::Function::New(env, ReapKeeper));
  exports.Set("Session", Session::Define(env));
#ifdef __linux__
  exports.Set("discardStartup", Napi::Function::New(env, DiscardStartup));
#endif
#if defined(__linux__) || defined(_WIN32)
  exports.Set("ownRuntimeAccess", Napi::Boolean::New(env, true));
#else
  exports.Set("ownRuntimeAccess", Napi::Boolean::New(env, false));
#endif
#ifdef _WIN32
  exports.Set("terminateSpawned", Napi::Function::New(env, TerminateSpawned));
#endif
  return exports;
}

}  // namespace

NODE_API_MODULE(debugbridge_dotnet, Init)
