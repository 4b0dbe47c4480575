"""y2038lab.churn: what each approach costs a kernel tree, counted by Coccinelle.

  report       The churn report: reports/churn/<tree>.csv and <tree>.md.
  run          churn: what each y2038 inode-timestamp approach costs a kernel tree.
  sites        Classify the sites churn/inode_times.cocci found and count them per approach.
  tree         The kernel tree side of the churn count: unpack, select, group, tokens.
"""
