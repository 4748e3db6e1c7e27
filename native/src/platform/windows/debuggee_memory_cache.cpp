// The debuggee memory cache on Windows (../../runtime/debuggee_memory_cache.h): mscordbi reads the
// stopped debuggee through ReadProcessMemory, for itself and for the DAC, a few bytes at a time; under
// Wine each call is a round trip to the wineserver. Its exchanges with the runtime go through the
// debuggee's memory and events: a write of that memory or an event set is a request, a wait that
// ends signaled may be a reply, and either flushes what is kept.
#include "../../runtime/debuggee_memory_cache.h"

#include <windows.h>

#include <mutex>
#include <unordered_map>

#include "../../runtime/debuggee_pages.h"
#include "../import_patch.h"

namespace dbg {
namespace debuggee_memory {

namespace {

/** Shared by mscordbi's threads and the debugger thread, hence the one mutex. */
struct Cache {
  std::mutex mutex;
  PageStore store;
  /**
   * Process handle → the pid it opens (GetProcessId is a wineserver round trip under Wine: asked once
   * a handle, not at every stop), kept while the debuggee is the same: mscordbi keeps its handle open
   * as long as it debugs that process, and opens no other process.
   */
  std::unordered_map<HANDLE, uint32_t> handlePids;
  uint32_t debuggee = 0;

  /** The synchronized pid `process` opens, else 0. */
  uint32_t OwnerOf(HANDLE process) {
    auto known = handlePids.find(process);
    uint32_t pid = known != handlePids.end() ? known->second : (handlePids[process] = GetProcessId(process));
    return pid != 0 && store.Synchronized(pid) ? pid : 0;
  }
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: mscordbi's threads may outlive static destructors
  return *cache;
}

BOOL WINAPI CachedReadProcessMemory(HANDLE process, LPCVOID address, LPVOID buffer, SIZE_T size, SIZE_T* read) {
  if (size > 0 && size <= kLargestCachedRead) {
    Cache& cache = TheCache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.store.AnySynchronized()) {
      if (uint32_t pid = cache.OwnerOf(process)) {
        auto readPage = [process](uint32_t, uint64_t start, uint8_t* page) {
          SIZE_T got = 0;
          return ::ReadProcessMemory(process, reinterpret_cast<LPCVOID>(static_cast<uintptr_t>(start)), page, kPageBytes, &got) &&
                 got == kPageBytes;
        };
        auto offset = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(address));
        if (cache.store.Copy(pid, static_cast<uint8_t*>(buffer), size, offset, readPage)) {
          if (read) *read = size;
          return TRUE;
        }
        // A page at the edge of a mapping: read exactly what was asked, uncached.
      }
    }
  }
  return ::ReadProcessMemory(process, address, buffer, size, read);
}

void FlushAll() {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.store.Flush();
}

/** A wait that ended on an object (not on its timeout) may be the runtime's reply. */
DWORD FlushedIfSignaled(DWORD result, DWORD objects) {
  if (result < WAIT_OBJECT_0 + objects || (result >= WAIT_ABANDONED_0 && result < WAIT_ABANDONED_0 + objects)) FlushAll();
  return result;
}

BOOL WINAPI FlushingWriteProcessMemory(HANDLE process, LPVOID address, LPCVOID data, SIZE_T size, SIZE_T* written) {
  FlushAll();
  return ::WriteProcessMemory(process, address, data, size, written);
}
BOOL WINAPI FlushingSetEvent(HANDLE event) {
  FlushAll();
  return ::SetEvent(event);
}
DWORD WINAPI FlushingWaitForSingleObject(HANDLE object, DWORD ms) {
  return FlushedIfSignaled(::WaitForSingleObject(object, ms), 1);
}
DWORD WINAPI FlushingWaitForSingleObjectEx(HANDLE object, DWORD ms, BOOL alertable) {
  return FlushedIfSignaled(::WaitForSingleObjectEx(object, ms, alertable), 1);
}
DWORD WINAPI FlushingWaitForMultipleObjects(DWORD count, const HANDLE* objects, BOOL all, DWORD ms) {
  return FlushedIfSignaled(::WaitForMultipleObjects(count, objects, all, ms), count);
}
DWORD WINAPI FlushingWaitForMultipleObjectsEx(DWORD count, const HANDLE* objects, BOOL all, DWORD ms, BOOL alertable) {
  return FlushedIfSignaled(::WaitForMultipleObjectsEx(count, objects, all, ms, alertable), count);
}
DWORD WINAPI FlushingSignalObjectAndWait(HANDLE signal, HANDLE object, DWORD ms, BOOL alertable) {
  FlushAll();
  return FlushedIfSignaled(::SignalObjectAndWait(signal, object, ms, alertable), 1);
}

}  // namespace

void InstallHooks() {
  const ImportHook hooks[] = {
      {"ReadProcessMemory", reinterpret_cast<void*>(&CachedReadProcessMemory)},
      {"WriteProcessMemory", reinterpret_cast<void*>(&FlushingWriteProcessMemory)},
      {"SetEvent", reinterpret_cast<void*>(&FlushingSetEvent)},
      {"WaitForSingleObject", reinterpret_cast<void*>(&FlushingWaitForSingleObject)},
      {"WaitForSingleObjectEx", reinterpret_cast<void*>(&FlushingWaitForSingleObjectEx)},
      {"WaitForMultipleObjects", reinterpret_cast<void*>(&FlushingWaitForMultipleObjects)},
      {"WaitForMultipleObjectsEx", reinterpret_cast<void*>(&FlushingWaitForMultipleObjectsEx)},
      {"SignalObjectAndWait", reinterpret_cast<void*>(&FlushingSignalObjectAndWait)},
  };
  PatchLibraries({"mscordaccore.dll", "mscordbi.dll"}, hooks, sizeof hooks / sizeof hooks[0]);
}

void Enable(uint32_t pid) {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.store.Start(pid);
  if (pid != cache.debuggee) {
    cache.handlePids.clear();  // another debuggee: a handle value may have been reused since
    cache.debuggee = pid;
  }
}

void Disable(uint32_t pid) {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.store.End(pid);
}

}  // namespace debuggee_memory
}  // namespace dbg
