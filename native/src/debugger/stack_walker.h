// A thread's frames, innermost first, as JSON for the TypeScript side: IL frames carry the module
// handle, method token, IL offset and the frame's generic type arguments; native and runtime frames
// carry only their kind (they are shown collapsed).
#pragma once

#include <string>
#include <vector>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"
#include "module_table.h"

namespace dbg {

/** Every frame of the thread, innermost first (managed chains frame by frame, native chains as one frame). */
std::vector<ComPtr<ICorDebugFrame>> WalkFrames(ICorDebugThread* thread, size_t max);

/** JSON of frames [start, start + count) and how many there are in all. */
std::string FramesJson(ICorDebugThread* thread, size_t start, size_t count, const ModuleTable& modules);

/** The frame at `index` (0 = innermost), or empty. */
ComPtr<ICorDebugFrame> FrameAt(ICorDebugThread* thread, size_t index);

}  // namespace dbg
