"""Readers for the non-timing evidence the verdict weighs: bytes, slabs, costs, churn.

Each reader takes a path that may be None or absent (then it returns None:
"not measured here"), checks the columns it relies on and raises
fsio.InputError naming the file and the problem on anything else.

  sizes   reports/layouts/sizes-<abi>.csv   sizeof(struct inode), holes,
          `pahole -R` savings per abi/body/repr   (scripts/lab pahole)
  slab    reports/layouts/slab.csv          SLUB model: objects per slab and
          bytes per 10^6 cached inodes, per cache and scenario
  cost    reports/cost/cost.csv             instructions (qemu), code bytes,
          library calls, llvm-mca per operation
  churn   reports/churn/<tree>.csv          sites per file system (Coccinelle)
"""
import glob
import os
import re

from y2038lab.core import fsio, sizes
from y2038lab.core.fsio import InputError

SIZES_COLUMNS = ("abi", "body", "repr", "size", "holes", "padding", "reorg_saves")
SLAB_COLUMNS = ("abi", "layout", "cache", "sizeof", "objsize", "this_host_objs", "this_host_pages",
                "this_host_bytes_per_1e6", "66_laptop_objs", "66_laptop_pages", "66_laptop_bytes_per_1e6")
COST_COLUMNS = ("abi", "variant", "body", "repr", "operation", "measure", "instructions", "code_bytes",
                "libcalls", "mca_cpu", "mca_block_rthroughput", "workaround")
CHURN_COLUMNS = ("fs", "reads", "writes", "local_copies", "address_passed", "struct_copies", "value_passed",
                 "setattr_sites", "getattr_sites", "boundary_sites",
                 "current_time_calls", "rfc_macros", "boundary_conversion", "flag_day",
                 "accessor_functions", "needs_manual")
# The slab model's scenarios, as slab.csv names them, and what they are.
SLAB_SCENARIOS = {
    "this_host": "SLUB model, this host's CPU count and kernel algorithm",
    "66_laptop": "SLUB model, an 8-CPU v6.6 kernel (the published Debian laptop rows)",
}


def _number(path, line, row, column, kind=float):
    value = row.get(column)
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise InputError(f"{path}: line {line}: {column} = {value!r} is not a number") from None


def read_sizes(folder):
    """{(abi, body, repr): row} of every sizes-*.csv (core.sizes); None if none."""
    return sizes.read_all(folder, SIZES_COLUMNS)


def read_slab(path):
    """[{abi, body, repr, cache, objsize, <scenario>_objs, ..._bytes_per_1e6}]; None if absent."""
    if not path or not os.path.exists(path):
        return None
    rows = []
    for line, row in enumerate(fsio.read_csv(path, SLAB_COLUMNS)[1], start=2):
        body, sep, repr_name = row["layout"].partition("/")
        if not sep:
            raise InputError(f"{path}: line {line}: layout {row['layout']!r} is not <body>/<repr>")
        out = {"abi": row["abi"], "body": body, "repr": repr_name, "cache": row["cache"],
               "objsize": _number(path, line, row, "objsize", int)}
        for scenario in SLAB_SCENARIOS:
            for what in ("objs", "pages", "bytes_per_1e6"):
                out[f"{scenario}_{what}"] = _number(path, line, row, f"{scenario}_{what}", int)
        rows.append(out)
    return rows


def read_cost(path):
    """[{abi, variant, body, repr, operation, instructions, ...}] from cost.csv; None if absent.

    Numbers stay None where the cell is empty (a tool that did not run);
    libcalls stays text ("__aeabi_uidivmod:1 ..."), libcall_count is its total."""
    if not path or not os.path.exists(path):
        return None
    rows = []
    for line, row in enumerate(fsio.read_csv(path, COST_COLUMNS)[1], start=2):
        out = dict(row)
        for column in ("instructions", "code_bytes", "mca_block_rthroughput"):
            out[column] = None if row[column] in ("", None) else _number(path, line, row, column)
        calls = (row["libcalls"] or "").split()
        if not all(re.fullmatch(r"[\w.$]+:\d+", c) for c in calls):
            raise InputError(f"{path}: line {line}: libcalls = {row['libcalls']!r} is not NAME:COUNT ...")
        out["libcall_count"] = sum(int(c.rsplit(":", 1)[1]) for c in calls)
        rows.append(out)
    return rows


def kernel_check(folder):
    """(summary, differing) of <folder>/kernel-check.csv (`lab kernel-check`): what the replica sizes
    were checked against, as "replica = Linux <version> (<body>/<repr>) on <abi>, ...; replica differs
    from ...", and {(abi, body, repr): (version, kernel sizeof)} where they differ; (None, {}) if absent."""
    path = os.path.join(folder or "", "kernel-check.csv")
    if not folder or not os.path.exists(path):
        return None, {}
    groups, differing = {}, {}
    columns = ("version", "abi", "body", "repr", "identical", "kernel_size")
    for line, row in enumerate(fsio.read_csv(path, columns, "kernel-check table")[1], 2):
        key = (row["identical"] == "yes", f"Linux {row['version']} ({row['body']}/{row['repr']})")
        groups.setdefault(key, []).append(row["abi"])
        if not key[0]:
            differing[(row["abi"], row["body"], row["repr"])] = (row["version"],
                                                                  _number(path, line, row, "kernel_size", int))
    return "; ".join(("replica = " if same else "replica differs from ") + f"{what} on {', '.join(abis)}"
                     for (same, what), abis in sorted(groups.items(), reverse=True)), differing


def read_kernel(folder):
    """{(abi, repr): {"arch", "sizeof", "slab": {cache: bytes per inode}, "tree"}} from
    <folder>/kernel.csv (`lab kernel`: real Linux 6.12 kernels under KUnit); None if absent."""
    path = os.path.join(folder or "", "kernel.csv")
    if not folder or not os.path.exists(path):
        return None
    out = {}
    columns = ("arch", "abi", "repr", "sizeof_inode", "cache", "inodes", "slab_bytes", "tree")
    for line, row in enumerate(fsio.read_csv(path, columns, "real-kernel table")[1], 2):
        k = out.setdefault((row["abi"], row["repr"]), {"arch": row["arch"], "tree": row["tree"], "slab": {},
                                                        "sizeof": _number(path, line, row, "sizeof_inode", int)})
        if row["cache"]:
            k["slab"][row["cache"]] = _number(path, line, row, "slab_bytes") / _number(path, line, row, "inodes")
    return out


def tree_files(folder, ext):
    """The sorted <tree>EXT of FOLDER (reports/churn); history-<old>-<new>EXT (`lab churn OLD NEW`)
    compares two releases, not a tree's sites."""
    return sorted(p for p in glob.glob(os.path.join(folder, "*" + ext))
                  if not os.path.basename(p).startswith("history-"))


def read_churn(folder):
    """{tree: {"rows": [per-fs dicts], "total": dict}} from <folder>/*.csv; None if none."""
    paths = folder and tree_files(folder, ".csv")
    if not paths:
        return None
    out = {}
    for path in paths:
        rows, total = [], None
        for line, row in enumerate(fsio.read_csv(path, CHURN_COLUMNS)[1], start=2):
            parsed = {"fs": row["fs"], "kind": row.get("kind")}
            for column in CHURN_COLUMNS[1:] + tuple(c for c in ("bergmann_fs", "bergmann_wide_fs", "member_accesses", "update_time_sites", "unresolved",
                                                        "unparsed_files") if row.get(c)):
                parsed[column] = _number(path, line, row, column, int)
            if row["fs"] == "TOTAL":
                total = parsed
            else:
                rows.append(parsed)
        if total is None:
            raise InputError(f"{path}: no TOTAL row")
        out[os.path.splitext(os.path.basename(path))[0]] = {"rows": rows, "total": total, "path": path}
    return out
