#include "debuggee_memory_cache.h"

#ifdef __linux__

#include <limits.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

#include "../platform/linux/import_patch.h"
#include "../util/log.h"

namespace dbg {
namespace debuggee_memory {

namespace {

constexpr size_t kPageBytes = 4096;
/** Past this the cache starts over: a stop that reads more is rare, and memory stays bounded. */
constexpr size_t kMaxPages = (16u << 20) / kPageBytes;
/** Bigger reads (a long string, an array) are one syscall anyway: they go straight through. */
constexpr size_t kLargestCachedRead = 4 * kPageBytes;
/** Pages of the last stop read again, in one call, when the next stop begins (see Prefetch). */
constexpr size_t kMaxPrefetchPages = 256;

using Page = std::unique_ptr<uint8_t[]>;

struct CachedPage {
  Page bytes;
  /** Read during this stop (a prefetched page may not be): what the next stop prefetches. */
  bool used;
};

/** Shared by mscordbi's threads and the debugger thread, hence the one mutex. */
struct Cache {
  std::mutex mutex;
  std::set<uint32_t> synchronized;
  /** fd → the synchronized pid whose /proc/<pid>/mem it is (0: none), checked since the last Enable. */
  std::unordered_map<int, uint32_t> fdOwners;
  std::unordered_map<uint32_t, std::unordered_map<uint64_t, CachedPage>> pages;
  size_t pageCount = 0;
  /** The page the last read used: the DAC reads a structure field by field, mostly from one page. */
  uint32_t lastPid = 0;
  uint64_t lastStart = 0;
  const uint8_t* lastPage = nullptr;
  /** pid → the pages its last stop read: the next stop (the same breakpoint, often) reads them again. */
  std::unordered_map<uint32_t, std::vector<uint64_t>> workingSets;

  void Flush() {
    pages.clear();
    pageCount = 0;
    lastPage = nullptr;
  }

  void Keep(uint32_t pid, uint64_t start, Page page, bool used) {
    if (pageCount >= kMaxPages) Flush();
    if (pages[pid].emplace(start, CachedPage{std::move(page), used}).second) ++pageCount;
  }

  const uint8_t* Find(uint32_t pid, uint64_t start) {
    if (lastPage && lastPid == pid && lastStart == start) return lastPage;
    auto mine = pages.find(pid);
    if (mine == pages.end()) return nullptr;
    auto found = mine->second.find(start);
    if (found == mine->second.end()) return nullptr;
    found->second.used = true;
    lastPid = pid;
    lastStart = start;
    lastPage = found->second.bytes.get();
    return lastPage;
  }

  /**
   * Reads the pages the previous stop of `pid` used with process_vm_readv, many per system call,
   * instead of one pread each when the DAC first touches them. A page that is gone is skipped.
   */
  void Prefetch(uint32_t pid) {
    auto known = workingSets.find(pid);
    if (known == workingSets.end() || known->second.empty()) return;
    const std::vector<uint64_t>& starts = known->second;
    std::vector<Page> buffers(starts.size());
    std::vector<iovec> local(starts.size()), remote(starts.size());
    for (size_t i = 0; i < starts.size(); ++i) {
      buffers[i].reset(new uint8_t[kPageBytes]);
      local[i] = {buffers[i].get(), kPageBytes};
      remote[i] = {reinterpret_cast<void*>(static_cast<uintptr_t>(starts[i])), kPageBytes};
    }
    size_t next = 0;
    while (next < starts.size()) {
      size_t count = std::min(starts.size() - next, static_cast<size_t>(IOV_MAX));
      ssize_t bytes = process_vm_readv(static_cast<pid_t>(pid), &local[next], count, &remote[next], count, 0);
      if (bytes < 0 && errno != EFAULT) return;  // not allowed here, or the process is gone: pread serves
      size_t whole = bytes > 0 ? static_cast<size_t>(bytes) / kPageBytes : 0;
      for (size_t i = next; i < next + whole; ++i) Keep(pid, starts[i], std::move(buffers[i]), false);
      next += whole + 1;  // past the page that could not be read
    }
  }

  /** Serves [offset, offset + size) of `pid` from whole pages; false when a page cannot be read whole. */
  bool Copy(uint32_t pid, int fd, uint8_t* out, size_t size, uint64_t offset) {
    while (size > 0) {
      uint64_t start = offset & ~static_cast<uint64_t>(kPageBytes - 1);
      const uint8_t* bytes = Find(pid, start);
      if (!bytes) {
        Page page(new uint8_t[kPageBytes]);
        if (::pread64(fd, page.get(), kPageBytes, static_cast<off64_t>(start)) != static_cast<ssize_t>(kPageBytes)) {
          return false;
        }
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

  uint32_t OwnerOf(int fd) {
    auto known = fdOwners.find(fd);
    if (known != fdOwners.end()) return known->second;
    char link[64], target[64];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, target, sizeof target - 1);
    uint32_t owner = 0;
    if (length > 0) {
      target[length] = 0;
      unsigned pid = 0;
      char rest[8] = {0};
      if (std::sscanf(target, "/proc/%u/%7s", &pid, rest) == 2 && std::strcmp(rest, "mem") == 0 &&
          synchronized.count(pid)) {
        owner = pid;
      }
    }
    fdOwners[fd] = owner;
    return owner;
  }
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: mscordbi's threads may outlive static destructors
  return *cache;
}

ssize_t CachedPread(int fd, void* buffer, size_t size, off64_t offset) {
  if (size > 0 && size <= kLargestCachedRead && offset >= 0) {
    Cache& cache = TheCache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (!cache.synchronized.empty()) {
      if (uint32_t pid = cache.OwnerOf(fd)) {
        int saved = errno;
        if (cache.Copy(pid, fd, static_cast<uint8_t*>(buffer), size, static_cast<uint64_t>(offset))) {
          return static_cast<ssize_t>(size);
        }
        errno = saved;  // a page at the edge of a mapping: read exactly what was asked, uncached
      }
    }
  }
  return ::pread64(fd, buffer, size, offset);
}

void FlushAll() {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.Flush();
}

// A request to the runtime (or a write of memory) may change it; a reply means it may have changed.
ssize_t FlushingWrite(int fd, const void* data, size_t size) {
  FlushAll();
  return ::write(fd, data, size);
}
ssize_t FlushingPwrite(int fd, const void* data, size_t size, off64_t offset) {
  FlushAll();
  return ::pwrite64(fd, data, size, offset);
}
ssize_t FlushingSend(int fd, const void* data, size_t size, int flags) {
  FlushAll();
  return ::send(fd, data, size, flags);
}
ssize_t FlushingSendmsg(int fd, const msghdr* message, int flags) {
  FlushAll();
  return ::sendmsg(fd, message, flags);
}
ssize_t FlushingRead(int fd, void* data, size_t size) {
  ssize_t result = ::read(fd, data, size);
  FlushAll();
  return result;
}
ssize_t FlushingRecv(int fd, void* data, size_t size, int flags) {
  ssize_t result = ::recv(fd, data, size, flags);
  FlushAll();
  return result;
}
ssize_t FlushingRecvmsg(int fd, msghdr* message, int flags) {
  ssize_t result = ::recvmsg(fd, message, flags);
  FlushAll();
  return result;
}

bool TurnedOff() {
  const char* setting = std::getenv("DEBUGBRIDGE_DOTNET_MEMORY_CACHE");
  return setting && (std::strcmp(setting, "0") == 0 || std::strcmp(setting, "off") == 0);
}

}  // namespace

void InstallHooks() {
  if (TurnedOff()) return;
  const ImportHook hooks[] = {
      {"pread64", reinterpret_cast<void*>(&CachedPread)},
      {"pread", reinterpret_cast<void*>(&CachedPread)},
      {"pwrite64", reinterpret_cast<void*>(&FlushingPwrite)},
      {"pwrite", reinterpret_cast<void*>(&FlushingPwrite)},
      {"write", reinterpret_cast<void*>(&FlushingWrite)},
      {"send", reinterpret_cast<void*>(&FlushingSend)},
      {"sendmsg", reinterpret_cast<void*>(&FlushingSendmsg)},
      {"read", reinterpret_cast<void*>(&FlushingRead)},
      {"recv", reinterpret_cast<void*>(&FlushingRecv)},
      {"recvmsg", reinterpret_cast<void*>(&FlushingRecvmsg)},
  };
  // The DAC's PAL owns the /proc/<pid>/mem reads; the DBI talks to the runtime over the transport.
  int patched = 0;
  for (const char* library : {"libmscordaccore.so", "libmscordbi.so"}) {
    patched += PatchImports(library, hooks, sizeof hooks / sizeof hooks[0]);
  }
  if (patched) Log("debuggee memory cache: %d imports redirected", patched);
}

void Enable(uint32_t pid) {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  bool already = !cache.synchronized.insert(pid).second;
  cache.fdOwners.clear();  // an fd number may have been reused since
  if (!already) cache.Prefetch(pid);
}

void Disable(uint32_t pid) {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.synchronized.erase(pid);
  cache.fdOwners.clear();
  std::vector<uint64_t>& workingSet = cache.workingSets[pid];
  workingSet.clear();
  auto mine = cache.pages.find(pid);
  if (mine == cache.pages.end()) return;
  for (const auto& [start, page] : mine->second) {
    if (workingSet.size() == kMaxPrefetchPages) break;
    if (page.used) workingSet.push_back(start);
  }
  cache.pageCount -= mine->second.size();
  cache.pages.erase(mine);
  cache.lastPage = nullptr;
}

}  // namespace debuggee_memory
}  // namespace dbg

#else

namespace dbg {
namespace debuggee_memory {
void InstallHooks() {}
void Enable(uint32_t) {}
void Disable(uint32_t) {}
}  // namespace debuggee_memory
}  // namespace dbg

#endif
