// The few COM basics ICorDebug needs, declared for the project (no Windows or PAL headers).
// On Linux/macOS the runtime's PAL uses the x64/arm64 C calling convention and a plain pure-virtual
// IUnknown, so ordinary single inheritance lays out vtables exactly as COM expects.
#pragma once

#include <cstdint>
#include <cstring>

namespace dbg {

using HRESULT = int32_t;
using ULONG = uint32_t;   // 32-bit on every target (the PAL's ULONG is not `unsigned long`)
using ULONG32 = uint32_t;
using LONG = int32_t;
using DWORD = uint32_t;
using BOOL = int32_t;
using BYTE = uint8_t;
using WCHAR = char16_t;   // UTF-16 everywhere, never wchar_t
using CORDB_ADDRESS = uint64_t;
using mdToken = uint32_t;
using mdTypeDef = uint32_t;
using CONNID = DWORD;

#if defined(_WIN32) && defined(_M_IX86)
#define DBG_STDCALL __stdcall
#else
#define DBG_STDCALL
#endif

struct GUID {
  uint32_t data1;
  uint16_t data2;
  uint16_t data3;
  uint8_t data4[8];
};
inline bool operator==(const GUID& a, const GUID& b) { return std::memcmp(&a, &b, sizeof(GUID)) == 0; }
using REFIID = const GUID&;

constexpr HRESULT S_OK = 0;
constexpr HRESULT S_FALSE = 1;
constexpr HRESULT E_NOINTERFACE = static_cast<HRESULT>(0x80004002u);
constexpr HRESULT E_FAIL = static_cast<HRESULT>(0x80004005u);
constexpr HRESULT E_INVALIDARG = static_cast<HRESULT>(0x80070057u);
constexpr HRESULT E_POINTER = static_cast<HRESULT>(0x80004003u);
constexpr HRESULT E_NOTIMPL = static_cast<HRESULT>(0x80004001u);
inline bool Failed(HRESULT hr) { return hr < 0; }

struct IUnknown {
  virtual HRESULT DBG_STDCALL QueryInterface(REFIID riid, void** ppv) = 0;
  virtual ULONG DBG_STDCALL AddRef() = 0;
  virtual ULONG DBG_STDCALL Release() = 0;
};

constexpr GUID IID_IUnknown = {0x00000000, 0x0000, 0x0000, {0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};

}  // namespace dbg
