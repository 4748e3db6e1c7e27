// Reading the few managed values the runtime events need (an exception's types and message, a thread's name)
// through ICorDebug values and the module metadata. Runs on the debugger thread, process stopped.
#pragma once

#include <string>
#include <vector>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"

namespace dbg {

/** Full type name of a class ("System.InvalidOperationException"); empty when unknown. */
std::string ClassName(ICorDebugClass* cls);
/** Follows references to the object itself. */
ComPtr<ICorDebugValue> Dereference(ComPtr<ICorDebugValue> value);
/** Type names of the object a value refers to: its class first, then each base class. */
std::vector<std::string> TypeChain(ComPtr<ICorDebugValue> value);
/** A string field declared by `declaringType` (a base class of the object, or its own class). */
bool ReadStringField(ComPtr<ICorDebugValue> value, const std::string& declaringType, const char16_t* field,
                     std::string& out);

}  // namespace dbg
