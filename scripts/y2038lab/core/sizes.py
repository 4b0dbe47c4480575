"""The size tables `scripts/lab pahole` writes (reports/layouts/sizes-<abi>.csv), read and checked.

One row per body x representation of one ABI: abi, body, repr, size
(sizeof(struct inode) from pahole) and the layout columns of
y2038lab.layouts.COLUMNS.  A file that exists but is empty, has only its
header, is not UTF-8, lacks a column or holds a size that is not a positive
integer raises fsio.InputError naming the file; a file that does not exist is
None (that ABI was not built).
"""
import csv
import io
import os

from y2038lab.core import fsio

REQUIRED = ("abi", "body", "repr", "size")


def path_of(folder, abi):
    return os.path.join(folder, f"sizes-{abi}.csv")


def read_sizes(path):
    """The rows of one sizes CSV as dicts (size as int); InputError when unusable."""
    text = fsio.read_text(path, "sizes CSV")
    if not text.strip():
        raise fsio.InputError(f"{path}: empty file, expected a sizes table (scripts/lab pahole)")
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        rows = list(reader)
    except csv.Error as err:
        raise fsio.InputError(f"{path}: not CSV ({err})") from None
    missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
    if missing:
        raise fsio.InputError(f"{path}: no column {', '.join(missing)} in the header")
    if not rows:
        raise fsio.InputError(f"{path}: header only, no rows")
    for n, row in enumerate(rows, start=2):
        if None in row or any(row[c] is None for c in REQUIRED):
            raise fsio.InputError(f"{path}: line {n}: not {len(reader.fieldnames)} fields as the header")
        if not row["size"].isdigit() or int(row["size"]) == 0:
            raise fsio.InputError(f"{path}: line {n}: size {row['size']!r} is not a positive integer")
        row["size"] = int(row["size"])
    return rows


def load(folder, abi):
    """Rows of FOLDER/sizes-ABI.csv, or None when the file does not exist."""
    path = path_of(folder, abi)
    if not os.path.exists(path):
        return None
    return read_sizes(path)
