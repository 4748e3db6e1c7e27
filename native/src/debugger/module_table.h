// The modules of the debuggee by a small integer handle that JavaScript uses to name them, and the
// per-module debugging settings (JIT optimisation, Just My Code) that the TypeScript side decides.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"
#include "../runtime/status.h"

namespace dbg {

class ModuleTable {
 public:
  int Add(ComPtr<ICorDebugModule> module);
  /** Removes a module; answers its handle, or 0 when it was not known. */
  int Remove(ICorDebugModule* module);
  ComPtr<ICorDebugModule> Get(int handle) const;
  /** The handle of a module object ICorDebug handed us again (matched by base address). */
  int HandleOf(ICorDebugModule* module) const;
  void Clear() { modules_.clear(); }

  /**
   * Marks a module as the user's code (symbols found) or not: user code is JIT-compiled without
   * optimisation (only possible while its LoadModule callback is held) and is Just My Code, except
   * `nonUserTokens` (hidden / step-through methods and methods without source).
   */
  Status SetUserCode(int handle, bool user, const std::vector<mdToken>& nonUserTokens, bool disableOptimizations,
                     bool& optimizationsDisabled);
  /**
   * Asks the JIT to compile the module for Edit and Continue (optimisation off too), possible only
   * while its LoadModule callback is held. False when the runtime refused or set only some bits.
   */
  bool EnableEditAndContinue(int handle);

 private:
  struct Entry {
    ComPtr<ICorDebugModule> module;
    CORDB_ADDRESS base;
  };
  int next_ = 1;
  std::map<int, Entry> modules_;
};

std::string ModulePath(ICorDebugModule* module);

}  // namespace dbg
