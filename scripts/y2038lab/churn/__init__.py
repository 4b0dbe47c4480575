"""y2038lab.churn: the sites each approach changes in a kernel tree, counted by Coccinelle.

  run     `lab churn`: spatch with churn/inode_times.cocci over the tree's fs/
  tree    the tree: unpacked once, files selected, grouped per file system, raw tokens
  sites   spatch's records joined and classified, counted per approach
  report  reports/churn/<tree>.csv and <tree>.md
"""
