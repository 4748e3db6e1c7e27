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
#include "hit_filter_memory.h"
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
  /** Object read from memory (no `object`): the object's address, 0 for null. */
  uint64_t address = 0;
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

  /** Where an op's value lies (see hit_filter_memory.h), learned at a hit read through the frame. */
  struct Place {
    bool known = false;
    /** Var: the variable's address minus the stack pointer. Field: the field's offset in its object. */
    int64_t offset = 0;
    /** Field: the exact type of the object it was learned on. */
    uint64_t methodTable = 0;
  };
  /** What one evaluation reads with: the frame (learning places as it goes), or memory at the learned places. */
  struct Reading {
    ICorDebugProcess* process = nullptr;
    ICorDebugILFrame* frame = nullptr;
    StopPoint at;
    /** Reading the frame: the places learned so far (empty: not learning). */
    std::vector<Place>* learning = nullptr;
    /** Reading memory: set when something was not as learned, so the hit goes back to the frame. */
    bool strayed = false;
  };

  bool Evaluate(Reading& reading, const ModuleTable& modules) const;
  bool ReadFrame(ICorDebugThread* thread, ICorDebugProcess* process, const StopPoint* at, const ModuleTable& modules) const;
  FilterValue Read(Reading& reading, size_t index) const;
  FilterValue Field(Reading& reading, const FilterValue& object, size_t index, const ModuleTable& modules) const;
  FilterValue FromMemory(Reading& reading, uint64_t address, CorElementType et) const;
  std::vector<Op> ops_;
  bool readsFrame_ = false;
  /** Whether every value the filter reads can be read from memory (primitives, and fields of objects). */
  bool readsMemory_ = false;
  /** Learned at the last hit read through the frame, valid at that instruction (learnedIp_) only. */
  mutable std::vector<Place> places_;
  mutable uint64_t learnedIp_ = 0;
};

}  // namespace dbg
