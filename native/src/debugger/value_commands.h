// Commands that read, evaluate and change values while the program is stopped (the debugger thread's
// side of locals, fields, array items, func-eval and set value). Registered in commands.cpp.
#pragma once

#include "../util/args.h"
#include "debug_session.h"
#include "reply.h"

namespace dbg {

/** {threadId, frameIndex} → {arguments: [value], locals: [value | null]} */
void FrameValues(DebugSession& s, const Args& a, Reply& reply);
/** {threadId, frameIndex, kind: "local" | "argument", index} → {value} (one variable: cheaper than all of them) */
void Variable(DebugSession& s, const Args& a, Reply& reply);
/**
 * {h, fields: [{module, type, field} | {path: [{module, type, field}, …]}]} → {values: [value | {error}]}
 * (instance fields, declaring type by token; a path reads a field of the object the step before gave)
 */
void Fields(DebugSession& s, const Args& a, Reply& reply);
/** {module, type, field, threadId, frameIndex, h?} → {value} (h: an object whose exact type instantiates a generic type) */
void StaticField(DebugSession& s, const Args& a, Reply& reply);
/** {h, start, count} → {values: [value]} (elements in row-major order) */
void Items(DebugSession& s, const Args& a, Reply& reply);
/** {hs: [h]} → {types: [type | null]}: each value's type as its variable declares it (read before any func-eval) */
void DeclaredTypes(DebugSession& s, const Args& a, Reply& reply);
/**
 * {threadId, module, method, args: [arg], typeArgsFrom?: h, declaringModule?, declaringType?, construct?}
 * → later {value} | {exception} | {void}; `construct`: `method` is a constructor and a new object is made.
 */
void Call(DebugSession& s, const Args& a, Reply& reply);
/** {threadId, text} → later {value} */
void NewString(DebugSession& s, const Args& a, Reply& reply);
/** {threadId} → {value} (the exception the thread is stopped on) */
void CurrentException(DebugSession& s, const Args& a, Reply& reply);
/** {threadId, frameIndex, ilOffset} → {value} (what the call at that IL offset returned, after a step out) */
void ReturnValue(DebugSession& s, const Args& a, Reply& reply);
/** {rude} → {} */
void AbortEval(DebugSession& s, const Args& a, Reply& reply);
/** {h} → {kept} (0 when not an object); {kept} → {}; {h, kept} → {same} */
void Keep(DebugSession& s, const Args& a, Reply& reply);
void Unkeep(DebugSession& s, const Args& a, Reply& reply);
void SameObject(DebugSession& s, const Args& a, Reply& reply);
/** {h} or {target} (as SetValue's) → {bytes: hex} (a struct's or primitive's storage, boxes opened) */
void ValueBytes(DebugSession& s, const Args& a, Reply& reply);
/**
 * {target, source} → {} (target: local / argument / field / element / static; source: primitive /
 * null / handle / a struct's bytes as hex)
 */
void SetValue(DebugSession& s, const Args& a, Reply& reply);

}  // namespace dbg
