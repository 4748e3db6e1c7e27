#include "startup_events.h"

#include <windows.h>

#include <cstdio>
#include <cstring>

#include "handle.h"
#include "process.h"
#include "wide.h"

namespace dbg::windows {

namespace {

/** coreclr's CLR_ENGINE_METRICS (dbgenginemetrics.h): the layout dbgshim reads, 16 bytes on x64. */
struct EngineMetrics {
  DWORD cbSize;
  DWORD dbiVersion;
  ULONG_PTR continueStartupEvent;  // address of the HANDLE in the target
};

/** Export ordinal of g_CLREngineMetrics in coreclr.dll, used when the name is not exported. */
constexpr WORD kMetricsOrdinal = 2;

template <typename T>
bool Read(HANDLE process, uint64_t address, T& out) {
  SIZE_T read = 0;
  return ReadProcessMemory(process, reinterpret_cast<const void*>(address), &out, sizeof out, &read) && read == sizeof out;
}

/** The address of g_CLREngineMetrics in the target, from coreclr.dll's export table as mapped there. */
uint64_t FindMetrics(HANDLE process, uint64_t base) {
  IMAGE_DOS_HEADER dos{};
  IMAGE_NT_HEADERS64 nt{};
  if (!Read(process, base, dos) || dos.e_magic != IMAGE_DOS_SIGNATURE) return 0;
  if (!Read(process, base + dos.e_lfanew, nt) || nt.Signature != IMAGE_NT_SIGNATURE) return 0;
  const IMAGE_DATA_DIRECTORY& entry = nt.OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXPORT];
  IMAGE_EXPORT_DIRECTORY exports{};
  if (entry.VirtualAddress == 0 || !Read(process, base + entry.VirtualAddress, exports)) return 0;
  auto functionRva = [&](DWORD index, DWORD& rva) {
    return index < exports.NumberOfFunctions && Read(process, base + exports.AddressOfFunctions + index * sizeof(DWORD), rva);
  };
  const char wanted[] = "g_CLREngineMetrics";
  for (DWORD i = 0; i < exports.NumberOfNames; ++i) {
    DWORD nameRva = 0;
    WORD ordinalIndex = 0;
    char name[sizeof wanted] = {};
    if (!Read(process, base + exports.AddressOfNames + i * sizeof(DWORD), nameRva) || !Read(process, base + nameRva, name)) continue;
    if (std::memcmp(name, wanted, sizeof wanted) != 0) continue;
    DWORD rva = 0;
    if (Read(process, base + exports.AddressOfNameOrdinals + i * sizeof(WORD), ordinalIndex) && functionRva(ordinalIndex, rva)) {
      return base + rva;
    }
  }
  DWORD rva = 0;
  if (exports.Base <= kMetricsOrdinal && functionRva(kMetricsOrdinal - exports.Base, rva)) return base + rva;
  return 0;
}

}  // namespace

StepOutcome StartupEvents::Create() {
  wchar_t name[64];
  std::swprintf(name, 64, L"TelestoStartupEvent_%08x", pid_);
  HANDLE event = CreateEventW(nullptr, FALSE, FALSE, name);
  if (!event) return {"STARTUP_EVENT_FAILED", "cannot create the runtime-startup event: " + LastErrorText(GetLastError())};
  startup_ = event;
  if (GetLastError() == ERROR_ALREADY_EXISTS) {
    return {"ALREADY_DEBUGGED", "another debugger is already waiting for this process's runtime"};
  }
  process_ = OpenProcess(SYNCHRONIZE | PROCESS_QUERY_INFORMATION | PROCESS_VM_READ | PROCESS_DUP_HANDLE, FALSE, pid_);
  if (!process_) return {"NO_PROCESS", "cannot open process " + std::to_string(pid_) + ": " + LastErrorText(GetLastError())};
  return {};
}

StepOutcome StartupEvents::WaitForStartup(int timeoutMs) {
  HANDLE handles[2] = {startup_, process_};
  switch (WaitForMultipleObjects(2, handles, FALSE, static_cast<DWORD>(timeoutMs))) {
    case WAIT_OBJECT_0:
      started_ = true;
      return {};
    case WAIT_OBJECT_0 + 1:
      return {"EXITED_BEFORE_RUNTIME", "the program ended before its .NET runtime offered the debugger a connection"};
    case WAIT_TIMEOUT:
      return {"RUNTIME_STARTUP_TIMEOUT", "the program's .NET runtime did not start its debugger support in time"};
    default:
      return {"STARTUP_EVENT_FAILED", "waiting for the runtime failed: " + LastErrorText(GetLastError())};
  }
}

StepOutcome StartupEvents::Continue(uint64_t coreclrBase) {
  if (continued_) return {};
  continued_ = true;
  uint64_t metricsAddress = FindMetrics(process_, coreclrBase);
  EngineMetrics metrics{};
  if (metricsAddress == 0 || !Read(process_, metricsAddress, metrics) || metrics.cbSize != sizeof metrics) {
    return {"RUNTIME_NOT_FOUND", "coreclr.dll in the program exports no engine metrics the debugger can read"};
  }
  // The runtime creates its continue event before it signals the startup event; read it once ready.
  HANDLE remote = nullptr;
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (Read(process_, metrics.continueStartupEvent, remote) && remote && remote != INVALID_HANDLE_VALUE) break;
    remote = nullptr;
    Sleep(25);
  }
  HANDLE local = nullptr;
  if (!remote || !DuplicateHandle(process_, remote, GetCurrentProcess(), &local, EVENT_MODIFY_STATE, FALSE, 0)) {
    return {"STARTUP_EVENT_FAILED", "cannot reach the runtime's continue-startup event: " + LastErrorText(GetLastError())};
  }
  Handle owned(local);
  if (!SetEvent(local)) return {"STARTUP_EVENT_FAILED", "cannot signal the runtime's continue-startup event: " + LastErrorText(GetLastError())};
  return {};
}

StartupEvents::~StartupEvents() {
  // The runtime must never stay blocked in its startup wait: continue it if it started and nobody did.
  if (started_ && !continued_) Continue(windows_proc::FindCoreClr(pid_).base);
  if (startup_) CloseHandle(startup_);
  if (process_) CloseHandle(process_);
}

}  // namespace dbg::windows
