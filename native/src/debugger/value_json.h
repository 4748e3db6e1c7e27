// A value as JSON for the TypeScript side, which formats it as C# shows it: primitives with their
// exact value, strings (capped), arrays with their length and dimensions, objects and structs as a
// handle with their exact type and its base classes (the TypeScript side reads fields by token).
#pragma once

#include <string>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"
#include "module_table.h"
#include "value_table.h"

namespace dbg {

/** Adds `value` to the table and describes it; `maxChars` caps strings. */
std::string ValueJson(ValueTable& table, ComPtr<ICorDebugValue> value, const ModuleTable& modules, uint32_t maxChars);

/** Writes a primitive from its text form (as ValueJson gives it) into a generic value. */
HRESULT SetPrimitive(ICorDebugGenericValue* target, CorElementType et, const std::string& text);

}  // namespace dbg
