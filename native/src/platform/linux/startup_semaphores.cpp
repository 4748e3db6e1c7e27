#include "startup_semaphores.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "../../util/log.h"
#include "proc.h"

namespace dbg {

StartupSemaphores::StartupSemaphores(uint32_t pid, uint64_t key) : pid_(pid), key_(key) {}

std::string StartupSemaphores::Name(const char* kind) const {
  char name[64];
  std::snprintf(name, sizeof name, "/clr%s%08x%016llx", kind, pid_, static_cast<unsigned long long>(key_));
  return name;
}

Status StartupSemaphores::Create() {
  continue_ = sem_open(Name("co").c_str(), O_CREAT | O_EXCL, S_IRWXU, 0);
  if (continue_ == SEM_FAILED) {
    int e = errno;
    if (e == EEXIST) return Status::Fail("ALREADY_DEBUGGED", "another debugger is already waiting for this process's runtime");
    return Status::Fail("SEMAPHORES_UNAVAILABLE",
                        std::string("cannot create the runtime-startup semaphore (") + std::strerror(e) +
                            "); the .NET startup handshake needs a writable /dev/shm");
  }
  startup_ = sem_open(Name("st").c_str(), O_CREAT | O_EXCL, S_IRWXU, 0);
  if (startup_ == SEM_FAILED) {
    int e = errno;
    return Status::Fail("SEMAPHORES_UNAVAILABLE",
                        std::string("cannot create the runtime-startup semaphore (") + std::strerror(e) + ")");
  }
  return Status::Success();
}

Status StartupSemaphores::WaitForStartup(int timeoutMs) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  while (true) {
    timespec until{};
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 50 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000) { until.tv_sec += 1; until.tv_nsec -= 1000000000; }
    if (sem_timedwait(startup_, &until) == 0) return Status::Success();
    if (errno != ETIMEDOUT && errno != EINTR) {
      return Status::Fail("SEMAPHORES_UNAVAILABLE", std::string("waiting for the runtime failed: ") + std::strerror(errno));
    }
    if (!linux_proc::IsAlive(pid_)) {
      return Status::Fail("EXITED_BEFORE_RUNTIME",
                          "the program ended before its .NET runtime offered the debugger a connection");
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status::Fail("RUNTIME_STARTUP_TIMEOUT",
                          "the program's .NET runtime did not start its debugger support in time");
    }
  }
}

void StartupSemaphores::PostContinue() {
  if (continue_ != SEM_FAILED && !continued_) {
    sem_post(continue_);
    continued_ = true;
  }
}

StartupSemaphores::~StartupSemaphores() {
  // Whatever happened, the runtime must never stay blocked on "continue".
  PostContinue();
  if (startup_ != SEM_FAILED) sem_close(startup_);
  if (continue_ != SEM_FAILED) sem_close(continue_);
  sem_unlink(Name("st").c_str());
  sem_unlink(Name("co").c_str());
}

}  // namespace dbg
