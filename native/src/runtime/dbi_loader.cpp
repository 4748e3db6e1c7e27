#include "dbi_loader.h"

#include <map>
#include <mutex>

#include "../platform/dynlib.h"
#include "../cordebug/cordebug.h"
#include "../util/log.h"

namespace dbg {

namespace {

#ifdef _WIN32
constexpr const char* kDbiName = "mscordbi.dll";
constexpr char kSeparator = '\\';
#elif defined(__APPLE__)
constexpr const char* kDbiName = "libmscordbi.dylib";
constexpr char kSeparator = '/';
#else
constexpr const char* kDbiName = "libmscordbi.so";
constexpr char kSeparator = '/';
#endif

using CreateCordbObject3 = HRESULT (*)(int version, DWORD pid, const WCHAR* appGroupId, const WCHAR* dacPath,
                                       void* targetClr, IUnknown** cordebug);
using CreateCordbObjectEx = HRESULT (*)(int version, DWORD pid, const WCHAR* appGroupId, void* targetClr,
                                        IUnknown** cordebug);
using CreateCordbObject = HRESULT (*)(int version, DWORD pid, void* targetClr, IUnknown** cordebug);
using DllMainFn = BOOL (*)(void* instance, DWORD reason, void* reserved);

/** One handle per DBI path for the life of the process: unloading mscordbi is never safe. */
void* LoadDbi(const std::string& path, std::string& error) {
  static std::mutex mutex;
  static std::map<std::string, void*> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = loaded.find(path);
  if (found != loaded.end()) return found->second;
  void* library = OpenLibrary(path, error);
  if (!library) return nullptr;
#ifndef _WIN32
  // The PAL loader would call DllMain(PROCESS_ATTACH) after loading; a plain dlopen does not.
  if (auto dllMain = reinterpret_cast<DllMainFn>(FindSymbol(library, "DllMain"))) {
    dllMain(library, 1 /* DLL_PROCESS_ATTACH */, nullptr);
  }
#endif
  loaded[path] = library;
  return library;
}

}  // namespace

Status CreateCordebugFromDbi(const std::string& runtimeDir, uint32_t pid, uint64_t coreclrBase, IUnknown** cordebug) {
  std::string path = runtimeDir + kSeparator + kDbiName;
  std::string error;
  void* library = LoadDbi(path, error);
  if (!library) return Status::Fail("DBI_LOAD_FAILED", "cannot load " + path + ": " + error);

  void* targetClr = reinterpret_cast<void*>(static_cast<uintptr_t>(coreclrBase));
  HRESULT hr;
  if (auto create3 = reinterpret_cast<CreateCordbObject3>(FindSymbol(library, "CoreCLRCreateCordbObject3"))) {
    hr = create3(CorDebugVersion_4_0, pid, nullptr, nullptr, targetClr, cordebug);
  } else if (auto createEx = reinterpret_cast<CreateCordbObjectEx>(FindSymbol(library, "CoreCLRCreateCordbObjectEx"))) {
    hr = createEx(CorDebugVersion_4_0, pid, nullptr, targetClr, cordebug);
  } else if (auto create = reinterpret_cast<CreateCordbObject>(FindSymbol(library, "CoreCLRCreateCordbObject"))) {
    hr = create(CorDebugVersion_4_0, pid, targetClr, cordebug);
  } else {
    return Status::Fail("DBI_LOAD_FAILED", path + " exports no CoreCLRCreateCordbObject* factory");
  }
  if (Failed(hr) || !*cordebug) return Status::Fail("CORDEBUG_CREATE_FAILED", "the DBI factory failed", hr);
  Log("created ICorDebug from %s for pid %u", path.c_str(), pid);
  return Status::Success();
}

}  // namespace dbg
