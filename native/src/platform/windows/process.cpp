#include "process.h"

#include <windows.h>
#include <psapi.h>

#include <vector>

#include "handle.h"
#include "wide.h"

namespace dbg::windows_proc {

using windows::Handle;

LoadedModule FindCoreClr(uint32_t pid) {
  Handle process(OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ, FALSE, pid));
  if (!process) return {};
  std::vector<HMODULE> modules(512);
  DWORD needed = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (!EnumProcessModulesEx(process.Get(), modules.data(), static_cast<DWORD>(modules.size() * sizeof(HMODULE)), &needed,
                              LIST_MODULES_ALL)) {
      return {};
    }
    if (needed <= modules.size() * sizeof(HMODULE)) break;
    modules.resize(needed / sizeof(HMODULE) + 64);
  }
  modules.resize(std::min<size_t>(modules.size(), needed / sizeof(HMODULE)));
  for (HMODULE module : modules) {
    wchar_t name[MAX_PATH];
    if (!GetModuleBaseNameW(process.Get(), module, name, MAX_PATH) || _wcsicmp(name, L"coreclr.dll") != 0) continue;
    std::wstring path(32768, L'\0');
    DWORD length = GetModuleFileNameExW(process.Get(), module, path.data(), static_cast<DWORD>(path.size()));
    if (length == 0) return {};
    path.resize(length);
    return {windows::Narrow(path), reinterpret_cast<uint64_t>(module)};
  }
  return {};
}

bool IsAlive(uint32_t pid) {
  Handle process(OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid));
  return process && WaitForSingleObject(process.Get(), 0) == WAIT_TIMEOUT;
}

}  // namespace dbg::windows_proc
