// ICorDebug declarations for code: breakpoints, steppers, functions, code blobs, classes and types
// (cordebug.idl method order; base-interface methods first by single inheritance).
#pragma once

#include "cordebug_types.h"

namespace dbg {

struct ICorDebugBreakpoint : IUnknown {
  virtual HRESULT DBG_STDCALL Activate(BOOL active) = 0;
  virtual HRESULT DBG_STDCALL IsActive(BOOL* active) = 0;
};

struct ICorDebugFunctionBreakpoint : ICorDebugBreakpoint {
  virtual HRESULT DBG_STDCALL GetFunction(ICorDebugFunction** function) = 0;
  virtual HRESULT DBG_STDCALL GetOffset(ULONG32* offset) = 0;
};

struct ICorDebugValueBreakpoint : ICorDebugBreakpoint {
  virtual HRESULT DBG_STDCALL GetValue(ICorDebugValue** value) = 0;
};

struct ICorDebugBreakpointEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugBreakpoint** breakpoints, ULONG* fetched) = 0;
};

struct ICorDebugStepper : IUnknown {
  virtual HRESULT DBG_STDCALL IsActive(BOOL* active) = 0;
  virtual HRESULT DBG_STDCALL Deactivate() = 0;
  virtual HRESULT DBG_STDCALL SetInterceptMask(CorDebugIntercept mask) = 0;
  virtual HRESULT DBG_STDCALL SetUnmappedStopMask(CorDebugUnmappedStop mask) = 0;
  virtual HRESULT DBG_STDCALL Step(BOOL stepIn) = 0;
  virtual HRESULT DBG_STDCALL StepRange(BOOL stepIn, COR_DEBUG_STEP_RANGE* ranges, ULONG32 rangeCount) = 0;
  virtual HRESULT DBG_STDCALL StepOut() = 0;
  virtual HRESULT DBG_STDCALL SetRangeIL(BOOL il) = 0;
};

struct ICorDebugStepper2 : IUnknown {
  virtual HRESULT DBG_STDCALL SetJMC(BOOL isJMCStepper) = 0;
};

struct ICorDebugStepperEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugStepper** steppers, ULONG* fetched) = 0;
};

struct ICorDebugFunction : IUnknown {
  virtual HRESULT DBG_STDCALL GetModule(ICorDebugModule** module) = 0;
  virtual HRESULT DBG_STDCALL GetClass(ICorDebugClass** cls) = 0;
  virtual HRESULT DBG_STDCALL GetToken(mdMethodDef* methodDef) = 0;
  virtual HRESULT DBG_STDCALL GetILCode(ICorDebugCode** code) = 0;
  virtual HRESULT DBG_STDCALL GetNativeCode(ICorDebugCode** code) = 0;
  virtual HRESULT DBG_STDCALL CreateBreakpoint(ICorDebugFunctionBreakpoint** breakpoint) = 0;
  virtual HRESULT DBG_STDCALL GetLocalVarSigToken(mdSignature* signature) = 0;
  virtual HRESULT DBG_STDCALL GetCurrentVersionNumber(ULONG32* version) = 0;
};

struct ICorDebugFunction2 : IUnknown {
  virtual HRESULT DBG_STDCALL SetJMCStatus(BOOL isJustMyCode) = 0;
  virtual HRESULT DBG_STDCALL GetJMCStatus(BOOL* isJustMyCode) = 0;
  virtual HRESULT DBG_STDCALL EnumerateNativeCode(ICorDebugCodeEnum** codes) = 0;
  virtual HRESULT DBG_STDCALL GetVersionNumber(ULONG32* version) = 0;
};

struct ICorDebugFunction3 : IUnknown {
  virtual HRESULT DBG_STDCALL GetActiveReJitRequestILCode(ICorDebugILCode** rejitedILCode) = 0;
};

struct ICorDebugCode : IUnknown {
  virtual HRESULT DBG_STDCALL IsIL(BOOL* il) = 0;
  virtual HRESULT DBG_STDCALL GetFunction(ICorDebugFunction** function) = 0;
  virtual HRESULT DBG_STDCALL GetAddress(CORDB_ADDRESS* start) = 0;
  virtual HRESULT DBG_STDCALL GetSize(ULONG32* size) = 0;
  virtual HRESULT DBG_STDCALL CreateBreakpoint(ULONG32 offset, ICorDebugFunctionBreakpoint** breakpoint) = 0;
  virtual HRESULT DBG_STDCALL GetCode(ULONG32 startOffset, ULONG32 endOffset, ULONG32 bufferSize, BYTE* buffer, ULONG32* fetched) = 0;
  virtual HRESULT DBG_STDCALL GetVersionNumber(ULONG32* version) = 0;
  virtual HRESULT DBG_STDCALL GetILToNativeMapping(ULONG32 mapSize, ULONG32* fetched, COR_DEBUG_IL_TO_NATIVE_MAP* map) = 0;
  virtual HRESULT DBG_STDCALL GetEnCRemapSequencePoints(ULONG32 mapSize, ULONG32* fetched, ULONG32* offsets) = 0;
};

struct ICorDebugCode2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetCodeChunks(ULONG32 bufferSize, ULONG32* chunkCount, CodeChunkInfo* chunks) = 0;
  virtual HRESULT DBG_STDCALL GetCompilerFlags(DWORD* flags) = 0;
};

struct ICorDebugCode3 : IUnknown {
  virtual HRESULT DBG_STDCALL GetReturnValueLiveOffset(ULONG32 ilOffset, ULONG32 bufferSize, ULONG32* fetched, ULONG32* offsets) = 0;
};

struct ICorDebugCodeEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugCode** codes, ULONG* fetched) = 0;
};

struct ICorDebugILCode : IUnknown {
  virtual HRESULT DBG_STDCALL GetEHClauses(ULONG32 clauseCount, ULONG32* fetched, CorDebugEHClause* clauses) = 0;
};

struct ICorDebugClass : IUnknown {
  virtual HRESULT DBG_STDCALL GetModule(ICorDebugModule** module) = 0;
  virtual HRESULT DBG_STDCALL GetToken(mdTypeDef* typeDef) = 0;
  virtual HRESULT DBG_STDCALL GetStaticFieldValue(mdFieldDef fieldDef, ICorDebugFrame* frame, ICorDebugValue** value) = 0;
};

struct ICorDebugClass2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetParameterizedType(CorElementType elementType, ULONG32 typeArgCount, ICorDebugType** typeArgs, ICorDebugType** type) = 0;
  virtual HRESULT DBG_STDCALL SetJMCStatus(BOOL isJustMyCode) = 0;
};

struct ICorDebugType : IUnknown {
  virtual HRESULT DBG_STDCALL GetType(CorElementType* type) = 0;
  virtual HRESULT DBG_STDCALL GetClass(ICorDebugClass** cls) = 0;
  virtual HRESULT DBG_STDCALL EnumerateTypeParameters(ICorDebugTypeEnum** parameters) = 0;
  virtual HRESULT DBG_STDCALL GetFirstTypeParameter(ICorDebugType** type) = 0;
  virtual HRESULT DBG_STDCALL GetBase(ICorDebugType** base) = 0;
  virtual HRESULT DBG_STDCALL GetStaticFieldValue(mdFieldDef fieldDef, ICorDebugFrame* frame, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetRank(ULONG32* rank) = 0;
};

struct ICorDebugType2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetTypeID(COR_TYPEID* id) = 0;
};

struct ICorDebugTypeEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugType** types, ULONG* fetched) = 0;
};

// IIDs (cordebug.idl uuid attributes).
constexpr GUID IID_ICorDebugBreakpoint = {0xcc7bcae8, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugFunctionBreakpoint = {0xcc7bcae9, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugValueBreakpoint = {0xcc7bcaeb, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugBreakpointEnum = {0xcc7bcb03, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugStepper = {0xcc7bcaec, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugStepper2 = {0xc5b6e9c3, 0xe7d1, 0x4a8e, {0x87, 0x3b, 0x7f, 0x04, 0x7f, 0x07, 0x06, 0xf7}};
constexpr GUID IID_ICorDebugStepperEnum = {0xcc7bcb04, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugFunction = {0xcc7bcaf3, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugFunction2 = {0xef0c490b, 0x94c3, 0x4e4d, {0xb6, 0x29, 0xdd, 0xc1, 0x34, 0xc5, 0x32, 0xd8}};
constexpr GUID IID_ICorDebugFunction3 = {0x09b70f28, 0xe465, 0x482d, {0x99, 0xe0, 0x81, 0xa1, 0x65, 0xeb, 0x05, 0x32}};
constexpr GUID IID_ICorDebugCode = {0xcc7bcaf4, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugCode2 = {0x5f696509, 0x452f, 0x4436, {0xa3, 0xfe, 0x4d, 0x11, 0xfe, 0x7e, 0x23, 0x47}};
constexpr GUID IID_ICorDebugCode3 = {0xd13d3e88, 0xe1f2, 0x4020, {0xaa, 0x1d, 0x3d, 0x16, 0x2d, 0xcb, 0xe9, 0x66}};
constexpr GUID IID_ICorDebugCodeEnum = {0x55e96461, 0x9645, 0x45e4, {0xa2, 0xff, 0x03, 0x67, 0x87, 0x7a, 0xbc, 0xde}};
constexpr GUID IID_ICorDebugILCode = {0x598d46c2, 0xc877, 0x42a7, {0x89, 0xd2, 0x3d, 0x0c, 0x7f, 0x1c, 0x12, 0x64}};
constexpr GUID IID_ICorDebugClass = {0xcc7bcaf5, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugClass2 = {0xb008ea8d, 0x7ab1, 0x43f7, {0xbb, 0x20, 0xfb, 0xb5, 0xa0, 0x40, 0x38, 0xae}};
constexpr GUID IID_ICorDebugType = {0xd613f0bb, 0xace1, 0x4c19, {0xbd, 0x72, 0xe4, 0xc0, 0x8d, 0x5d, 0xa7, 0xf5}};
constexpr GUID IID_ICorDebugType2 = {0xe6e91d79, 0x693d, 0x48bc, {0xb4, 0x17, 0x82, 0x84, 0xb4, 0xf1, 0x0f, 0xb5}};
constexpr GUID IID_ICorDebugTypeEnum = {0x10f27499, 0x9df2, 0x43ce, {0x83, 0x33, 0xa3, 0x21, 0xd7, 0xc9, 0x9c, 0xb4}};

}  // namespace dbg
