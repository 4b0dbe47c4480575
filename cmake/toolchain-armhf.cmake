# Cross toolchain for armhf: Debian's gcc-arm-linux-gnueabihf (and g++ where installed),
# test binaries under qemu-arm (cmake/cross-toolchain.cmake).
set(Y2038_CROSS_PROCESSOR arm)
set(Y2038_CROSS_ABI armhf)
set(Y2038_CROSS_TRIPLET arm-linux-gnueabihf)
set(Y2038_CROSS_QEMU qemu-arm)
include(${CMAKE_CURRENT_LIST_DIR}/cross-toolchain.cmake)
