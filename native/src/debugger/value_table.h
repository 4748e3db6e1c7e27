// The values JavaScript can name while the program is stopped, by small integer handles. A func-eval
// lets the program run, which invalidates every value read before it; object references are turned
// into strong GC handles first, so they survive it. Everything is dropped when the program goes on.
#pragma once

#include <vector>

#include "../com/com_ptr.h"
#include "../cordebug/cordebug.h"

namespace dbg {

class ValueTable {
 public:
  int Add(ComPtr<ICorDebugValue> value);
  ComPtr<ICorDebugValue> Get(int handle) const;
  /** Before a func-eval: object references become strong handles (structs and primitives cannot). */
  void PinObjects();
  void Clear();
  size_t Size() const { return values_.size(); }

 private:
  std::vector<ComPtr<ICorDebugValue>> values_;  // handle = index + 1
  std::vector<ComPtr<ICorDebugHandleValue>> handles_;
};

/**
 * Objects the TypeScript side keeps an eye on across runs (the awaiting state machine of an async
 * step out): strong GC handles by id, released on request or when the session ends.
 */
class KeptObjects {
 public:
  /** Keeps the object `value` refers to; 0 when it is not a heap object. */
  int Keep(const ComPtr<ICorDebugValue>& value);
  void Drop(int id);
  /** Whether `value` refers to the kept object (addresses compared after GC moves). */
  bool Same(int id, const ComPtr<ICorDebugValue>& value) const;
  void Clear();

 private:
  int next_ = 1;
  std::vector<std::pair<int, ComPtr<ICorDebugHandleValue>>> handles_;
};

/** Follows references (and boxes) to the value itself; empty for null. */
ComPtr<ICorDebugValue> Target(ComPtr<ICorDebugValue> value, bool* boxed = nullptr);

}  // namespace dbg
