// Whole pages of stopped debuggees' memory, kept for the length of one stop, and the pages each
// stop used (the next stop of the same breakpoint reads them again). The platform's cache
// (debuggee_memory_cache*.cpp) reads pages with its own calls and serializes every use of a store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

namespace dbg {

struct ImportHook;

namespace debuggee_memory {

constexpr size_t kPageBytes = 4096;
/** Bigger reads (a long string, an array) are one call anyway: they go straight through. */
constexpr size_t kLargestCachedRead = 4 * kPageBytes;

using Page = std::unique_ptr<uint8_t[]>;

class PageStore {
 public:
  /** Fills `page` with the whole page of `pid` at `start`; false when it cannot be read whole. */
  using ReadPage = std::function<bool(uint32_t pid, uint64_t start, uint8_t* page)>;

  bool AnySynchronized() const { return !synchronized_.empty(); }
  bool Synchronized(uint32_t pid) const { return synchronized_.count(pid) != 0; }
  /** `pid` is stopped from now on; answers whether it was running until now. */
  bool Start(uint32_t pid) { return synchronized_.insert(pid).second; }
  /** `pid` runs from now on: forgets its pages, remembering which ones this stop used. */
  void End(uint32_t pid);
  /** The pages the last stop of `pid` used (empty when none). */
  const std::vector<uint64_t>& WorkingSet(uint32_t pid) { return workingSets_[pid]; }

  void Keep(uint32_t pid, uint64_t start, Page page, bool used);
  /** Serves [offset, offset + size) of `pid` from whole pages, reading the missing ones; false when one cannot be. */
  bool Copy(uint32_t pid, uint8_t* out, size_t size, uint64_t offset, const ReadPage& read);
  void Flush();

 private:
  struct CachedPage {
    Page bytes;
    /** Read during this stop (a prefetched page may not be): what the next stop prefetches. */
    bool used;
  };
  const uint8_t* Find(uint32_t pid, uint64_t start);

  std::set<uint32_t> synchronized_;
  std::unordered_map<uint32_t, std::unordered_map<uint64_t, CachedPage>> pages_;
  size_t pageCount_ = 0;
  /** The page the last read used: the DAC reads a structure field by field, mostly from one page. */
  uint32_t lastPid_ = 0;
  uint64_t lastStart_ = 0;
  const uint8_t* lastPage_ = nullptr;
  std::unordered_map<uint32_t, std::vector<uint64_t>> workingSets_;
};

/**
 * Points the imports of every loaded library named in `libraries` at `hooks` (../platform/import_patch.h)
 * and logs how many changed; nothing when DEBUGBRIDGE_DOTNET_MEMORY_CACHE is 0 or off.
 */
void PatchLibraries(std::initializer_list<const char*> libraries, const ImportHook* hooks, size_t count);

}  // namespace debuggee_memory
}  // namespace dbg
