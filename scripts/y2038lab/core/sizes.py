"""The size tables `scripts/lab pahole` writes (reports/layouts/sizes-<abi>.csv): the one reader.

One row per body x representation of one ABI: abi, body, repr, size (sizeof(struct
inode) from pahole), layouts.report.COLUMNS and reprs.COLUMNS.  Rows are dicts, the
counts as ints, "facts" the reprs.Repr (None without those columns).  A file that
is empty, header only, not UTF-8, lacks a column or holds a size that is not a
positive integer raises fsio.InputError naming it; a missing file (the ABI was not
built) is None.
"""
import glob
import os

from y2038lab.core import fsio, reprs

REQUIRED = ("abi", "body", "repr", "size")
COUNTS = ("size", "holes", "padding", "reorg_saves", "ts_bytes")


def path_of(folder, abi):
    return os.path.join(folder, f"sizes-{abi}.csv")


def read_sizes(path, required=REQUIRED):
    """The rows of one sizes CSV (see the module doc); InputError when unusable."""
    header, rows = fsio.read_csv(path, required, "sizes table (scripts/lab pahole)")
    facts = reprs.from_rows(rows, path)
    for n, row in enumerate(rows, start=2):
        if None in row or any(row[c] is None for c in required):
            raise fsio.InputError(f"{path}: line {n}: not {len(header)} fields as the header")
        for c in (c for c in COUNTS if row.get(c) not in (None, "")):
            if not row[c].isdigit() or (c == "size" and int(row[c]) == 0):
                raise fsio.InputError(f"{path}: line {n}: {c} {row[c]!r} is not a "
                                      f"{'positive' if c == 'size' else 'non-negative'} integer")
            row[c] = int(row[c])
        row["facts"] = facts.get(row["repr"])
    return rows


def load(folder, abi):
    """Rows of FOLDER/sizes-ABI.csv, or None when the file does not exist."""
    path = path_of(folder, abi)
    return read_sizes(path) if os.path.exists(path) else None


def read_all(folder, required=REQUIRED):
    """{(abi, body, repr): row} of every FOLDER/sizes-*.csv; None when there is none."""
    paths = sorted(glob.glob(os.path.join(folder, "sizes-*.csv"))) if folder else []
    return {(r["abi"], r["body"], r["repr"]): r for p in paths for r in read_sizes(p, required)} or None
