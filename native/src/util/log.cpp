#include "log.h"

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "json.h"

namespace dbg {

static bool Enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("DEBUGBRIDGE_NATIVE_LOG");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return enabled;
}

namespace {
std::vector<std::pair<const char*, double>>& Marks() {
  static std::vector<std::pair<const char*, double>> marks;
  return marks;
}
}  // namespace

void ResetStartupMarks() { Marks().clear(); }

void StartupMark(const char* name) {
  auto since = std::chrono::system_clock::now().time_since_epoch();
  Marks().emplace_back(name, std::chrono::duration<double, std::milli>(since).count());
}

std::string StartupMarksJson() {
  JsonObject json;
  for (const auto& [name, ms] : Marks()) json.Num(name, ms);
  return json.Done();
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
