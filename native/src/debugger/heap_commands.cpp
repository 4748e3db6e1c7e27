#include "heap_commands.h"

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../util/json.h"
#include "value_json.h"

namespace dbg {

namespace {

constexpr uint32_t kDefaultMax = 5000;
constexpr uint32_t kDefaultTimeoutMs = 3000;
constexpr ULONG kBatch = 512;
constexpr int kMaxBaseDepth = 32;

using TypeKey = std::pair<uint64_t, uint64_t>;

/** Whether a class (or one of its bases) is one of the wanted TypeDefs, by module handle and token. */
class ClassMatcher {
 public:
  ClassMatcher(ICorDebugProcess5* process, const ModuleTable& modules, std::vector<std::pair<int, mdTypeDef>> wanted)
      : process_(process), modules_(modules), wanted_(std::move(wanted)) {}

  bool Matches(const COR_TYPEID& id) {
    TypeKey key{id.token1, id.token2};
    auto known = cache_.find(key);
    if (known != cache_.end()) return known->second;
    bool match = Compute(id);
    cache_.emplace(key, match);
    return match;
  }

 private:
  bool Compute(const COR_TYPEID& id) {
    ComPtr<ICorDebugType> type;
    if (Failed(process_->GetTypeForTypeID(id, type.Out())) || !type) return false;
    for (int depth = 0; type && depth < kMaxBaseDepth; ++depth) {
      CorElementType et = 0;
      if (Failed(type->GetType(&et)) || (et != ELEMENT_TYPE_CLASS && et != ELEMENT_TYPE_OBJECT)) return false;
      ComPtr<ICorDebugClass> cls;
      ComPtr<ICorDebugModule> module;
      mdTypeDef token = 0;
      if (!Failed(type->GetClass(cls.Out())) && cls && !Failed(cls->GetToken(&token)) && !Failed(cls->GetModule(module.Out()))) {
        int handle = modules_.HandleOf(module.Get());
        for (const auto& w : wanted_) {
          if (w.first == handle && w.second == token) return true;
        }
      }
      ComPtr<ICorDebugType> base;
      if (Failed(type->GetBase(base.Out()))) break;
      type = base;
    }
    return false;
  }

  ICorDebugProcess5* process_;
  const ModuleTable& modules_;
  std::vector<std::pair<int, mdTypeDef>> wanted_;
  std::map<TypeKey, bool> cache_;
};

}  // namespace

void HeapObjects(DebugSession& s, const Args& a, Reply& reply) {
  if (!s.Process()) return reply.Fail("NOT_ATTACHED", "no process is being debugged");
  if (!s.Stopped()) return reply.Fail("NOT_STOPPED", "the heap can be read only while the program is stopped");
  ComPtr<ICorDebugProcess5> process;
  if (Failed(ComPtr<ICorDebugProcess>::Retain(s.Process()).As(IID_ICorDebugProcess5, process))) {
    return reply.Fail("UNSUPPORTED", "this runtime cannot enumerate its heap (no ICorDebugProcess5)");
  }
  COR_HEAPINFO info{};
  if (Failed(process->GetGCHeapInformation(&info)) || !info.areGCStructuresValid) {
    return reply.Ok(JsonObject().Bool("valid", false).Raw("objects", "[]").Int("matched", 0).Int("scanned", 0).Done());
  }
  std::vector<std::pair<int, mdTypeDef>> wanted;
  for (const auto& c : a["classes"].Items()) wanted.emplace_back(static_cast<int>(c["module"].Int()), c["token"].Uint());
  ClassMatcher matcher(process.Get(), s.ModulesView(), std::move(wanted));
  uint32_t max = a["max"].Uint(kDefaultMax);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(a["timeoutMs"].Uint(kDefaultTimeoutMs));
  bool complete = true;

  ComPtr<ICorDebugHeapEnum> heap;
  HRESULT hr = process->EnumerateHeap(heap.Out());
  if (Failed(hr) || !heap) return reply.Fail("HEAP_UNREADABLE", "the runtime could not enumerate its heap", hr);
  std::string objects = "[";
  uint64_t scanned = 0;
  uint32_t matched = 0;
  std::vector<COR_HEAPOBJECT> batch(kBatch);
  while (true) {
    ULONG fetched = 0;
    hr = heap->Next(kBatch, batch.data(), &fetched);
    if (Failed(hr) || fetched == 0) break;
    scanned += fetched;
    for (ULONG i = 0; i < fetched; ++i) {
      if (!matcher.Matches(batch[i].type)) continue;
      if (matched++ >= max) continue;
      ComPtr<ICorDebugObjectValue> object;
      if (Failed(process->GetObject(batch[i].address, object.Out())) || !object) continue;
      auto value = ComPtr<ICorDebugValue>::Retain(object.Get());
      if (objects.size() > 1) objects += ",";
      objects += ValueJson(s.Values(), value, s.ModulesView(), DebugSession::kMaxStringChars);
    }
    if (hr == S_FALSE) break;
    if (std::chrono::steady_clock::now() > deadline) {
      complete = false;
      break;
    }
  }
  reply.Ok(JsonObject()
               .Bool("valid", true)
               .Bool("complete", complete)
               .Raw("objects", objects + "]")
               .Int("matched", matched)
               .Int("scanned", static_cast<int64_t>(scanned))
               .Done());
}

}  // namespace dbg
