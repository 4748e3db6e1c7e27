#include "value_commands.h"

#include <string>
#include <vector>

#include "../util/json.h"
#include "../util/utf.h"
#include "eval_commands.h"
#include "stack_walker.h"
#include "type_json.h"
#include "value_json.h"

namespace dbg {

namespace {

constexpr uint32_t kMaxItems = 10000;
/** The largest struct whose bytes are read or written whole (set value of a struct). */
constexpr ULONG32 kMaxStructBytes = 4096;

std::string Hex(const std::vector<uint8_t>& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) out += {digits[b >> 4], digits[b & 15]};
  return out;
}

bool FromHex(const std::string& text, std::vector<uint8_t>& out) {
  if (text.size() % 2) return false;
  auto nibble = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
  for (size_t i = 0; i < text.size(); i += 2) {
    int hi = nibble(text[i]), lo = nibble(text[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<uint8_t>(hi << 4 | lo));
  }
  return true;
}

Status ThreadFrame(DebugSession& s, const Args& a, ComPtr<ICorDebugThread>& thread, ComPtr<ICorDebugILFrame>& frame) {
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return status;
  if (!s.Stopped()) return Status::Fail("NOT_STOPPED", "values can be read only while the program is stopped");
  auto any = FrameAt(thread.Get(), a["frameIndex"].Uint(0));
  if (!any || Failed(any.As(IID_ICorDebugILFrame, frame))) return Status::Fail("NO_FRAME", "that frame has no IL code (native or runtime code)");
  return Status::Success();
}

std::string Describe(DebugSession& s, const ComPtr<ICorDebugValue>& value) {
  return ValueJson(s.Values(), value, s.ModulesView(), DebugSession::kMaxStringChars);
}

ComPtr<ICorDebugClass> ClassOf(DebugSession& s, const Args& a, const char* moduleKey = "module", const char* typeKey = "type") {
  auto module = s.Modules().Get(static_cast<int>(a[moduleKey].Int()));
  ComPtr<ICorDebugClass> cls;
  if (module) module->GetClassFromToken(a[typeKey].Uint(), cls.Out());
  return cls;
}

/** The exact type of an object, or of the base class of it that `module` + `type` name. */
ComPtr<ICorDebugType> TypeIn(const ComPtr<ICorDebugValue>& value, DebugSession& s, const Args& a, const char* moduleKey, const char* typeKey) {
  ComPtr<ICorDebugValue2> typed;
  ComPtr<ICorDebugType> type;
  auto target = Target(value);
  if (!target || Failed(target.As(IID_ICorDebugValue2, typed)) || Failed(typed->GetExactType(type.Out()))) return {};
  auto wanted = s.Modules().Get(static_cast<int>(a[moduleKey].Int()));
  for (int depth = 0; type && depth < 32; ++depth) {
    ComPtr<ICorDebugClass> cls;
    ComPtr<ICorDebugModule> module;
    mdTypeDef token = 0;
    if (!Failed(type->GetClass(cls.Out())) && cls && !Failed(cls->GetToken(&token)) && !Failed(cls->GetModule(module.Out())) &&
        token == a[typeKey].Uint() && wanted && s.Modules().HandleOf(module.Get()) == s.Modules().HandleOf(wanted.Get())) {
      return type;
    }
    ComPtr<ICorDebugType> base;
    if (Failed(type->GetBase(base.Out()))) break;
    type = base;
  }
  return {};
}

std::vector<ComPtr<ICorDebugType>> TypeParameters(const ComPtr<ICorDebugType>& type) {
  std::vector<ComPtr<ICorDebugType>> out;
  ComPtr<ICorDebugTypeEnum> items;
  if (!type || Failed(type->EnumerateTypeParameters(items.Out())) || !items) return out;
  while (true) {
    ICorDebugType* raw = nullptr;
    ULONG fetched = 0;
    if (Failed(items->Next(1, &raw, &fetched)) || fetched == 0) break;
    out.push_back(ComPtr<ICorDebugType>::Adopt(raw));
  }
  return out;
}

/** Where a value lives, for set value: a local, an argument, a field, an array element or a static. */
Status Home(DebugSession& s, const Args& t, ComPtr<ICorDebugValue>& home) {
  const std::string& kind = t["kind"].Str();
  if (kind == "local" || kind == "argument") {
    ComPtr<ICorDebugThread> thread;
    ComPtr<ICorDebugILFrame> frame;
    Status status = ThreadFrame(s, t, thread, frame);
    if (!status.Ok()) return status;
    HRESULT hr = kind == "local" ? frame->GetLocalVariable(t["index"].Uint(), home.Out()) : frame->GetArgument(t["index"].Uint(), home.Out());
    return Failed(hr) ? Status::Fail("NO_VALUE", "the variable is not available here", hr) : Status::Success();
  }
  if (kind == "field") {
    ComPtr<ICorDebugObjectValue> object;
    auto target = Target(s.Values().Get(static_cast<int>(t["h"].Int())));
    auto cls = ClassOf(s, t);
    if (!target || !cls || Failed(target.As(IID_ICorDebugObjectValue, object))) return Status::Fail("NO_VALUE", "the object is gone");
    HRESULT hr = object->GetFieldValue(cls.Get(), t["field"].Uint(), home.Out());
    return Failed(hr) ? Status::Fail("NO_VALUE", "the field cannot be read", hr) : Status::Success();
  }
  if (kind == "element") {
    ComPtr<ICorDebugArrayValue> array;
    auto target = Target(s.Values().Get(static_cast<int>(t["h"].Int())));
    if (!target || Failed(target.As(IID_ICorDebugArrayValue, array))) return Status::Fail("NO_VALUE", "the array is gone");
    HRESULT hr = array->GetElementAtPosition(t["index"].Uint(), home.Out());
    return Failed(hr) ? Status::Fail("NO_VALUE", "no such element", hr) : Status::Success();
  }
  if (kind == "static") {
    auto cls = ClassOf(s, t);
    if (!cls) return Status::Fail("NO_VALUE", "the type is not loaded");
    HRESULT hr = cls->GetStaticFieldValue(t["field"].Uint(), nullptr, home.Out());
    return Failed(hr) ? Status::Fail("NO_VALUE", "the static field cannot be read", hr) : Status::Success();
  }
  return Status::Fail("BAD_TARGET", "unknown target kind " + kind);
}

}  // namespace

void FrameValues(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  ComPtr<ICorDebugILFrame> frame;
  Status status = ThreadFrame(s, a, thread, frame);
  if (!status.Ok()) return reply.Fail(status);
  auto list = [&](bool locals) {
    ComPtr<ICorDebugValueEnum> items;
    ULONG count = 0;
    HRESULT hr = locals ? frame->EnumerateLocalVariables(items.Out()) : frame->EnumerateArguments(items.Out());
    if (Failed(hr) || !items || Failed(items->GetCount(&count))) return std::string("[]");
    std::string out = "[";
    for (ULONG i = 0; i < count && i < 4096; ++i) {
      ComPtr<ICorDebugValue> value;
      hr = locals ? frame->GetLocalVariable(i, value.Out()) : frame->GetArgument(i, value.Out());
      out += (i ? "," : "") + (Failed(hr) || !value ? std::string("null") : Describe(s, value));
    }
    return out + "]";
  };
  std::string arguments = list(false);
  std::string locals = list(true);
  reply.Ok(JsonObject().Raw("arguments", arguments).Raw("locals", locals).Done());
}

void Variable(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugValue> value;
  Status status = Home(s, a, value);
  if (!status.Ok()) return reply.Fail(status);
  reply.Ok(JsonObject().Raw("value", Describe(s, value)).Done());
}

void Fields(DebugSession& s, const Args& a, Reply& reply) {
  auto target = Target(s.Values().Get(static_cast<int>(a["h"].Int())));
  ComPtr<ICorDebugObjectValue> object;
  if (!target || Failed(target.As(IID_ICorDebugObjectValue, object))) return reply.Fail("NO_VALUE", "the value is not an object (or is gone)");
  auto read = [&](const ComPtr<ICorDebugObjectValue>& from, const Args& f, ComPtr<ICorDebugValue>& value) {
    auto cls = ClassOf(s, f);
    return cls ? from->GetFieldValue(cls.Get(), f["field"].Uint(), value.Out()) : E_FAIL;
  };
  std::string out = "[";
  for (const auto& f : a["fields"].Items()) {
    if (out.size() > 1) out += ",";
    ComPtr<ICorDebugValue> value;
    HRESULT hr = E_FAIL;
    if (f["path"].Has()) {
      // A field of a field of …: each step reads from the object (or struct) the step before gave.
      ComPtr<ICorDebugObjectValue> at = object;
      const auto& steps = f["path"].Items();
      for (size_t i = 0; i < steps.size(); ++i) {
        value.Reset();
        hr = read(at, steps[i], value);
        if (Failed(hr) || !value || i + 1 == steps.size()) break;
        auto next = Target(value);
        if (!next || Failed(next.As(IID_ICorDebugObjectValue, at))) {
          hr = E_FAIL;
          break;
        }
      }
    } else {
      hr = read(object, f, value);
    }
    out += Failed(hr) || !value ? JsonObject().Int("error", static_cast<uint32_t>(hr)).Done() : Describe(s, value);
  }
  reply.Ok(JsonObject().Raw("values", out + "]").Done());
}

void StaticField(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  ComPtr<ICorDebugILFrame> frame;
  ThreadFrame(s, a, thread, frame);  // the frame is optional (thread-static fields need it)
  ComPtr<ICorDebugFrame> anyFrame;
  if (frame) anyFrame = ComPtr<ICorDebugFrame>::Retain(frame.Get());
  ComPtr<ICorDebugValue> value;
  HRESULT hr = E_FAIL;
  if (a["h"].Has()) {
    auto type = TypeIn(s.Values().Get(static_cast<int>(a["h"].Int())), s, a, "module", "type");
    if (type) hr = type->GetStaticFieldValue(a["field"].Uint(), anyFrame.Get(), value.Out());
  } else if (auto cls = ClassOf(s, a)) {
    hr = cls->GetStaticFieldValue(a["field"].Uint(), anyFrame.Get(), value.Out());
  }
  if (Failed(hr) || !value) return reply.Fail("NO_VALUE", "the static field cannot be read (its type may not be initialised yet)", hr);
  reply.Ok(JsonObject().Raw("value", Describe(s, value)).Done());
}

void Items(DebugSession& s, const Args& a, Reply& reply) {
  auto target = Target(s.Values().Get(static_cast<int>(a["h"].Int())));
  ComPtr<ICorDebugArrayValue> array;
  if (!target || Failed(target.As(IID_ICorDebugArrayValue, array))) return reply.Fail("NO_VALUE", "the value is not an array (or is gone)");
  ULONG32 count = 0;
  array->GetCount(&count);
  uint32_t start = a["start"].Uint(0);
  uint32_t take = a["count"].Uint(100);
  if (take > kMaxItems) take = kMaxItems;
  std::string out = "[";
  for (uint32_t i = start; i < count && i < start + take; ++i) {
    ComPtr<ICorDebugValue> value;
    if (out.size() > 1) out += ",";
    out += Failed(array->GetElementAtPosition(i, value.Out())) || !value ? std::string("null") : Describe(s, value);
  }
  reply.Ok(JsonObject().Raw("values", out + "]").Int("count", count).Done());
}

void DeclaredTypes(DebugSession& s, const Args& a, Reply& reply) {
  std::string out = "[";
  for (const auto& h : a["hs"].Items()) {
    if (out.size() > 1) out += ",";
    // A reference read from a local, argument or field is typed by that variable's signature
    // (instantiated); its target is the object's own type.
    ComPtr<ICorDebugValue> value = s.Values().Get(static_cast<int>(h.Int()));
    ComPtr<ICorDebugValue2> typed;
    ComPtr<ICorDebugType> type;
    bool ok = value && !Failed(value.As(IID_ICorDebugValue2, typed)) && !Failed(typed->GetExactType(type.Out())) && type;
    out += ok ? TypeJson(type.Get(), s.ModulesView()) : std::string("null");
  }
  reply.Ok(JsonObject().Raw("types", out + "]").Done());
}

void Call(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  auto module = s.Modules().Get(static_cast<int>(a["module"].Int()));
  ComPtr<ICorDebugFunction> function;
  if (!module || Failed(module->GetFunctionFromToken(a["method"].Uint(), function.Out()))) return reply.Fail("NO_METHOD", "the method is not in a loaded module");
  std::vector<ComPtr<ICorDebugType>> typeArgs;
  if (a["typeArgsFrom"].Has()) typeArgs = TypeParameters(TypeIn(s.Values().Get(static_cast<int>(a["typeArgsFrom"].Int())), s, a, "declaringModule", "declaringType"));
  if (a["methodTypeArgsFrom"].Has()) {
    // A generic method whose type arguments are those of an argument's type (Enumerable.Sum<int> on a List<int>).
    ComPtr<ICorDebugValue2> typed;
    ComPtr<ICorDebugType> type;
    auto target = Target(s.Values().Get(static_cast<int>(a["methodTypeArgsFrom"].Int())));
    if (target && !Failed(target.As(IID_ICorDebugValue2, typed)) && !Failed(typed->GetExactType(type.Out()))) {
      for (auto& t : TypeParameters(type)) typeArgs.push_back(t);
    }
  }
  if (a["typeArgs"].Has()) {
    // Exact type arguments: the declaring type's, then the method's own (a generic method by inference).
    typeArgs.clear();
    for (const auto& spec : a["typeArgs"].Items()) {
      ComPtr<ICorDebugType> type;
      status = TypeFromSpec(s, thread.Get(), spec, type);
      if (!status.Ok()) return reply.Fail(status);
      typeArgs.push_back(type);
    }
  }
  std::vector<ComPtr<ICorDebugValue>> args;
  for (const auto& arg : a["args"].Items()) {
    ComPtr<ICorDebugValue> value = s.Values().Get(static_cast<int>(arg["h"].Int()));
    if (arg["h"].Has() && !value) return reply.Fail("NO_VALUE", "an argument value is gone");
    // A struct's own methods take the struct itself, not a box around it.
    if (value && arg["unbox"].Bool()) value = Target(value);
    args.push_back(value);
  }
  const Args& literals = a["args"];
  bool construct = a["construct"].Bool();
  auto begin = [&](ICorDebugEval* eval) -> HRESULT {
    std::vector<ICorDebugValue*> raw;
    for (size_t i = 0; i < args.size(); ++i) {
      const Args& spec = literals.Items()[i];
      if (!args[i] && spec["null"].Bool()) {
        HRESULT hr = eval->CreateValue(ELEMENT_TYPE_CLASS, nullptr, args[i].Out());
        if (Failed(hr)) return hr;
      } else if (!args[i]) {
        HRESULT hr = eval->CreateValue(static_cast<CorElementType>(spec["et"].Uint()), nullptr, args[i].Out());
        ComPtr<ICorDebugGenericValue> generic;
        if (Failed(hr) || Failed(args[i].As(IID_ICorDebugGenericValue, generic))) return Failed(hr) ? hr : E_INVALIDARG;
        hr = SetPrimitive(generic.Get(), static_cast<CorElementType>(spec["et"].Uint()), spec["v"].Str());
        if (Failed(hr)) return hr;
      }
      raw.push_back(args[i].Get());
    }
    std::vector<ICorDebugType*> types;
    for (auto& t : typeArgs) types.push_back(t.Get());
    // The runtime refuses a null argument array even with no arguments (a constructor without any).
    ICorDebugValue* none = nullptr;
    ICorDebugValue** argv = raw.empty() ? &none : raw.data();
    ComPtr<ICorDebugEval2> eval2;
    if (Failed(ComPtr<ICorDebugEval>::Retain(eval).As(IID_ICorDebugEval2, eval2))) return E_NOINTERFACE;
    if (construct) {
      return eval2->NewParameterizedObject(function.Get(), static_cast<ULONG32>(types.size()), types.empty() ? nullptr : types.data(),
                                           static_cast<ULONG32>(raw.size()), argv);
    }
    return eval2->CallParameterizedFunction(function.Get(), static_cast<ULONG32>(types.size()), types.empty() ? nullptr : types.data(),
                                            static_cast<ULONG32>(raw.size()), argv);
  };
  status = s.Evaluate(thread.Get(), begin, reply);
  if (!status.Ok()) reply.Fail(status);
}

void NewString(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  std::u16string text = ToUtf16(a["text"].Str());
  auto begin = [&](ICorDebugEval* eval) -> HRESULT {
    ComPtr<ICorDebugEval2> eval2;
    if (Failed(ComPtr<ICorDebugEval>::Retain(eval).As(IID_ICorDebugEval2, eval2))) return E_NOINTERFACE;
    return eval2->NewStringWithLength(text.c_str(), static_cast<uint32_t>(text.size()));
  };
  status = s.Evaluate(thread.Get(), begin, reply);
  if (!status.Ok()) reply.Fail(status);
}

void CurrentException(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  ComPtr<ICorDebugValue> exception;
  if (Failed(thread->GetCurrentException(exception.Out())) || !exception) return reply.Fail("NO_VALUE", "the thread is not stopped on an exception");
  reply.Ok(JsonObject().Raw("value", Describe(s, exception)).Done());
}

void ReturnValue(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  ComPtr<ICorDebugILFrame> frame;
  Status status = ThreadFrame(s, a, thread, frame);
  if (!status.Ok()) return reply.Fail(status);
  ComPtr<ICorDebugILFrame3> frame3;
  ComPtr<ICorDebugValue> value;
  HRESULT hr = E_NOINTERFACE;
  if (!Failed(frame.As(IID_ICorDebugILFrame3, frame3))) hr = frame3->GetReturnValueForILOffset(a["ilOffset"].Uint(), value.Out());
  if (Failed(hr) || !value) return reply.Fail("NO_VALUE", "the runtime kept no return value for that call", hr);
  reply.Ok(JsonObject().Raw("value", Describe(s, value)).Done());
}

void Keep(DebugSession& s, const Args& a, Reply& reply) {
  reply.Ok(JsonObject().Int("kept", s.Kept().Keep(s.Values().Get(static_cast<int>(a["h"].Int())))).Done());
}

void Unkeep(DebugSession& s, const Args& a, Reply& reply) {
  s.Kept().Drop(static_cast<int>(a["kept"].Int()));
  reply.Ok();
}

void SameObject(DebugSession& s, const Args& a, Reply& reply) {
  bool same = s.Kept().Same(static_cast<int>(a["kept"].Int()), s.Values().Get(static_cast<int>(a["h"].Int())));
  reply.Ok(JsonObject().Bool("same", same).Done());
}

void AbortEval(DebugSession& s, const Args& a, Reply& reply) {
  bool waiting = false;
  Status status = s.AbortEvaluation(a["rude"].Bool(), waiting);
  if (status.Ok()) reply.Ok(JsonObject().Bool("waiting", waiting).Done());
  else reply.Fail(status);
}

void ValueBytes(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugValue> value;
  if (a["target"].Has()) {
    Status status = Home(s, a["target"], value);
    if (!status.Ok()) return reply.Fail(status);
  } else {
    value = s.Values().Get(static_cast<int>(a["h"].Int()));
  }
  auto target = Target(value);
  ComPtr<ICorDebugGenericValue> generic;
  ULONG32 size = 0;
  if (!target || Failed(target.As(IID_ICorDebugGenericValue, generic)) || Failed(target->GetSize(&size))) {
    return reply.Fail("NO_VALUE", "the value is not a struct or primitive (or is gone)");
  }
  if (size > kMaxStructBytes) return reply.Fail("TOO_LARGE", "the struct has " + std::to_string(size) + " bytes");
  std::vector<uint8_t> bytes(size);
  HRESULT hr = generic->GetValue(bytes.data());
  if (Failed(hr)) return reply.Fail("NO_VALUE", "the value cannot be read", hr);
  reply.Ok(JsonObject().Str("bytes", Hex(bytes)).Done());
}

void SetValue(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugValue> home;
  Status status = Home(s, a["target"], home);
  if (!status.Ok()) return reply.Fail(status);
  const Args& source = a["source"];
  HRESULT hr = E_INVALIDARG;
  ComPtr<ICorDebugReferenceValue> reference;
  ComPtr<ICorDebugGenericValue> generic;
  if (source["null"].Bool() || source["h"].Has()) {
    if (Failed(home.As(IID_ICorDebugReferenceValue, reference))) return reply.Fail("TYPE_MISMATCH", "only a reference can be set to null or to an object");
    CORDB_ADDRESS address = 0;
    if (source["h"].Has()) {
      ComPtr<ICorDebugReferenceValue> from;
      auto value = s.Values().Get(static_cast<int>(source["h"].Int()));
      if (!value || Failed(value.As(IID_ICorDebugReferenceValue, from)) || Failed(from->GetValue(&address))) {
        return reply.Fail("NO_VALUE", "the new value is not an object reference");
      }
    }
    hr = reference->SetValue(address);
  } else if (source["bytes"].Has()) {
    // A whole struct (decimal, DateTime, Nullable<T>, a user's struct), laid out by the host. Only a
    // struct's own storage takes raw bytes: never a reference, whose object would be overwritten.
    std::vector<uint8_t> bytes;
    ULONG32 size = 0;
    if (!Failed(home.As(IID_ICorDebugReferenceValue, reference))) return reply.Fail("TYPE_MISMATCH", "a reference cannot take a struct's bytes");
    if (!FromHex(source["bytes"].Str(), bytes) || Failed(home->GetSize(&size)) || size != bytes.size()) {
      return reply.Fail("TYPE_MISMATCH", "the new value's size is not the variable's (" + std::to_string(size) + " bytes)");
    }
    if (!Failed(home.As(IID_ICorDebugGenericValue, generic))) hr = generic->SetValue(bytes.data());
  } else if (!Failed(home.As(IID_ICorDebugGenericValue, generic))) {
    hr = SetPrimitive(generic.Get(), static_cast<CorElementType>(source["et"].Uint()), source["v"].Str());
  }
  if (Failed(hr)) return reply.Fail("SET_FAILED", "the runtime refused the new value", hr);
  reply.Ok();
}

}  // namespace dbg
