"""y2038-bench results: Google Benchmark JSON parsed once into Records.

Every other module (tables, plots, run checks, statistics) reads Records,
never raw rows.  load_run() validates as it parses: a file that is not UTF-8
JSON, a row that is not an object or has no name, a time that is NaN,
infinite, negative or not a number, an unknown time unit, a NaN counter, or a
file with no usable row raises fsio.InputError with one line naming the file,
the row and the problem.

Names (README, "Naming of benchmarks"): <family>/<op>/<body>/<repr>[/<param>...]
is a *layout* name when its third part is a body and its fourth a representation
of the run, as the JSON context's `y2038_layouts` lists them (parse_layouts); a
file without it falls back to its names: a third part shaped like a body
(v<digits>[_<digits>...], after kernel versions) makes the fourth a
representation, in order of first appearance.  Any other name of two parts or
more is a Record with body and repr "" and params all parts after the second
(fstime/timestamp_truncate/gran:100/latency -> ("gran:100", "latency")); a
one-part name is skipped with a warning.  Params keep the "real_time" and
"threads:N" parts (Record.real_time, Record.threads).
"""
import json
import math
import re
import statistics
import sys
from dataclasses import dataclass, field

from y2038lab.core import calibrate, fsio

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Fields every Google Benchmark 1.7.1 row may have; other numbers are user counters.
STANDARD_FIELDS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
                   "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit",
                   "aggregate_name", "aggregate_unit", "error_occurred", "error_message", "label"}
BODY_SHAPE = re.compile(r"v\d+(?:_\d+)*")


@dataclass
class Record:
    """All rows of one benchmark run name, times in ns.  real_ns/cpu_ns/counters: one value per
    repetition (iteration rows, in file order).  aggregates: {metric: {aggregate name: value}} of
    Google Benchmark's aggregate rows, metric "real_ns", "cpu_ns" or a counter name ("cv" a fraction
    as Google Benchmark stores it, None for a counter always 0); empty without repetitions."""
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
    unit: str = "ns"          # the unit Google Benchmark reported in, for display
    iterations: list = field(default_factory=list)
    label: str = ""           # SetLabel() text of the first row that has one

    @property
    def is_layout(self):
        return bool(self.body)

    @property
    def threads(self):
        return next((int(p[8:]) for p in self.params if p.startswith("threads:") and p[8:].isdigit()), 1)

    @property
    def real_time(self):
        """True when rate counters are per real second (UseRealTime())."""
        return "real_time" in self.params

    @property
    def args(self):
        """The params without real_time and threads:N."""
        return tuple(p for p in self.params if p != "real_time" and not p.startswith("threads:"))

    def median_real_ns(self):
        """(median real time in ns, how it was taken) or (None, reason)."""
        if "median" in (agg := self.aggregates.get("real_ns", {})):
            return agg["median"], f"median of {len(self.real_ns) or '?'}"
        if len(self.real_ns) == 1:
            return self.real_ns[0], "single run"
        if self.real_ns:
            return statistics.median(self.real_ns), f"median of {len(self.real_ns)} (computed here)"
        return None, "no time"

    def counter(self, name):
        """Median of a counter over the repetitions (Google Benchmark's when it has one)."""
        if "median" in (agg := self.aggregates.get(name, {})):
            return agg["median"]
        return statistics.median(self.counters[name]) if self.counters.get(name) else None

    def cv(self):
        """Google Benchmark's coefficient of variation of real time (a fraction), or None."""
        return self.aggregates.get("real_ns", {}).get("cv")

    def items_per_iteration(self):
        """Items (inodes, ops) one iteration processed, from items_per_second (Google Benchmark's rate
        per CPU second, or per real second under UseRealTime()); None if absent."""
        rates = self.counters.get("items_per_second")
        times = self.real_ns if self.real_time else self.cpu_ns
        pairs = [r * t / 1e9 for r, t in zip(rates or [], times) if r > 0]
        if not pairs:
            rate = self.counter("items_per_second")
            time = (self.aggregates.get("real_ns" if self.real_time else "cpu_ns", {}).get("median"))
            return rate * time / 1e9 if rate and time else None
        return statistics.median(pairs)


@dataclass
class Run:
    """One y2038-bench JSON file."""
    path: str
    abi: str
    context: dict
    records: dict                                  # run name -> Record, file order
    bodies: list = field(default_factory=list)     # layout axes, in the run's order
    reprs: list = field(default_factory=list)
    errors: list = field(default_factory=list)     # (run name, message) of errored rows
    skipped: list = field(default_factory=list)    # names that could not be placed

    def layout_records(self, family=None):
        return [r for r in self.records.values() if r.is_layout and (family is None or r.family == family)]

    def families(self):
        return sorted({r.family for r in self.records.values()})

    def layout_key(self, rec):
        """Sort key: body, numeric args, threads, representation (the run's orders)."""
        return (self.bodies.index(rec.body), param_key(rec.args), rec.threads, self.reprs.index(rec.repr))


def run_label(run):
    """How a figure names the run it comes from: "<abi> on <host> (<n> CPUs, reported <MHz>[; measured
    <GHz>]), <date>": the clock the system reports, and where the run calibrated it (core.calibrate)
    the one its adds ran at."""
    c, cal = run.context, calibrate.cycles(run)
    mhz = f", reported {c['mhz_per_cpu']} MHz" if c.get("mhz_per_cpu") else ""
    mhz += f"; measured {cal['ghz']:.2f} GHz ({calibrate.ADD_CHAIN})" if cal else ""
    date = str(c.get("date", "?"))[:10]
    return f"{run.abi} on {c.get('host_name', '?')} ({c.get('num_cpus', '?')} CPUs{mhz}), {date}"


def param_key(params):
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in params)


def warn(message):
    print(f"{fsio.prog()}: warning: {message}", file=sys.stderr)


def parse_layouts(text):
    """(bodies, reprs) from the y2038_layouts context value, or None if not understood."""
    if not isinstance(text, str):
        return None
    m = re.fullmatch(r"\s*bodies:\s*([\w ]+?)\s*,\s*(?:representations|reprs):\s*([\w ]+?)\s*", text)
    if m:
        return m.group(1).split(), m.group(2).split()
    pairs = [p.split("/") for p in re.split(r"[\s,;]+", text.strip()) if p]
    if pairs and all(len(p) == 2 and all(re.fullmatch(r"\w+", x) for x in p) for p in pairs):
        return list(dict.fromkeys(p[0] for p in pairs)), list(dict.fromkeys(p[1] for p in pairs))
    return None


def layouts_from_names(names):
    """(bodies, reprs) seen in names shaped <family>/<op>/<body>/<repr>..."""
    shaped = [p for p in (name.split("/") for name in names) if len(p) >= 4 and BODY_SHAPE.fullmatch(p[2])]
    return list(dict.fromkeys(p[2] for p in shaped)), list(dict.fromkeys(p[3] for p in shaped))


def split_name(name, bodies, reprs):
    """(family, op, body, repr, params) of a run name, or None for a one-part name."""
    parts = name.split("/")
    if len(parts) < 2 or not all(parts[:2]):
        return None
    if len(parts) >= 4 and parts[2] in bodies and parts[3] in reprs:
        return parts[0], parts[1], parts[2], parts[3], tuple(parts[4:])
    return parts[0], parts[1], "", "", tuple(parts[2:])


def _number(path, where, key, value, minimum_exclusive=False, signed=False):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fsio.InputError(f"{path}: {where}: {key} is not a number ({value!r})")
    if math.isnan(value) or math.isinf(value):
        raise fsio.InputError(f"{path}: {where}: {key} is {value}")
    if not signed and (value < 0 or (minimum_exclusive and value == 0)):
        raise fsio.InputError(f"{path}: {where}: {key} is {value}, expected "
                              f"{'more than' if minimum_exclusive else 'at least'} 0")
    return float(value)


def _decode(text, path):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise fsio.InputError(f"{path}: not valid JSON ({err.msg} at line {err.lineno})") from None
    except RecursionError:
        raise fsio.InputError(f"{path}: not valid JSON (nested too deeply)") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise fsio.InputError(f"{path}: not Google Benchmark JSON (no \"benchmarks\" list)")
    if not isinstance(data.get("context"), dict):
        raise fsio.InputError(f"{path}: not Google Benchmark JSON (no \"context\" object)")
    if not data["benchmarks"]:
        raise fsio.InputError(f"{path}: no benchmarks in the file")
    return data


def load_run(path):
    """Run of one y2038-bench JSON file; fsio.InputError on bad input (see the module doc)."""
    return parse_run(fsio.read_text(path, "JSON file"), path)


def parse_run(text, path):
    """Run of y2038-bench JSON text; PATH names it in errors (a file, or a command)."""
    data = _decode(text, path)
    context = data["context"]
    rows, names = data["benchmarks"], []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise fsio.InputError(f"{path}: benchmarks[{i}] is not an object")
        names.append(row.get("run_name", row.get("name")))
        if not isinstance(names[-1], str) or not names[-1]:
            raise fsio.InputError(f"{path}: benchmarks[{i}] has no name")
    layouts = parse_layouts(context.get("y2038_layouts"))
    if layouts is None and "y2038_layouts" in context:
        warn(f"{path}: context y2038_layouts {context['y2038_layouts']!r} not understood; "
             "layouts taken from the benchmark names")
    bodies, reprs = layouts or layouts_from_names(names)
    abi = context.get("y2038_abi")
    run = Run(path=path, abi=abi if isinstance(abi, str) and abi else "unknown ABI", context=context,
              records={}, bodies=list(bodies), reprs=list(reprs))
    for i, (row, name) in enumerate(zip(rows, names)):
        where = f"benchmarks[{i}] ({name})"
        if row.get("error_occurred"):
            run.errors.append((name, str(row.get("error_message", ""))))
            continue
        if (parts := split_name(name, run.bodies, run.reprs)) is None:
            if name not in run.skipped:
                run.skipped.append(name)
                warn(f"{path}: benchmark name '{name}' has no <family>/<op> shape, skipped")
            continue
        if (unit := row.get("time_unit")) not in UNIT_NS:
            raise fsio.InputError(f"{path}: {where}: unknown time unit {unit!r} (expected one of "
                                  f"{', '.join(UNIT_NS)})")
        if (run_type := row.get("run_type", "iteration")) not in ("iteration", "aggregate"):
            raise fsio.InputError(f"{path}: {where}: unknown run_type {run_type!r}")
        rec = run.records.setdefault(name, Record(name, *parts, unit=unit))
        counters = {k: v for k, v in row.items()
                    if k not in STANDARD_FIELDS and isinstance(v, (int, float)) and not isinstance(v, bool)}
        for key in ("real_time", "cpu_time"):
            if key not in row:
                raise fsio.InputError(f"{path}: {where}: no {key}")
        if run_type == "iteration":
            real = _number(path, where, "real_time", row["real_time"], minimum_exclusive=True)
            rec.real_ns.append(real * UNIT_NS[unit])
            rec.cpu_ns.append(_number(path, where, "cpu_time", row["cpu_time"]) * UNIT_NS[unit])
            iters = row.get("iterations")
            if isinstance(iters, bool) or not isinstance(iters, int) or iters < 1:
                raise fsio.InputError(f"{path}: {where}: iterations is {iters!r}, "
                                      "expected a positive integer")
            rec.iterations.append(iters)
            if not rec.label and isinstance(row.get("label"), str):
                rec.label = row["label"]
            for key, value in counters.items():
                rec.counters.setdefault(key, []).append(_number(path, where, key, value, signed=True))
        else:
            if not isinstance(agg := row.get("aggregate_name"), str) or not agg:
                raise fsio.InputError(f"{path}: {where}: aggregate row without aggregate_name")
            # "cv" is a fraction whatever time_unit says; other aggregates are times.
            scale = 1.0 if row.get("aggregate_unit") == "percentage" else UNIT_NS[unit]
            for key, metric in (("real_time", "real_ns"), ("cpu_time", "cpu_ns")):
                rec.aggregates.setdefault(metric, {})[agg] = _number(path, where, key, row[key]) * scale
            for key, value in counters.items():
                # Google Benchmark's cv of a counter that is always 0 is 0/0: NaN, and
                # undefined rather than wrong; kept as None.  NaN anywhere else is an error.
                if agg == "cv" and isinstance(value, float) and math.isnan(value):
                    rec.aggregates.setdefault(key, {})[agg] = None
                    continue
                rec.aggregates.setdefault(key, {})[agg] = _number(path, where, key, value, signed=True)
    if not run.records:
        raise fsio.InputError(f"{path}: no usable benchmark rows ({len(run.errors)} reported an error, "
                              f"{len(run.skipped)} unplaceable names)")
    return run
