// Outside Linux the addon has no runtime access of its own: dbgshim is required there.
#include "runtime_access.h"

namespace dbg {
std::unique_ptr<RuntimeAccess> CreateOwnRuntimeAccess() { return nullptr; }
}  // namespace dbg
