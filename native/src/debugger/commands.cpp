#include "commands.h"

#include <exception>
#include <optional>
#include <unordered_map>

#include "../util/json.h"
#include "../util/log.h"
#include "enc_commands.h"
#include "eval_commands.h"
#include "heap_commands.h"
#include "object_reader.h"
#include "stack_walker.h"
#include "thread_commands.h"
#include "value_commands.h"

namespace dbg {

namespace {

using Command = void (*)(DebugSession&, const Args&, Reply&);

void Answer(Reply& reply, const Status& status, std::string json = "{}") {
  if (status.Ok()) reply.Ok(std::move(json));
  else reply.Fail(status);
}

// ---- lifecycle ----

void AttachAtStartup(DebugSession& s, const Args& a, Reply& reply) {
  std::string access;
  Status status = s.AttachAtStartup(a["pid"].Uint(), static_cast<int>(a["resume"].Int(-1)),
                                    static_cast<int>(a["timeoutMs"].Int(30000)), a["dbgshimPath"].Str(), access);
  Answer(reply, status, JsonObject().Int("pid", a["pid"].Uint()).Str("access", access).Raw("marks", StartupMarksJson()).Done());
}

void AttachRunning(DebugSession& s, const Args& a, Reply& reply) {
  std::string access;
  Status status = s.AttachRunning(a["pid"].Uint(), static_cast<int>(a["timeoutMs"].Int(30000)), a["dbgshimPath"].Str(), access);
  Answer(reply, status, JsonObject().Int("pid", a["pid"].Uint()).Str("access", access).Done());
}

/** Options merge: only the keys given change. */
void Configure(DebugSession& s, const Args& a, Reply& reply) {
  SessionOptions& o = s.Options();
  o.stopOnFirstChance = a["stopOnFirstChance"].Bool(o.stopOnFirstChance);
  o.stopOnUnhandled = a["stopOnUnhandled"].Bool(o.stopOnUnhandled);
  o.holdModuleLoads = a["holdModuleLoads"].Bool(o.holdModuleLoads);
  reply.Ok();
}

void Continue(DebugSession& s, const Args&, Reply& reply) {
  bool wasStopped = false;
  Status status = s.Continue(wasStopped);
  Answer(reply, status, JsonObject().Bool("continued", wasStopped).Done());
}

void Release(DebugSession& s, const Args&, Reply& reply) {
  bool released = false;
  Status status = s.Release(released);
  Answer(reply, status, JsonObject().Bool("released", released).Done());
}

void Pause(DebugSession& s, const Args&, Reply& reply) {
  bool wasRunning = false;
  Status status = s.Pause(wasRunning);
  Answer(reply, status, JsonObject().Bool("wasRunning", wasRunning).Done());
}

void Detach(DebugSession& s, const Args&, Reply& reply) {
  bool wasAttached = s.Process() != nullptr && !s.Exited();
  Answer(reply, s.Detach(), JsonObject().Bool("detached", wasAttached).Done());
}

void Close(DebugSession& s, const Args&, Reply& reply) {
  s.Close();
  reply.Ok();
}

// ---- threads and stacks ----

std::string ThreadListJson(ICorDebugProcess* process) {
  ComPtr<ICorDebugThreadEnum> threads;
  std::string items = "[";
  if (Failed(process->EnumerateThreads(threads.Out())) || !threads) return items + "]";
  while (true) {
    ICorDebugThread* raw = nullptr;
    ULONG fetched = 0;
    if (Failed(threads->Next(1, &raw, &fetched)) || fetched == 0) break;
    auto thread = ComPtr<ICorDebugThread>::Adopt(raw);
    DWORD id = 0;
    thread->GetID(&id);
    JsonObject item;
    item.Int("id", id);
    ComPtr<ICorDebugValue> object;
    std::string name;
    if (!Failed(thread->GetObject(object.Out())) && ReadStringField(object, "System.Threading.Thread", u"_name", name)) {
      item.Str("name", name);
    }
    items += (items.size() > 1 ? "," : "") + item.Done();
  }
  return items + "]";
}

void Threads(DebugSession& s, const Args&, Reply& reply) {
  std::string json;
  Status status = s.WithProcessStopped([&] {
    json = JsonObject().Raw("threads", ThreadListJson(s.Process())).Done();
    return Status::Success();
  });
  Answer(reply, status, json);
}

void Stack(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  if (!s.Stopped()) return reply.Fail("NOT_STOPPED", "the stack can be read only while the program is stopped");
  reply.Ok(FramesJson(thread.Get(), a["start"].Uint(0), a["count"].Uint(20), s.Modules()));
}

// ---- modules, breakpoints, steps ----

void SetUserCode(DebugSession& s, const Args& a, Reply& reply) {
  std::vector<mdToken> tokens;
  for (const auto& t : a["nonUserTokens"].Items()) tokens.push_back(t.Uint());
  bool optimizationsDisabled = false;
  Status status = s.Modules().SetUserCode(static_cast<int>(a["module"].Int()), a["user"].Bool(), tokens,
                                          a["disableOptimizations"].Bool(true), optimizationsDisabled);
  Answer(reply, status, JsonObject().Bool("optimizationsDisabled", optimizationsDisabled).Done());
}

void CreateBreakpoint(DebugSession& s, const Args& a, Reply& reply) {
  auto module = s.Modules().Get(static_cast<int>(a["module"].Int()));
  if (!module) return reply.Fail("NO_MODULE", "the module is not loaded");
  int id = 0;
  Status status = s.Breakpoints().Create(module.Get(), a["token"].Uint(), a["ilOffset"].Uint(), id);
  Answer(reply, status, JsonObject().Int("id", id).Done());
}

void RemoveBreakpoint(DebugSession& s, const Args& a, Reply& reply) {
  s.Breakpoints().Remove(static_cast<int>(a["id"].Int()));
  reply.Ok();
}

/** A breakpoint's condition decided at each hit on the debugger thread; an empty program clears it. */
void SetHitFilter(DebugSession& s, const Args& a, Reply& reply) {
  std::optional<HitFilter> filter;
  if (!a["program"].Items().empty()) {
    filter.emplace();
    Status status = HitFilter::Parse(a["program"], s.Modules(), *filter);
    if (!status.Ok()) return reply.Fail(status);
  }
  s.Breakpoints().SetFilter(static_cast<int>(a["id"].Int()), std::move(filter));
  reply.Ok();
}

/** Starts a step and lets the program run; StepComplete (or another stop) arrives as an event. */
void Step(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  std::vector<COR_DEBUG_STEP_RANGE> ranges;
  for (const auto& r : a["ranges"].Items()) ranges.push_back({r.Items().at(0).Uint(), r.Items().at(1).Uint()});
  status = s.Stepper().Start(thread.Get(), a["kind"].Str(), ranges, a["justMyCode"].Bool(true));
  if (!status.Ok()) return reply.Fail(status);
  bool wasStopped = false;
  Answer(reply, s.Continue(wasStopped));
}

void CancelStep(DebugSession& s, const Args&, Reply& reply) {
  s.Stepper().Cancel();
  reply.Ok();
}

const std::unordered_map<std::string, Command>& Table() {
  static const std::unordered_map<std::string, Command> table = {
      {"attachAtStartup", AttachAtStartup},
      {"attachRunning", AttachRunning},
      {"configure", Configure},
      {"continue", Continue},
      {"release", Release},
      {"pause", Pause},
      {"detach", Detach},
      {"close", Close},
      {"threads", Threads},
      {"stack", Stack},
      {"setUserCode", SetUserCode},
      {"createBreakpoint", CreateBreakpoint},
      {"removeBreakpoint", RemoveBreakpoint},
      {"setHitFilter", SetHitFilter},
      {"step", Step},
      {"cancelStep", CancelStep},
      {"frameValues", FrameValues},
      {"variable", Variable},
      {"fields", Fields},
      {"staticField", StaticField},
      {"items", Items},
      {"declaredTypes", DeclaredTypes},
      {"call", Call},
      {"newString", NewString},
      {"newObject", NewObject},
      {"newArray", NewArray},
      {"abortEval", AbortEval},
      {"setValue", SetValue},
      {"valueBytes", ValueBytes},
      {"currentException", CurrentException},
      {"returnValue", ReturnValue},
      {"blockingObjects", BlockingObjects},
      {"threadObject", ThreadObject},
      {"heapObjects", HeapObjects},
      {"setIp", SetIp},
      {"keep", Keep},
      {"unkeep", Unkeep},
      {"sameObject", SameObject},
      {"enableEnc", EnableEnc},
      {"applyChanges", ApplyChanges},
      {"remap", Remap},
  };
  return table;
}

}  // namespace

void RunCommand(DebugSession& session, const std::string& name, const Args& args, Reply reply) {
  auto it = Table().find(name);
  if (it == Table().end()) return reply.Fail("UNKNOWN_COMMAND", "the native debugger has no command " + name);
  try {
    it->second(session, args, reply);
  } catch (const std::exception& e) {
    reply.Fail("NATIVE_EXCEPTION", std::string(name) + " failed: " + e.what());
  } catch (...) {
    reply.Fail("NATIVE_EXCEPTION", std::string(name) + " failed with an unknown C++ exception");
  }
}

}  // namespace dbg
