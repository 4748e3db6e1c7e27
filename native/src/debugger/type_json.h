// An ICorDebugType as JSON the TypeScript side names in C#: element type, the class as module handle
// + TypeDef token, generic arguments, and the element type of arrays and pointers.
#pragma once

#include <string>

#include "../cordebug/cordebug.h"
#include "module_table.h"

namespace dbg {

std::string TypeJson(ICorDebugType* type, const ModuleTable& modules, int depth = 0);

}  // namespace dbg
