"""y2038lab.layouts: struct inode layouts measured: pahole, sizes, slabs, a real kernel.

  report      `lab pahole`: pahole on every ABI's probe objects -> reports/pahole/, and
              reports/layouts/ (sizes-<abi>.csv with each representation's facts, sizes.md, slab)
  pahole      the probe manifests (layout_probes.txt) and pahole's output parsed
  slab        the SLUB side of that report (slab.md, slab.csv)
  slub_model  mm/slub.c's order selection: objects per slab for a size (`slub-model`)
  kernel      `lab kernel-check`: the replicas against a real kernel tree's struct inode
"""
