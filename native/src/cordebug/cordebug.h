// The project's own declarations of the ICorDebug interfaces it uses, written from the method order
// of dotnet/runtime src/coreclr/inc/cordebug.idl. Only the vtable slot order matters for the ABI;
// methods the project does not call yet keep their slot with loosely typed parameters (void*).
// Base-interface methods come first (IUnknown, then e.g. ICorDebugController for a process).
#pragma once

#include "../com/com.h"

namespace dbg {

struct ICorDebugProcess;
struct ICorDebugAppDomain;
struct ICorDebugAssembly;
struct ICorDebugThread;
struct ICorDebugModule;
struct ICorDebugValue;
struct ICorDebugClass;
struct ICorDebugType;
struct ICorDebugFunction;
struct ICorDebugManagedCallback;

// Interfaces handed to callbacks that this part of the engine only passes along (part 2 fills them in).
struct ICorDebugBreakpoint : IUnknown {};
struct ICorDebugStepper : IUnknown {};
struct ICorDebugEval : IUnknown {};
struct ICorDebugFrame : IUnknown {};
struct ICorDebugMDA : IUnknown {};
struct IStream : IUnknown {};

enum CorDebugThreadState { THREAD_RUN = 0, THREAD_SUSPEND = 1 };
enum CorDebugExceptionCallbackType {
  DEBUG_EXCEPTION_FIRST_CHANCE = 1,
  DEBUG_EXCEPTION_USER_FIRST_CHANCE = 2,
  DEBUG_EXCEPTION_CATCH_HANDLER_FOUND = 3,
  DEBUG_EXCEPTION_UNHANDLED = 4,
};
enum CorDebugExceptionUnwindCallbackType { DEBUG_EXCEPTION_UNWIND_BEGIN = 1, DEBUG_EXCEPTION_INTERCEPTED = 2 };
enum CorDebugStepReason { STEP_NORMAL = 0 };
enum CorDebugJITCompilerFlags {
  CORDEBUG_JIT_DEFAULT = 0x1,
  CORDEBUG_JIT_DISABLE_OPTIMIZATION = 0x3,
  CORDEBUG_JIT_ENABLE_ENC = 0x7,
};
using CorElementType = uint32_t;

// CorDebugInterfaceVersion values accepted by the DBI's factory.
constexpr int CorDebugVersion_2_0 = 3;
constexpr int CorDebugVersion_4_0 = 4;

struct ICorDebug : IUnknown {
  virtual HRESULT DBG_STDCALL Initialize() = 0;
  virtual HRESULT DBG_STDCALL Terminate() = 0;
  virtual HRESULT DBG_STDCALL SetManagedHandler(ICorDebugManagedCallback* callback) = 0;
  virtual HRESULT DBG_STDCALL SetUnmanagedHandler(IUnknown* callback) = 0;
  virtual HRESULT DBG_STDCALL CreateProcess(const WCHAR* app, WCHAR* cmdLine, void* processAttrs, void* threadAttrs,
                                            BOOL inheritHandles, DWORD creationFlags, void* env, const WCHAR* cwd,
                                            void* startupInfo, void* processInfo, int debuggingFlags,
                                            ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL DebugActiveProcess(DWORD pid, BOOL win32Attach, ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL EnumerateProcesses(void** processes) = 0;
  virtual HRESULT DBG_STDCALL GetProcess(DWORD pid, ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL CanLaunchOrAttach(DWORD pid, BOOL win32Debugging) = 0;
};

struct ICorDebugController : IUnknown {
  virtual HRESULT DBG_STDCALL Stop(DWORD timeoutIgnored) = 0;
  virtual HRESULT DBG_STDCALL Continue(BOOL isOutOfBand) = 0;
  virtual HRESULT DBG_STDCALL IsRunning(BOOL* running) = 0;
  virtual HRESULT DBG_STDCALL HasQueuedCallbacks(ICorDebugThread* thread, BOOL* queued) = 0;
  virtual HRESULT DBG_STDCALL EnumerateThreads(struct ICorDebugThreadEnum** threads) = 0;
  virtual HRESULT DBG_STDCALL SetAllThreadsDebugState(CorDebugThreadState state, ICorDebugThread* except) = 0;
  virtual HRESULT DBG_STDCALL Detach() = 0;
  virtual HRESULT DBG_STDCALL Terminate(uint32_t exitCode) = 0;
  virtual HRESULT DBG_STDCALL CanCommitChanges(ULONG count, void* snapshots, void** errors) = 0;
  virtual HRESULT DBG_STDCALL CommitChanges(ULONG count, void* snapshots, void** errors) = 0;
};

struct ICorDebugProcess : ICorDebugController {
  virtual HRESULT DBG_STDCALL GetID(DWORD* pid) = 0;
  virtual HRESULT DBG_STDCALL GetHandle(void** handle) = 0;
  virtual HRESULT DBG_STDCALL GetThread(DWORD threadId, ICorDebugThread** thread) = 0;
  virtual HRESULT DBG_STDCALL EnumerateObjects(void** objects) = 0;
  virtual HRESULT DBG_STDCALL IsTransitionStub(CORDB_ADDRESS address, BOOL* isStub) = 0;
  virtual HRESULT DBG_STDCALL IsOSSuspended(DWORD threadId, BOOL* suspended) = 0;
  virtual HRESULT DBG_STDCALL GetThreadContext(DWORD threadId, ULONG32 size, BYTE* context) = 0;
  virtual HRESULT DBG_STDCALL SetThreadContext(DWORD threadId, ULONG32 size, BYTE* context) = 0;
  virtual HRESULT DBG_STDCALL ReadMemory(CORDB_ADDRESS address, DWORD size, BYTE* buffer, size_t* read) = 0;
  virtual HRESULT DBG_STDCALL WriteMemory(CORDB_ADDRESS address, DWORD size, BYTE* buffer, size_t* written) = 0;
  virtual HRESULT DBG_STDCALL ClearCurrentException(DWORD threadId) = 0;
  virtual HRESULT DBG_STDCALL EnableLogMessages(BOOL enable) = 0;
  virtual HRESULT DBG_STDCALL ModifyLogSwitch(WCHAR* name, LONG level) = 0;
  virtual HRESULT DBG_STDCALL EnumerateAppDomains(void** appDomains) = 0;
  virtual HRESULT DBG_STDCALL GetObject(ICorDebugValue** object) = 0;
  virtual HRESULT DBG_STDCALL ThreadForFiberCookie(DWORD cookie, ICorDebugThread** thread) = 0;
  virtual HRESULT DBG_STDCALL GetHelperThreadID(DWORD* threadId) = 0;
};

struct ICorDebugAppDomain : ICorDebugController {
  virtual HRESULT DBG_STDCALL GetProcess(ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL EnumerateAssemblies(void** assemblies) = 0;
  virtual HRESULT DBG_STDCALL GetModuleFromMetaDataInterface(IUnknown* metadata, ICorDebugModule** module) = 0;
  virtual HRESULT DBG_STDCALL EnumerateBreakpoints(void** breakpoints) = 0;
  virtual HRESULT DBG_STDCALL EnumerateSteppers(void** steppers) = 0;
  virtual HRESULT DBG_STDCALL IsAttached(BOOL* attached) = 0;
  virtual HRESULT DBG_STDCALL GetName(ULONG32 cchName, ULONG32* pcchName, WCHAR* name) = 0;
  virtual HRESULT DBG_STDCALL GetObject(ICorDebugValue** object) = 0;
  virtual HRESULT DBG_STDCALL Attach() = 0;
  virtual HRESULT DBG_STDCALL GetID(ULONG32* id) = 0;
};

struct ICorDebugAssembly : IUnknown {
  virtual HRESULT DBG_STDCALL GetProcess(ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL GetAppDomain(ICorDebugAppDomain** appDomain) = 0;
  virtual HRESULT DBG_STDCALL EnumerateModules(void** modules) = 0;
  virtual HRESULT DBG_STDCALL GetCodeBase(ULONG32 cchName, ULONG32* pcchName, WCHAR* name) = 0;
  virtual HRESULT DBG_STDCALL GetName(ULONG32 cchName, ULONG32* pcchName, WCHAR* name) = 0;
};

struct ICorDebugThread : IUnknown {
  virtual HRESULT DBG_STDCALL GetProcess(ICorDebugProcess** process) = 0;
  virtual HRESULT DBG_STDCALL GetID(DWORD* threadId) = 0;
  virtual HRESULT DBG_STDCALL GetHandle(void** handle) = 0;
  virtual HRESULT DBG_STDCALL GetAppDomain(ICorDebugAppDomain** appDomain) = 0;
  virtual HRESULT DBG_STDCALL SetDebugState(CorDebugThreadState state) = 0;
  virtual HRESULT DBG_STDCALL GetDebugState(CorDebugThreadState* state) = 0;
  virtual HRESULT DBG_STDCALL GetUserState(DWORD* state) = 0;
  virtual HRESULT DBG_STDCALL GetCurrentException(ICorDebugValue** exception) = 0;
  virtual HRESULT DBG_STDCALL ClearCurrentException() = 0;
  virtual HRESULT DBG_STDCALL CreateStepper(ICorDebugStepper** stepper) = 0;
  virtual HRESULT DBG_STDCALL EnumerateChains(void** chains) = 0;
  virtual HRESULT DBG_STDCALL GetActiveChain(void** chain) = 0;
  virtual HRESULT DBG_STDCALL GetActiveFrame(ICorDebugFrame** frame) = 0;
  virtual HRESULT DBG_STDCALL GetRegisterSet(void** registers) = 0;
  virtual HRESULT DBG_STDCALL CreateEval(ICorDebugEval** eval) = 0;
  virtual HRESULT DBG_STDCALL GetObject(ICorDebugValue** object) = 0;
};

struct ICorDebugEnum : IUnknown {
  virtual HRESULT DBG_STDCALL Skip(ULONG count) = 0;
  virtual HRESULT DBG_STDCALL Reset() = 0;
  virtual HRESULT DBG_STDCALL Clone(ICorDebugEnum** clone) = 0;
  virtual HRESULT DBG_STDCALL GetCount(ULONG* count) = 0;
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
  virtual HRESULT DBG_STDCALL GetFunctionFromToken(mdToken methodDef, ICorDebugFunction** function) = 0;
  virtual HRESULT DBG_STDCALL GetFunctionFromRVA(CORDB_ADDRESS rva, ICorDebugFunction** function) = 0;
  virtual HRESULT DBG_STDCALL GetClassFromToken(mdTypeDef typeDef, ICorDebugClass** cls) = 0;
  virtual HRESULT DBG_STDCALL CreateBreakpoint(void** breakpoint) = 0;
  virtual HRESULT DBG_STDCALL GetEditAndContinueSnapshot(void** snapshot) = 0;
  virtual HRESULT DBG_STDCALL GetMetaDataInterface(REFIID iid, IUnknown** metadata) = 0;
  virtual HRESULT DBG_STDCALL GetToken(mdToken* token) = 0;
  virtual HRESULT DBG_STDCALL IsDynamic(BOOL* dynamic) = 0;
  virtual HRESULT DBG_STDCALL GetGlobalVariableValue(mdToken fieldDef, ICorDebugValue** value) = 0;
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

struct ICorDebugClass : IUnknown {
  virtual HRESULT DBG_STDCALL GetModule(ICorDebugModule** module) = 0;
  virtual HRESULT DBG_STDCALL GetToken(mdTypeDef* typeDef) = 0;
  virtual HRESULT DBG_STDCALL GetStaticFieldValue(mdToken fieldDef, ICorDebugFrame* frame, ICorDebugValue** value) = 0;
};

struct ICorDebugValue : IUnknown {
  virtual HRESULT DBG_STDCALL GetType(CorElementType* type) = 0;
  virtual HRESULT DBG_STDCALL GetSize(ULONG32* size) = 0;
  virtual HRESULT DBG_STDCALL GetAddress(CORDB_ADDRESS* address) = 0;
  virtual HRESULT DBG_STDCALL CreateBreakpoint(void** breakpoint) = 0;
};

struct ICorDebugValue2 : IUnknown {
  virtual HRESULT DBG_STDCALL GetExactType(ICorDebugType** type) = 0;
};

struct ICorDebugReferenceValue : ICorDebugValue {
  virtual HRESULT DBG_STDCALL IsNull(BOOL* isNull) = 0;
  virtual HRESULT DBG_STDCALL GetValue(CORDB_ADDRESS* value) = 0;
  virtual HRESULT DBG_STDCALL SetValue(CORDB_ADDRESS value) = 0;
  virtual HRESULT DBG_STDCALL Dereference(ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL DereferenceStrong(ICorDebugValue** value) = 0;
};

struct ICorDebugObjectValue : ICorDebugValue {
  virtual HRESULT DBG_STDCALL GetClass(ICorDebugClass** cls) = 0;
  virtual HRESULT DBG_STDCALL GetFieldValue(ICorDebugClass* cls, mdToken fieldDef, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetVirtualMethod(mdToken memberRef, ICorDebugFunction** function) = 0;
  virtual HRESULT DBG_STDCALL GetContext(void** context) = 0;
  virtual HRESULT DBG_STDCALL IsValueClass(BOOL* isValueClass) = 0;
  virtual HRESULT DBG_STDCALL GetManagedCopy(IUnknown** object) = 0;
  virtual HRESULT DBG_STDCALL SetFromManagedCopy(IUnknown* object) = 0;
};

struct ICorDebugHeapValue : ICorDebugValue {
  virtual HRESULT DBG_STDCALL IsValid(BOOL* valid) = 0;
  virtual HRESULT DBG_STDCALL CreateRelocBreakpoint(void** breakpoint) = 0;
};

struct ICorDebugStringValue : ICorDebugHeapValue {
  virtual HRESULT DBG_STDCALL GetLength(ULONG32* length) = 0;
  virtual HRESULT DBG_STDCALL GetString(ULONG32 cchString, ULONG32* pcchString, WCHAR* text) = 0;
};

struct ICorDebugType : IUnknown {
  virtual HRESULT DBG_STDCALL GetType(CorElementType* type) = 0;
  virtual HRESULT DBG_STDCALL GetClass(ICorDebugClass** cls) = 0;
  virtual HRESULT DBG_STDCALL EnumerateTypeParameters(void** parameters) = 0;
  virtual HRESULT DBG_STDCALL GetFirstTypeParameter(ICorDebugType** type) = 0;
  virtual HRESULT DBG_STDCALL GetBase(ICorDebugType** base) = 0;
  virtual HRESULT DBG_STDCALL GetStaticFieldValue(mdToken fieldDef, ICorDebugFrame* frame, ICorDebugValue** value) = 0;
  virtual HRESULT DBG_STDCALL GetRank(ULONG32* rank) = 0;
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

// IIDs (cordebug.idl / cor.h).
constexpr GUID IID_ICorDebug = {0x3d6f5f61, 0x7538, 0x11d3, {0x8d, 0x5b, 0x00, 0x10, 0x4b, 0x35, 0xe7, 0xef}};
constexpr GUID IID_ICorDebugManagedCallback = {0x3d6f5f60, 0x7538, 0x11d3, {0x8d, 0x5b, 0x00, 0x10, 0x4b, 0x35, 0xe7, 0xef}};
constexpr GUID IID_ICorDebugManagedCallback2 = {0x250e5eea, 0xdb5c, 0x4c76, {0xb6, 0xf3, 0x8c, 0x46, 0xf1, 0x2e, 0x32, 0x03}};
constexpr GUID IID_ICorDebugManagedCallback3 = {0x264ea0fc, 0x2591, 0x49aa, {0x86, 0x8e, 0x83, 0x5e, 0x65, 0x15, 0x32, 0x3f}};
constexpr GUID IID_ICorDebugManagedCallback4 = {0x322911ae, 0x16a5, 0x49ba, {0x84, 0xa3, 0xed, 0x69, 0x67, 0x81, 0x38, 0xa3}};
constexpr GUID IID_ICorDebugModule2 = {0x7fcc5fb5, 0x49c0, 0x41de, {0x99, 0x38, 0x3b, 0x88, 0xb5, 0xb9, 0xad, 0xd7}};
constexpr GUID IID_ICorDebugReferenceValue = {0xcc7bcaf9, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugObjectValue = {0x18ad3d6e, 0xb7d2, 0x11d2, {0xbd, 0x04, 0x00, 0x00, 0xf8, 0x08, 0x49, 0xbd}};
constexpr GUID IID_ICorDebugStringValue = {0xcc7bcafd, 0x8a68, 0x11d2, {0x98, 0x3c, 0x00, 0x00, 0xf8, 0x08, 0x34, 0x2d}};
constexpr GUID IID_ICorDebugValue2 = {0x5e0b54e7, 0xd88a, 0x4626, {0x94, 0x20, 0xa6, 0x91, 0xe0, 0xa7, 0x8b, 0x49}};

}  // namespace dbg
