#include "debuggee_pages.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "../platform/import_patch.h"
#include "../util/log.h"

namespace dbg {
namespace debuggee_memory {

namespace {
/** Past this the store starts over: a stop that reads more is rare, and memory stays bounded. */
constexpr size_t kMaxPages = (16u << 20) / kPageBytes;
/** Pages of a stop the next one may prefetch. */
constexpr size_t kMaxWorkingSetPages = 256;
}  // namespace

void PageStore::Flush() {
  pages_.clear();
  pageCount_ = 0;
  lastPage_ = nullptr;
}

void PageStore::Keep(uint32_t pid, uint64_t start, Page page, bool used) {
  if (pageCount_ >= kMaxPages) Flush();
  if (pages_[pid].emplace(start, CachedPage{std::move(page), used}).second) ++pageCount_;
}

const uint8_t* PageStore::Find(uint32_t pid, uint64_t start) {
  if (lastPage_ && lastPid_ == pid && lastStart_ == start) return lastPage_;
  auto mine = pages_.find(pid);
  if (mine == pages_.end()) return nullptr;
  auto found = mine->second.find(start);
  if (found == mine->second.end()) return nullptr;
  found->second.used = true;
  lastPid_ = pid;
  lastStart_ = start;
  lastPage_ = found->second.bytes.get();
  return lastPage_;
}

bool PageStore::Copy(uint32_t pid, uint8_t* out, size_t size, uint64_t offset, const ReadPage& read) {
  while (size > 0) {
    uint64_t start = offset & ~static_cast<uint64_t>(kPageBytes - 1);
    const uint8_t* bytes = Find(pid, start);
    if (!bytes) {
      Page page(new uint8_t[kPageBytes]);
      if (!read(pid, start, page.get())) return false;
      bytes = page.get();
      Keep(pid, start, std::move(page), true);
    }
    size_t within = static_cast<size_t>(offset - start);
    size_t chunk = std::min(size, kPageBytes - within);
    std::memcpy(out, bytes + within, chunk);
    out += chunk;
    offset += chunk;
    size -= chunk;
  }
  return true;
}

void PageStore::End(uint32_t pid) {
  synchronized_.erase(pid);
  std::vector<uint64_t>& workingSet = workingSets_[pid];
  workingSet.clear();
  auto mine = pages_.find(pid);
  if (mine == pages_.end()) return;
  for (const auto& [start, page] : mine->second) {
    if (workingSet.size() == kMaxWorkingSetPages) break;
    if (page.used) workingSet.push_back(start);
  }
  pageCount_ -= mine->second.size();
  pages_.erase(mine);
  lastPage_ = nullptr;
}

void PatchLibraries(std::initializer_list<const char*> libraries, const ImportHook* hooks, size_t count) {
  const char* setting = std::getenv("DEBUGBRIDGE_DOTNET_MEMORY_CACHE");
  if (setting && (std::strcmp(setting, "0") == 0 || std::strcmp(setting, "off") == 0)) return;
  int patched = 0;
  for (const char* library : libraries) patched += PatchImports(library, hooks, count);
  if (patched) Log("debuggee memory cache: %d imports redirected", patched);
}

}  // namespace debuggee_memory
}  // namespace dbg
