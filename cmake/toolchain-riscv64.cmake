# Cross toolchain for riscv64: Debian's gcc-riscv64-linux-gnu (and g++ where installed),
# test binaries under qemu-riscv64 (cmake/cross-toolchain.cmake).
set(Y2038_CROSS_PROCESSOR riscv64)
set(Y2038_CROSS_ABI riscv64)
set(Y2038_CROSS_TRIPLET riscv64-linux-gnu)
set(Y2038_CROSS_QEMU qemu-riscv64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-toolchain.cmake)
