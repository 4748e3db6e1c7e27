#include "hresult.h"

#include "log.h"

namespace dbg {
void LogFailure(const char* expr, HRESULT hr, const char* file, int line) {
  Log("%s failed: 0x%08x (%s:%d)", expr, static_cast<unsigned>(hr), file, line);
}
}  // namespace dbg
