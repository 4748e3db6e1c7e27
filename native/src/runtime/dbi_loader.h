// Creates ICorDebug from the runtime's own debugger library (libmscordbi), the way dbgshim does.
#pragma once

#include <cstdint>
#include <string>

#include "../com/com.h"
#include "status.h"

namespace dbg {

/** `runtimeDir` holds libcoreclr and libmscordbi; `coreclrBase` is libcoreclr's address in the target. */
Status CreateCordebugFromDbi(const std::string& runtimeDir, uint32_t pid, uint64_t coreclrBase, IUnknown** cordebug);

}  // namespace dbg
