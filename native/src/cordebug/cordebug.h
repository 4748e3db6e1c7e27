// The project's own declarations of the ICorDebug interfaces, written from the method order of
// dotnet/runtime src/coreclr/inc/cordebug.idl. Only the vtable slot order and the parameter types
// matter for the ABI. Base-interface methods come first (IUnknown, then e.g. ICorDebugController for
// a process), by single inheritance. This header holds the debugger, process, app domain, assembly,
// thread and module interfaces and the managed callbacks; the rest is in the sibling headers:
//   cordebug_types.h   forward declarations, enums, structs, CorElementType values, ICorDebugEnum
//   cordebug_code.h    breakpoints, steppers, functions, code, classes, types
//   cordebug_stack.h   thread extensions, stack walk, register sets, chains, frames
//   cordebug_values.h  values, func-eval
// The CORDBG_* HRESULTs are in cordebug_errors.h (not included here).
#pragma once

#include "../com/com.h"
#include "cordebug_code.h"
#include "cordebug_stack.h"
#include "cordebug_types.h"
#include "cordebug_values.h"

namespace dbg {

struct ICorDebugUnmanagedCallback : IUnknown {
  virtual HRESULT DBG_STDCALL DebugEvent(void* debugEvent, BOOL outOfBand) = 0;  // LPDEBUG_EVENT
};

struct ICorDebug : IUnknown {
  virtual HRESULT DBG_STDCALL Initialize() = 0;
  virtual HRESULT DBG_STDCALL Terminate() = 0;
  virtual HRESULT DBG_STDCALL SetManagedHandler(ICorDebugManagedCallback* callback) = 0;
  virtual HRESULT DBG_STDCALL SetUnmanagedHandler(ICorDebugUnmanagedCallback* callback) = 0;
  virtual HRESULT DBG_STDCALL CreateProcess(const WCHAR* app, WCHAR* cmdLine, void* processAttrs, void* threadAttrs,
                                            BOOL inheritHandles, DWORD creationFlags, void* env, const WCHAR* cwd,
                                            void* startupInfo, void* processInfo, CorDebugCreateProcessFlags debuggingFlags,
                                            ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL DebugActiveProcess(DWORD pid, BOOL win32Attach, ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL EnumerateProcesses(ICorDebugProcessEnum** processes) = 0;
  virtual HRESULT DBG_STDCALL GetProcess(DWORD pid, ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL CanLaunchOrAttach(DWORD pid, BOOL win32Debugging) = 0;
};

struct ICorDebugController : IUnknown {
  virtual HRESULT DBG_STDCALL Stop(DWORD timeoutIgnored) = 0;
  virtual HRESULT DBG_STDCALL Continue(BOOL isOutOfBand) = 0;
  virtual HRESULT DBG_STDCALL IsRunning(BOOL* running) = 0;
  virtual HRESULT DBG_STDCALL HasQueuedCallbacks(ICorDebugThread* thread, BOOL* queued) = 0;
  virtual HRESULT DBG_STDCALL EnumerateThreads(ICorDebugThreadEnum** threads) = 0;
  virtual HRESULT DBG_STDCALL SetAllThreadsDebugState(CorDebugThreadState state, ICorDebugThread* except) = 0;
  virtual HRESULT DBG_STDCALL Detach() = 0;
  virtual HRESULT DBG_STDCALL Terminate(uint32_t exitCode) = 0;
  virtual HRESULT DBG_STDCALL CanCommitChanges(ULONG count, ICorDebugEditAndContinueSnapshot** snapshots, ICorDebugErrorInfoEnum** errors) = 0;
  virtual HRESULT DBG_STDCALL CommitChanges(ULONG count, ICorDebugEditAndContinueSnapshot** snapshots, ICorDebugErrorInfoEnum** errors) = 0;
};

struct ICorDebugProcess : ICorDebugController {
  virtual HRESULT DBG_STDCALL GetID(DWORD* pid) = 0;
  virtual HRESULT DBG_STDCALL GetHandle(void** handle) = 0;  // HPROCESS
  virtual HRESULT DBG_STDCALL GetThread(DWORD threadId, ICorDebugThread** thread) = 0;
  virtual HRESULT DBG_STDCALL EnumerateObjects(ICorDebugObjectEnum** objects) = 0;
  virtual HRESULT DBG_STDCALL IsTransitionStub(CORDB_ADDRESS address, BOOL* isStub) = 0;
  virtual HRESULT DBG_STDCALL IsOSSuspended(DWORD threadId, BOOL* suspended) = 0;
  virtual HRESULT DBG_STDCALL GetThreadContext(DWORD threadId, ULONG32 size, BYTE* context) = 0;
  virtual HRESULT DBG_STDCALL SetThreadContext(DWORD threadId, ULONG32 size, BYTE* context) = 0;
  virtual HRESULT DBG_STDCALL ReadMemory(CORDB_ADDRESS address, DWORD size, BYTE* buffer, size_t* read) = 0;
  virtual HRESULT DBG_STDCALL WriteMemory(CORDB_ADDRESS address, DWORD size, BYTE* buffer, size_t* written) = 0;
  virtual HRESULT DBG_STDCALL ClearCurrentException(DWORD threadId) = 0;
  virtual HRESULT DBG_STDCALL EnableLogMessages(BOOL enable) = 0;
  virtual HRESULT DBG_STDCALL ModifyLogSwitch(WCHAR* name, LONG level) = 0;
  virtual HRESULT DBG_STDCALL EnumerateAppDomains(ICorDebugAppDomainEnum** appDomains) = 0;
  virtual HRESULT DBG_STDCALL GetObject(ICorDebugValue** object) = 0;
  virtual HRESULT DBG_STDCALL ThreadForFiberCookie(DWORD cookie, ICorDebugThread** thread) = 0;
  virtual HRESULT DBG_STDCALL GetHelperThreadID(DWORD* threadId) = 0;
};

struct ICorDebugProcess2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetThreadForTaskID(TASKID taskId, ICorDebugThread2** thread) = 0;
  virtual HRESULT DBG_STDCALL GetVersion(COR_VERSION* version) = 0;
  virtual HRESULT DBG_STDCALL SetUnmanagedBreakpoint(CORDB_ADDRESS address, ULONG32 bufferSize, BYTE* buffer, ULONG32* bufferLength) = 0;
  virtual HRESULT DBG_STDCALL ClearUnmanagedBreakpoint(CORDB_ADDRESS address) = 0;
  virtual HRESULT DBG_STDCALL SetDesiredNGENCompilerFlags(DWORD flags) = 0;
  virtual HRESULT DBG_STDCALL GetDesiredNGENCompilerFlags(DWORD* flags) = 0;
  virtual HRESULT DBG_STDCALL GetReferenceValueFromGCHandle(uintptr_t handle, ICorDebugReferenceValue** value) = 0;
};

struct ICorDebugProcess3 : IUnknown {
  virtual HRESULT DBG_STDCALL SetEnableCustomNotification(ICorDebugClass* cls, BOOL enable) = 0;
};

struct ICorDebugProcess5 : IUnknown {
  virtual HRESULT DBG_STDCALL GetGCHeapInformation(COR_HEAPINFO* heapInfo) = 0;
  virtual HRESULT DBG_STDCALL EnumerateHeap(ICorDebugHeapEnum** objects) = 0;
  virtual HRESULT DBG_STDCALL EnumerateHeapRegions(ICorDebugHeapSegmentEnum** regions) = 0;
  virtual HRESULT DBG_STDCALL GetObject(CORDB_ADDRESS address, ICorDebugObjectValue** object) = 0;
  virtual HRESULT DBG_STDCALL EnumerateGCReferences(BOOL enumerateWeakReferences, ICorDebugGCReferenceEnum** references) = 0;
  virtual HRESULT DBG_STDCALL EnumerateHandles(CorGCReferenceType types, ICorDebugGCReferenceEnum** handles) = 0;
  virtual HRESULT DBG_STDCALL GetTypeID(CORDB_ADDRESS object, COR_TYPEID* id) = 0;
  virtual HRESULT DBG_STDCALL GetTypeForTypeID(COR_TYPEID id, ICorDebugType** type) = 0;
  virtual HRESULT DBG_STDCALL GetArrayLayout(COR_TYPEID id, COR_ARRAY_LAYOUT* layout) = 0;
  virtual HRESULT DBG_STDCALL GetTypeLayout(COR_TYPEID id, COR_TYPE_LAYOUT* layout) = 0;
  virtual HRESULT DBG_STDCALL GetTypeFields(COR_TYPEID id, ULONG32 fieldCount, COR_FIELD* fields, ULONG32* needed) = 0;
  virtual HRESULT DBG_STDCALL EnableNGENPolicy(CorDebugNGENPolicy policy) = 0;
};

struct ICorDebugProcess8 : IUnknown {
  virtual HRESULT DBG_STDCALL EnableExceptionCallbacksOutsideOfMyCode(BOOL enable) = 0;
};

struct ICorDebugProcess10 : IUnknown {
  virtual HRESULT DBG_STDCALL EnableGCNotificationEvents(BOOL enable) = 0;  // deprecated in the idl
};

struct ICorDebugProcessEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugProcess** processes, ULONG* fetched) = 0;
};

struct ICorDebugObjectEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, CORDB_ADDRESS* objects, ULONG* fetched) = 0;
};

struct ICorDebugHeapEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, COR_HEAPOBJECT* objects, ULONG* fetched) = 0;
};

struct ICorDebugAppDomain : ICorDebugController {
  virtual HRESULT DBG_STDCALL GetProcess(ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL EnumerateAssemblies(ICorDebugAssemblyEnum** assemblies) = 0;
  virtual HRESULT DBG_STDCALL GetModuleFromMetaDataInterface(IUnknown* metadata, ICorDebugModule** module) = 0;
  virtual HRESULT DBG_STDCALL EnumerateBreakpoints(ICorDebugBreakpointEnum** breakpoints) = 0;
  virtual HRESULT DBG_STDCALL EnumerateSteppers(ICorDebugStepperEnum** steppers) = 0;
  virtual HRESULT DBG_STDCALL IsAttached(BOOL* attached) = 0;
  virtual HRESULT DBG_STDCALL GetName(ULONG32 cchName, ULONG32* pcchName, WCHAR* name) = 0;
  virtual HRESULT DBG_STDCALL GetObject(ICorDebugValue** object) = 0;
  virtual HRESULT DBG_STDCALL Attach() = 0;
  virtual HRESULT DBG_STDCALL GetID(ULONG32* id) = 0;
};

struct ICorDebugAppDomain2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetArrayOrPointerType(CorElementType elementType, ULONG32 rank, ICorDebugType* typeArg, ICorDebugType** type) = 0;
  virtual HRESULT DBG_STDCALL GetFunctionPointerType(ULONG32 typeArgCount, ICorDebugType** typeArgs, ICorDebugType** type) = 0;
};

struct ICorDebugAppDomainEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugAppDomain** appDomains, ULONG* fetched) = 0;
};

struct ICorDebugAssembly : IUnknown {
  virtual HRESULT DBG_STDCALL GetProcess(ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL GetAppDomain(ICorDebugAppDomain** appDomain) = 0;
  virtual HRESULT DBG_STDCALL EnumerateModules(ICorDebugModuleEnum** modules) = 0;
  virtual HRESULT DBG_STDCALL GetCodeBase(ULONG32 cchName, ULONG32* pcchName, WCHAR* name) = 0;
  virtual HRESULT DBG_STDCALL GetName(ULONG32 cchName, ULONG32* pcchName, WCHAR* name) = 0;
};

struct ICorDebugAssemblyEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugAssembly** assemblies, ULONG* fetched) = 0;
};

struct ICorDebugThread : IUnknown {
  virtual HRESULT DBG_STDCALL GetProcess(ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL GetID(DWORD* threadId) = 0;
  virtual HRESULT DBG_STDCALL GetHandle(void** handle) = 0;  // HTHREAD
  virtual HRESULT DBG_STDCALL GetAppDomain(ICorDebugAppDomain** appDomain) = 0;
  virtual HRESULT DBG_STDCALL SetDebugState(CorDebugThreadState state) = 0;
  virtual HRESULT DBG_STDCALL GetDebugState(CorDebugThreadState* state) = 0;
  virtual HRESULT DBG_STDCALL GetUserState(CorDebugUserState* state) = 0;
  virtual HRESULT DBG_STDCALL GetCurrentException(ICorDebugValue** exception) = 0;
  virtual HRESULT DBG_STDCALL ClearCurrentException() = 0;
  virtual HRESULT DBG_STDCALL CreateStepper(ICorDebugStepper** stepper) = 0;
  virtual HRESULT DBG_STDCALL EnumerateChains(ICorDebugChainEnum** chains) = 0;
  virtual HRESULT DBG_STDCALL GetActiveChain(ICorDebugChain** chain) = 0;
  virtual HRESULT DBG_STDCALL GetActiveFrame(ICorDebugFrame** frame) = 0;
  virtual HRESULT DBG_STDCALL GetRegisterSet(ICorDebugRegisterSet** registers) = 0;
  virtual HRESULT DBG_STDCALL CreateEval(ICorDebugEval** eval) = 0;
  virtual HRESULT DBG_STDCALL GetObject(ICorDebugValue** object) = 0;
};

struct ICorDebugThreadEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugThread** threads, ULONG* fetched) = 0;
};

struct ICorDebugModule : IUnknown {
  virtual HRESULT DBG_STDCALL GetProcess(ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL GetBaseAddress(CORDB_ADDRESS* address) = 0;
  virtual HRESULT DBG_STDCALL GetAssembly(ICorDebugAssembly** assembly) = 0;
  virtual HRESULT DBG_STDCALL GetName(ULONG32 cchName, ULONG32* pcchName, WCHAR* name) = 0;
  virtual HRESULT DBG_STDCALL EnableJITDebugging(BOOL trackJitInfo, BOOL allowJitOpts) = 0;
  virtual HRESULT DBG_STDCALL EnableClassLoadCallbacks(BOOL enable) = 0;
  virtual HRESULT DBG_STDCALL GetFunctionFromToken(mdMethodDef methodDef, ICorDebugFunction** function) = 0;
  virtual HRESULT DBG_STDCALL GetFunctionFromRVA(CORDB_ADDRESS rva, ICorDebugFunction** function) = 0;
  virtual HRESULT DBG_STDCALL GetClassFromToken(mdTypeDef typeDef, ICorDebugClass** cls) = 0;
  virtual HRESULT DBG_STDCALL CreateBreakpoint(ICorDebugModuleBreakpoint** breakpoint) = 0;
  virtual HRESULT DBG_STDCALL GetEditAndContinueSnapshot(ICorDebugEditAndContinueSnapshot** snapshot) = 0;
  virtual HRESULT DBG_STDCALL GetMetaDataInterface(REFIID iid, IUnknown** metadata) = 0;
  virtual HRESULT DBG_STDCALL GetToken(mdModule* token) = 0;
  virtual HRESULT DBG_STDCALL IsDynamic(BOOL* dynamic) = 0;
  virtual HRESULT DBG_STDCALL GetGlobalVariableValue(mdFieldDef fieldDef, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetSize(ULONG32* size) = 0;
  virtual HRESULT DBG_STDCALL IsInMemory(BOOL* inMemory) = 0;
};

struct ICorDebugModule2 : IUnknown {
  virtual HRESULT DBG_STDCALL SetJMCStatus(BOOL isJustMyCode, ULONG32 tokenCount, mdToken* tokens) = 0;
  virtual HRESULT DBG_STDCALL ApplyChanges(ULONG metadataSize, BYTE* metadata, ULONG ilSize, BYTE* il) = 0;
  virtual HRESULT DBG_STDCALL SetJITCompilerFlags(DWORD flags) = 0;
  virtual HRESULT DBG_STDCALL GetJITCompilerFlags(DWORD* flags) = 0;
  virtual HRESULT DBG_STDCALL ResolveAssembly(mdToken scope, ICorDebugAssembly** assembly) = 0;
};

struct ICorDebugModule3 : IUnknown {
  virtual HRESULT DBG_STDCALL CreateReaderForInMemorySymbols(REFIID iid, void** reader) = 0;
};

struct ICorDebugModuleEnum : ICorDebugEnum {
  virtual HRESULT DBG_STDCALL Next(ULONG count, ICorDebugModule** modules, ULONG* fetched) = 0;
};

struct ICorDebugMDA : IUnknown {
  virtual HRESULT DBG_STDCALL GetName(ULONG32 cchName, ULONG32* pcchName, WCHAR* name) = 0;
  virtual HRESULT DBG_STDCALL GetDescription(ULONG32 cchName, ULONG32* pcchName, WCHAR* description) = 0;
  virtual HRESULT DBG_STDCALL GetXML(ULONG32 cchName, ULONG32* pcchName, WCHAR* xml) = 0;
  virtual HRESULT DBG_STDCALL GetFlags(CorDebugMDAFlags* flags) = 0;
  virtual HRESULT DBG_STDCALL GetOSThreadId(DWORD* osTid) = 0;
};

struct ICorDebugManagedCallback : IUnknown {
  virtual HRESULT DBG_STDCALL Breakpoint(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugBreakpoint* breakpoint) = 0;
  virtual HRESULT DBG_STDCALL StepComplete(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugStepper* stepper, CorDebugStepReason reason) = 0;
  virtual HRESULT DBG_STDCALL Break(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) = 0;
  virtual HRESULT DBG_STDCALL Exception(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, BOOL unhandled) = 0;
  virtual HRESULT DBG_STDCALL EvalComplete(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugEval* eval) = 0;
  virtual HRESULT DBG_STDCALL EvalException(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugEval* eval) = 0;
  virtual HRESULT DBG_STDCALL CreateProcess(ICorDebugProcess* process) = 0;
  virtual HRESULT DBG_STDCALL ExitProcess(ICorDebugProcess* process) = 0;
  virtual HRESULT DBG_STDCALL CreateThread(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) = 0;
  virtual HRESULT DBG_STDCALL ExitThread(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) = 0;
  virtual HRESULT DBG_STDCALL LoadModule(ICorDebugAppDomain* appDomain, ICorDebugModule* module) = 0;
  virtual HRESULT DBG_STDCALL UnloadModule(ICorDebugAppDomain* appDomain, ICorDebugModule* module) = 0;
  virtual HRESULT DBG_STDCALL LoadClass(ICorDebugAppDomain* appDomain, ICorDebugClass* cls) = 0;
  virtual HRESULT DBG_STDCALL UnloadClass(ICorDebugAppDomain* appDomain, ICorDebugClass* cls) = 0;
  virtual HRESULT DBG_STDCALL DebuggerError(ICorDebugProcess* process, HRESULT errorHr, DWORD errorCode) = 0;
  virtual HRESULT DBG_STDCALL LogMessage(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, LONG level, WCHAR* switchName, WCHAR* message) = 0;
  virtual HRESULT DBG_STDCALL LogSwitch(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, LONG level, ULONG reason, WCHAR* switchName, WCHAR* parentName) = 0;
  virtual HRESULT DBG_STDCALL CreateAppDomain(ICorDebugProcess* process, ICorDebugAppDomain* appDomain) = 0;
  virtual HRESULT DBG_STDCALL ExitAppDomain(ICorDebugProcess* process, ICorDebugAppDomain* appDomain) = 0;
  virtual HRESULT DBG_STDCALL LoadAssembly(ICorDebugAppDomain* appDomain, ICorDebugAssembly* assembly) = 0;
  virtual HRESULT DBG_STDCALL UnloadAssembly(ICorDebugAppDomain* appDomain, ICorDebugAssembly* assembly) = 0;
  virtual HRESULT DBG_STDCALL ControlCTrap(ICorDebugProcess* process) = 0;
  virtual HRESULT DBG_STDCALL NameChange(ICorDebugAppDomain* appDomain, ICorDebugThread* thread) = 0;
  virtual HRESULT DBG_STDCALL UpdateModuleSymbols(ICorDebugAppDomain* appDomain, ICorDebugModule* module, IStream* symbols) = 0;
  virtual HRESULT DBG_STDCALL EditAndContinueRemap(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFunction* function, BOOL accurate) = 0;
  virtual HRESULT DBG_STDCALL BreakpointSetError(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugBreakpoint* breakpoint, DWORD error) = 0;
};

struct ICorDebugManagedCallback2 : IUnknown {
  virtual HRESULT DBG_STDCALL FunctionRemapOpportunity(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFunction* oldFunction, ICorDebugFunction* newFunction, ULONG32 oldILOffset) = 0;
  virtual HRESULT DBG_STDCALL CreateConnection(ICorDebugProcess* process, CONNID id, WCHAR* name) = 0;
  virtual HRESULT DBG_STDCALL ChangeConnection(ICorDebugProcess* process, CONNID id) = 0;
  virtual HRESULT DBG_STDCALL DestroyConnection(ICorDebugProcess* process, CONNID id) = 0;
  virtual HRESULT DBG_STDCALL Exception(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFrame* frame, ULONG32 offset, CorDebugExceptionCallbackType type, DWORD flags) = 0;
  virtual HRESULT DBG_STDCALL ExceptionUnwind(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, CorDebugExceptionUnwindCallbackType type, DWORD flags) = 0;
  virtual HRESULT DBG_STDCALL FunctionRemapComplete(ICorDebugAppDomain* appDomain, ICorDebugThread* thread, ICorDebugFunction* function) = 0;
  virtual HRESULT DBG_STDCALL MDANotification(ICorDebugController* controller, ICorDebugThread* thread, ICorDebugMDA* mda) = 0;
};

struct ICorDebugManagedCallback3 : IUnknown {
  virtual HRESULT DBG_STDCALL CustomNotification(ICorDebugThread* thread, ICorDebugAppDomain* appDomain) = 0;
};

struct ICorDebugManagedCallback4 : IUnknown {
  virtual HRESULT DBG_STDCALL BeforeGarbageCollection(ICorDebugProcess* process) = 0;
  virtual HRESULT DBG_STDCALL AfterGarbageCollection(ICorDebugProcess* process) = 0;
  virtual HRESULT DBG_STDCALL DataBreakpoint(ICorDebugProcess* process, ICorDebugThread* thread, BYTE* context, ULONG32 contextSize) = 0;
};

// IIDs (cordebug.idl uuid attributes).
constexpr GUID IID_ICorDebug = {0x3d6f5f61, 0x7538, 0x11d3, {0x8d, 0x5b, 0x00, 0x10, 0x4b, 0x35, 0xe7, 0xef}};
constexpr GUID IID_ICorDebugUnmanagedCallback = {0x5263e909, 0x8cb5, 0x11d3, {0xbd, 0x2f, 0x00, 0x00, 0xf8, 0x08, 0x49, 0xbd}};
constexpr GUID IID_ICorDebugManagedCallback = {0x3d6f5f60, 0x7538, 0x11d3, {0x8d, 0x5b, 0x00, 0x10, 0x4b, 0x35, 0xe7, 0xef}};
constexpr GUID IID_ICorDebugManagedCallback2 = {0x250e5eea, 0xdb5c, 0x4c76, {0xb6, 0xf3, 0x8c, 0x46, 0xf1, 0x2e, 0x32, 0x03}};
constexpr GUID IID_ICorDebugManagedCallback3 = {0x264ea0fc, 0x2591, 0x49aa, {0x86, 0x8e, 0x83, 0x5e, 0x65, 0x15, 0x32, 0x3f}};
constexpr GUID IID_ICorDebugManagedCallback4 = {0x322911ae, 0x16a5, 0x49ba, {0x84, 0xa3, 0xed, 0x69, 0x67, 0x81, 0x38, 0xa3}};
constexpr GUID IID_ICorDebugController = {0x3d6f5f62, 0x7538, 0x11d3, {0x8d, 0x5b, 0x00, 0x10, 0x4b, 0x35, 0xe7, 0xef}};
constexpr GUID IID_ICorDebugProcess = {0x3d6f5f64, 0x7538, 0x11d3, {0x8d, 0x5b, 0x00, 0x10, 0x4b, 0x35, 0xe7, 0xef}};
constexpr GUID IID_ICorDebugProcess2 = {0xad1b3588, 0x0ef0, 0x4744, {0xa4, 0x96, 0xaa, 0x09, 0xa9, 0xf8, 0x03, 0x71}};
constexpr GUID IID_ICorDebugProcess3 = {0x2ee06488, 0xc0d4, 0x42b1, {0xb2, 0x6d, 0xf3, 0x79, 0x5e, 0xf6, 0x06, 0xfb}};
constexpr GUID IID_ICorDebugProcess5 = {0x21e9d9c0, 0xfcb8, 0x11df, {0x8c, 0xff, 0x08, 0x00, 0x20, 0x0c, 0x9a, 0x66}};
constexpr GUID IID_ICorDebugProcess8 = {0x2e6f28c1, 0x85eb, 0x4141, {0x80, 0xad, 0x0a, 0x90, 0x94, 0x4b, 0x96, 0x39}};
constexpr GUID IID_ICorDebugProcess10 = {0x8f378f6f, 0x1017, 0x4461, {0x98, 0x90, 0xec, 0xf6, 0x4c, 0x54, 0x07, 0x9f}};
constexpr GUID IID_ICorDebugProcessEnum = {0xcc7bcb05, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugObjectEnum = {0xcc7bcb02, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugHeapEnum = {0x76d7dab8, 0xd044, 0x11df, {0x9a, 0x15, 0x7e, 0x29, 0xdf, 0xd7, 0x20, 0x85}};
constexpr GUID IID_ICorDebugAppDomain = {0x3d6f5f63, 0x7538, 0x11d3, {0x8d, 0x5b, 0x00, 0x10, 0x4b, 0x35, 0xe7, 0xef}};
constexpr GUID IID_ICorDebugAppDomain2 = {0x096e81d5, 0xecda, 0x4202, {0x83, 0xf5, 0xc6, 0x59, 0x80, 0xa9, 0xef, 0x75}};
constexpr GUID IID_ICorDebugAppDomainEnum = {0x63ca1b24, 0x4359, 0x4883, {0xbd, 0x57, 0x13, 0xf8, 0x15, 0xf5, 0x87, 0x44}};
constexpr GUID IID_ICorDebugAssembly = {0xdf59507c, 0xd47a, 0x459e, {0xbc, 0xe2, 0x64, 0x27, 0xea, 0xc8, 0xfd, 0x06}};
constexpr GUID IID_ICorDebugAssemblyEnum = {0x4a2a1ec9, 0x85ec, 0x4bfb, {0x9f, 0x15, 0xa8, 0x9f, 0xdf, 0xe0, 0xfe, 0x83}};
constexpr GUID IID_ICorDebugThread = {0x938c6d66, 0x7fb6, 0x4f69, {0xb3, 0x89, 0x42, 0x5b, 0x89, 0x87, 0x32, 0x9b}};
constexpr GUID IID_ICorDebugThreadEnum = {0xcc7bcb06, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugModule = {0xdba2d8c1, 0xe5c5, 0x4069, {0x8c, 0x13, 0x10, 0xa7, 0xc6, 0xab, 0xf4, 0x3d}};
constexpr GUID IID_ICorDebugModule2 = {0x7fcc5fb5, 0x49c0, 0x41de, {0x99, 0x38, 0x3b, 0x88, 0xb5, 0xb9, 0xad, 0xd7}};
constexpr GUID IID_ICorDebugModule3 = {0x86f012bf, 0xff15, 0x4372, {0xbd, 0x30, 0xb6, 0xf1, 0x1c, 0xaa, 0xe1, 0xdd}};
constexpr GUID IID_ICorDebugModuleEnum = {0xcc7bcb09, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugMDA = {0xcc726f2f, 0x1db7, 0x459b, {0xb0, 0xec, 0x05, 0xf0, 0x1d, 0x84, 0x1b, 0x42}};

}  // namespace dbg
