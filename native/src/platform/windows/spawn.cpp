// Windows implementation of spawn.h: the debuggee is created suspended inside a job object (it and
// everything it starts end when the job's last handle closes: when the debuggee ends, or when this
// process does, however it ends), its stdout and stderr are named pipes this process connects to, and
// a waiter thread stands in for the POSIX keeper: it writes the exit code to the status pipe.
#include "../spawn.h"

#include <windows.h>
#include <bcrypt.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "handle.h"
#include "wide.h"

namespace dbg {

namespace {

using windows::Handle;
using windows::LastErrorText;
using windows::Widen;

constexpr DWORD kPipeBuffer = 64 * 1024;
/** How long the waiter waits for this process to connect to the status pipe once the debuggee ended. */
constexpr DWORD kStatusConnectMs = 10000;

/** One launched debuggee, shared by the addon's calls and its waiter thread. */
struct Launch {
  Handle process;
  Handle status;  // server end of the status pipe, overlapped
  std::mutex mutex;
  Handle job;     // guarded by `mutex`: the waiter closes it, TerminateSpawned uses it
  std::atomic<bool> done{false};
};

std::mutex launchesMutex;
std::map<int, std::shared_ptr<Launch>> launches;
int nextLaunchId = 1;

/** argv[i] quoted the way CommandLineToArgvW and the C runtimes split a command line. */
void AppendQuoted(std::wstring& line, const std::wstring& arg) {
  if (!line.empty()) line += L' ';
  if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) {
    line += arg;
    return;
  }
  line += L'"';
  for (auto it = arg.begin();; ++it) {
    size_t backslashes = 0;
    while (it != arg.end() && *it == L'\\') {
      ++it;
      ++backslashes;
    }
    if (it == arg.end()) {
      line.append(backslashes * 2, L'\\');
      break;
    }
    if (*it == L'"') {
      line.append(backslashes * 2 + 1, L'\\');
    } else {
      line.append(backslashes, L'\\');
    }
    line += *it;
  }
  line += L'"';
}

std::wstring NameOf(const std::wstring& entry) { return entry.substr(0, entry.find(L'=', 1)); }

/**
 * The environment block: names are case-insensitive on Windows, so a later entry replaces an earlier
 * one of the same name (the launch's env over the server's), sorted as Windows expects.
 */
std::wstring EnvironmentBlock(const std::vector<std::string>& env) {
  std::vector<std::wstring> entries;
  for (const auto& item : env) {
    std::wstring entry = Widen(item);
    std::wstring name = NameOf(entry);
    auto same = std::find_if(entries.begin(), entries.end(), [&](const std::wstring& e) {
      return CompareStringOrdinal(NameOf(e).c_str(), -1, name.c_str(), -1, TRUE) == CSTR_EQUAL;
    });
    if (same != entries.end()) *same = entry;
    else entries.push_back(entry);
  }
  std::sort(entries.begin(), entries.end(), [](const std::wstring& a, const std::wstring& b) {
    return CompareStringOrdinal(NameOf(a).c_str(), -1, NameOf(b).c_str(), -1, TRUE) == CSTR_LESS_THAN;
  });
  std::wstring block;
  for (const auto& entry : entries) {
    block += entry;
    block += L'\0';
  }
  block += L'\0';
  return block;
}

/** A pipe name no other process can guess. */
std::string PipeName(const char* stream) {
  static std::atomic<unsigned> counter{0};
  unsigned char random[12] = {};
  BCryptGenRandom(nullptr, random, sizeof random, BCRYPT_USE_SYSTEM_PREFERRED_RNG);
  char name[128];
  int n = std::snprintf(name, sizeof name, "\\\\.\\pipe\\debugbridge-%lu-%u-", GetCurrentProcessId(), counter++);
  for (unsigned char b : random) n += std::snprintf(name + n, sizeof name - n, "%02x", b);
  std::snprintf(name + n, sizeof name - n, "-%s", stream);
  return name;
}

/** The server end of a one-instance pipe this process's JavaScript connects to, to read. */
Handle CreateOutboundPipe(const std::string& name, bool inheritable, bool overlapped) {
  SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, inheritable ? TRUE : FALSE};
  DWORD mode = PIPE_ACCESS_OUTBOUND | FILE_FLAG_FIRST_PIPE_INSTANCE | (overlapped ? FILE_FLAG_OVERLAPPED : 0);
  return Handle(CreateNamedPipeW(Widen(name).c_str(), mode, PIPE_TYPE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS, 1,
                                 kPipeBuffer, 0, 0, &sa));
}

/** Waits (bounded) until a client has connected to the overlapped pipe `pipe`. */
bool AwaitClient(HANDLE pipe, DWORD timeoutMs) {
  Handle event(CreateEventW(nullptr, TRUE, FALSE, nullptr));
  OVERLAPPED overlapped{};
  overlapped.hEvent = event.Get();
  if (ConnectNamedPipe(pipe, &overlapped)) return true;
  DWORD error = GetLastError();
  if (error == ERROR_PIPE_CONNECTED) return true;
  if (error != ERROR_IO_PENDING) return false;
  DWORD transferred = 0;
  if (WaitForSingleObject(overlapped.hEvent, timeoutMs) == WAIT_OBJECT_0) {
    return GetOverlappedResult(pipe, &overlapped, &transferred, FALSE) != 0;
  }
  CancelIoEx(pipe, &overlapped);
  GetOverlappedResult(pipe, &overlapped, &transferred, TRUE);
  return false;
}

void WriteRecord(HANDLE pipe, char tag, int32_t value) {
  char record[5];
  record[0] = tag;
  std::memcpy(record + 1, &value, sizeof value);
  Handle event(CreateEventW(nullptr, TRUE, FALSE, nullptr));
  OVERLAPPED overlapped{};
  overlapped.hEvent = event.Get();
  DWORD written = 0;
  if (!WriteFile(pipe, record, sizeof record, &written, &overlapped) && GetLastError() == ERROR_IO_PENDING) {
    if (WaitForSingleObject(overlapped.hEvent, kStatusConnectMs) != WAIT_OBJECT_0) CancelIoEx(pipe, &overlapped);
    GetOverlappedResult(pipe, &overlapped, &written, TRUE);
  }
}

/** The keeper's part: waits for the debuggee, ends what is left of its job, reports the exit code. */
void WaitForExit(std::shared_ptr<Launch> launch) {
  WaitForSingleObject(launch->process.Get(), INFINITE);
  DWORD code = 0;
  GetExitCodeProcess(launch->process.Get(), &code);
  {
    std::lock_guard<std::mutex> lock(launch->mutex);
    launch->job.Reset();
  }
  if (AwaitClient(launch->status.Get(), kStatusConnectMs)) {
    WriteRecord(launch->status.Get(), 'X', static_cast<int32_t>(code));
    FlushFileBuffers(launch->status.Get());
  }
  launch->status.Reset();
  launch->done = true;
}

Handle CreateKillOnCloseJob() {
  Handle job(CreateJobObjectW(nullptr, nullptr));
  if (!job) return job;
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  // DIE_ON_UNHANDLED_EXCEPTION: a crash ends the process instead of waiting on an error dialog.
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
  if (!SetInformationJobObject(job.Get(), JobObjectExtendedLimitInformation, &limits, sizeof limits)) job.Reset();
  return job;
}

/** Only the three standard handles are inherited, even while other threads create inheritable handles. */
class InheritList {
 public:
  explicit InheritList(std::vector<HANDLE> handles) : handles_(std::move(handles)) {
    SIZE_T size = 0;
    InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
    buffer_.resize(size);
    auto* list = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(buffer_.data());
    if (InitializeProcThreadAttributeList(list, 1, 0, &size)) {
      initialized_ = true;
      if (UpdateProcThreadAttribute(list, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, handles_.data(),
                                    handles_.size() * sizeof(HANDLE), nullptr, nullptr)) {
        list_ = list;
      }
    }
  }
  ~InheritList() {
    if (initialized_) DeleteProcThreadAttributeList(reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(buffer_.data()));
  }
  LPPROC_THREAD_ATTRIBUTE_LIST Get() const { return list_; }

 private:
  std::vector<HANDLE> handles_;
  std::vector<char> buffer_;
  bool initialized_ = false;
  LPPROC_THREAD_ATTRIBUTE_LIST list_ = nullptr;
};

}  // namespace

SpawnResult SpawnSuspended(const SpawnRequest& request) {
  SpawnResult result;
  std::string outName = PipeName("out"), errName = PipeName("err"), statusName = PipeName("status");
  Handle out = CreateOutboundPipe(outName, true, false);
  Handle err = CreateOutboundPipe(errName, true, false);
  Handle status = CreateOutboundPipe(statusName, false, true);
  SECURITY_ATTRIBUTES inheritable{sizeof inheritable, nullptr, TRUE};
  Handle in(CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &inheritable, OPEN_EXISTING, 0, nullptr));
  if (!out || !err || !status || !in) {
    result.error = "cannot create the program's pipes: " + LastErrorText(GetLastError());
    return result;
  }
  Handle job = CreateKillOnCloseJob();

  std::wstring commandLine;
  for (const auto& arg : request.argv) AppendQuoted(commandLine, Widen(arg));
  std::wstring environment = EnvironmentBlock(request.env);
  std::wstring file = Widen(request.file);
  std::wstring cwd = Widen(request.cwd);

  STARTUPINFOEXW startup{};
  startup.StartupInfo.cb = sizeof startup;
  startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  startup.StartupInfo.hStdInput = in.Get();
  startup.StartupInfo.hStdOutput = out.Get();
  startup.StartupInfo.hStdError = err.Get();
  InheritList inherit({in.Get(), out.Get(), err.Get()});
  startup.lpAttributeList = inherit.Get();
  DWORD flags = CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT | CREATE_NO_WINDOW |
                (inherit.Get() ? EXTENDED_STARTUPINFO_PRESENT : 0);
  PROCESS_INFORMATION info{};
  if (!CreateProcessW(file.c_str(), commandLine.data(), nullptr, nullptr, TRUE, flags, environment.data(),
                      cwd.empty() ? nullptr : cwd.c_str(), &startup.StartupInfo, &info)) {
    result.error = "cannot start " + request.file + ": " + LastErrorText(GetLastError());
    return result;
  }
  Handle thread(info.hThread);
  auto launch = std::make_shared<Launch>();
  launch->process = Handle(info.hProcess);
  launch->status = std::move(status);
  // Assigned before the first instruction runs, so every process it starts is in the job too.
  if (job && AssignProcessToJobObject(job.Get(), info.hProcess)) launch->job = std::move(job);

  int id;
  {
    std::lock_guard<std::mutex> lock(launchesMutex);
    id = nextLaunchId++;
    launches[id] = launch;
  }
  std::thread(WaitForExit, launch).detach();

  result.pid = static_cast<int>(info.dwProcessId);
  result.keeperPid = id;
  result.resumeThread = static_cast<int>(info.dwThreadId);
  result.stdoutPipe = outName;
  result.stderrPipe = errName;
  result.statusPipe = statusName;
  return result;
}

bool ReapKeeper(int keeperPid) {
  std::lock_guard<std::mutex> lock(launchesMutex);
  auto found = launches.find(keeperPid);
  if (found == launches.end()) return true;
  if (!found->second->done) return false;
  launches.erase(found);
  return true;
}

bool TerminateSpawned(int keeperPid, uint32_t exitCode) {
  std::shared_ptr<Launch> launch;
  {
    std::lock_guard<std::mutex> lock(launchesMutex);
    auto found = launches.find(keeperPid);
    if (found == launches.end()) return false;
    launch = found->second;
  }
  std::lock_guard<std::mutex> lock(launch->mutex);
  if (launch->job) return TerminateJobObject(launch->job.Get(), exitCode) != 0;
  return TerminateProcess(launch->process.Get(), exitCode) != 0;
}

void ResumeSpawned(int resume) {
  Handle thread(OpenThread(THREAD_SUSPEND_RESUME, FALSE, static_cast<DWORD>(resume)));
  if (thread) ResumeThread(thread.Get());
}

void AbandonResume(int) {}

}  // namespace dbg
