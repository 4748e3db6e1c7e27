// UTF-16 (ICorDebug's WCHAR) <-> UTF-8 (JavaScript strings cross as UTF-8).
#pragma once

#include <string>

#include "../com/com.h"

namespace dbg {
std::string ToUtf8(const WCHAR* text, size_t length);
std::string ToUtf8(const std::u16string& text);
std::u16string ToUtf16(const std::string& text);
}  // namespace dbg
