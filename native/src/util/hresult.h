// HRESULT discipline: every failing call is logged with its expression, then returned.
#pragma once

#include <cstdio>

#include "../com/com.h"

namespace dbg {
void LogFailure(const char* expr, HRESULT hr, const char* file, int line);
}

#define IfFailRet(expr)                                         \
  do {                                                          \
    ::dbg::HRESULT hr_ = (expr);                                \
    if (::dbg::Failed(hr_)) {                                   \
      ::dbg::LogFailure(#expr, hr_, __FILE__, __LINE__);        \
      return hr_;                                               \
    }                                                           \
  } while (0)
