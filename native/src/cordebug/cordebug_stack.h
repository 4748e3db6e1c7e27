// ICorDebug declarations for stacks: the thread extensions, the V3 stack walk, register sets,
// chains and frames (cordebug.idl method order; base-interface methods first by single inheritance).
#pragma once

#include "cordebug_types.h"

namespace dbg {

struct ICorDebugThread2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetActiveFunctions(ULONG32 functionCount, ULONG32* fetched, COR_ACTIVE_FUNCTION* functions) = 0;
  virtual HRESULT DBG_STDCALL GetConnectionID(CONNID* connectionId) = 0;
  virtual HRESULT DBG_STDCALL GetTaskID(TASKID* taskId) = 0;
  virtual HRESULT DBG_STDCALL GetVolatileOSThreadID(DWORD* tid) = 0;
  virtual HRESULT DBG_STDCALL InterceptCurrentException(ICorDebugFrame* frame) = 0;
};

struct ICorDebugThread3 : IUnknown {
  virtual HRESULT DBG_STDCALL CreateStackWalk(ICorDebugStackWalk** stackWalk) = 0;
  virtual HRESULT DBG_STDCALL GetActiveInternalFrames(ULONG32 frameCount, ULONG32* fetched, ICorDebugInternalFrame2** frames) = 0;
};

struct ICorDebugThread4 : IUnknown {
  virtual HRESULT DBG_STDCALL HasUnhandledException() = 0;
  virtual HRESULT DBG_STDCALL GetBlockingObjects(ICorDebugBlockingObjectEnum** blockingObjects) = 0;
  virtual HRESULT DBG_STDCALL GetCurrentCustomDebuggerNotification(ICorDebugValue** notification) = 0;
};

struct ICorDebugBlockingObjectEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, CorDebugBlockingObject* values, ULONG* fetched) = 0;
};

struct ICorDebugStackWalk : IUnknown {
  virtual HRESULT DBG_STDCALL GetContext(ULONG32 contextFlags, ULONG32 bufferSize, ULONG32* contextSize, BYTE* context) = 0;
  virtual HRESULT DBG_STDCALL SetContext(CorDebugSetContextFlag flag, ULONG32 contextSize, BYTE* context) = 0;
  virtual HRESULT DBG_STDCALL Next() = 0;  // CORDBG_S_AT_END_OF_STACK past the last frame
  virtual HRESULT DBG_STDCALL GetFrame(ICorDebugFrame** frame) = 0;  // S_FALSE and null at a native frame
};

struct ICorDebugRegisterSet : IUnknown {
  virtual HRESULT DBG_STDCALL GetRegistersAvailable(uint64_t* available) = 0;
  virtual HRESULT DBG_STDCALL GetRegisters(uint64_t mask, ULONG32 registerCount, CORDB_REGISTER* registers) = 0;
  virtual HRESULT DBG_STDCALL SetRegisters(uint64_t mask, ULONG32 registerCount, CORDB_REGISTER* registers) = 0;
  virtual HRESULT DBG_STDCALL GetThreadContext(ULONG32 contextSize, BYTE* context) = 0;
  virtual HRESULT DBG_STDCALL SetThreadContext(ULONG32 contextSize, BYTE* context) = 0;
};

struct ICorDebugChain : IUnknown {
  virtual HRESULT DBG_STDCALL GetThread(ICorDebugThread** thread) = 0;
  virtual HRESULT DBG_STDCALL GetStackRange(CORDB_ADDRESS* start, CORDB_ADDRESS* end) = 0;
  virtual HRESULT DBG_STDCALL GetContext(ICorDebugContext** context) = 0;
  virtual HRESULT DBG_STDCALL GetCaller(ICorDebugChain** chain) = 0;
  virtual HRESULT DBG_STDCALL GetCallee(ICorDebugChain** chain) = 0;
  virtual HRESULT DBG_STDCALL GetPrevious(ICorDebugChain** chain) = 0;
  virtual HRESULT DBG_STDCALL GetNext(ICorDebugChain** chain) = 0;
  virtual HRESULT DBG_STDCALL IsManaged(BOOL* managed) = 0;
  virtual HRESULT DBG_STDCALL EnumerateFrames(ICorDebugFrameEnum** frames) = 0;
  virtual HRESULT DBG_STDCALL GetActiveFrame(ICorDebugFrame** frame) = 0;
  virtual HRESULT DBG_STDCALL GetRegisterSet(ICorDebugRegisterSet** registers) = 0;
  virtual HRESULT DBG_STDCALL GetReason(CorDebugChainReason* reason) = 0;
};

struct ICorDebugChainEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugChain** chains, ULONG* fetched) = 0;
};

struct ICorDebugFrame : IUnknown {
  virtual HRESULT DBG_STDCALL GetChain(ICorDebugChain** chain) = 0;
  virtual HRESULT DBG_STDCALL GetCode(ICorDebugCode** code) = 0;
  virtual HRESULT DBG_STDCALL GetFunction(ICorDebugFunction** function) = 0;
  virtual HRESULT DBG_STDCALL GetFunctionToken(mdMethodDef* token) = 0;
  virtual HRESULT DBG_STDCALL GetStackRange(CORDB_ADDRESS* start, CORDB_ADDRESS* end) = 0;
  virtual HRESULT DBG_STDCALL GetCaller(ICorDebugFrame** frame) = 0;
  virtual HRESULT DBG_STDCALL GetCallee(ICorDebugFrame** frame) = 0;
  virtual HRESULT DBG_STDCALL CreateStepper(ICorDebugStepper** stepper) = 0;
};

struct ICorDebugFrameEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugFrame** frames, ULONG* fetched) = 0;
};

struct ICorDebugInternalFrame : ICorDebugFrame {
  virtual HRESULT DBG_STDCALL GetFrameType(CorDebugInternalFrameType* type) = 0;
};

struct ICorDebugInternalFrame2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetAddress(CORDB_ADDRESS* address) = 0;
  virtual HRESULT DBG_STDCALL IsCloserToLeaf(ICorDebugFrame* frameToCompare, BOOL* isCloser) = 0;
};

struct ICorDebugILFrame : ICorDebugFrame {
  virtual HRESULT DBG_STDCALL GetIP(ULONG32* offset, CorDebugMappingResult* mappingResult) = 0;
  virtual HRESULT DBG_STDCALL SetIP(ULONG32 offset) = 0;
  virtual HRESULT DBG_STDCALL EnumerateLocalVariables(ICorDebugValueEnum** values) = 0;
  virtual HRESULT DBG_STDCALL GetLocalVariable(DWORD index, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL EnumerateArguments(ICorDebugValueEnum** values) = 0;
  virtual HRESULT DBG_STDCALL GetArgument(DWORD index, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetStackDepth(ULONG32* depth) = 0;
  virtual HRESULT DBG_STDCALL GetStackValue(DWORD index, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL CanSetIP(ULONG32 offset) = 0;
};

struct ICorDebugILFrame2 : IUnknown {
  virtual HRESULT DBG_STDCALL RemapFunction(ULONG32 newILOffset) = 0;
  virtual HRESULT DBG_STDCALL EnumerateTypeParameters(ICorDebugTypeEnum** parameters) = 0;
};

struct ICorDebugILFrame3 : IUnknown {
  virtual HRESULT DBG_STDCALL GetReturnValueForILOffset(ULONG32 ilOffset, ICorDebugValue** returnValue) = 0;
};

struct ICorDebugILFrame4 : IUnknown {
  virtual HRESULT DBG_STDCALL EnumerateLocalVariablesEx(ILCodeKind flags, ICorDebugValueEnum** values) = 0;
  virtual HRESULT DBG_STDCALL GetLocalVariableEx(ILCodeKind flags, DWORD index, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetCodeEx(ILCodeKind flags, ICorDebugCode** code) = 0;
};

struct ICorDebugNativeFrame : ICorDebugFrame {
  virtual HRESULT DBG_STDCALL GetIP(ULONG32* offset) = 0;
  virtual HRESULT DBG_STDCALL SetIP(ULONG32 offset) = 0;
  virtual HRESULT DBG_STDCALL GetRegisterSet(ICorDebugRegisterSet** registers) = 0;
  virtual HRESULT DBG_STDCALL GetLocalRegisterValue(CorDebugRegister reg, ULONG sigSize, PCCOR_SIGNATURE sig, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetLocalDoubleRegisterValue(CorDebugRegister highWordReg, CorDebugRegister lowWordReg, ULONG sigSize, PCCOR_SIGNATURE sig, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetLocalMemoryValue(CORDB_ADDRESS address, ULONG sigSize, PCCOR_SIGNATURE sig, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetLocalRegisterMemoryValue(CorDebugRegister highWordReg, CORDB_ADDRESS lowWordAddress, ULONG sigSize, PCCOR_SIGNATURE sig, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetLocalMemoryRegisterValue(CORDB_ADDRESS highWordAddress, CorDebugRegister lowWordRegister, ULONG sigSize, PCCOR_SIGNATURE sig, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL CanSetIP(ULONG32 offset) = 0;
};

struct ICorDebugNativeFrame2 : IUnknown {
  virtual HRESULT DBG_STDCALL IsChild(BOOL* isChild) = 0;
  virtual HRESULT DBG_STDCALL IsMatchingParentFrame(ICorDebugNativeFrame2* potentialParent, BOOL* isParent) = 0;
  virtual HRESULT DBG_STDCALL GetStackParameterSize(ULONG32* size) = 0;
};

struct ICorDebugRuntimeUnwindableFrame : ICorDebugFrame {};

// IIDs (cordebug.idl uuid attributes).
constexpr GUID IID_ICorDebugThread2 = {0x2bd956d9, 0x7b07, 0x4bef, {0x8a, 0x98, 0x12, 0xaa, 0x86, 0x24, 0x17, 0xc5}};
constexpr GUID IID_ICorDebugThread3 = {0xf8544ec3, 0x5e4e, 0x46c7, {0x8d, 0x3e, 0xa5, 0x2b, 0x84, 0x05, 0xb1, 0xf5}};
constexpr GUID IID_ICorDebugThread4 = {0x1a1f204b, 0x1c66, 0x4637, {0x82, 0x3f, 0x3e, 0xe6, 0xc7, 0x44, 0xa6, 0x9c}};
constexpr GUID IID_ICorDebugBlockingObjectEnum = {0x976a6278, 0x134a, 0x4a81, {0x81, 0xa3, 0x8f, 0x27, 0x79, 0x43, 0xf4, 0xc3}};
constexpr GUID IID_ICorDebugStackWalk = {0xa0647de9, 0x55de, 0x4816, {0x92, 0x9c, 0x38, 0x52, 0x71, 0xc6, 0x4c, 0xf7}};
constexpr GUID IID_ICorDebugRegisterSet = {0xcc7bcb0b, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugChain = {0xcc7bcaee, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugChainEnum = {0xcc7bcb08, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugFrame = {0xcc7bcaef, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugFrameEnum = {0xcc7bcb07, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugInternalFrame = {0xb92cc7f7, 0x9d2d, 0x45c4, {0xbc, 0x2b, 0x62, 0x1f, 0xcc, 0x9d, 0xfb, 0xf4}};
constexpr GUID IID_ICorDebugInternalFrame2 = {0xc0815bdc, 0xcfab, 0x447e, {0xa7, 0x79, 0xc1, 0x16, 0xb4, 0x54, 0xeb, 0x5b}};
constexpr GUID IID_ICorDebugILFrame = {0x03e26311, 0x4f76, 0x11d3, {0x88, 0xc6, 0x00, 0x60, 0x97, 0x94, 0x54, 0x18}};
constexpr GUID IID_ICorDebugILFrame2 = {0x5d88a994, 0x6c30, 0x479b, {0x89, 0x0f, 0xbc, 0xef, 0x88, 0xb1, 0x29, 0xa5}};
constexpr GUID IID_ICorDebugILFrame3 = {0x9a9e2ed6, 0x04df, 0x4fe0, {0xbb, 0x50, 0xca, 0xb6, 0x41, 0x26, 0xad, 0x24}};
constexpr GUID IID_ICorDebugILFrame4 = {0xad914a30, 0xc6d1, 0x4ac5, {0x9c, 0x5e, 0x57, 0x7f, 0x3b, 0xaa, 0x8a, 0x45}};
constexpr GUID IID_ICorDebugNativeFrame = {0x03e26314, 0x4f76, 0x11d3, {0x88, 0xc6, 0x00, 0x60, 0x97, 0x94, 0x54, 0x18}};
constexpr GUID IID_ICorDebugNativeFrame2 = {0x35389ff1, 0x3684, 0x4c55, {0xa2, 0xee, 0x21, 0x0f, 0x26, 0xc6, 0x0e, 0x5e}};
constexpr GUID IID_ICorDebugRuntimeUnwindableFrame = {0x879cac0a, 0x4a53, 0x4668, {0xb8, 0xe3, 0xcb, 0x84, 0x73, 0xcb, 0x18, 0x7f}};

}  // namespace dbg
