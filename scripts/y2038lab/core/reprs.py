"""The representations: two names, and every other fact read from what the build emitted.

Python names two representations, once: REFERENCE, the baseline of every ratio
(the type the RFC moved inodes to, mainline since v4.18), and TWIN, REFERENCE's
layout twin on every LP64 ABI (their ratio is what code placement alone does).
Everything else is stated by the header (layouts/repr_<name>.h) and read from the
build, so a new representation needs no Python edit: from a probe object's section
.y2038_repr (struct inode_repr_facts, layouts/layout_probe.c; readelf reads every
ABI's), from y2038-bench's JSON context "y2038_repr_<name>" (bench/context.c, TEXT),
or from reports/layouts/sizes-<abi>.csv (COLUMNS, copied there by `scripts/lab pahole`).
"""
import os
import re
import struct
import subprocess
from dataclasses import dataclass

from y2038lab.core import fsio

REFERENCE = "timespec64"
TWIN = "timespec"
Y2038 = 2**31          # 2038-01-19T03:14:08Z: the first second a 32-bit time_t cannot hold
TIME64 = (-2**63, 2**63 - 1)
COLUMNS = ("origin", "range_min", "range_max", "one_word", "wraps")
TEXT = re.compile(r"min=(-?\d+)\.(\d{9}) max=(-?\d+)\.(\d{9}) one_word=([01]) wraps=([01]) origin=(.+)")


@dataclass(frozen=True)
class Repr:
    """One representation as its header states it on one ABI."""
    name: str
    origin: str
    min: tuple          # (seconds, nanoseconds counted up from them): the earliest instant held exactly
    max: tuple          # the latest
    one_word: bool      # seconds and nanoseconds are one integer: a lockless read cannot mix them
    wraps: bool         # out of range the seconds wrap (a 32-bit time_t); else they clamp

    @property
    def safe(self):
        """Holds instants past 2038-01-19 on this ABI."""
        return self.max[0] >= Y2038

    @property
    def saturates(self):
        """Clamps a store outside a range narrower than timespec64's (a branch on every store)."""
        return not self.wraps and (self.min[0] > TIME64[0] or self.max[0] < TIME64[1])

    def row(self):
        """The sizes CSV's COLUMNS of this representation."""
        return {"origin": self.origin, "range_min": f"{self.min[0]}.{self.min[1]:09d}",
                "range_max": f"{self.max[0]}.{self.max[1]:09d}", "one_word": int(self.one_word),
                "wraps": int(self.wraps)}


def parse(name, text, where):
    """The Repr of NAME from its context text; InputError naming WHERE otherwise."""
    if not (m := TEXT.fullmatch(str(text).strip())):
        raise fsio.InputError(f"{where}: representation facts of {name} not understood: {text!r}")
    return Repr(name, m.group(7), (int(m.group(1)), int(m.group(2))), (int(m.group(3)), int(m.group(4))),
                m.group(5) == "1", m.group(6) == "1")


def from_context(context, where="JSON context"):
    """{name: Repr} from a y2038-bench JSON context; {} for a run that did not record them."""
    return {key[len("y2038_repr_"):]: parse(key[len("y2038_repr_"):], value, where)
            for key, value in context.items() if key.startswith("y2038_repr_")}


def from_rows(rows, where="sizes table"):
    """{name: Repr} from the rows of one sizes-<abi>.csv; {} when it has no such columns."""
    out = {}
    for row in rows or ():
        if all(row.get(c) not in (None, "") for c in COLUMNS):
            text = (f"min={row['range_min']} max={row['range_max']} one_word={row['one_word']} "
                    f"wraps={row['wraps']} origin={row['origin']}")
            out[row["repr"]] = parse(row["repr"], text, where)
    return out


def section_bytes(obj, name=".y2038_repr"):
    """The bytes of section NAME of an ELF object of any ABI (readelf -x)."""
    try:
        proc = subprocess.run(["readelf", "-x", name, obj], capture_output=True, text=True)
    except OSError as err:
        raise fsio.InputError(f"readelf: cannot run ({err.strerror}); Debian package binutils") from None
    lines = [line for line in proc.stdout.splitlines() if line.startswith("  0x")]
    if proc.returncode != 0 or not lines:
        raise fsio.InputError(f"{obj}: no section {name} (rebuild the layout probes: layouts/layout_probe.c)")
    return bytes.fromhex("".join("".join(line[13:48].split()) for line in lines))


def from_probe(name, obj):
    """The Repr of NAME from its probe object (struct inode_repr_facts)."""
    with open(obj, "rb") as f:
        endian = "<" if f.read(6)[5:] == b"\x01" else ">"
    data = section_bytes(obj)
    min_sec, min_nsec, max_sec, max_nsec, one_word, wraps = struct.unpack_from(endian + "qi4xqi4xii", data)
    origin = data[40:].split(b"\0", 1)[0].decode("utf-8", "replace")
    return Repr(name, origin, (min_sec, min_nsec), (max_sec, max_nsec), bool(one_word), bool(wraps))


def from_build(build_dir):
    """{name: Repr} of a build folder, from the probe objects layout_probes.txt lists."""
    path = os.path.join(build_dir, "layout_probes.txt")
    out = {}
    for line in fsio.read_text(path, "probe list").splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] not in out:
            out[fields[1]] = from_probe(fields[1], fields[2])
    return out
