// A breakpoint condition the TypeScript host compiled (src/engines/dotnet/host/hitFilter.ts) into a
// few stack operations over the stopped frame's locals and arguments (and their fields, and string
// and array lengths), so that a hit whose
// condition is false is continued here on the debugger thread without waking JavaScript — as gdb's
// agent expressions let gdbserver decide a condition without a round trip. The host parses the C#,
// resolves names and applies C#'s typing rules; this only computes. It decides one thing, "certainly
// false": a variable of another type than compiled for, an object of another class, a null, a
// division C# would throw on, leave the hit to the host's full evaluator, which then reports exactly
// what C# would.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"
#include "../runtime/status.h"
#include "../util/args.h"
#include "module_table.h"

namespace dbg {

/** A C# primitive while a filter computes; Unknown where the filter cannot tell (or C# would throw). */
struct FilterValue {
  enum class Kind { Unknown, Bool, Signed, Unsigned, Real, String, Null, Object };
  Kind kind = Kind::Unknown;
  /** Signed and Unsigned: the width of the C# type (8 to 64); Real: 32 for float, 64 for double. */
  int bits = 64;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  bool b = false;
  std::u16string s;
  /** Object: a class instance, struct or array, for a field or length to be read from. */
  ComPtr<ICorDebugValue> object;
};

class HitFilter {
 public:
  /** Reads a program as the host sends it (a list of {op, …}); refuses an op it does not know. */
  static Status Parse(const Args& program, const ModuleTable& modules, HitFilter& out);

  /**
   * True when the condition is certainly false at this hit of `thread`. Its innermost frame is read
   * only when the condition reads a variable (a constant one costs no stack walk); nothing thrown
   * while deciding leaves here (the host then decides).
   */
  bool CertainlyFalse(ICorDebugThread* thread, const ModuleTable& modules) const;

 private:
  struct Op {
    enum class Code { Var, Field, Length, Const, Convert, Binary, Negate, Complement, Not, Compare, And, Or };
    Code code = Code::Const;
    /** Var: a local (else an argument), its index; Var and Field: the CorElementType compiled for. */
    bool local = true;
    uint32_t index = 0;
    CorElementType et = 0;
    /** Field: the field, its declaring class, and the exact class the object must have. */
    mdToken field = 0;
    ComPtr<ICorDebugClass> declaring;
    int guardModule = 0;
    mdTypeDef guardType = 0;
    /** Const: the value; Convert, Binary, Negate, Complement: the C# type computed in. */
    FilterValue value;
    /** Binary: + - * / % & | ^; Compare: == != < <= > >=. */
    std::string name;
  };

  bool Evaluate(ICorDebugILFrame* frame, const ModuleTable& modules) const;
  FilterValue Read(ICorDebugILFrame* frame, const Op& op) const;
  FilterValue Field(const FilterValue& object, const Op& op, const ModuleTable& modules) const;
  std::vector<Op> ops_;
  bool readsFrame_ = false;
};

}  // namespace dbg
