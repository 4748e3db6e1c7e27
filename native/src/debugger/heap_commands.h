// Reading the managed heap while the program is stopped: the objects of chosen classes (and of the
// classes derived from them), for what no thread's stack shows (async methods suspended at an await).
#pragma once

#include "../util/args.h"
#include "debug_session.h"
#include "reply.h"

namespace dbg {

/**
 * {classes: [{module, token}], max?, timeoutMs?} → {valid, complete, objects: [value], matched,
 * scanned}: every live object whose class is one of `classes` (a TypeDef, any instantiation) or
 * derives from one; at most `max` described. `valid` false: the runtime's heap is not walkable at this
 * moment; `complete` false: the walk stopped at its time limit.
 */
void HeapObjects(DebugSession& s, const Args& a, Reply& reply);

}  // namespace dbg
