// Commands about what threads are doing: what a thread waits on (a lock and who holds it, a
// Monitor.Wait) for hang reports, and moving a stopped thread's next statement (set IP).
#pragma once

#include "../util/args.h"
#include "debug_session.h"
#include "reply.h"

namespace dbg {

/** {threadId} → {waits: [{reason: "lock" | "wait", timeout, owner?, value}]} */
void BlockingObjects(DebugSession& s, const Args& a, Reply& reply);
/** {threadId} → {value} (the thread's System.Threading.Thread object: its name, its SynchronizationContext) */
void ThreadObject(DebugSession& s, const Args& a, Reply& reply);
/** {threadId, ilOffset, check?} → {} (check: only whether the move is allowed) */
void SetIp(DebugSession& s, const Args& a, Reply& reply);

}  // namespace dbg
