// Windows: launching goes through dbgshim's CreateProcessForLaunch there. NOT IMPLEMENTED yet.
#include "spawn.h"

namespace dbg {
SpawnResult SpawnSuspended(const SpawnRequest&) {
  SpawnResult result;
  result.error = "launching a .NET program is not implemented on this platform yet";
  return result;
}
bool ReapKeeper(int) { return true; }
}  // namespace dbg
