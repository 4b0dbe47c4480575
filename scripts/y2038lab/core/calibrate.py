"""This host's cycles during a run, from y2038-bench's calibrate/* loops (bench/calibrate.c, x86_64).

A dependent register-to-register add takes one cycle on x86_64 cores, so calibrate/add_chain's time
per add is the run's time per cycle (a VM's reported clock need not be the one its core runs at); the
store loop's time per store over it is the cycles a store takes (the inverse of the sustained store
rate).  Medians of the headline pass, which interleaves them with the accessor benchmarks they
convert; a timing, like every figure built on it.
"""
ADD_CHAIN = "calibrate/add_chain"
STORES = "calibrate/store_8b"


def per_item_ns(run, name):
    """Median ns per item (add, store) of NAME in RUN, or None when it did not run."""
    rec = run.records.get(name)
    ns = rec.median_real_ns()[0] if rec else None
    items = rec.items_per_iteration() if rec else None
    return ns / items if ns and items else None


def cycles(run):
    """{"ns_per_cycle", "ghz", "ghz_range" (over the add chain's repetitions), and STORES' cycles per
    store where it ran}, or None without ADD_CHAIN."""
    cycle = per_item_ns(run, ADD_CHAIN)
    if not cycle:
        return None
    rec = run.records[ADD_CHAIN]
    per_rep = [t / rec.items_per_iteration() for t in rec.real_ns if t > 0]
    out = {"ns_per_cycle": cycle, "ghz": 1.0 / cycle,
           "ghz_range": (1.0 / max(per_rep), 1.0 / min(per_rep)) if per_rep else None}
    if ns := per_item_ns(run, STORES):
        out[STORES] = ns / cycle
    return out
