// Starting the debuggee suspended before exec, with its exit status learnt through a keeper process.
//
// Layout: this process -> keeper -> debuggee. mscordbi polls the debuggee with waitpid() and would reap
// it (and steal the exit code) if it were our child; as a grandchild it is the keeper's to reap, and the
// keeper reports the wait status on the status pipe. The debuggee blocks on the resume pipe before
// exec, so its pid (and /proc start time, which survives exec) is known before the runtime starts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dbg {

struct SpawnRequest {
  std::string file;  // absolute path, no PATH search
  std::vector<std::string> argv;
  std::vector<std::string> env;  // "NAME=value"
  std::string cwd;
};

struct SpawnResult {
  int pid = -1;        // the debuggee
  int keeperPid = -1;  // its parent; reap with ReapKeeper once the status pipe closed
  int stdoutFd = -1;
  int stderrFd = -1;
  int resumeFd = -1;   // write one byte to let the debuggee exec; close without writing to cancel
  int statusFd = -1;   // 5-byte records: 'E' + int32 errno (exec failed), 'X' + int32 wait status
  std::string error;   // set when spawning failed
};

SpawnResult SpawnSuspended(const SpawnRequest& request);

/** Non-blocking reap of a keeper; true once it is gone. */
bool ReapKeeper(int keeperPid);

}  // namespace dbg
