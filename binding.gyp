{
  # For node-gyp users: the same sources as CMakeLists.txt (the primary build is cmake-js).
  "targets": [
    {
      "target_name": "debugbridge_dotnet",
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17"],
      "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "sources": [
        "native/src/addon.cpp",
        "native/src/debugger/breakpoint_table.cpp",
        "native/src/debugger/hit_filter.cpp",
        "native/src/debugger/hit_filter_memory.cpp",
        "native/src/debugger/commands.cpp",
        "native/src/debugger/debug_session.cpp",
        "native/src/debugger/debug_session_callbacks.cpp",
        "native/src/debugger/heap_commands.cpp",
        "native/src/debugger/managed_callback.cpp",
        "native/src/debugger/module_table.cpp",
        "native/src/debugger/object_reader.cpp",
        "native/src/debugger/stack_walker.cpp",
        "native/src/debugger/step_controller.cpp",
        "native/src/debugger/thread_commands.cpp",
        "native/src/debugger/type_json.cpp",
        "native/src/debugger/enc_commands.cpp",
        "native/src/debugger/eval_commands.cpp",
        "native/src/debugger/eval_runner.cpp",
        "native/src/debugger/value_commands.cpp",
        "native/src/debugger/value_json.cpp",
        "native/src/debugger/value_table.cpp",
        "native/src/debugger/work_queue.cpp",
        "native/src/runtime/dbgshim_access.cpp",
        "native/src/runtime/dbi_loader.cpp",
        "native/src/runtime/debuggee_memory_cache.cpp",
        "native/src/runtime/debuggee_pages.cpp",
        "native/src/util/hresult.cpp",
        "native/src/util/json.cpp",
        "native/src/util/log.cpp",
        "native/src/util/utf.cpp"
      ],
      "conditions": [
        ["OS=='linux'", {
          "sources": [
            "native/src/platform/linux/import_patch.cpp",
            "native/src/platform/linux/proc.cpp",
            "native/src/platform/linux/startup_semaphores.cpp",
            "native/src/platform/posix/dynlib.cpp",
            "native/src/platform/posix/spawn.cpp",
            "native/src/runtime/own_linux_access.cpp"
          ],
          "libraries": ["-ldl", "-lpthread"]
        }],
        ["OS=='mac'", {
          "sources": ["native/src/platform/posix/dynlib.cpp", "native/src/platform/posix/spawn.cpp", "native/src/runtime/own_access_unsupported.cpp"],
          "xcode_settings": {"CLANG_CXX_LANGUAGE_STANDARD": "c++17", "GCC_ENABLE_CPP_EXCEPTIONS": "YES"}
        }],
        ["OS=='win'", {
          "sources": [
            "native/src/platform/windows/debuggee_memory_cache.cpp",
            "native/src/platform/windows/dynlib.cpp",
            "native/src/platform/windows/import_patch.cpp",
            "native/src/platform/windows/monitor.cpp",
            "native/src/platform/windows/process.cpp",
            "native/src/platform/windows/spawn.cpp",
            "native/src/platform/windows/startup_events.cpp",
            "native/src/platform/windows/wide.cpp",
            "native/src/runtime/own_windows_access.cpp"
          ],
          "defines": ["WIN32_LEAN_AND_MEAN", "NOMINMAX", "UNICODE", "_UNICODE"],
          "libraries": ["psapi.lib", "bcrypt.lib"],
          "msvs_settings": {"VCCLCompilerTool": {"AdditionalOptions": ["/std:c++17", "/utf-8"]}}
        }]
      ]
    }
  ]
}
