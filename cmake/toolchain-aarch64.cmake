# Cross toolchain for aarch64: Debian's gcc-aarch64-linux-gnu (and g++ where installed).
# Test binaries run under qemu-user, called explicitly (binfmt_misc is not set
# up on the lab machines); override with -DCMAKE_CROSSCOMPILING_EMULATOR=...
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(Y2038_TARGET_ABI aarch64 CACHE STRING "ABI name recorded in reports")

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
find_program(Y2038_CROSS_CXX aarch64-linux-gnu-g++)
if(Y2038_CROSS_CXX)
  set(CMAKE_CXX_COMPILER ${Y2038_CROSS_CXX})
endif()

set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
endif()
