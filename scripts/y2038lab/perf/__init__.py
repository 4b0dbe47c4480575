"""y2038lab.perf: cache and instruction counts per inode visited (perf stat, else callgrind).

  cachegeo     Cache geometries for callgrind's cache simulation, named.
  report       cache and instruction counts per inode visited, per layout.
  walk         One walk benchmark run under a tool (perf stat, valgrind), and the inodes it v
"""
