// The outcome of a runtime-access step: a stable code the TypeScript side maps to a DebugError,
// the HRESULT when ICorDebug produced one, and a message for the agent.
#pragma once

#include <string>

#include "../com/com.h"

namespace dbg {

struct Status {
  std::string code;  // empty = success
  std::string message;
  HRESULT hr = S_OK;

  bool Ok() const { return code.empty(); }
  static Status Success() { return {}; }
  static Status Fail(std::string code, std::string message, HRESULT hr = E_FAIL) {
    return {std::move(code), std::move(message), hr};
  }
};

}  // namespace dbg
