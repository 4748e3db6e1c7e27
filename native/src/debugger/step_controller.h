// The one step in progress: a JMC stepper over IL ranges (over / into) or out of the current frame.
#pragma once

#include <string>
#include <vector>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"
#include "../runtime/status.h"

namespace dbg {

class StepController {
 public:
  /** `kind`: "over", "into" or "out"; `ranges`: the IL ranges of the current statement (over / into). */
  Status Start(ICorDebugThread* thread, const std::string& kind, const std::vector<COR_DEBUG_STEP_RANGE>& ranges,
               bool justMyCode);
  /** Whether `stepper` is the step in progress; it is forgotten either way once it completed. */
  bool Completes(ICorDebugStepper* stepper);
  void Cancel();
  bool Active() const { return static_cast<bool>(stepper_); }

 private:
  ComPtr<ICorDebugStepper> stepper_;
};

}  // namespace dbg
