#include "thread_commands.h"

#include <string>

#include "../cordebug/cordebug_errors.h"
#include "../util/json.h"
#include "stack_walker.h"
#include "value_json.h"

namespace dbg {

namespace {
const char* SetIpRefusal(HRESULT hr) {
  switch (hr) {
    case CORDBG_E_CANT_SET_IP_INTO_FINALLY:
    case CORDBG_E_CANT_SET_IP_OUT_OF_FINALLY:
    case CORDBG_E_CANT_SET_IP_OUT_OF_FINALLY_ON_WIN64: return "the runtime cannot move into or out of a finally block";
    case CORDBG_E_CANT_SET_IP_INTO_CATCH:
    case CORDBG_E_CANT_SET_IP_OUT_OF_CATCH_ON_WIN64: return "the runtime cannot move into or out of a catch block";
    case CORDBG_E_SET_IP_NOT_ALLOWED_ON_NONLEAF_FRAME: return "only the innermost frame can move";
    case CORDBG_E_SET_IP_NOT_ALLOWED_ON_EXCEPTION: return "the next statement cannot move while an exception is being handled";
    case CORDBG_E_SET_IP_IMPOSSIBLE: return "the runtime cannot move there (a different stack depth or an unsafe point)";
    default: return "the runtime refused to move the next statement there";
  }
}
}  // namespace

void BlockingObjects(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  ComPtr<ICorDebugThread4> thread4;
  ComPtr<ICorDebugBlockingObjectEnum> objects;
  std::string waits = "[";
  if (!Failed(thread.As(IID_ICorDebugThread4, thread4)) && !Failed(thread4->GetBlockingObjects(objects.Out())) && objects) {
    while (true) {
      CorDebugBlockingObject object{};
      ULONG fetched = 0;
      if (Failed(objects->Next(1, &object, &fetched)) || fetched == 0) break;
      auto value = ComPtr<ICorDebugValue>::Adopt(object.pBlockingObject);
      JsonObject wait;
      wait.Str("reason", object.blockingReason == BLOCKING_MONITOR_EVENT ? "wait" : "lock").Int("timeout", static_cast<int64_t>(object.dwTimeout));
      ComPtr<ICorDebugHeapValue3> heap;
      ComPtr<ICorDebugThread> owner;
      DWORD acquisitions = 0;
      auto target = Target(value);
      if (target && !Failed(target.As(IID_ICorDebugHeapValue3, heap)) && !Failed(heap->GetThreadOwningMonitorLock(owner.Out(), &acquisitions)) && owner) {
        DWORD ownerId = 0;
        owner->GetID(&ownerId);
        wait.Int("owner", ownerId);
      }
      if (value) wait.Raw("value", ValueJson(s.Values(), value, s.ModulesView(), DebugSession::kMaxStringChars));
      waits += (waits.size() > 1 ? "," : "") + wait.Done();
    }
  }
  reply.Ok(JsonObject().Raw("waits", waits + "]").Done());
}

void ThreadObject(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  if (!s.Stopped()) return reply.Fail("NOT_STOPPED", "a thread's object can be read only while the program is stopped");
  ComPtr<ICorDebugValue> object;
  HRESULT hr = thread->GetObject(object.Out());
  if (Failed(hr) || !object) return reply.Fail("NO_VALUE", "the thread has no managed Thread object yet", hr);
  reply.Ok(JsonObject().Raw("value", ValueJson(s.Values(), object, s.ModulesView(), DebugSession::kMaxStringChars)).Done());
}

void SetIp(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  if (!s.Stopped()) return reply.Fail("NOT_STOPPED", "the next statement can be moved only while the program is stopped");
  ComPtr<ICorDebugILFrame> frame;
  auto top = FrameAt(thread.Get(), 0);
  if (!top || Failed(top.As(IID_ICorDebugILFrame, frame))) return reply.Fail("NO_FRAME", "the thread is not in IL code");
  ULONG32 offset = a["ilOffset"].Uint();
  HRESULT hr = frame->CanSetIP(offset);
  if (hr != S_OK) return reply.Fail("SETIP_REFUSED", SetIpRefusal(hr), hr);
  if (!a["check"].Bool()) {
    hr = frame->SetIP(offset);
    if (Failed(hr)) return reply.Fail("SETIP_REFUSED", SetIpRefusal(hr), hr);
  }
  reply.Ok();
}

}  // namespace dbg
