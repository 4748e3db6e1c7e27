// Loading a library on Windows: UTF-8 paths, and the library's own folder searched for its
// dependencies (mscordbi.dll loads mscordaccore.dll beside it).
#include "../dynlib.h"

#include <windows.h>

#include <algorithm>

#include "wide.h"

namespace dbg {

void* OpenLibrary(const std::string& path, std::string& error) {
  std::wstring wide = windows::Widen(path);
  std::replace(wide.begin(), wide.end(), L'/', L'\\');
  HMODULE h = LoadLibraryExW(wide.c_str(), nullptr, LOAD_WITH_ALTERED_SEARCH_PATH);
  if (!h) error = windows::LastErrorText(GetLastError());
  return reinterpret_cast<void*>(h);
}

void* FindSymbol(void* library, const char* name) {
  return reinterpret_cast<void*>(GetProcAddress(reinterpret_cast<HMODULE>(library), name));
}

}  // namespace dbg
