// The runtime-startup handshake on Windows, what dbgshim's RegisterForRuntimeStartup does there: the
// debugger creates the event "TelestoStartupEvent_<pid, %08x>" before the process runs; coreclr.dll
// signals it early in its start, then waits on its own "continue startup" event, whose handle the
// debugger finds through coreclr's exported CLR_ENGINE_METRICS (g_CLREngineMetrics), duplicates into
// itself and signals once it has attached. No <windows.h> here (see wide.h).
#pragma once

#include <cstdint>
#include <string>

namespace dbg::windows {

/** A failed step: a stable code for the TypeScript side and a message; an empty code is success. */
struct StepOutcome {
  std::string code;
  std::string message;
  bool Ok() const { return code.empty(); }
};

class StartupEvents {
 public:
  explicit StartupEvents(uint32_t pid) : pid_(pid) {}
  ~StartupEvents();  // lets the runtime go on, whatever happened
  StartupEvents(const StartupEvents&) = delete;
  StartupEvents& operator=(const StartupEvents&) = delete;

  /** Creates the startup event; fails when another debugger already waits for this process. */
  StepOutcome Create();
  /** Waits for the runtime's signal, or the process's end, or the time limit. */
  StepOutcome WaitForStartup(int timeoutMs);
  /** Lets the runtime (coreclr.dll loaded at `coreclrBase`) go on past its startup wait. */
  StepOutcome Continue(uint64_t coreclrBase);

 private:
  uint32_t pid_;
  void* startup_ = nullptr;  // HANDLE
  void* process_ = nullptr;  // HANDLE: its end ends the wait
  bool started_ = false;
  bool continued_ = false;
};

}  // namespace dbg::windows
