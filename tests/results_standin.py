"""A minimal stand-in for y2038lab.results, for the stats tests only.

The real module (scripts/y2038lab/results.py) parses y2038-bench JSON into
Records; this one implements the same small API (Record, Run, load_run)
well enough for tests/data fixtures, and `install()` puts it in place only
when the package has no results module of its own.  Once results.py is in
the tree the real one is used and this file is not imported by anything.
"""
import json
import sys
import types
from dataclasses import dataclass, field

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
BODIES = ("v4_4", "v6")
STANDARD = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
            "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
            "time_unit", "aggregate_name", "aggregate_unit", "error_occurred", "error_message", "label"}


@dataclass
class Record:
    name: str
    family: str
    op: str
    body: str
    repr: str
    params: tuple
    real_ns: list = field(default_factory=list)
    cpu_ns: list = field(default_factory=list)
    counters: dict = field(default_factory=dict)
    aggregates: dict = field(default_factory=dict)


@dataclass
class Run:
    path: str
    abi: str
    context: dict
    records: dict


def _split(name):
    parts = name.split("/")
    if len(parts) >= 4 and parts[2] in BODIES:
        return parts[0], parts[1], parts[2], parts[3], tuple(parts[4:])
    return parts[0], parts[1] if len(parts) > 1 else "", None, None, tuple(parts[2:])


def load_run(path):
    from y2038lab.fsio import InputError
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as err:
        raise InputError(f"{path}: cannot read benchmark JSON ({err})") from err
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list) or not data["benchmarks"]:
        raise InputError(f"{path}: not Google Benchmark JSON with benchmarks")
    context = data.get("context") or {}
    records = {}
    for row in data["benchmarks"]:
        if row.get("error_occurred"):
            continue
        name = row.get("run_name", row["name"])
        if name not in records:
            records[name] = Record(name, *_split(name))
        rec = records[name]
        if row.get("run_type") == "aggregate":
            rec.aggregates[row["aggregate_name"]] = row
            continue
        scale = UNIT_NS[row.get("time_unit", "ns")]
        rec.real_ns.append(row["real_time"] * scale)
        rec.cpu_ns.append(row["cpu_time"] * scale)
        for key, value in row.items():
            if key not in STANDARD and isinstance(value, (int, float)):
                rec.counters.setdefault(key, []).append(float(value))
        if "label" in row:
            rec.counters.setdefault("label", []).append(row["label"])
    return Run(path, context.get("y2038_abi", "unknown"), context, records)


def install():
    """Make `from y2038lab import results` work when the package lacks it."""
    try:
        import y2038lab.results  # noqa: F401
        return False
    except ImportError:
        module = types.ModuleType("y2038lab.results")
        module.Record, module.Run, module.load_run = Record, Run, load_run
        sys.modules["y2038lab.results"] = module
        import y2038lab
        y2038lab.results = module
        return True
