// Diagnostics go to stderr only: stdout carries the MCP protocol. Quiet unless DEBUGBRIDGE_NATIVE_LOG=1.
#pragma once

#include <string>

namespace dbg {
/**
 * Moments of a launch's handshake (ms since the epoch), reported with the attach for
 * session_diagnostics: where a launch spends its time before the program's first module loads.
 * Written on the debugger thread only.
 */
void ResetStartupMarks();
void StartupMark(const char* name);
/** {"name": ms, ...} */
std::string StartupMarksJson();

void Log(const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
}
