"""y2038lab.kernel: each representation inside a real Linux 6.12 (`scripts/lab kernel`).

  tree    Debian's linux-source-6.12 unpacked once into the cache; per representation a
          copy with the lab's hunks applied (kernel/kunit.patch, layouts/repr_<repr>.kernel.patch)
          and the KUnit suite (kernel/y2038_inode_kunit.c) added
  ktap    the one reader of what the kernel prints: KTAP results and "# y2038:" figures
  run     builds (tools/testing/kunit/kunit.py, one build folder per ABI and representation),
          boots (UML, qemu-system), interleaved timing boots -> reports/kernel/
  report  the tables: real sizes beside the replica's, slab bytes beside the SLUB model,
          the kernel's own tests, per-boot timings with their statistics
"""
