// IL breakpoints the TypeScript side placed, by id. A breakpoint is a method token and an IL
// offset in one module; ICorDebug binds it in every native version of the method.
#pragma once

#include <map>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"
#include "../runtime/status.h"

namespace dbg {

class BreakpointTable {
 public:
  Status Create(ICorDebugModule* module, mdToken method, ULONG32 ilOffset, int& id);
  void Remove(int id);
  /** The id of a breakpoint ICorDebug reports as hit, or 0 for one we do not own. */
  int IdOf(ICorDebugBreakpoint* breakpoint) const;
  /** Deactivates every breakpoint (a detach fails while any is active) and forgets them. */
  void Clear();

 private:
  int next_ = 1;
  std::map<int, ComPtr<ICorDebugFunctionBreakpoint>> breakpoints_;
};

}  // namespace dbg
