// A breakpoint condition the TypeScript host compiled (src/engines/dotnet/host/hitFilter.ts) into a
// few stack operations over the stopped frame's primitive locals and arguments, so that a hit whose
// condition is false is continued here on the debugger thread without waking JavaScript — as gdb's
// agent expressions let gdbserver decide a condition without a round trip. The host parses the C#,
// resolves names and applies C#'s typing rules; this only computes. It decides one thing, "certainly
// false": a variable of another type than compiled for, a string it cannot read, a division C# would
// throw on, leave the hit to the host's full evaluator, which then reports exactly what C# would.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../cordebug/cordebug.h"
#include "../runtime/status.h"
#include "../util/args.h"

namespace dbg {

/** A C# primitive while a filter computes; Unknown where the filter cannot tell (or C# would throw). */
struct FilterValue {
  enum class Kind { Unknown, Bool, Signed, Unsigned, Real, String, Null };
  Kind kind = Kind::Unknown;
  /** Signed and Unsigned: the width of the C# type (8 to 64); Real: 32 for float, 64 for double. */
  int bits = 64;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  bool b = false;
  std::u16string s;
};

class HitFilter {
 public:
  /** Reads a program as the host sends it (a list of {op, …}); refuses an op it does not know. */
  static Status Parse(const Args& program, HitFilter& out);

  /** True when the condition is certainly false in `frame` (the hit's innermost frame). */
  bool CertainlyFalse(ICorDebugILFrame* frame) const;

 private:
  struct Op {
    enum class Code { Var, Const, Convert, Binary, Negate, Complement, Not, Compare, And, Or };
    Code code = Code::Const;
    /** Var: a local (else an argument), its index and the CorElementType it was compiled for. */
    bool local = true;
    uint32_t index = 0;
    CorElementType et = 0;
    /** Const: the value; Convert, Binary, Negate, Complement: the C# type computed in. */
    FilterValue value;
    /** Binary: + - * / % & | ^; Compare: == != < <= > >=. */
    std::string name;
  };

  FilterValue Read(ICorDebugILFrame* frame, const Op& op) const;
  std::vector<Op> ops_;
};

}  // namespace dbg
