// Edit and Continue on the debugger thread: the JIT setting that makes a module editable, applying
// the metadata and IL deltas Roslyn made (ICorDebugModule2::ApplyChanges), and moving a frame that
// runs an old version of a method to the new one (ICorDebugILFrame2::RemapFunction). Which deltas and
// which IL offset are TypeScript's decisions. Registered in commands.cpp.
#pragma once

#include "../util/args.h"
#include "debug_session.h"
#include "reply.h"

namespace dbg {

/** {module} → {enabled} (only while the module's load is held) */
void EnableEnc(DebugSession& s, const Args& a, Reply& reply);
/** {module, metadata: base64, il: base64} → {} (the program stopped) */
void ApplyChanges(DebugSession& s, const Args& a, Reply& reply);
/** {threadId, ilOffset} → {} (inside a held remap opportunity of that thread) */
void Remap(DebugSession& s, const Args& a, Reply& reply);

}  // namespace dbg
