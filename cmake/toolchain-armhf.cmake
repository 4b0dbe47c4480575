# Cross toolchain for armhf: Debian's gcc-arm-linux-gnueabihf (and g++ where installed).
# Test binaries run under qemu-user, called explicitly (binfmt_misc is not set
# up on the lab machines); override with -DCMAKE_CROSSCOMPILING_EMULATOR=...
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(Y2038_TARGET_ABI armhf CACHE STRING "ABI name recorded in reports")

set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
find_program(Y2038_CROSS_CXX arm-linux-gnueabihf-g++)
if(Y2038_CROSS_CXX)
  set(CMAKE_CXX_COMPILER ${Y2038_CROSS_CXX})
endif()

set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabihf)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm;-L;/usr/arm-linux-gnueabihf)
endif()
