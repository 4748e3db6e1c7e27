// Facts about a Windows process (the Win32 counterpart of linux/proc.h). No <windows.h> here.
#pragma once

#include <cstdint>
#include <string>

namespace dbg::windows_proc {

struct LoadedModule {
  std::string path;  // UTF-8, as the loader reports it
  uint64_t base = 0;
};
/** coreclr.dll as loaded in the target (empty path when not loaded yet, or the process cannot be read). */
LoadedModule FindCoreClr(uint32_t pid);

bool IsAlive(uint32_t pid);

}  // namespace dbg::windows_proc
