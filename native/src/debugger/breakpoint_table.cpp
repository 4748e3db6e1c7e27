#include "breakpoint_table.h"

namespace dbg {

Status BreakpointTable::Create(ICorDebugModule* module, mdToken method, ULONG32 ilOffset, int& id) {
  ComPtr<ICorDebugFunction> function;
  HRESULT hr = module->GetFunctionFromToken(method, function.Out());
  if (Failed(hr)) return Status::Fail("BREAKPOINT_FAILED", "the method is not in the module", hr);
  ComPtr<ICorDebugCode> code;
  hr = function->GetILCode(code.Out());
  if (Failed(hr)) return Status::Fail("BREAKPOINT_FAILED", "the method has no IL code", hr);
  ComPtr<ICorDebugFunctionBreakpoint> breakpoint;
  hr = code->CreateBreakpoint(ilOffset, breakpoint.Out());
  if (Failed(hr)) return Status::Fail("BREAKPOINT_FAILED", "ICorDebugCode::CreateBreakpoint failed", hr);
  hr = breakpoint->Activate(1);
  if (Failed(hr)) return Status::Fail("BREAKPOINT_FAILED", "ICorDebugBreakpoint::Activate failed", hr);
  id = next_++;
  breakpoints_[id] = breakpoint;
  return Status::Success();
}

void BreakpointTable::Remove(int id) {
  auto it = breakpoints_.find(id);
  if (it == breakpoints_.end()) return;
  it->second->Activate(0);
  breakpoints_.erase(it);
  filters_.erase(id);
}

void BreakpointTable::SetFilter(int id, std::optional<HitFilter> filter) {
  if (filter && breakpoints_.count(id)) filters_[id] = std::move(*filter);
  else filters_.erase(id);
}

const HitFilter* BreakpointTable::FilterOf(int id) const {
  auto it = filters_.find(id);
  return it == filters_.end() ? nullptr : &it->second;
}

void BreakpointTable::Clear() {
  for (auto& [id, breakpoint] : breakpoints_) breakpoint->Activate(0);
  breakpoints_.clear();
  filters_.clear();
}

int BreakpointTable::IdOf(ICorDebugBreakpoint* breakpoint) const {
  for (const auto& [id, known] : breakpoints_) {
    if (static_cast<ICorDebugBreakpoint*>(known.Get()) == breakpoint) return id;
  }
  return 0;
}

}  // namespace dbg
