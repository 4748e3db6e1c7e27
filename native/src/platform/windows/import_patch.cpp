// Import address table patching: the Windows side of ../import_patch.h.
#include "../import_patch.h"

#include <windows.h>
#include <psapi.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace dbg {

namespace {

bool NamedLike(HMODULE module, const char* library) {
  char path[MAX_PATH];
  DWORD length = GetModuleFileNameA(module, path, MAX_PATH);
  if (length == 0 || length >= MAX_PATH) return false;
  const char* name = path + length;
  while (name > path && name[-1] != '\\' && name[-1] != '/') --name;
  return _stricmp(name, library) == 0;
}

int PatchModule(HMODULE module, const ImportHook* hooks, size_t count) {
  auto* base = reinterpret_cast<uint8_t*>(module);
  auto* dos = reinterpret_cast<IMAGE_DOS_HEADER*>(base);
  auto* nt = reinterpret_cast<IMAGE_NT_HEADERS*>(base + dos->e_lfanew);
  const IMAGE_DATA_DIRECTORY& imports = nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_IMPORT];
  if (imports.VirtualAddress == 0) return 0;
  int patched = 0;
  for (auto* library = reinterpret_cast<IMAGE_IMPORT_DESCRIPTOR*>(base + imports.VirtualAddress); library->Name; ++library) {
    if (library->OriginalFirstThunk == 0) continue;  // no names to match: bound by ordinal only
    auto* names = reinterpret_cast<IMAGE_THUNK_DATA*>(base + library->OriginalFirstThunk);
    auto* slots = reinterpret_cast<IMAGE_THUNK_DATA*>(base + library->FirstThunk);
    for (; names->u1.AddressOfData; ++names, ++slots) {
      if (IMAGE_SNAP_BY_ORDINAL(names->u1.Ordinal)) continue;
      const char* name = reinterpret_cast<IMAGE_IMPORT_BY_NAME*>(base + names->u1.AddressOfData)->Name;
      for (size_t i = 0; i < count; ++i) {
        auto replacement = reinterpret_cast<ULONG_PTR>(hooks[i].replacement);
        if (std::strcmp(name, hooks[i].name) != 0 || slots->u1.Function == replacement) continue;
        DWORD protection = 0;
        if (!VirtualProtect(&slots->u1.Function, sizeof slots->u1.Function, PAGE_READWRITE, &protection)) continue;
        slots->u1.Function = replacement;
        VirtualProtect(&slots->u1.Function, sizeof slots->u1.Function, protection, &protection);
        ++patched;
      }
    }
  }
  return patched;
}

}  // namespace

int PatchImports(const char* library, const ImportHook* hooks, size_t count) {
  HANDLE self = GetCurrentProcess();
  std::vector<HMODULE> modules(256);
  DWORD needed = 0;
  for (;;) {
    if (!EnumProcessModules(self, modules.data(), static_cast<DWORD>(modules.size() * sizeof(HMODULE)), &needed)) return 0;
    if (needed <= modules.size() * sizeof(HMODULE)) break;
    modules.resize(needed / sizeof(HMODULE));
  }
  modules.resize(needed / sizeof(HMODULE));
  int patched = 0;
  for (HMODULE module : modules) {
    if (NamedLike(module, library)) patched += PatchModule(module, hooks, count);
  }
  return patched;
}

}  // namespace dbg
