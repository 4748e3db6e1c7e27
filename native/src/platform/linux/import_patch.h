// Redirects a loaded library's calls to imported functions (its GOT slots) to our own functions.
#pragma once

#include <cstddef>

namespace dbg {

struct ImportHook {
  const char* name;   // the imported symbol, e.g. "pread64"
  void* replacement;  // what the library's calls to it reach from now on
};

/**
 * In every loaded object whose path ends in `/<library>`, points the GOT slots bound to the hooked
 * names (JUMP_SLOT and GLOB_DAT relocations, x86-64 and aarch64) at the replacements. Slots already
 * pointing there are left alone, so calling it again is harmless. Answers how many slots changed.
 */
int PatchImports(const char* library, const ImportHook* hooks, size_t count);

}  // namespace dbg
