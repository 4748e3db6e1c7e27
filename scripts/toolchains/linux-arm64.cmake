# Cross-compiling the addon for linux-arm64 on an x64 Debian/Ubuntu host:
#   apt-get install g++-aarch64-linux-gnu && npm run build:prebuild -- --arch=arm64
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
