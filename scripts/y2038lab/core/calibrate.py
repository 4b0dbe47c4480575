"""This host's cycles during a run, from y2038-bench's calibrate/* loops (bench/calibrate.c, x86_64).

A dependent register add takes one cycle on every x86_64 core, so calibrate/add_chain's time per add
is the run's time per cycle (a VM's reported clock need not be the one its core runs at); the other
loops' times per item over it are cycles: a store (the inverse of the sustained store rate), and the
latencies of the two multiplies of the division-free truncation's result chain.  Medians of the run;
a timing, like every figure built on it.
"""
ADD_CHAIN = "calibrate/add_chain"
STORES = "calibrate/store_8b"
MULHI = "calibrate/mulhi_chain"
IMUL = "calibrate/imul_chain"


def per_item_ns(run, name):
    """Median ns per item (add, store, multiply) of NAME in RUN, or None when it did not run."""
    rec = run.records.get(name)
    ns = rec.median_real_ns()[0] if rec else None
    items = rec.items_per_iteration() if rec else None
    return ns / items if ns and items else None


def cycles(run):
    """{"ns_per_cycle", "ghz", and cycles per item of STORES, MULHI, IMUL where they ran}, or None
    without ADD_CHAIN."""
    cycle = per_item_ns(run, ADD_CHAIN)
    if not cycle:
        return None
    out = {"ns_per_cycle": cycle, "ghz": 1.0 / cycle}
    for name in (STORES, MULHI, IMUL):
        if ns := per_item_ns(run, name):
            out[name] = ns / cycle
    return out
