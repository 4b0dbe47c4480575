"""y2038lab.layouts: struct inode layouts measured: pahole, sizes, slabs.

  kernel       The replicas against a real kernel tree: scripts/lab kernel-check KERNEL_TREE
  pahole       pahole (dwarves 1.24) on the layout probes: the manifests, the runs, the parse
  report       The layouts report: pahole reference set, size tables, slab model, live BTF co
  slab         The SLUB side of the layouts report: reports/layouts/slab.{md,csv}.
  slub_model   how many objects of a given size SLUB puts in a slab.
"""
