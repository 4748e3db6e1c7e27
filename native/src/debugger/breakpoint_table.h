// IL breakpoints the TypeScript side placed, by id. A breakpoint is a method token and an IL
// offset in one module; ICorDebug binds it in every native version of the method. A breakpoint may
// carry a hit filter: its condition, decided on the debugger thread (hit_filter.h).
#pragma once

#include <map>
#include <optional>

#include "hit_filter.h"

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"
#include "../runtime/status.h"

namespace dbg {

class BreakpointTable {
 public:
  Status Create(ICorDebugModule* module, mdToken method, ULONG32 ilOffset, int& id);
  void Remove(int id);
  /** Sets (or, with no filter, clears) the condition decided at each hit of `id`. */
  void SetFilter(int id, std::optional<HitFilter> filter);
  const HitFilter* FilterOf(int id) const;
  bool Has(int id) const { return breakpoints_.count(id) > 0; }
  /** The id of a breakpoint ICorDebug reports as hit, or 0 for one we do not own. */
  int IdOf(ICorDebugBreakpoint* breakpoint) const;
  /** Deactivates every breakpoint (a detach fails while any is active) and forgets them. */
  void Clear();

 private:
  int next_ = 1;
  std::map<int, ComPtr<ICorDebugFunctionBreakpoint>> breakpoints_;
  std::map<int, HitFilter> filters_;
};

}  // namespace dbg
