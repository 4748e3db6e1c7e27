// Loading a shared library and finding an export, on every OS.
#pragma once

#include <string>

namespace dbg {
/** Returns the library handle, or nullptr with the loader's message in `error`. */
void* OpenLibrary(const std::string& path, std::string& error);
void* FindSymbol(void* library, const char* name);
}  // namespace dbg
