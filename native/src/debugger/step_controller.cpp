#include "step_controller.h"

namespace dbg {

Status StepController::Start(ICorDebugThread* thread, const std::string& kind,
                             const std::vector<COR_DEBUG_STEP_RANGE>& ranges, bool justMyCode) {
  Cancel();
  ComPtr<ICorDebugStepper> stepper;
  HRESULT hr = thread->CreateStepper(stepper.Out());
  if (Failed(hr)) return Status::Fail("STEP_FAILED", "ICorDebugThread::CreateStepper failed", hr);
  // Never stop in code without a mapping to IL (prologs, stubs) or in class initialisers.
  stepper->SetUnmappedStopMask(STOP_NONE);
  stepper->SetInterceptMask(INTERCEPT_NONE);
  ComPtr<ICorDebugStepper2> stepper2;
  if (!Failed(stepper.As(IID_ICorDebugStepper2, stepper2))) stepper2->SetJMC(justMyCode ? 1 : 0);
  if (kind == "out") {
    hr = stepper->StepOut();
  } else if (ranges.empty()) {
    hr = stepper->Step(kind == "into" ? 1 : 0);
  } else {
    std::vector<COR_DEBUG_STEP_RANGE> copy = ranges;
    hr = stepper->StepRange(kind == "into" ? 1 : 0, copy.data(), static_cast<ULONG32>(copy.size()));
  }
  if (Failed(hr)) return Status::Fail("STEP_FAILED", "the runtime refused the step", hr);
  stepper_ = stepper;
  return Status::Success();
}

bool StepController::Completes(ICorDebugStepper* stepper) {
  bool mine = stepper_ && stepper_.Get() == stepper;
  if (mine) stepper_.Reset();
  return mine;
}

void StepController::Cancel() {
  if (!stepper_) return;
  BOOL active = 0;
  if (!Failed(stepper_->IsActive(&active)) && active) stepper_->Deactivate();
  stepper_.Reset();
}

}  // namespace dbg
