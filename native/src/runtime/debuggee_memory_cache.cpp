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
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "../platform/import_patch.h"
#include "debuggee_pages.h"

namespace dbg {
namespace debuggee_memory {

namespace {

/** Shared by mscordbi's threads and the debugger thread, hence the one mutex. */
struct Cache {
  std::mutex mutex;
  PageStore store;
  /** fd → the synchronized pid whose /proc/<pid>/mem it is (0: none), checked since the last Enable. */
  std::unordered_map<int, uint32_t> fdOwners;

  /**
   * Reads the pages the previous stop of `pid` used with process_vm_readv, many per system call,
   * instead of one pread each when the DAC first touches them. A page that is gone is skipped.
   */
  void Prefetch(uint32_t pid) {
    const std::vector<uint64_t>& starts = store.WorkingSet(pid);
    if (starts.empty()) return;
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
      for (size_t i = next; i < next + whole; ++i) store.Keep(pid, starts[i], std::move(buffers[i]), false);
      next += whole + 1;  // past the page that could not be read
    }
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
          store.Synchronized(pid)) {
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
    if (cache.store.AnySynchronized()) {
      if (uint32_t pid = cache.OwnerOf(fd)) {
        int saved = errno;
        auto read = [fd](uint32_t, uint64_t start, uint8_t* page) {
          return ::pread64(fd, page, kPageBytes, static_cast<off64_t>(start)) == static_cast<ssize_t>(kPageBytes);
        };
        if (cache.store.Copy(pid, static_cast<uint8_t*>(buffer), size, static_cast<uint64_t>(offset), read)) {
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
  cache.store.Flush();
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


}  // namespace

void InstallHooks() {
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
  PatchLibraries({"libmscordaccore.so", "libmscordbi.so"}, hooks, sizeof hooks / sizeof hooks[0]);
}

void Enable(uint32_t pid) {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  bool started = cache.store.Start(pid);
  cache.fdOwners.clear();  // an fd number may have been reused since
  if (started) cache.Prefetch(pid);
}

void Disable(uint32_t pid) {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.store.End(pid);
  cache.fdOwners.clear();
}

}  // namespace debuggee_memory
}  // namespace dbg

#elif !defined(_WIN32)  // Windows: debuggee_memory_cache_windows.cpp

namespace dbg {
namespace debuggee_memory {
void InstallHooks() {}
void Enable(uint32_t) {}
void Disable(uint32_t) {}
}  // namespace debuggee_memory
}  // namespace dbg

#endif
