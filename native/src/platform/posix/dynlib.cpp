#include "../dynlib.h"

#include <dlfcn.h>

namespace dbg {

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

}  // namespace dbg
