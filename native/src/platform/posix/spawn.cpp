// POSIX implementation (Linux verified; macOS UNVERIFIED: it has no PR_SET_PDEATHSIG, so a debuggee can
// outlive a killed server there).
#include "../spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <cerrno>
#include <cstring>

namespace dbg {

namespace {

constexpr int kResumeFd = 3;
constexpr int kStatusFd = 4;

void WriteRecord(int fd, char tag, int32_t value) {
  char record[5];
  record[0] = tag;
  std::memcpy(record + 1, &value, sizeof value);
  ssize_t unused = write(fd, record, sizeof record);
  (void)unused;
}

/** Dies with the process (thread) that forked us; async-signal-safe. */
void DieWithParent(pid_t expectedParent) {
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid() != expectedParent) _exit(127);
}

void CloseFrom(int first) {
#if defined(__linux__) && defined(SYS_close_range)
  if (syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
  for (int fd = first; fd < 4096; ++fd) close(fd);
}

/** Places `fds[i]` at descriptor i (0..count-1), whatever numbers they had. */
void MoveTo(int* fds, int count) {
  for (int i = 0; i < count; ++i) {
    if (fds[i] >= 0) fds[i] = fcntl(fds[i], F_DUPFD, 64);
  }
  for (int i = 0; i < count; ++i) {
    if (fds[i] >= 0) dup2(fds[i], i);
  }
}

[[noreturn]] void RunDebuggee(const char* file, char* const* argv, char* const* envp, const char* cwd, pid_t keeper,
                              int stdinFd, int stdoutFd, int stderrFd, int resumeFd, int statusFd) {
  DieWithParent(keeper);
  int fds[5] = {stdinFd, stdoutFd, stderrFd, resumeFd, statusFd};
  MoveTo(fds, 5);
  CloseFrom(5);
  fcntl(kStatusFd, F_SETFD, FD_CLOEXEC);
  char go = 0;
  ssize_t n;
  do n = read(kResumeFd, &go, 1); while (n < 0 && errno == EINTR);
  close(kResumeFd);
  if (n != 1) {
    WriteRecord(kStatusFd, 'E', -1);  // cancelled before exec
    _exit(127);
  }
  if (cwd[0] != '\0' && chdir(cwd) != 0) {
    WriteRecord(kStatusFd, 'E', errno);
    _exit(127);
  }
  execve(file, argv, envp);
  WriteRecord(kStatusFd, 'E', errno);
  _exit(127);
}

[[noreturn]] void RunKeeper(const char* file, char* const* argv, char* const* envp, const char* cwd, pid_t server,
                            int stdinFd, int stdoutFd, int stderrFd, int resumeFd, int statusFd) {
  DieWithParent(server);
  pid_t self = getpid();
  pid_t debuggee = fork();
  if (debuggee == 0) RunDebuggee(file, argv, envp, cwd, self, stdinFd, stdoutFd, stderrFd, resumeFd, statusFd);
  if (debuggee < 0) {
    WriteRecord(statusFd, 'F', errno);
    _exit(1);
  }
  WriteRecord(statusFd, 'P', debuggee);
  int keep[1] = {statusFd};
  MoveTo(keep, 1);  // status pipe at fd 0; nothing else stays open
  CloseFrom(1);
  int status = 0;
  pid_t r;
  do r = waitpid(debuggee, &status, 0); while (r < 0 && errno == EINTR);
  WriteRecord(0, 'X', r < 0 ? -1 : status);
  _exit(0);
}

bool MakePipe(int fds[2]) {
#ifdef __linux__
  return pipe2(fds, O_CLOEXEC) == 0;
#else
  if (pipe(fds) != 0) return false;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return true;
#endif
}

std::vector<char*> Pointers(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

SpawnResult SpawnSuspended(const SpawnRequest& request) {
  SpawnResult result;
  int out[2], err[2], resume[2], status[2];
  if (!MakePipe(out) || !MakePipe(err) || !MakePipe(resume) || !MakePipe(status)) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  int devNull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  // Everything the children touch is prepared here: after fork only async-signal-safe calls.
  auto argv = Pointers(request.argv);
  auto envp = Pointers(request.env);
  pid_t server = getpid();
  pid_t keeper = fork();
  if (keeper == 0) {
    RunKeeper(request.file.c_str(), argv.data(), envp.data(), request.cwd.c_str(), server, devNull, out[1], err[1],
              resume[0], status[1]);
  }
  int forkErrno = errno;
  close(devNull);
  close(out[1]);
  close(err[1]);
  close(resume[0]);
  close(status[1]);
  if (keeper < 0) {
    for (int fd : {out[0], err[0], resume[1], status[0]}) close(fd);
    result.error = std::string("fork: ") + std::strerror(forkErrno);
    return result;
  }
  char record[5];
  size_t got = 0;
  while (got < sizeof record) {
    ssize_t n = read(status[0], record + got, sizeof record - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  int32_t value = 0;
  std::memcpy(&value, record + 1, sizeof value);
  if (got != sizeof record || record[0] != 'P') {
    for (int fd : {out[0], err[0], resume[1], status[0]}) close(fd);
    waitpid(keeper, nullptr, 0);
    result.error = std::string("fork of the debuggee failed: ") + (got == sizeof record ? std::strerror(value) : "keeper died");
    return result;
  }
  result.pid = value;
  result.keeperPid = keeper;
  result.stdoutFd = out[0];
  result.stderrFd = err[0];
  result.resumeFd = resume[1];
  result.statusFd = status[0];
  return result;
}

bool ReapKeeper(int keeperPid) {
  int status = 0;
  pid_t r = waitpid(keeperPid, &status, WNOHANG);
  return r == keeperPid || (r < 0 && errno == ECHILD);
}

void ResumeSpawned(int resume) {
  if (resume < 0) return;
  ssize_t unused = write(resume, "g", 1);
  (void)unused;
  close(resume);
}

void AbandonResume(int resume) {
  if (resume >= 0) close(resume);
}

}  // namespace dbg
