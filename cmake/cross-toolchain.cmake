# What every cross toolchain file of the lab sets; cmake/toolchain-<abi>.cmake
# names Y2038_CROSS_PROCESSOR (CMAKE_SYSTEM_PROCESSOR), Y2038_CROSS_ABI (the
# ABI the reports record) and Y2038_CROSS_TRIPLET (Debian's cross gcc, and g++
# where installed) and includes this.  Libraries, headers and packages are
# found under CMAKE_FIND_ROOT_PATH only (the toolchain file sets it), programs
# on the host.  With Y2038_CROSS_QEMU, test binaries run under that qemu-user,
# called explicitly (binfmt_misc is not set up on the lab machines), with the
# cross package's root /usr/<triplet> as the guest root; override with
# -DCMAKE_CROSSCOMPILING_EMULATOR=...
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${Y2038_CROSS_PROCESSOR})
set(Y2038_TARGET_ABI ${Y2038_CROSS_ABI} CACHE STRING "ABI name recorded in reports")

set(CMAKE_C_COMPILER ${Y2038_CROSS_TRIPLET}-gcc)
find_program(Y2038_CROSS_CXX ${Y2038_CROSS_TRIPLET}-g++)
if(Y2038_CROSS_CXX)
  set(CMAKE_CXX_COMPILER ${Y2038_CROSS_CXX})
endif()

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

if(Y2038_CROSS_QEMU)
  set(CMAKE_FIND_ROOT_PATH /usr/${Y2038_CROSS_TRIPLET})
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${Y2038_CROSS_QEMU};-L;/usr/${Y2038_CROSS_TRIPLET})
  endif()
endif()
