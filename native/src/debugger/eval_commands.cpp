#include "eval_commands.h"

#include <string>
#include <vector>

#include "value_table.h"

namespace dbg {

namespace {

bool Hex(const std::string& text, std::vector<uint8_t>& out) {
  if (text.size() % 2) return false;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < text.size(); i += 2) {
    int hi = digit(text[i]), lo = digit(text[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<uint8_t>(hi * 16 + lo));
  }
  return true;
}

Status ClassOfSpec(DebugSession& s, const Args& spec, ComPtr<ICorDebugClass>& cls) {
  auto module = s.Modules().Get(static_cast<int>(spec["module"].Int()));
  if (!module || Failed(module->GetClassFromToken(spec["token"].Uint(), cls.Out())) || !cls) {
    return Status::Fail("NO_TYPE", "the type is not in a loaded module");
  }
  return Status::Success();
}

}  // namespace

Status TypeFromSpec(DebugSession& s, ICorDebugThread* thread, const Args& spec, ComPtr<ICorDebugType>& type) {
  if (spec["of"].Has()) {
    ComPtr<ICorDebugValue2> typed;
    auto target = Target(s.Values().Get(static_cast<int>(spec["of"].Int())));
    if (!target || Failed(target.As(IID_ICorDebugValue2, typed)) || Failed(typed->GetExactType(type.Out())) || !type) {
      return Status::Fail("NO_TYPE", "the value's type cannot be read (or the value is gone)");
    }
    return Status::Success();
  }
  if (spec["elem"].Has()) {
    ComPtr<ICorDebugType> elem;
    Status status = TypeFromSpec(s, thread, spec["elem"], elem);
    if (!status.Ok()) return status;
    ComPtr<ICorDebugAppDomain> domain;
    ComPtr<ICorDebugAppDomain2> domain2;
    uint32_t rank = spec["rank"].Uint(0);
    HRESULT hr = thread->GetAppDomain(domain.Out());
    if (!Failed(hr)) hr = domain.As(IID_ICorDebugAppDomain2, domain2);
    if (!Failed(hr)) hr = domain2->GetArrayOrPointerType(rank ? ELEMENT_TYPE_ARRAY : ELEMENT_TYPE_SZARRAY, rank ? rank : 1, elem.Get(), type.Out());
    return Failed(hr) ? Status::Fail("NO_TYPE", "the runtime cannot make that array type", hr) : Status::Success();
  }
  ComPtr<ICorDebugClass> cls;
  Status status = ClassOfSpec(s, spec, cls);
  if (!status.Ok()) return status;
  std::vector<ComPtr<ICorDebugType>> args;
  for (const auto& item : spec["args"].Items()) {
    ComPtr<ICorDebugType> arg;
    status = TypeFromSpec(s, thread, item, arg);
    if (!status.Ok()) return status;
    args.push_back(arg);
  }
  std::vector<ICorDebugType*> raw;
  for (auto& arg : args) raw.push_back(arg.Get());
  ComPtr<ICorDebugClass2> cls2;
  HRESULT hr = cls.As(IID_ICorDebugClass2, cls2);
  if (!Failed(hr)) {
    hr = cls2->GetParameterizedType(spec["valuetype"].Bool() ? ELEMENT_TYPE_VALUETYPE : ELEMENT_TYPE_CLASS, static_cast<ULONG32>(raw.size()),
                                    raw.empty() ? nullptr : raw.data(), type.Out());
  }
  return Failed(hr) ? Status::Fail("NO_TYPE", "the runtime cannot make that type", hr) : Status::Success();
}

void NewObject(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  const Args& spec = a["type"];
  ComPtr<ICorDebugClass> cls;
  status = ClassOfSpec(s, spec, cls);
  if (!status.Ok()) return reply.Fail(status);
  std::vector<ComPtr<ICorDebugType>> typeArgs;
  for (const auto& item : spec["args"].Items()) {
    ComPtr<ICorDebugType> arg;
    status = TypeFromSpec(s, thread.Get(), item, arg);
    if (!status.Ok()) return reply.Fail(status);
    typeArgs.push_back(arg);
  }
  std::vector<uint8_t> bytes;
  bool fill = a["bytes"].Has();
  if (fill && !Hex(a["bytes"].Str(), bytes)) return reply.Fail("BAD_ARGUMENT", "bytes must be hexadecimal");
  auto begin = [&](ICorDebugEval* eval) -> HRESULT {
    std::vector<ICorDebugType*> raw;
    for (auto& t : typeArgs) raw.push_back(t.Get());
    ComPtr<ICorDebugEval2> eval2;
    if (Failed(ComPtr<ICorDebugEval>::Retain(eval).As(IID_ICorDebugEval2, eval2))) return E_NOINTERFACE;
    return eval2->NewParameterizedObjectNoConstructor(cls.Get(), static_cast<ULONG32>(raw.size()), raw.empty() ? nullptr : raw.data());
  };
  // A box is filled through its value (a primitive, or a struct's raw bytes: only structs without
  // object references are sent, since this write passes no GC barrier).
  EvalRunner::Finish finish;
  if (fill) {
    finish = [bytes](ICorDebugValue* result) -> HRESULT {
      auto inner = Target(ComPtr<ICorDebugValue>::Retain(result));
      ComPtr<ICorDebugGenericValue> generic;
      ULONG32 size = 0;
      if (!inner || Failed(inner.As(IID_ICorDebugGenericValue, generic)) || Failed(inner->GetSize(&size))) return E_NOINTERFACE;
      if (size != bytes.size()) return E_INVALIDARG;
      return generic->SetValue(const_cast<uint8_t*>(bytes.data()));
    };
  }
  status = s.Evaluate(thread.Get(), begin, reply, std::move(finish));
  if (!status.Ok()) reply.Fail(status);
}

void NewArray(DebugSession& s, const Args& a, Reply& reply) {
  ComPtr<ICorDebugThread> thread;
  Status status = s.Thread(a["threadId"].Uint(), thread);
  if (!status.Ok()) return reply.Fail(status);
  ComPtr<ICorDebugType> elem;
  status = TypeFromSpec(s, thread.Get(), a["elem"], elem);
  if (!status.Ok()) return reply.Fail(status);
  ULONG32 length = a["length"].Uint(0);
  auto begin = [&](ICorDebugEval* eval) -> HRESULT {
    ComPtr<ICorDebugEval2> eval2;
    if (Failed(ComPtr<ICorDebugEval>::Retain(eval).As(IID_ICorDebugEval2, eval2))) return E_NOINTERFACE;
    ULONG32 low = 0;
    return eval2->NewParameterizedArray(elem.Get(), 1, &length, &low);
  };
  status = s.Evaluate(thread.Get(), begin, reply);
  if (!status.Ok()) reply.Fail(status);
}

}  // namespace dbg
