#include "stack_walker.h"

#include "../util/json.h"
#include "type_json.h"

namespace dbg {

namespace {

template <typename Enum, typename Item>
std::vector<ComPtr<Item>> Drain(Enum* items, size_t max) {
  std::vector<ComPtr<Item>> out;
  while (out.size() < max) {
    Item* raw = nullptr;
    ULONG fetched = 0;
    if (Failed(items->Next(1, &raw, &fetched)) || fetched == 0) break;
    out.push_back(ComPtr<Item>::Adopt(raw));
  }
  return out;
}

std::string IlFrameJson(ICorDebugFrame* frame, ICorDebugILFrame* il, const ModuleTable& modules) {
  JsonObject json;
  json.Str("kind", "il");
  ULONG32 offset = 0;
  CorDebugMappingResult mapping = MAPPING_NO_INFO;
  il->GetIP(&offset, &mapping);
  ComPtr<ICorDebugFunction> function;
  mdToken token = 0;
  ComPtr<ICorDebugModule> module;
  if (!Failed(frame->GetFunction(function.Out())) && function) {
    function->GetToken(&token);
    function->GetModule(module.Out());
  }
  json.Int("module", modules.HandleOf(module.Get())).Int("token", token).Int("ilOffset", offset).Int("mapping", mapping);
  // After an Edit and Continue apply a frame may still run an older version of its method.
  ComPtr<ICorDebugCode> code;
  ULONG32 version = 1;
  if (!Failed(frame->GetCode(code.Out())) && code && !Failed(code->GetVersionNumber(&version)) && version > 1) json.Int("version", version);
  ComPtr<ICorDebugILFrame2> il2;
  ComPtr<ICorDebugTypeEnum> typeArgs;
  if (!Failed(ComPtr<ICorDebugILFrame>::Retain(il).As(IID_ICorDebugILFrame2, il2)) &&
      !Failed(il2->EnumerateTypeParameters(typeArgs.Out())) && typeArgs) {
    std::string args = "[";
    for (auto& type : Drain<ICorDebugTypeEnum, ICorDebugType>(typeArgs.Get(), 64)) {
      if (args.size() > 1) args += ",";
      args += TypeJson(type.Get(), modules);
    }
    json.Raw("typeArgs", args + "]");
  }
  return json.Done();
}

std::string FrameJson(const ComPtr<ICorDebugFrame>& frame, const ModuleTable& modules) {
  if (!frame) return JsonObject().Str("kind", "native").Done();
  ComPtr<ICorDebugILFrame> il;
  if (!Failed(frame.As(IID_ICorDebugILFrame, il))) return IlFrameJson(frame.Get(), il.Get(), modules);
  ComPtr<ICorDebugInternalFrame> internal;
  if (!Failed(frame.As(IID_ICorDebugInternalFrame, internal))) {
    CorDebugInternalFrameType type = STUBFRAME_NONE;
    internal->GetFrameType(&type);
    return JsonObject().Str("kind", "internal").Int("frameType", type).Done();
  }
  return JsonObject().Str("kind", "native").Done();
}

}  // namespace

std::vector<ComPtr<ICorDebugFrame>> WalkFrames(ICorDebugThread* thread, size_t max) {
  std::vector<ComPtr<ICorDebugFrame>> frames;
  ComPtr<ICorDebugChainEnum> chains;
  if (Failed(thread->EnumerateChains(chains.Out())) || !chains) return frames;
  for (auto& chain : Drain<ICorDebugChainEnum, ICorDebugChain>(chains.Get(), 4096)) {
    if (frames.size() >= max) break;
    BOOL managed = 0;
    chain->IsManaged(&managed);
    if (!managed) {
      frames.emplace_back();  // a native chain shows as one native frame
      continue;
    }
    ComPtr<ICorDebugFrameEnum> items;
    if (Failed(chain->EnumerateFrames(items.Out())) || !items) continue;
    for (auto& frame : Drain<ICorDebugFrameEnum, ICorDebugFrame>(items.Get(), max - frames.size())) frames.push_back(frame);
  }
  return frames;
}

ComPtr<ICorDebugFrame> FrameAt(ICorDebugThread* thread, size_t index) {
  // The innermost frame from the lazy V3 stack walk, without walking the rest of the stack: a
  // breakpoint's condition reads it at every hit.
  if (index == 0) {
    ComPtr<ICorDebugThread3> thread3;
    ComPtr<ICorDebugStackWalk> walk;
    ComPtr<ICorDebugFrame> first;
    if (!Failed(ComPtr<ICorDebugThread>::Retain(thread).As(IID_ICorDebugThread3, thread3)) && !Failed(thread3->CreateStackWalk(walk.Out())) &&
        walk->GetFrame(first.Out()) == S_OK && first) {
      return first;
    }
  }
  auto frames = WalkFrames(thread, index + 1);
  return index < frames.size() ? frames[index] : ComPtr<ICorDebugFrame>();
}

std::string FramesJson(ICorDebugThread* thread, size_t start, size_t count, const ModuleTable& modules) {
  constexpr size_t kMaxFrames = 10000;
  if (start == 0 && count == 1) {
    // The top frame alone (a step's end, a breakpoint's condition): no stack walk; `total` unknown (-1).
    auto top = FrameAt(thread, 0);
    return JsonObject().Raw("frames", "[" + FrameJson(top, modules) + "]").Int("total", -1).Done();
  }
  auto frames = WalkFrames(thread, kMaxFrames);
  std::string items = "[";
  for (size_t i = start; i < frames.size() && i < start + count; ++i) {
    if (items.size() > 1) items += ",";
    items += FrameJson(frames[i], modules);
  }
  return JsonObject().Raw("frames", items + "]").Int("total", static_cast<int64_t>(frames.size())).Done();
}

}  // namespace dbg
