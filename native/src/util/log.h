// Diagnostics go to stderr only: stdout carries the MCP protocol. Quiet unless DEBUGBRIDGE_NATIVE_LOG=1.
#pragma once

namespace dbg {
void Log(const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
}
