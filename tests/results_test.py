#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""results_test.py - y2038lab.results (names parsed once into Records) and y2038lab.sizes.

Table-driven: the naming rule on every shape of name the suite has, the
Record fields on tests/data/bench-fixture.json, the layout axes from the
context and from the names, then one row per bad input with the words its
one-line error must carry.
"""
import json
import os
import tempfile

from scripttest import HERE, expect, finish
from y2038lab.core import fsio
from y2038lab.core import results
from y2038lab.core import sizes

FIXTURE = os.path.join(HERE, "data", "bench-fixture.json")
BODIES, REPRS = ["v4_4", "v6"], ["timespec", "timespec64", "scalar", "ktime"]

NAME_CASES = [
    # (case, name, (family, op, body, repr, params))
    ("accessor: four parts", "accessor/get_mtime/v6/scalar", ("accessor", "get_mtime", "v6", "scalar", ())),
    ("walk: N kept in params", "walk/stat_seq/v6/ktime/65536", ("walk", "stat_seq", "v6", "ktime", ("65536",))),
    ("load: real_time and threads in params", "load/touch_shared/v4_4/timespec/real_time/threads:2",
     ("load", "touch_shared", "v4_4", "timespec", ("real_time", "threads:2"))),
    ("shim: no body or repr", "shim/store_mtime/c_batch/64", ("shim", "store_mtime", "", "", ("c_batch", "64"))),
    ("fstime: third part is not a body", "fstime/timestamp_truncate/gran:100/latency",
     ("fstime", "timestamp_truncate", "", "", ("gran:100", "latency"))),
    ("unknown repr: not a layout name", "accessor/get_mtime/v6/nosuch",
     ("accessor", "get_mtime", "", "", ("v6", "nosuch"))),
    ("two parts", "mystery/thing", ("mystery", "thing", "", "", ())),
    ("one part: cannot be placed", "mystery", None),
    ("empty operation", "walk//v6/scalar", None),
]
for case, name, want in NAME_CASES:
    expect(f"split_name: {case}", want, results.split_name(name, BODIES, REPRS))

LAYOUT_TEXT_CASES = [
    ("y2038-bench's sentence", "bodies: v4_4 v6, representations: timespec timespec64 ktime",
     (["v4_4", "v6"], ["timespec", "timespec64", "ktime"])),
    ("pairs", "v6/scalar v6/ktime,v4_4/scalar", (["v6", "v4_4"], ["scalar", "ktime"])),
    ("not understood", "five layouts", None),
    ("not a string", ["v6"], None),
]
for case, text, want in LAYOUT_TEXT_CASES:
    expect(f"parse_layouts: {case}", want, results.parse_layouts(text))
expect("layouts_from_names: body-shaped third parts, first appearance",
       (["v6", "v4_4"], ["ktime", "scalar"]),
       results.layouts_from_names(["shim/x/c_batch/1", "accessor/a/v6/ktime", "walk/w/v4_4/scalar/64",
                                   "fstime/t/gran:1/latency", "accessor/a/v6/scalar"]))

run = results.load_run(FIXTURE)
expect("fixture: ABI from the context", "x86_64", run.abi)
expect("fixture: no y2038_layouts: axes from the names", (["v6"], 5), (run.bodies, len(run.reprs)))
rec = run.records["accessor/get_mtime/v6/packed12"]
expect("Record: fields", ("accessor", "get_mtime", "v6", "packed12", ()),
       (rec.family, rec.op, rec.body, rec.repr, rec.params))
expect("Record: real_ns per repetition (iteration rows only)", [1.4, 1.5, 1.9], rec.real_ns)
expect("Record: median from Google Benchmark's aggregate", (1.5, "median of 3"), rec.median_real_ns())
expect("Record: aggregates keyed by metric then aggregate", True,
       rec.aggregates["real_ns"]["median"] == 1.5 and "cpu_ns" in rec.aggregates)
walk = run.records["walk/stat_seq/v6/scalar/65536"]
expect("Record: counters per repetition", [1.0], walk.counters["cachelines_touched_per_op"])
expect("Record: inodes per iteration from items_per_second", 65536, round(walk.items_per_iteration()))
load = run.records["load/touch_shared/v6/scalar/real_time/threads:2"]
expect("Record: threads and real_time from params", (2, True, ()), (load.threads, load.real_time, load.args))
shim = run.records["shim/store_mtime/c_batch/64"]
expect("Record: a shim name is a Record without body/repr", ("", "", ("c_batch", "64")),
       (shim.body, shim.repr, shim.params))
expect("Run: errored rows listed, not records", ["accessor/set_mtime_to_ts/v6/multigrain"],
       [n for n, _ in run.errors])
expect("Run: errored name not a record", False, "accessor/set_mtime_to_ts/v6/multigrain" in run.records)


def row(name="accessor/get_mtime/v6/scalar", **fields):
    r = {"name": name, "run_name": name, "run_type": "iteration", "iterations": 10, "real_time": 2.0,
         "cpu_time": 2.0, "time_unit": "ns"}
    r.update(fields)
    return r


def doc(rows, context=None):
    return {"context": context if context is not None else {"y2038_abi": "x86_64"}, "benchmarks": rows}


with tempfile.TemporaryDirectory() as tmp:
    def load(data, raw=None):
        path = os.path.join(tmp, "in.json")
        with open(path, "wb") as f:
            f.write(raw if raw is not None else json.dumps(data).encode())
        return results.load_run(path)

    ktime = load(doc([row("accessor/get_mtime/v6/ktime", time_unit="us", real_time=0.5),
                      row("walk/stat_seq/v6/ktime/64")],
                     {"y2038_abi": "i386", "y2038_layouts": "bodies: v6, representations: timespec64 ktime"}))
    expect("context axes: a sixth representation needs no edit", (["v6"], ["timespec64", "ktime"]),
           (ktime.bodies, ktime.reprs))
    expect("units: us converted to ns, display unit kept", ([500.0], "us"),
           (ktime.records["accessor/get_mtime/v6/ktime"].real_ns, ktime.records["accessor/get_mtime/v6/ktime"].unit))
    cv = load(doc([row(real_time=1.0), row(real_time=1.2),
                   row(run_type="aggregate", aggregate_name="cv", aggregate_unit="percentage",
                       real_time=0.1, cpu_time=0.1, time_unit="us")]))
    expect("cv aggregate: a fraction, not scaled by the time unit", 0.1,
           cv.records["accessor/get_mtime/v6/scalar"].cv())
    zero = load(doc([row(huge_pages_advised=0.0), row(huge_pages_advised=0.0),
                     row(run_type="aggregate", aggregate_name="cv", aggregate_unit="percentage", real_time=0.1,
                         cpu_time=0.1, huge_pages_advised=float("nan"))]))
    expect("cv of a counter that is always 0 (Google Benchmark writes NaN): None, not an error", None,
           zero.records["accessor/get_mtime/v6/scalar"].aggregates["huge_pages_advised"]["cv"])

    BAD = [
        # (case, document or raw bytes, words in the error)
        ("real_time NaN", doc([row(real_time=float("nan"))]), "real_time is nan"),
        ("real_time inf", doc([row(real_time=float("inf"))]), "real_time is inf"),
        ("real_time negative", doc([row(real_time=-1.0)]), "real_time is -1.0"),
        ("real_time zero", doc([row(real_time=0)]), "real_time is 0"),
        ("cpu_time a string", doc([row(cpu_time="fast")]), "cpu_time is not a number"),
        ("real_time a bool", doc([row(real_time=True)]), "real_time is not a number"),
        ("no real_time", doc([{k: v for k, v in row().items() if k != "real_time"}]), "no real_time"),
        ("unknown time unit", doc([row(time_unit="ps")]), "unknown time unit 'ps'"),
        ("no time unit", doc([{k: v for k, v in row().items() if k != "time_unit"}]), "unknown time unit None"),
        ("iterations 0", doc([row(iterations=0)]), "iterations is 0"),
        ("counter NaN", doc([row(torn_reads=float("nan"))]), "torn_reads is nan"),
        ("counter NaN in a median", doc([row(run_type="aggregate", aggregate_name="median", x=float("nan"))]),
         "x is nan"),
        ("aggregate without a name", doc([row(run_type="aggregate")]), "aggregate row without aggregate_name"),
        ("unknown run_type", doc([row(run_type="sample")]), "unknown run_type"),
        ("entry not an object", doc([row(), 7]), "benchmarks[1] is not an object"),
        ("entry without a name", doc([{"real_time": 1}]), "benchmarks[0] has no name"),
        ("name not a string", doc([row(name=5, run_name=5)]), "benchmarks[0] has no name"),
        ("no usable rows: all errored", doc([row(error_occurred=True, error_message="x")]), "no usable benchmark rows"),
        ("no usable rows: one-part names", doc([row("mystery")]), "no usable benchmark rows"),
        ("empty benchmarks", doc([]), "no benchmarks in the file"),
        ("no context", {"benchmarks": [row()]}, "no \"context\" object"),
        ("top level a list", [row()], "no \"benchmarks\" list"),
        ("truncated JSON", None, "not valid JSON"),
        ("not UTF-8", None, "not UTF-8"),
    ]
    raws = {"truncated JSON": b'{"context": {}, "benchmarks": [', "not UTF-8": b'{"context": "\xff\xfe"}'}
    for case, data, words in BAD:
        try:
            load(data, raws.get(case))
            expect(f"bad input: {case}", "InputError", "accepted")
        except fsio.InputError as err:
            ok = str(err).startswith(os.path.join(tmp, "in.json") + ":") and words in str(err)
            expect(f"bad input: {case}: names the file and says '{words}'", True, ok)
            if not ok:
                print(f"      message was: {err}")
    try:
        results.load_run(os.path.join(tmp, "absent.json"))
        expect("missing file", "InputError", "accepted")
    except fsio.InputError as err:
        expect("missing file: says so", True, "no such JSON file" in str(err))

    # sizes CSVs: empty, header only, not UTF-8, a bad size, short rows; missing = None.
    head = "abi,body,repr,size,ts_span\n"
    SIZES = [("empty", b"", "empty file"), ("blank lines", b"\n\n", "empty file"),
             ("header only", head.encode(), "header only"),
             ("not UTF-8", head.encode() + b"x86_64,v6,\xff,624,1-2\n", "not UTF-8"),
             ("no size column", b"abi,body,repr\nx86_64,v6,scalar\n", "no column size"),
             ("size not a number", (head + "x86_64,v6,scalar,big,1-2\n").encode(), "size 'big'"),
             ("size zero", (head + "x86_64,v6,scalar,0,1-2\n").encode(), "size '0'"),
             ("short row", (head + "x86_64,v6\n").encode(), "line 2")]
    for case, raw, words in SIZES:
        path = os.path.join(tmp, "sizes-x86_64.csv")
        with open(path, "wb") as f:
            f.write(raw)
        try:
            sizes.read_sizes(path)
            expect(f"sizes CSV {case}", "InputError", "accepted")
        except fsio.InputError as err:
            expect(f"sizes CSV {case}: names the file, says '{words}'", True,
                   str(err).startswith(path) and words in str(err))
    with open(path, "w") as f:
        f.write(head + "x86_64,v6,ktime,600,88-112\n")
    expect("sizes CSV: rows, size an int", [600], [r["size"] for r in sizes.load(tmp, "x86_64")])
    expect("sizes CSV: missing file is None", None, sizes.load(tmp, "riscv64"))

finish("results_test")
