// Redirects a loaded library's calls to imported functions to our own functions: its GOT slots on
// Linux (linux/import_patch.cpp), its import address table on Windows (windows/import_patch.cpp).
#pragma once

#include <cstddef>

namespace dbg {

struct ImportHook {
  const char* name;   // the imported symbol, e.g. "pread64" or "ReadProcessMemory"
  void* replacement;  // what the library's calls to it reach from now on
};

/**
 * In every loaded library named `library` (the file name, e.g. "libmscordbi.so"; on Windows compared
 * case-insensitively), points the slots its calls to the hooked names go through at the replacements.
 * Linux: JUMP_SLOT and GLOB_DAT relocations, x86-64 and aarch64; Windows: imports by name. Slots
 * already pointing there are left alone, so calling it again is harmless. Answers how many changed.
 */
int PatchImports(const char* library, const ImportHook* hooks, size_t count);

}  // namespace dbg
