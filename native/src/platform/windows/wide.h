// UTF-8 (what crosses from JavaScript) <-> UTF-16 (what Win32's W functions take). A header without
// <windows.h>: this folder's .cpp files include it, nothing else may (its macros clash with com/).
#pragma once

#include <string>

namespace dbg::windows {

std::wstring Widen(const std::string& text);
std::string Narrow(const std::wstring& text);
/** GetLastError's text, trimmed, with the number: "The system cannot find the file specified. (2)". */
std::string LastErrorText(unsigned long error);

}  // namespace dbg::windows
