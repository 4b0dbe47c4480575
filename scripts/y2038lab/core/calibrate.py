"""This host's cycles during a run, from y2038-bench's calibrate/* loops (bench/calibrate.c, x86_64).

A dependent register-to-register add takes one cycle on x86_64 cores, so calibrate/add_chain's time
per add is the run's time per cycle (a VM's reported clock need not be the one its core runs at); the
other loops' times per item over it are cycles: a store (the inverse of the sustained store rate), and
a step of each division-free truncation chain (the fewest cycles a call of that code can take in
fstime's latency loop).  Medians of the headline pass, which interleaves them with the accessor and
fstime benchmarks they convert; a timing, like every figure built on it.
"""
ADD_CHAIN = "calibrate/add_chain"
STORES = "calibrate/store_8b"
CHAINS = ("calibrate/truncate_mulhi_chain", "calibrate/truncate_shift_chain")


def per_item_ns(run, name):
    """Median ns per item (add, store, chain step) of NAME in RUN, or None when it did not run."""
    rec = run.records.get(name)
    ns = rec.median_real_ns()[0] if rec else None
    items = rec.items_per_iteration() if rec else None
    return ns / items if ns and items else None


def cycles(run):
    """{"ns_per_cycle", "ghz", and cycles per item of STORES and CHAINS where they ran}, or None
    without ADD_CHAIN."""
    cycle = per_item_ns(run, ADD_CHAIN)
    if not cycle:
        return None
    out = {"ns_per_cycle": cycle, "ghz": 1.0 / cycle}
    for name in (STORES, *CHAINS):
        if ns := per_item_ns(run, name):
            out[name] = ns / cycle
    return out
