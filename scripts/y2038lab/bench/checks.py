"""Checks on how a benchmark run went (speed changes, the two-thread ceiling), from the CPU probes
`scripts/lab bench` recorded before and after the run (context y2038_cpu_ns_before/_after, bench.run).
"""
from y2038lab.bench.run import LOAD_PROBE

SPEED_CHANGE_LIMIT = 0.15


def cpu_probes(context):
    """(before, after): {cpu: {probe: ns}}, or None when not recorded or not of that shape."""
    try:
        return tuple({str(cpu): {str(p): float(ns) for p, ns in probes.items()}
                      for cpu, probes in context[key].items()}
                     for key in ("y2038_cpu_ns_before", "y2038_cpu_ns_after"))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def speed_change(context):
    """A warning when a CPU probe moved by more than SPEED_CHANGE_LIMIT during the run, else None."""
    probes = cpu_probes(context)
    if not probes:
        return None
    before, after = probes
    moved = [f"CPU {cpu} `{probe}` {ns:.3g} -> {then:.3g} ns (x{then / ns:.2f})"
             for cpu in sorted(before) for probe, ns in sorted(before[cpu].items())
             for then in [after.get(cpu, {}).get(probe)]
             if then is not None and ns > 0 and abs(then / ns - 1) > SPEED_CHANGE_LIMIT]
    if not moved:
        return None
    return ("**the host changed speed during the run**: " + "; ".join(moved) +
            f" (more than {SPEED_CHANGE_LIMIT:.0%}); figures of this run may mix two speeds, "
            "ratios within the same table are safer than absolute times; re-run for absolute figures")


def scaling_ceiling(context):
    """The sentence on what two threads can reach on the plan's first two CPUs, or None."""
    plan = str(context.get("y2038_thread_cpus", "")).split(" ")[0].split(",")
    probes = cpu_probes(context)
    if len(plan) < 2 or not probes:
        return None
    try:
        ns = [[s[cpu][LOAD_PROBE] for cpu in plan[:2]] for s in probes]
    except KeyError:
        return None
    if not all(x > 0 for pair in ns for x in pair):
        return None
    (b0, b1), (a0, a1) = ns
    return (f"Threads run on CPUs {plan[0]} then {plan[1]} (thread i on the i-th). One thread of "
            f"`{LOAD_PROBE}` pinned to each took {b0:.3g} and {b1:.3g} ns per update before the run "
            f"({a0:.3g} and {a1:.3g} after), so two threads can reach at most 1 + {b0:.3g}/{b1:.3g} = "
            f"{1 + b0 / b1:.2f} ({1 + a0 / a1:.2f} after), not 2.0; a ratio above that means the CPUs "
            "changed speed during the run.")
