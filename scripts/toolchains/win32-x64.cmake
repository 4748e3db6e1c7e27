# Cross-compiling the addon for win32-x64 on a Linux host with mingw-w64 (the posix thread model, for
# std::thread and std::mutex):
#   apt-get install g++-mingw-w64-x86-64-posix && npm run build:prebuild -- --platform=win32 --arch=x64
# CMakeLists.txt makes the Node-API import library from node-api-headers' def file and links the
# C and C++ runtimes statically, so the .node needs only node.exe's Node-API and system DLLs.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_DLLTOOL x86_64-w64-mingw32-dlltool)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
