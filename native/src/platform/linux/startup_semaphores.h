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

  /**
   * For the launching process: creates both semaphores and leaves them for the debugger, which
   * opens them (Open) once it runs; the program may start at once and waits for it in the runtime.
   */
  static Status Prepare(uint32_t pid, uint64_t key);
  /** Removes semaphores Prepare left that no debugger took (a launch that failed); idempotent. */
  static void Discard(uint32_t pid, uint64_t key);

  /** Creates both semaphores; fails when another debugger holds them or /dev/shm is unusable. */
  Status Create();
  /** Opens both semaphores the launching process prepared. */
  Status Open();
  /** Waits for the runtime's "startup" post, checking every 50 ms that the process still lives. */
  Status WaitForStartup(int timeoutMs);
  void PostContinue();

 private:
  static std::string Name(uint32_t pid, uint64_t key, const char* kind);
  std::string Name(const char* kind) const { return Name(pid_, key_, kind); }
  uint32_t pid_;
  uint64_t key_;
  sem_t* startup_ = SEM_FAILED;
  sem_t* continue_ = SEM_FAILED;
  bool continued_ = false;
  bool prepared_ = false;
};

/**
 * For the launching process (the server): prepares the handshake of a debuggee still waiting before
 * exec (its pid and start time name the semaphores) and lets it run, so its runtime starts while the
 * debugger process gets ready, and then waits for it. `key` is what DiscardStartup needs; false (with
 * `error`) when the handshake cannot be prepared, the debuggee still waiting.
 */
bool StartPrepared(int pid, int resumeFd, uint64_t& key, std::string& error);
/** Removes a prepared handshake no debugger took (the launch failed); idempotent. */
void DiscardStartup(int pid, uint64_t key);

}  // namespace dbg
