"""y2038lab.perf: cache and instruction counts per inode visited (`lab perf`).

  report    the command: perf stat where the counters work, else callgrind per cache geometry
  walk      one walk benchmark under a tool, and how many inodes it visited
  cachegeo  the named cache geometries (this host, Cortex-A53, Cortex-A9) and valgrind's options
"""
