#include "dynlib.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace dbg {

#ifdef _WIN32
// UNVERIFIED on Windows: not built or run by the project yet.
void* OpenLibrary(const std::string& path, std::string& error) {
  HMODULE h = LoadLibraryA(path.c_str());
  if (!h) error = "LoadLibrary failed with error " + std::to_string(GetLastError());
  return reinterpret_cast<void*>(h);
}
void* FindSymbol(void* library, const char* name) {
  return reinterpret_cast<void*>(GetProcAddress(reinterpret_cast<HMODULE>(library), name));
}
#else
void* OpenLibrary(const std::string& path, std::string& error) {
  // RTLD_LOCAL: mscordbi and dbgshim carry their own PAL symbols and must not clash with each other.
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    error = e ? e : "dlopen failed";
  }
  return h;
}
void* FindSymbol(void* library, const char* name) { return dlsym(library, name); }
#endif

}  // namespace dbg
