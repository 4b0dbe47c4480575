# Cross toolchain for aarch64: Debian's gcc-aarch64-linux-gnu (and g++ where installed),
# test binaries under qemu-aarch64 (cmake/cross-toolchain.cmake).
set(Y2038_CROSS_PROCESSOR aarch64)
set(Y2038_CROSS_ABI aarch64)
set(Y2038_CROSS_TRIPLET aarch64-linux-gnu)
set(Y2038_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-toolchain.cmake)
