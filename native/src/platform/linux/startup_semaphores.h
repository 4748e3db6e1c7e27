// The runtime-startup handshake of the PAL (what dbgshim's RegisterForRuntimeStartup does on Linux):
// two named POSIX semaphores keyed by pid and process start time. The runtime posts "startup" once
// its debugger transport is up, then waits on "continue" until the debugger has attached.
#pragma once

#include <semaphore.h>

#include <cstdint>
#include <string>

#include "../../runtime/status.h"

namespace dbg {

class StartupSemaphores {
 public:
  StartupSemaphores(uint32_t pid, uint64_t key);
  ~StartupSemaphores();  // closes and unlinks both
  StartupSemaphores(const StartupSemaphores&) = delete;
  StartupSemaphores& operator=(const StartupSemaphores&) = delete;

  /** Creates both semaphores; fails when another debugger holds them or /dev/shm is unusable. */
  Status Create();
  /** Waits for the runtime's "startup" post, checking every 50 ms that the process still lives. */
  Status WaitForStartup(int timeoutMs);
  void PostContinue();

 private:
  std::string Name(const char* kind) const;
  uint32_t pid_;
  uint64_t key_;
  sem_t* startup_ = SEM_FAILED;
  sem_t* continue_ = SEM_FAILED;
  bool continued_ = false;
};

}  // namespace dbg
