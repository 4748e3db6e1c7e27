// Where a hit filter's variables and fields lie, learned at a hit that read them through the frame
// (a stack walk, the frame's values), so that later hits at the same instruction read them straight
// from the stopped thread's stack and the objects it points to: the runtime's stack walk and its
// frame objects cost most of a false hit's time in the debugger, and are rebuilt at every stop. A
// place is trusted only after both ways read the same bytes; anything unexpected (another
// instruction, another class, a register-held value) goes back to the frame.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"

namespace dbg {

/** The stopped thread's instruction and stack pointers (its innermost frame's, at a breakpoint). */
struct StopPoint {
  uint64_t ip = 0;
  uint64_t sp = 0;
};
/**
 * From the thread's context as the runtime keeps it for a thread stopped in managed code (a few
 * reads; ICorDebugThread::GetRegisterSet costs as much as a stack walk). False on an architecture
 * whose context layout is not known here.
 */
bool ReadStopPoint(ICorDebugThread* thread, ICorDebugProcess* process, StopPoint& out);

/** Bytes of the stopped program; false unless all were read. */
bool ReadTarget(ICorDebugProcess* process, uint64_t address, void* out, size_t size);

/** How many bytes a value of this type occupies where it lies: a primitive, or a reference (CLASS); 0 otherwise. */
size_t StoredSize(CorElementType et);

/** Whether `frame` (the innermost) is the code the thread is stopped at: its native code's start plus its offset. */
bool FrameIsAt(ICorDebugFrame* frame, const StopPoint& at);

/** Where a variable of type `et` lies relative to the stack pointer (it holds there what the runtime read). */
bool LearnSlot(ICorDebugProcess* process, ICorDebugValue* value, CorElementType et, const StopPoint& at, int64_t& slot);

/**
 * Where a field of type `et` lies in its object, and the object's exact type (its method table).
 * `object` is a reference to an object on the heap.
 */
bool LearnField(ICorDebugProcess* process, ICorDebugValue* object, ICorDebugValue* field, CorElementType et, uint64_t& methodTable,
                int64_t& offset);

}  // namespace dbg
