// While the debuggee is stopped its memory cannot change, yet the runtime's debugger libraries read
// it again and again in 4-byte pieces (on Linux each a pread of /proc/<pid>/mem, on Windows each a
// ReadProcessMemory, a round trip to the wineserver under Wine: over a thousand per breakpoint hit,
// over some thirty pages). This keeps whole pages of it for the length of one stop; on Linux a stop
// also begins by reading the pages the previous one used in a single process_vm_readv call (a
// conditional breakpoint's hits read the same frame's pages each time). Linux
// (debuggee_memory_cache.cpp) and Windows (debuggee_memory_cache_windows.cpp); elsewhere every call
// does nothing.
#pragma once

#include <cstdint>

namespace dbg {
namespace debuggee_memory {

/**
 * Points the memory reads of the loaded mscordaccore/mscordbi at the cache, and their exchanges with
 * the runtime at a flush (a message to or from the runtime may mean its memory changed). Harmless to
 * call again. DEBUGBRIDGE_DOTNET_MEMORY_CACHE=0 turns it off.
 */
void InstallHooks();
/** `pid` is synchronized (a callback is held, a stop completed): its pages may be kept from now on. */
void Enable(uint32_t pid);
/** `pid` is about to run, or is gone: forgets its pages and reads directly until the next Enable. */
void Disable(uint32_t pid);

}  // namespace debuggee_memory
}  // namespace dbg
