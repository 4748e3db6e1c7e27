#include "debuggee_memory_cache.h"

#ifdef __linux__

#include <sys/socket.h>
#include <sys/types.h>
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

using Page = std::unique_ptr<uint8_t[]>;

/** Shared by mscordbi's threads and the debugger thread, hence the one mutex. */
struct Cache {
  std::mutex mutex;
  std::set<uint32_t> synchronized;
  /** fd → the synchronized pid whose /proc/<pid>/mem it is (0: none), checked since the last Enable. */
  std::unordered_map<int, uint32_t> fdOwners;
  std::unordered_map<uint32_t, std::unordered_map<uint64_t, Page>> pages;
  size_t pageCount = 0;

  void Flush() {
    pages.clear();
    pageCount = 0;
  }

  /** Serves [offset, offset + size) of `pid` from whole pages; false when a page cannot be read whole. */
  bool Copy(uint32_t pid, int fd, uint8_t* out, size_t size, uint64_t offset) {
    while (size > 0) {
      uint64_t start = offset & ~static_cast<uint64_t>(kPageBytes - 1);
      auto& mine = pages[pid];
      auto found = mine.find(start);
      if (found == mine.end()) {
        Page page(new uint8_t[kPageBytes]);
        if (::pread64(fd, page.get(), kPageBytes, static_cast<off64_t>(start)) != static_cast<ssize_t>(kPageBytes)) {
          return false;
        }
        if (pageCount >= kMaxPages) Flush();
        found = pages[pid].emplace(start, std::move(page)).first;
        ++pageCount;
      }
      size_t within = static_cast<size_t>(offset - start);
      size_t chunk = std::min(size, kPageBytes - within);
      std::memcpy(out, found->second.get() + within, chunk);
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
  cache.synchronized.insert(pid);
  cache.fdOwners.clear();  // an fd number may have been reused since
}

void Disable(uint32_t pid) {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.synchronized.erase(pid);
  cache.fdOwners.clear();
  auto mine = cache.pages.find(pid);
  if (mine == cache.pages.end()) return;
  cache.pageCount -= mine->second.size();
  cache.pages.erase(mine);
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
