#include "hit_filter.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "../util/utf.h"
#include "stack_walker.h"
#include "value_table.h"

namespace dbg {

namespace {

using Kind = FilterValue::Kind;

constexpr ULONG32 kLongestString = 4096;

/** A C# type as the host names it: i8 … u64, f32, f64, bool, string, null. */
bool ParseType(const std::string& name, FilterValue& out) {
  if (name == "bool") return out.kind = Kind::Bool, true;
  if (name == "string") return out.kind = Kind::String, true;
  if (name == "null") return out.kind = Kind::Null, true;
  if (name.size() < 2) return false;
  int bits = std::atoi(name.c_str() + 1);
  switch (name[0]) {
    case 'i': out.kind = Kind::Signed; break;
    case 'u': out.kind = Kind::Unsigned; break;
    case 'f': out.kind = Kind::Real; break;
    default: return false;
  }
  out.bits = bits;
  if (out.kind == Kind::Real) return bits == 32 || bits == 64;
  return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

/** Two's-complement wrapping into the type's width: C#'s unchecked integer arithmetic. */
FilterValue Wrap(const FilterValue& type, uint64_t raw) {
  FilterValue out;
  out.kind = type.kind;
  out.bits = type.bits;
  uint64_t mask = type.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << type.bits) - 1;
  raw &= mask;
  if (type.kind == Kind::Unsigned) {
    out.u = raw;
  } else {
    uint64_t sign = uint64_t{1} << (type.bits - 1);
    out.i = static_cast<int64_t>((raw ^ sign) - sign);
  }
  return out;
}

bool IsInteger(const FilterValue& v) { return v.kind == Kind::Signed || v.kind == Kind::Unsigned; }
uint64_t Raw(const FilterValue& v) { return v.kind == Kind::Signed ? static_cast<uint64_t>(v.i) : v.u; }

FilterValue Real(double d, int bits) {
  FilterValue out;
  out.kind = Kind::Real;
  out.bits = bits;
  out.d = bits == 32 ? static_cast<double>(static_cast<float>(d)) : d;
  return out;
}

FilterValue Bool(bool b) {
  FilterValue out;
  out.kind = Kind::Bool;
  out.b = b;
  return out;
}

/** An implicit numeric conversion (the host emits only those): widening, or integer to floating. */
FilterValue Convert(const FilterValue& v, const FilterValue& type) {
  if (type.kind == Kind::Real) {
    if (v.kind == Kind::Real) return Real(v.d, type.bits);
    if (!IsInteger(v)) return {};
    // Straight from the integer: going through double first could round twice on the way to float.
    if (type.bits == 32) return Real(v.kind == Kind::Signed ? static_cast<float>(v.i) : static_cast<float>(v.u), 32);
    return Real(v.kind == Kind::Signed ? static_cast<double>(v.i) : static_cast<double>(v.u), 64);
  }
  if (!IsInteger(v) || !IsInteger(type)) return {};
  return Wrap(type, Raw(v));
}

FilterValue Arithmetic(const std::string& op, const FilterValue& a, const FilterValue& b, const FilterValue& type) {
  if (a.kind != type.kind || b.kind != type.kind) return {};
  if (type.kind == Kind::Real) {
    if (op == "+") return Real(a.d + b.d, type.bits);
    if (op == "-") return Real(a.d - b.d, type.bits);
    if (op == "*") return Real(a.d * b.d, type.bits);
    if (op == "/") return Real(a.d / b.d, type.bits);
    if (op == "%") return Real(std::fmod(a.d, b.d), type.bits);
    return {};
  }
  uint64_t x = Raw(a), y = Raw(b);
  if (op == "+") return Wrap(type, x + y);
  if (op == "-") return Wrap(type, x - y);
  if (op == "*") return Wrap(type, x * y);
  if (op == "&") return Wrap(type, x & y);
  if (op == "|") return Wrap(type, x | y);
  if (op == "^") return Wrap(type, x ^ y);
  if (op != "/" && op != "%") return {};
  if (y == 0) return {};  // DivideByZeroException: the host reports it
  if (type.kind == Kind::Unsigned) return Wrap(type, op == "/" ? x / y : x % y);
  int64_t min = type.bits == 64 ? INT64_MIN : -(int64_t{1} << (type.bits - 1));
  if (a.i == min && b.i == -1) return {};  // OverflowException
  return Wrap(type, static_cast<uint64_t>(op == "/" ? a.i / b.i : a.i % b.i));
}

/** -1, 0 or 1; false when the operands do not compare. */
bool Order(const FilterValue& a, const FilterValue& b, int& order) {
  if (IsInteger(a) && IsInteger(b)) {
    // Exact across signedness: a negative signed value is below every unsigned one.
    if (a.kind == Kind::Signed && a.i < 0 && b.kind == Kind::Unsigned) return order = -1, true;
    if (b.kind == Kind::Signed && b.i < 0 && a.kind == Kind::Unsigned) return order = 1, true;
    uint64_t x = Raw(a), y = Raw(b);
    if (a.kind == Kind::Signed && b.kind == Kind::Signed) return order = a.i < b.i ? -1 : a.i > b.i, true;
    return order = x < y ? -1 : x > y, true;
  }
  return false;
}

FilterValue Compare(const std::string& op, const FilterValue& a, const FilterValue& b) {
  bool equalityOnly = op == "==" || op == "!=";
  if (a.kind == Kind::Real && b.kind == Kind::Real) {
    // IEEE comparisons, as C#: NaN is unordered and unequal to itself.
    if (op == "==") return Bool(a.d == b.d);
    if (op == "!=") return Bool(a.d != b.d);
    if (op == "<") return Bool(a.d < b.d);
    if (op == "<=") return Bool(a.d <= b.d);
    if (op == ">") return Bool(a.d > b.d);
    if (op == ">=") return Bool(a.d >= b.d);
    return {};
  }
  bool textual = (a.kind == Kind::String || a.kind == Kind::Null) && (b.kind == Kind::String || b.kind == Kind::Null);
  if (textual || (a.kind == Kind::Bool && b.kind == Kind::Bool)) {
    if (!equalityOnly) return {};
    bool same = a.kind == Kind::Bool ? a.b == b.b : a.kind == b.kind && a.s == b.s;
    return Bool((op == "==") == same);
  }
  int order = 0;
  if (!Order(a, b, order)) return {};
  if (op == "==") return Bool(order == 0);
  if (op == "!=") return Bool(order != 0);
  if (op == "<") return Bool(order < 0);
  if (op == "<=") return Bool(order <= 0);
  if (op == ">") return Bool(order > 0);
  if (op == ">=") return Bool(order >= 0);
  return {};
}

template <typename T>
T Bytes(const uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

FilterValue Primitive(CorElementType et, const uint8_t* bytes) {
  FilterValue v;
  auto integer = [&v](Kind kind, int bits, uint64_t raw) {
    FilterValue type;
    type.kind = kind;
    type.bits = bits;
    v = Wrap(type, raw);
  };
  switch (et) {
    case ELEMENT_TYPE_BOOLEAN: return Bool(bytes[0] != 0);
    case ELEMENT_TYPE_CHAR:
    case ELEMENT_TYPE_U2: integer(Kind::Unsigned, 16, Bytes<uint16_t>(bytes)); break;
    case ELEMENT_TYPE_I1: integer(Kind::Signed, 8, Bytes<uint8_t>(bytes)); break;
    case ELEMENT_TYPE_U1: integer(Kind::Unsigned, 8, Bytes<uint8_t>(bytes)); break;
    case ELEMENT_TYPE_I2: integer(Kind::Signed, 16, Bytes<uint16_t>(bytes)); break;
    case ELEMENT_TYPE_I4: integer(Kind::Signed, 32, Bytes<uint32_t>(bytes)); break;
    case ELEMENT_TYPE_U4: integer(Kind::Unsigned, 32, Bytes<uint32_t>(bytes)); break;
    case ELEMENT_TYPE_I8: integer(Kind::Signed, 64, Bytes<uint64_t>(bytes)); break;
    case ELEMENT_TYPE_U8: integer(Kind::Unsigned, 64, Bytes<uint64_t>(bytes)); break;
    case ELEMENT_TYPE_R4: return Real(Bytes<float>(bytes), 32);
    case ELEMENT_TYPE_R8: return Real(Bytes<double>(bytes), 64);
    default: break;
  }
  return v;
}

/** A value as the op that read it was compiled for: a primitive of that type, a string, or an object. */
FilterValue Classify(const ComPtr<ICorDebugValue>& value, CorElementType expected) {
  FilterValue out;
  if (expected == ELEMENT_TYPE_CLASS) {
    out.kind = Kind::Object;
    out.object = value;
    return out;
  }
  if (expected == ELEMENT_TYPE_STRING) {
    ComPtr<ICorDebugReferenceValue> reference;
    BOOL isNull = 0;
    if (Failed(value.As(IID_ICorDebugReferenceValue, reference)) || Failed(reference->IsNull(&isNull))) return {};
    if (isNull) return out.kind = Kind::Null, out;
    ComPtr<ICorDebugStringValue> text;
    ULONG32 length = 0, fetched = 0;
    if (Failed(Target(value).As(IID_ICorDebugStringValue, text)) || Failed(text->GetLength(&length))) return {};
    if (length > kLongestString) return {};  // read at every hit: a long text is the host's
    out.s.resize(length + 1);
    if (Failed(text->GetString(length + 1, &fetched, out.s.data())) || fetched != length) return {};
    out.s.resize(length);
    out.kind = Kind::String;
    return out;
  }
  CorElementType et = 0;
  ComPtr<ICorDebugGenericValue> generic;
  ULONG32 size = 0;
  uint8_t bytes[16] = {};
  if (Failed(value->GetType(&et)) || et != expected || Failed(value.As(IID_ICorDebugGenericValue, generic)) ||
      Failed(value->GetSize(&size)) || size > sizeof bytes || Failed(generic->GetValue(bytes))) {
    return {};
  }
  return Primitive(et, bytes);
}

/** `text.Length`, `array.Length`; a null throws in C#, so it is left to the host. */
FilterValue Length(const FilterValue& of) {
  FilterValue out;
  out.kind = Kind::Signed;
  out.bits = 32;
  if (of.kind == Kind::String) return out.i = static_cast<int64_t>(of.s.size()), out;
  ComPtr<ICorDebugArrayValue> array;
  ULONG32 count = 0;
  if (of.kind != Kind::Object || Failed(Target(of.object).As(IID_ICorDebugArrayValue, array)) || Failed(array->GetCount(&count))) return {};
  return out.i = count, out;
}

}  // namespace

Status HitFilter::Parse(const Args& program, const ModuleTable& modules, HitFilter& out) {
  out.ops_.clear();
  for (const Args& item : program.Items()) {
    const std::string& name = item["op"].Str();
    Op op;
    bool typed = true;
    if (name == "var") {
      op.code = Op::Code::Var;
      op.local = item["kind"].Str() == "local";
      op.index = item["index"].Uint();
      op.et = static_cast<CorElementType>(item["et"].Uint());
    } else if (name == "field") {
      op.code = Op::Code::Field;
      op.et = static_cast<CorElementType>(item["et"].Uint());
      op.field = item["field"].Uint();
      op.guardModule = static_cast<int>(item["guardModule"].Int());
      op.guardType = item["guardType"].Uint();
      auto module = modules.Get(static_cast<int>(item["module"].Int()));
      if (!module || Failed(module->GetClassFromToken(item["type"].Uint(), op.declaring.Out())) || !op.declaring) {
        return Status::Fail("BAD_FILTER", "a hit filter reads a field of a class that is not loaded");
      }
    } else if (name == "length") {
      op.code = Op::Code::Length;
    } else if (name == "const") {
      op.code = Op::Code::Const;
      typed = ParseType(item["type"].Str(), op.value);
      const std::string& text = item["v"].Str();
      switch (op.value.kind) {
        case Kind::Bool: op.value.b = item["v"].Bool(); break;
        case Kind::Signed: op.value.i = std::strtoll(text.c_str(), nullptr, 10); break;
        case Kind::Unsigned: op.value.u = std::strtoull(text.c_str(), nullptr, 10); break;
        case Kind::Real: op.value = Real(std::strtod(text.c_str(), nullptr), op.value.bits); break;
        case Kind::String: op.value.s = ToUtf16(text); break;
        default: break;
      }
    } else if (name == "convert" || name == "binary" || name == "negate" || name == "complement") {
      op.code = name == "convert" ? Op::Code::Convert : name == "binary" ? Op::Code::Binary : name == "negate" ? Op::Code::Negate : Op::Code::Complement;
      typed = ParseType(item["type"].Str(), op.value) && (op.value.kind == Kind::Signed || op.value.kind == Kind::Unsigned || op.value.kind == Kind::Real);
      op.name = item["operator"].Str();
    } else if (name == "compare") {
      op.code = Op::Code::Compare;
      op.name = item["operator"].Str();
    } else if (name == "not" || name == "and" || name == "or") {
      op.code = name == "not" ? Op::Code::Not : name == "and" ? Op::Code::And : Op::Code::Or;
    } else {
      return Status::Fail("BAD_FILTER", "unknown hit filter op '" + name + "'");
    }
    if (!typed) return Status::Fail("BAD_FILTER", "hit filter op '" + name + "' has an unknown type '" + item["type"].Str() + "'");
    out.ops_.push_back(std::move(op));
  }
  if (out.ops_.empty()) return Status::Fail("BAD_FILTER", "an empty hit filter");
  out.readsFrame_ = std::any_of(out.ops_.begin(), out.ops_.end(), [](const Op& op) { return op.code == Op::Code::Var; });
  out.readsMemory_ = out.readsFrame_ && std::all_of(out.ops_.begin(), out.ops_.end(), [](const Op& op) {
                       bool reads = op.code == Op::Code::Var || op.code == Op::Code::Field;
                       return op.code != Op::Code::Length && (!reads || StoredSize(op.et) != 0);
                     });
  out.places_.clear();
  out.learnedIp_ = 0;
  return Status::Success();
}

FilterValue HitFilter::FromMemory(Reading& reading, uint64_t address, CorElementType et) const {
  uint8_t bytes[8] = {};
  if (!ReadTarget(reading.process, address, bytes, StoredSize(et))) {
    reading.strayed = true;
    return {};
  }
  if (et != ELEMENT_TYPE_CLASS) return Primitive(et, bytes);
  FilterValue out;
  out.kind = Kind::Object;
  std::memcpy(&out.address, bytes, sizeof out.address);
  return out;
}

FilterValue HitFilter::Read(Reading& reading, size_t index) const {
  const Op& op = ops_[index];
  if (!reading.frame) return FromMemory(reading, reading.at.sp + places_[index].offset, op.et);
  ComPtr<ICorDebugValue> value;
  HRESULT hr = op.local ? reading.frame->GetLocalVariable(op.index, value.Out()) : reading.frame->GetArgument(op.index, value.Out());
  if (Failed(hr) || !value) return {};
  FilterValue out = Classify(value, op.et);
  if (reading.learning && out.kind != Kind::Unknown) {
    Place& place = (*reading.learning)[index];
    place.known = LearnSlot(reading.process, value.Get(), op.et, reading.at, place.offset);
  }
  return out;
}

FilterValue HitFilter::Field(Reading& reading, const FilterValue& object, size_t index, const ModuleTable& modules) const {
  const Op& op = ops_[index];
  if (object.kind != Kind::Object) return {};
  if (!reading.frame) {
    if (object.object) return reading.strayed = true, FilterValue{};
    if (object.address == 0) return {};  // null: C# throws, the host reports it
    const Place& place = places_[index];
    uint64_t methodTable = 0;
    // Another exact type may lay its fields out otherwise (or be another class): the frame decides.
    if (!ReadTarget(reading.process, object.address, &methodTable, sizeof methodTable) || methodTable != place.methodTable) {
      return reading.strayed = true, FilterValue{};
    }
    return FromMemory(reading, object.address + place.offset, op.et);
  }
  ComPtr<ICorDebugValue> target = Target(object.object);
  ComPtr<ICorDebugObjectValue> instance;
  ComPtr<ICorDebugClass> cls;
  ComPtr<ICorDebugModule> module;
  mdTypeDef type = 0;
  if (!target || Failed(target.As(IID_ICorDebugObjectValue, instance)) || Failed(instance->GetClass(cls.Out())) || !cls ||
      Failed(cls->GetToken(&type)) || Failed(cls->GetModule(module.Out()))) {
    return {};  // null (C# throws), or not an object
  }
  // Another class may name another member (a field of a derived type, a property): the host decides.
  if (type != op.guardType || modules.HandleOf(module.Get()) != op.guardModule) return {};
  ComPtr<ICorDebugValue> value;
  if (Failed(instance->GetFieldValue(op.declaring.Get(), op.field, value.Out())) || !value) return {};
  FilterValue out = Classify(value, op.et);
  if (reading.learning && out.kind != Kind::Unknown) {
    Place& place = (*reading.learning)[index];
    place.known = LearnField(reading.process, object.object.Get(), value.Get(), op.et, place.methodTable, place.offset);
  }
  return out;
}

bool HitFilter::CertainlyFalse(ICorDebugThread* thread, const ModuleTable& modules) const {
  try {
    if (!readsFrame_) {
      Reading constant;
      return Evaluate(constant, modules);
    }
    ComPtr<ICorDebugProcess> process;
    StopPoint at;
    bool located = readsMemory_ && !Failed(thread->GetProcess(process.Out())) && process && ReadStopPoint(thread, process.Get(), at);
    if (located && at.ip == learnedIp_) {
      Reading memory;
      memory.process = process.Get();
      memory.at = at;
      bool certainlyFalse = Evaluate(memory, modules);
      if (!memory.strayed) return certainlyFalse;
    }
    return ReadFrame(thread, process.Get(), located ? &at : nullptr, modules);
  } catch (...) {
    return false;
  }
}

bool HitFilter::ReadFrame(ICorDebugThread* thread, ICorDebugProcess* process, const StopPoint* at, const ModuleTable& modules) const {
  auto top = FrameAt(thread, 0);
  ComPtr<ICorDebugILFrame> frame;
  if (!top || Failed(top.As(IID_ICorDebugILFrame, frame))) return false;
  Reading reading;
  reading.process = process;
  reading.frame = frame.Get();
  std::vector<Place> learned;
  if (at && FrameIsAt(top.Get(), *at)) {
    learned.resize(ops_.size());
    reading.at = *at;
    reading.learning = &learned;
  }
  bool certainlyFalse = Evaluate(reading, modules);
  if (reading.learning) {
    bool all = true;
    for (size_t i = 0; i < ops_.size(); ++i) {
      if (ops_[i].code == Op::Code::Var || ops_[i].code == Op::Code::Field) all = all && learned[i].known;
    }
    places_ = all ? std::move(learned) : std::vector<Place>();
    learnedIp_ = all ? at->ip : 0;
  }
  return certainlyFalse;
}

bool HitFilter::Evaluate(Reading& reading, const ModuleTable& modules) const {
  std::vector<FilterValue> stack;
  auto pop = [&stack] {
    FilterValue top = std::move(stack.back());
    stack.pop_back();
    return top;
  };
  for (size_t index = 0; index < ops_.size(); ++index) {
    const Op& op = ops_[index];
    size_t needs = op.code == Op::Code::Var || op.code == Op::Code::Const ? 0
                   : op.code == Op::Code::Binary || op.code == Op::Code::Compare || op.code == Op::Code::And || op.code == Op::Code::Or ? 2
                                                                                                                                  : 1;
    if (stack.size() < needs) return false;
    switch (op.code) {
      case Op::Code::Var: stack.push_back(Read(reading, index)); break;
      case Op::Code::Field: stack.push_back(Field(reading, pop(), index, modules)); break;
      case Op::Code::Length: stack.push_back(Length(pop())); break;
      case Op::Code::Const: stack.push_back(op.value); break;
      case Op::Code::Convert: stack.push_back(Convert(pop(), op.value)); break;
      case Op::Code::Negate: {
        FilterValue v = pop();
        if (v.kind != op.value.kind) stack.push_back({});
        else if (v.kind == Kind::Real) stack.push_back(Real(-v.d, op.value.bits));
        else stack.push_back(Wrap(op.value, uint64_t{0} - Raw(v)));
        break;
      }
      case Op::Code::Complement: {
        FilterValue v = pop();
        stack.push_back(IsInteger(v) && v.kind == op.value.kind ? Wrap(op.value, ~Raw(v)) : FilterValue{});
        break;
      }
      case Op::Code::Not: {
        FilterValue v = pop();
        stack.push_back(v.kind == Kind::Bool ? Bool(!v.b) : FilterValue{});
        break;
      }
      case Op::Code::Binary: {
        FilterValue b = pop(), a = pop();
        stack.push_back(Arithmetic(op.name, a, b, op.value));
        break;
      }
      case Op::Code::Compare: {
        FilterValue b = pop(), a = pop();
        stack.push_back(Compare(op.name, a, b));
        break;
      }
      case Op::Code::And:
      case Op::Code::Or: {
        // `a && b` as C# runs it: if `a` decides, `b` (which C# would not evaluate) does not matter.
        FilterValue b = pop(), a = pop();
        if (a.kind != Kind::Bool) stack.push_back({});
        else if (a.b == (op.code == Op::Code::Or)) stack.push_back(a);
        else stack.push_back(b.kind == Kind::Bool ? b : FilterValue{});
        break;
      }
    }
  }
  return stack.size() == 1 && stack.back().kind == Kind::Bool && !stack.back().b;
}

}  // namespace dbg
