#include "log.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dbg {

static bool Enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("DEBUGBRIDGE_NATIVE_LOG");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return enabled;
}

void Log(const char* format, ...) {
  if (!Enabled()) return;
  std::fprintf(stderr, "[debugbridge-native] ");
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
}

}  // namespace dbg
