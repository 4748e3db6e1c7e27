// How the debugger reaches a runtime: a real dbgshim when one was found, else the addon's own
// implementation of the same steps (Linux, Windows). Both hand the debugger thread an ICorDebug to attach with.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "../com/com.h"
#include "status.h"

namespace dbg {

/** Runs on the debugger thread with a fresh ICorDebug: Initialize, SetManagedHandler, DebugActiveProcess. */
using AttachStep = std::function<Status(IUnknown* cordebug)>;

class RuntimeAccess {
 public:
  virtual ~RuntimeAccess() = default;
  virtual const char* Name() const = 0;

  /**
   * For a process started suspended: arranges to hear when its runtime starts, lets it run
   * (`resume`), and attaches as soon as the runtime is up, before any managed code runs. Without
   * `resume`, the launching process already prepared the startup handshake and let the program run.
   */
  virtual Status AttachAtStartup(uint32_t pid, int timeoutMs, const std::function<void()>& resume,
                                 const AttachStep& attach) = 0;

  /** For a process whose runtime is already running. */
  virtual Status AttachRunning(uint32_t pid, int timeoutMs, const AttachStep& attach) = 0;
};

/** The addon's own implementation (Linux, Windows); nullptr elsewhere. */
std::unique_ptr<RuntimeAccess> CreateOwnRuntimeAccess();
/** dbgshim at `path`; nullptr with `error` when it cannot be loaded. */
std::unique_ptr<RuntimeAccess> CreateDbgShimAccess(const std::string& path, std::string& error);

}  // namespace dbg
