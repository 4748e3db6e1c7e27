// Func-eval commands that make new values in the program: an object without a constructor (a box for
// a primitive or struct argument, filled in when it exists) and an array. Types come from TypeScript
// as type specs (TypeFromSpec). Registered in commands.cpp.
#pragma once

#include "../util/args.h"
#include "debug_session.h"
#include "reply.h"

namespace dbg {

/**
 * A runtime type from its spec: {of: h} (a value's exact type), {module, token, args?: [spec],
 * valuetype?} (a class or struct, generic ones with their arguments), {elem: spec, rank?} (an array;
 * no rank: a vector).
 */
Status TypeFromSpec(DebugSession& s, ICorDebugThread* thread, const Args& spec, ComPtr<ICorDebugType>& type);
/** {threadId, type: spec, bytes?: hex} → later {value} (a new object, no constructor run; `bytes` fill a box's value) */
void NewObject(DebugSession& s, const Args& a, Reply& reply);
/** {threadId, elem: spec, length} → later {value} (a new zeroed vector) */
void NewArray(DebugSession& s, const Args& a, Reply& reply);

}  // namespace dbg
