#include "startup_semaphores.h"

#include <fcntl.h>
#include <unistd.h>
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

std::string StartupSemaphores::Name(uint32_t pid, uint64_t key, const char* kind) {
  char name[64];
  std::snprintf(name, sizeof name, "/clr%s%08x%016llx", kind, pid, static_cast<unsigned long long>(key));
  return name;
}

Status StartupSemaphores::Prepare(uint32_t pid, uint64_t key) {
  StartupSemaphores semaphores(pid, key);
  Status status = semaphores.Create();
  if (status.Ok()) {
    // Closed here, kept by name for the debugger; the destructor must not post or unlink them.
    sem_close(semaphores.startup_);
    sem_close(semaphores.continue_);
    semaphores.startup_ = semaphores.continue_ = SEM_FAILED;
    semaphores.continued_ = true;
    semaphores.prepared_ = true;
  }
  return status;
}

void StartupSemaphores::Discard(uint32_t pid, uint64_t key) {
  sem_unlink(Name(pid, key, "st").c_str());
  sem_unlink(Name(pid, key, "co").c_str());
}

Status StartupSemaphores::Open() {
  continue_ = sem_open(Name("co").c_str(), 0);
  startup_ = continue_ == SEM_FAILED ? SEM_FAILED : sem_open(Name("st").c_str(), 0);
  if (startup_ == SEM_FAILED) {
    return Status::Fail("SEMAPHORES_UNAVAILABLE", std::string("cannot open the runtime-startup semaphores the launch prepared (") + std::strerror(errno) + ")");
  }
  return Status::Success();
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
  if (prepared_) return;  // left for the debugger by Prepare
  // Whatever happened, the runtime must never stay blocked on "continue".
  PostContinue();
  if (startup_ != SEM_FAILED) sem_close(startup_);
  if (continue_ != SEM_FAILED) sem_close(continue_);
  sem_unlink(Name("st").c_str());
  sem_unlink(Name("co").c_str());
}

bool StartPrepared(int pid, int resumeFd, uint64_t& key, std::string& error) {
  key = linux_proc::StartTime(static_cast<uint32_t>(pid));
  Status status = StartupSemaphores::Prepare(static_cast<uint32_t>(pid), key);
  if (!status.Ok()) {
    error = status.message;
    return false;
  }
  ssize_t written;
  do written = write(resumeFd, "g", 1); while (written < 0 && errno == EINTR);
  if (written != 1) {
    error = std::string("cannot let the program run: ") + std::strerror(errno);
    StartupSemaphores::Discard(static_cast<uint32_t>(pid), key);
    return false;
  }
  close(resumeFd);
  return true;
}

void DiscardStartup(int pid, uint64_t key) { StartupSemaphores::Discard(static_cast<uint32_t>(pid), key); }

}  // namespace dbg
