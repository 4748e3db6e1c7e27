#include "module_table.h"

#include "../util/utf.h"

namespace dbg {

namespace {
CORDB_ADDRESS BaseOf(ICorDebugModule* module) {
  CORDB_ADDRESS base = 0;
  module->GetBaseAddress(&base);
  return base;
}
}  // namespace

std::string ModulePath(ICorDebugModule* module) {
  WCHAR name[2048];
  ULONG32 length = 0;
  if (Failed(module->GetName(2048, &length, name)) || length == 0) return {};
  return ToUtf8(name, length - 1);
}

int ModuleTable::Add(ComPtr<ICorDebugModule> module) {
  int handle = next_++;
  CORDB_ADDRESS base = BaseOf(module.Get());
  modules_[handle] = {std::move(module), base};
  return handle;
}

int ModuleTable::Remove(ICorDebugModule* module) {
  int handle = HandleOf(module);
  if (handle) modules_.erase(handle);
  return handle;
}

ComPtr<ICorDebugModule> ModuleTable::Get(int handle) const {
  auto it = modules_.find(handle);
  return it == modules_.end() ? ComPtr<ICorDebugModule>() : it->second.module;
}

int ModuleTable::HandleOf(ICorDebugModule* module) const {
  if (!module) return 0;
  for (const auto& [handle, known] : modules_) {
    if (known.module.Get() == module) return handle;
  }
  CORDB_ADDRESS base = BaseOf(module);
  for (const auto& [handle, known] : modules_) {
    if (base != 0 && known.base == base) return handle;
  }
  return 0;
}

Status ModuleTable::SetUserCode(int handle, bool user, const std::vector<mdToken>& nonUserTokens,
                                bool disableOptimizations, bool& optimizationsDisabled) {
  optimizationsDisabled = false;
  auto module = Get(handle);
  if (!module) return Status::Fail("NO_MODULE", "unknown module handle " + std::to_string(handle));
  ComPtr<ICorDebugModule2> module2;
  HRESULT hr = module.As(IID_ICorDebugModule2, module2);
  if (Failed(hr)) return Status::Fail("MODULE_SETTINGS_FAILED", "the module has no ICorDebugModule2", hr);
  if (user && disableOptimizations) {
    // Fails for a module already compiled (after an attach): the code stays optimised.
    optimizationsDisabled = !Failed(module2->SetJITCompilerFlags(CORDEBUG_JIT_DISABLE_OPTIMIZATION));
  }
  // The module-wide call takes no exception list (the runtime answers E_NOTIMPL): methods are
  // excluded one by one.
  hr = module2->SetJMCStatus(user ? 1 : 0, 0, nullptr);
  if (Failed(hr)) return Status::Fail("MODULE_SETTINGS_FAILED", "ICorDebugModule2::SetJMCStatus failed", hr);
  if (!user) return Status::Success();
  for (mdToken token : nonUserTokens) {
    ComPtr<ICorDebugFunction> function;
    ComPtr<ICorDebugFunction2> function2;
    if (Failed(module->GetFunctionFromToken(token, function.Out())) || Failed(function.As(IID_ICorDebugFunction2, function2))) continue;
    function2->SetJMCStatus(0);
  }
  return Status::Success();
}

bool ModuleTable::EnableEditAndContinue(int handle) {
  auto module = Get(handle);
  ComPtr<ICorDebugModule2> module2;
  if (!module || Failed(module.As(IID_ICorDebugModule2, module2))) return false;
  // CORDBG_S_NOT_ALL_BITS_SET (a success code) means optimisation is off but EnC is not possible.
  return module2->SetJITCompilerFlags(CORDEBUG_JIT_ENABLE_ENC) == S_OK;
}

}  // namespace dbg
