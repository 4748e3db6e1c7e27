// Facts about a process read from /proc (Linux).
#pragma once

#include <cstdint>
#include <string>

namespace dbg::linux_proc {

/** Field 22 of /proc/<pid>/stat (start time in jiffies); 0 when unreadable, as the runtime does. */
uint64_t StartTime(uint32_t pid);

struct LoadedModule {
  std::string path;
  uint64_t base = 0;
};
/** The mapping of libcoreclr.so in the target (empty path when not loaded yet). */
LoadedModule FindCoreClr(uint32_t pid);

/** Where the runtime's debugger transport pipe of `pid` lives, for this process's TMPDIR. */
std::string TransportPipe(uint32_t pid, uint64_t key, const char* direction);

bool IsAlive(uint32_t pid);

}  // namespace dbg::linux_proc
