// The commands JavaScript sends the debugger thread, by name. Adding one means a function in
// commands.cpp and a line in its table; the addon and the TypeScript host pass names through.
#pragma once

#include <string>

#include "../util/args.h"
#include "debug_session.h"
#include "reply.h"

namespace dbg {

/** Runs `name` on the debugger thread; an unknown name or a C++ exception fails the reply. */
void RunCommand(DebugSession& session, const std::string& name, const Args& args, Reply reply);

}  // namespace dbg
