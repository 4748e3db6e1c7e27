// Starting the debuggee suspended, so the debugger can arm the runtime-startup handshake before any of
// the program runs, with its output and exit status owned by this (the server's) process.
//
// POSIX: this process -> keeper -> debuggee. mscordbi polls the debuggee with waitpid() and would reap
// it (and steal the exit code) if it were our child; as a grandchild it is the keeper's to reap, and the
// keeper reports the wait status on the status pipe. The debuggee blocks on the resume pipe before
// exec, so its pid (and /proc start time, which survives exec) is known before the runtime starts.
//
// Windows: CreateProcess with CREATE_SUSPENDED inside a job object that kills the debuggee and its
// children when this process ends; the "keeper" is a thread of this process that waits for the
// debuggee and writes its exit code to the status pipe. The streams are named pipes this process's
// JavaScript connects to (a C runtime descriptor cannot cross from the addon to node.exe's own).
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
  int keeperPid = -1;  // POSIX: its parent process; Windows: the id of its waiter. ReapKeeper once the status pipe closed
  // POSIX: descriptors of this process.
  int stdoutFd = -1;
  int stderrFd = -1;
  int resumeFd = -1;   // write one byte to let the debuggee exec; close without writing to cancel
  int statusFd = -1;   // 5-byte records: 'E' + int32 errno (exec failed), 'X' + int32 wait status (Windows: exit code)
  // Windows: the same streams as named pipes to connect to, and the suspended main thread's id.
  std::string stdoutPipe;
  std::string stderrPipe;
  std::string statusPipe;
  int resumeThread = -1;
  std::string error;   // set when spawning failed
};

SpawnResult SpawnSuspended(const SpawnRequest& request);

/** Non-blocking reap of a keeper; true once it is gone. */
bool ReapKeeper(int keeperPid);

/**
 * Lets a debuggee started by SpawnSuspended run, from the debugger's process: `resume` is the resume
 * pipe's descriptor there (POSIX: the byte is written and the pipe closed) or the main thread's id
 * (Windows: the thread is resumed).
 */
void ResumeSpawned(int resume);
/** Gives `resume` up without letting the debuggee run (POSIX: the pipe closes and the debuggee exits). */
void AbandonResume(int resume);

#ifdef _WIN32
/** Ends the debuggee and every process it started (its job), with `exitCode`; false when it is not known. */
bool TerminateSpawned(int keeperPid, uint32_t exitCode);
#endif

}  // namespace dbg
