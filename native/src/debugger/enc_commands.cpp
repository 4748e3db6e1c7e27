#include "enc_commands.h"

#include <string>
#include <vector>

#include "../util/base64.h"
#include "../util/json.h"

namespace dbg {

void EnableEnc(DebugSession& s, const Args& a, Reply& reply) {
  bool enabled = s.Modules().EnableEditAndContinue(static_cast<int>(a["module"].Int()));
  reply.Ok(JsonObject().Bool("enabled", enabled).Done());
}

void ApplyChanges(DebugSession& s, const Args& a, Reply& reply) {
  auto module = s.Modules().Get(static_cast<int>(a["module"].Int()));
  if (!module) return reply.Fail("NO_MODULE", "the module is not loaded");
  if (!s.Stopped()) return reply.Fail("NOT_STOPPED", "changes are applied only while the program is stopped");
  std::vector<BYTE> metadata, il;
  if (!DecodeBase64(a["metadata"].Str(), metadata) || !DecodeBase64(a["il"].Str(), il)) {
    return reply.Fail("BAD_DELTA", "the delta is not base64");
  }
  ComPtr<ICorDebugModule2> module2;
  HRESULT hr = module.As(IID_ICorDebugModule2, module2);
  if (Failed(hr)) return reply.Fail("APPLY_FAILED", "the module has no ICorDebugModule2", hr);
  hr = module2->ApplyChanges(static_cast<ULONG>(metadata.size()), metadata.data(), static_cast<ULONG>(il.size()), il.data());
  if (Failed(hr)) return reply.Fail("APPLY_FAILED", "the runtime refused the changes (ICorDebugModule2::ApplyChanges)", hr);
  reply.Ok();
}

void Remap(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  ComPtr<ICorDebugFrame> active;
  ComPtr<ICorDebugILFrame2> frame;
  if (Failed(thread->GetActiveFrame(active.Out())) || !active || Failed(active.As(IID_ICorDebugILFrame2, frame))) {
    return reply.Fail("NO_FRAME", "the thread is not in IL code");
  }
  HRESULT hr = frame->RemapFunction(a["ilOffset"].Uint());
  if (Failed(hr)) return reply.Fail("REMAP_FAILED", "the runtime refused to move the frame to the new code", hr);
  reply.Ok();
}

}  // namespace dbg
