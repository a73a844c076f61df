# Cross-compiles the C kernels for 64-bit ARM Linux with Debian's
# gcc-aarch64-linux-gnu and libc6-dev-arm64-cross; the tests run under
# qemu-aarch64-static (scripts/ci/aarch64-kernels.sh):
#
#   cmake -S . -B build-aarch64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)

# ctest runs the test programs through qemu; the cross libc's loader and libraries
# are under /usr/aarch64-linux-gnu (qemu's -L).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L /usr/aarch64-linux-gnu)

# Programs come from the host, headers and libraries from the cross sysroot.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
