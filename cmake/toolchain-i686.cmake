# Cross toolchain for i386: Debian's gcc-i686-linux-gnu (and g++ where installed)
# (cmake/cross-toolchain.cmake); test binaries natively or under qemu-i386 (below).
set(Y2038_CROSS_PROCESSOR i686)
set(Y2038_CROSS_ABI i386)
set(Y2038_CROSS_TRIPLET i686-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/cross-toolchain.cmake)

# Debian's multiarch i386 packages (libbenchmark-dev:i386) live under
# /usr/lib/i386-linux-gnu, so the host root is searched too, i386 subdirectory first.
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/i686-linux-gnu /)

# i686 binaries run natively where the kernel has IA32 emulation; where it
# does not (this lab's VMs), scripts/lab passes Y2038_I386_EMULATE=ON.
option(Y2038_I386_EMULATE "Run i686 test binaries under qemu-i386" OFF)
# The guest root: the binaries ask for /lib/ld-linux.so.2, so with Debian's
# multiarch libc6:i386 installed (libbenchmark-dev:i386 pulls it in) the root
# is /, as it is natively.  With -L /usr/i686-linux-gnu qemu would load the
# cross package's ld.so but fall back to the multiarch libc.so.6 of another
# glibc build, and pthread_create() never returns.
if(Y2038_I386_EMULATE AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  if(EXISTS /lib/ld-linux.so.2)
    set(CMAKE_CROSSCOMPILING_EMULATOR qemu-i386;-L;/)
  else()
    set(CMAKE_CROSSCOMPILING_EMULATOR qemu-i386;-L;/usr/i686-linux-gnu)
  endif()
endif()
