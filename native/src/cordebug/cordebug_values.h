// ICorDebug declarations for values and function evaluation (cordebug.idl method order;
// base-interface methods first by single inheritance).
#pragma once

#include "cordebug_types.h"

namespace dbg {

struct ICorDebugEval : IUnknown {
  virtual HRESULT DBG_STDCALL CallFunction(ICorDebugFunction* function, ULONG32 argCount, ICorDebugValue** args) = 0;
  virtual HRESULT DBG_STDCALL NewObject(ICorDebugFunction* constructor, ULONG32 argCount, ICorDebugValue** args) = 0;
  virtual HRESULT DBG_STDCALL NewObjectNoConstructor(ICorDebugClass* cls) = 0;
  virtual HRESULT DBG_STDCALL NewString(const WCHAR* text) = 0;
  virtual HRESULT DBG_STDCALL NewArray(CorElementType elementType, ICorDebugClass* elementClass, ULONG32 rank, ULONG32* dims, ULONG32* lowBounds) = 0;
  virtual HRESULT DBG_STDCALL IsActive(BOOL* active) = 0;
  virtual HRESULT DBG_STDCALL Abort() = 0;
  virtual HRESULT DBG_STDCALL GetResult(ICorDebugValue** result) = 0;
  virtual HRESULT DBG_STDCALL GetThread(ICorDebugThread** thread) = 0;
  virtual HRESULT DBG_STDCALL CreateValue(CorElementType elementType, ICorDebugClass* elementClass, ICorDebugValue** value) = 0;
};

struct ICorDebugEval2 : IUnknown {
  virtual HRESULT DBG_STDCALL CallParameterizedFunction(ICorDebugFunction* function, ULONG32 typeArgCount, ICorDebugType** typeArgs, ULONG32 argCount, ICorDebugValue** args) = 0;
  virtual HRESULT DBG_STDCALL CreateValueForType(ICorDebugType* type, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL NewParameterizedObject(ICorDebugFunction* constructor, ULONG32 typeArgCount, ICorDebugType** typeArgs, ULONG32 argCount, ICorDebugValue** args) = 0;
  virtual HRESULT DBG_STDCALL NewParameterizedObjectNoConstructor(ICorDebugClass* cls, ULONG32 typeArgCount, ICorDebugType** typeArgs) = 0;
  virtual HRESULT DBG_STDCALL NewParameterizedArray(ICorDebugType* elementType, ULONG32 rank, ULONG32* dims, ULONG32* lowBounds) = 0;
  virtual HRESULT DBG_STDCALL NewStringWithLength(const WCHAR* text, uint32_t length) = 0;
  virtual HRESULT DBG_STDCALL RudeAbort() = 0;
};

struct ICorDebugValue : IUnknown {
  virtual HRESULT DBG_STDCALL GetType(CorElementType* type) = 0;
  virtual HRESULT DBG_STDCALL GetSize(ULONG32* size) = 0;
  virtual HRESULT DBG_STDCALL GetAddress(CORDB_ADDRESS* address) = 0;
  virtual HRESULT DBG_STDCALL CreateBreakpoint(ICorDebugValueBreakpoint** breakpoint) = 0;
};

struct ICorDebugValue2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetExactType(ICorDebugType** type) = 0;
};

struct ICorDebugValue3 : IUnknown {
  virtual HRESULT DBG_STDCALL GetSize64(uint64_t* size) = 0;
};

struct ICorDebugGenericValue : ICorDebugValue {
  virtual HRESULT DBG_STDCALL GetValue(void* to) = 0;
  virtual HRESULT DBG_STDCALL SetValue(void* from) = 0;
};

struct ICorDebugReferenceValue : ICorDebugValue {
  virtual HRESULT DBG_STDCALL IsNull(BOOL* isNull) = 0;
  virtual HRESULT DBG_STDCALL GetValue(CORDB_ADDRESS* value) = 0;
  virtual HRESULT DBG_STDCALL SetValue(CORDB_ADDRESS value) = 0;
  virtual HRESULT DBG_STDCALL Dereference(ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL DereferenceStrong(ICorDebugValue** value) = 0;
};

struct ICorDebugHandleValue : ICorDebugReferenceValue {
  virtual HRESULT DBG_STDCALL GetHandleType(CorDebugHandleType* type) = 0;
  virtual HRESULT DBG_STDCALL Dispose() = 0;
};

struct ICorDebugHeapValue : ICorDebugValue {
  virtual HRESULT DBG_STDCALL IsValid(BOOL* valid) = 0;
  virtual HRESULT DBG_STDCALL CreateRelocBreakpoint(ICorDebugValueBreakpoint** breakpoint) = 0;
};

struct ICorDebugHeapValue2 : IUnknown {
  virtual HRESULT DBG_STDCALL CreateHandle(CorDebugHandleType type, ICorDebugHandleValue** handle) = 0;
};

struct ICorDebugHeapValue3 : IUnknown {
  virtual HRESULT DBG_STDCALL GetThreadOwningMonitorLock(ICorDebugThread** thread, DWORD* acquisitionCount) = 0;
  virtual HRESULT DBG_STDCALL GetMonitorEventWaitList(ICorDebugThreadEnum** threads) = 0;
};

struct ICorDebugHeapValue4 : IUnknown {
  virtual HRESULT DBG_STDCALL CreatePinnedHandle(ICorDebugHandleValue** handle) = 0;
};

struct ICorDebugObjectValue : ICorDebugValue {
  virtual HRESULT DBG_STDCALL GetClass(ICorDebugClass** cls) = 0;
  virtual HRESULT DBG_STDCALL GetFieldValue(ICorDebugClass* cls, mdFieldDef fieldDef, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetVirtualMethod(mdMemberRef memberRef, ICorDebugFunction** function) = 0;
  virtual HRESULT DBG_STDCALL GetContext(ICorDebugContext** context) = 0;
  virtual HRESULT DBG_STDCALL IsValueClass(BOOL* isValueClass) = 0;
  virtual HRESULT DBG_STDCALL GetManagedCopy(IUnknown** object) = 0;
  virtual HRESULT DBG_STDCALL SetFromManagedCopy(IUnknown* object) = 0;
};

struct ICorDebugObjectValue2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetVirtualMethodAndType(mdMemberRef memberRef, ICorDebugFunction** function, ICorDebugType** type) = 0;
};

struct ICorDebugContext : ICorDebugObjectValue {};

struct ICorDebugDelegateObjectValue : IUnknown {
  virtual HRESULT DBG_STDCALL GetTarget(ICorDebugReferenceValue** target) = 0;
  virtual HRESULT DBG_STDCALL GetFunction(ICorDebugFunction** function) = 0;
};

struct ICorDebugBoxValue : ICorDebugHeapValue {
  virtual HRESULT DBG_STDCALL GetObject(ICorDebugObjectValue** object) = 0;
};

struct ICorDebugStringValue : ICorDebugHeapValue {
  virtual HRESULT DBG_STDCALL GetLength(ULONG32* length) = 0;
  virtual HRESULT DBG_STDCALL GetString(ULONG32 cchString, ULONG32* pcchString, WCHAR* text) = 0;
};

struct ICorDebugArrayValue : ICorDebugHeapValue {
  virtual HRESULT DBG_STDCALL GetElementType(CorElementType* type) = 0;
  virtual HRESULT DBG_STDCALL GetRank(ULONG32* rank) = 0;
  virtual HRESULT DBG_STDCALL GetCount(ULONG32* count) = 0;
  virtual HRESULT DBG_STDCALL GetDimensions(ULONG32 dimCount, ULONG32* dims) = 0;
  virtual HRESULT DBG_STDCALL HasBaseIndicies(BOOL* hasBaseIndices) = 0;
  virtual HRESULT DBG_STDCALL GetBaseIndicies(ULONG32 dimCount, ULONG32* indices) = 0;
  virtual HRESULT DBG_STDCALL GetElement(ULONG32 dimCount, ULONG32* indices, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetElementAtPosition(ULONG32 position, ICorDebugValue** value) = 0;
};

struct ICorDebugValueEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugValue** values, ULONG* fetched) = 0;
};

struct ICorDebugExceptionObjectCallStackEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, CorDebugExceptionObjectStackFrame* frames, ULONG* fetched) = 0;
};

struct ICorDebugExceptionObjectValue : IUnknown {
  virtual HRESULT DBG_STDCALL EnumerateExceptionCallStack(ICorDebugExceptionObjectCallStackEnum** callStack) = 0;
};

// IIDs (cordebug.idl uuid attributes).
constexpr GUID IID_ICorDebugEval = {0xcc7bcaf6, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugEval2 = {0xfb0d9ce7, 0xbe66, 0x4683, {0x9d, 0x32, 0xa4, 0x2a, 0x04, 0xe2, 0xfd, 0x91}};
constexpr GUID IID_ICorDebugValue = {0xcc7bcaf7, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugValue2 = {0x5e0b54e7, 0xd88a, 0x4626, {0x94, 0x20, 0xa6, 0x91, 0xe0, 0xa7, 0x8b, 0x49}};
constexpr GUID IID_ICorDebugValue3 = {0x565005fc, 0x0f8a, 0x4f3e, {0x9e, 0xdb, 0x83, 0x10, 0x2b, 0x15, 0x65, 0x95}};
constexpr GUID IID_ICorDebugGenericValue = {0xcc7bcaf8, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugReferenceValue = {0xcc7bcaf9, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugHandleValue = {0x029596e8, 0x276b, 0x46a1, {0x98, 0x21, 0x73, 0x2e, 0x96, 0xbb, 0xb0, 0x0b}};
constexpr GUID IID_ICorDebugHeapValue = {0xcc7bcafa, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugHeapValue2 = {0xe3ac4d6c, 0x9cb7, 0x43e6, {0x96, 0xcc, 0xb2, 0x15, 0x40, 0xe5, 0x08, 0x3c}};
constexpr GUID IID_ICorDebugHeapValue3 = {0xa69acad8, 0x2374, 0x46e9, {0x9f, 0xf8, 0xb1, 0xf1, 0x41, 0x20, 0xd2, 0x96}};
constexpr GUID IID_ICorDebugHeapValue4 = {0xb35dd495, 0xa555, 0x463b, {0x9b, 0xe9, 0xc5, 0x53, 0x38, 0x48, 0x6b, 0xb8}};
constexpr GUID IID_ICorDebugObjectValue = {0x18ad3d6e, 0xb7d2, 0x11d2, {0xbd, 0x04, 0x00, 0x00, 0xf8, 0x08, 0x49, 0xbd}};
constexpr GUID IID_ICorDebugObjectValue2 = {0x49e4a320, 0x4a9b, 0x4eca, {0xb1, 0x05, 0x22, 0x9f, 0xb7, 0xd5, 0x00, 0x9f}};
constexpr GUID IID_ICorDebugContext = {0xcc7bcb00, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugDelegateObjectValue = {0x3af70cc7, 0x6047, 0x47f6, {0xa5, 0xc5, 0x09, 0x0a, 0x1a, 0x62, 0x26, 0x38}};
constexpr GUID IID_ICorDebugBoxValue = {0xcc7bcafc, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugStringValue = {0xcc7bcafd, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugArrayValue = {0x0405b0df, 0xa660, 0x11d2, {0xbd, 0x02, 0x00, 0x00, 0xf8, 0x08, 0x49, 0xbd}};
constexpr GUID IID_ICorDebugValueEnum = {0xcc7bcb0a, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugExceptionObjectCallStackEnum = {0xed775530, 0x4dc4, 0x41f7, {0x86, 0xd0, 0x9e, 0x2d, 0xef, 0x7d, 0xfc, 0x66}};
constexpr GUID IID_ICorDebugExceptionObjectValue = {0xae4ca65d, 0x59dd, 0x42a2, {0x83, 0xa5, 0x57, 0xe8, 0xa0, 0x8d, 0x87, 0x19}};

}  // namespace dbg
