# SPDX-License-Identifier: MIT
"""How many objects of a given size SLUB puts in a slab.

A model of mm/slub.c's order selection, written from its documented
behaviour (calculate_order(), calc_slab_order(), order_objects()):

  * slub_min_objects: 4 * (fls(nr_cpus) + 1), where nr_cpus is
    num_present_cpus() (nr_cpu_ids when that is <= 1), unless the
    slub_min_objects= boot parameter sets it;
  * min_objects is capped by how many objects fit in a slab of
    slub_max_order (PAGE_ALLOC_COSTLY_ORDER = 3);
  * waste limit: an order is accepted when the unused tail of the slab,
    (PAGE_SIZE << order) % size, is at most 1/fraction of the slab;
    fraction starts at 16 and is relaxed;
  * v6.8+ ("calc" = "v6.8"): start at the order that holds min_objects, relax
    the fraction 16, 8, 4, 2.  Before ("v6.6"): try fractions 16, 8, 4 for
    min_objects, then for min_objects - 1, ..., 2, then any waste.

The object size the model takes is kmem_cache.size, /proc/slabinfo's <objsize> (cache_object_size()).
"""

import argparse
import os
import re
import sys

from y2038lab.core import fsio

PAGE_SHIFT = 12
PAGE_SIZE = 1 << PAGE_SHIFT
PAGE_ALLOC_COSTLY_ORDER = 3
SLUB_MAX_ORDER = PAGE_ALLOC_COSTLY_ORDER
SLUB_MIN_ORDER = 0
MAX_OBJS_PER_PAGE = 32767  # slab->objects is a 15-bit field
MAX_PAGE_ORDER = 10


def fls(x):
    """Find last set bit, 1-based; fls(0) == 0, as the kernel's fls()."""
    return x.bit_length()


def get_order(size):
    """Smallest order whose PAGE_SIZE << order holds size bytes (size >= 1)."""
    return fls((size - 1) >> PAGE_SHIFT)


def order_objects(order, size):
    return (PAGE_SIZE << order) // size


def slub_min_objects(nr_cpus):
    return 4 * (fls(nr_cpus) + 1)


def _calc_slab_order_v66(size, min_objects, max_order, fract_leftover):
    if order_objects(SLUB_MIN_ORDER, size) > MAX_OBJS_PER_PAGE:
        return get_order(size * MAX_OBJS_PER_PAGE) - 1
    # v6.6 starts the same search at the order that fits min_objects.
    min_order = max(SLUB_MIN_ORDER, get_order(min_objects * size))
    return _calc_slab_order_v68(size, min_order, max_order, fract_leftover)


def _calc_slab_order_v68(size, min_order, max_order, fract_leftover):
    order = min_order
    while order <= max_order:
        slab_size = PAGE_SIZE << order
        if slab_size % size <= slab_size // fract_leftover:
            break
        order += 1
    return order


def calculate_order(size, nr_cpus, calc="v6.8", min_objects=None):
    """The slab order SLUB picks for objects of kmem_cache.size @size."""
    if size <= 0:
        raise ValueError("object size must be positive")
    if not min_objects:
        min_objects = slub_min_objects(nr_cpus)
    max_objects = max(order_objects(SLUB_MAX_ORDER, size), 1)
    min_objects = min(min_objects, max_objects)

    if calc == "v6.8":
        min_order = max(SLUB_MIN_ORDER, get_order(min_objects * size))
        if order_objects(min_order, size) > MAX_OBJS_PER_PAGE:
            return get_order(size * MAX_OBJS_PER_PAGE) - 1
        for fraction in (16, 8, 4, 2):
            order = _calc_slab_order_v68(size, min_order, SLUB_MAX_ORDER, fraction)
            if order <= SLUB_MAX_ORDER:
                return order
        order = get_order(size)
        if order <= MAX_PAGE_ORDER:
            return order
        raise ValueError("object too large for any slab")
    if calc == "v6.6":
        while min_objects > 1:
            for fraction in (16, 8, 4):
                order = _calc_slab_order_v66(size, min_objects, SLUB_MAX_ORDER, fraction)
                if order <= SLUB_MAX_ORDER:
                    return order
            min_objects -= 1
        for max_order in (SLUB_MAX_ORDER, MAX_PAGE_ORDER):  # then any waste, then beyond the costly order
            order = _calc_slab_order_v66(size, 1, max_order, 1)
            if order <= max_order:
                return order
        raise ValueError("object too large for any slab")
    raise ValueError("calc must be v6.6 or v6.8")


def slab_geometry(size, nr_cpus, calc="v6.8", min_objects=None):
    """(objects per slab, pages per slab) for kmem_cache.size @size; min_objects: the slub_min_objects=
    boot parameter (None: derived from nr_cpus)."""
    order = calculate_order(size, nr_cpus, calc, min_objects)
    return order_objects(order, size), 1 << order


def align_up(value, align):
    return (value + align - 1) // align * align


def cache_object_size(struct_size, word=8, has_ctor=True, align=8):
    """kmem_cache.size for a struct of @struct_size bytes (calculate_sizes()).

    Round to a word; a cache with a constructor keeps its free pointer after
    the object (the object must stay intact while free); round to the cache
    alignment (ARCH_SLAB_MINALIGN, __alignof__(unsigned long long) = 8 on
    every ABI here, even i386, where GCC's __alignof__ is the preferred 8).
    """
    size = align_up(struct_size, word)
    if has_ctor:
        size += word
    return align_up(size, align)


def memory_per_objects(size, nr_cpus, count=1_000_000, calc="v6.8"):
    """Bytes of slab pages needed to hold @count objects, full slabs."""
    objs, pages = slab_geometry(size, nr_cpus, calc)
    return -(-count // objs) * pages * PAGE_SIZE


# Slab rows reported from a Debian 6.6 laptop (issue 3): objsize -> (objs, pages).
PUBLISHED_ROWS = [("inode_cache", 640, 25, 4), ("inode_cache", 632, 25, 4), ("inode_cache", 628, 26, 4),
                  ("inode_cache", 604, 27, 4), ("inode_cache", 584, 28, 4), ("ext4_inode_cache", 1184, 27, 8)]


def cpus_matching_published(calc="v6.6", max_cpus=512):
    """CPU counts for which the model reproduces every published row."""
    return [n for n in range(1, max_cpus + 1)
            if all(slab_geometry(size, n, calc) == (objs, pages)
                   for _, size, objs, pages in PUBLISHED_ROWS)]


MAX_OBJSIZE = PAGE_SIZE << MAX_PAGE_ORDER  # no slab holds a larger object


def parse_slabinfo(text):
    """Rows (name, objsize, objperslab, pagesperslab) of /proc/slabinfo 2.1.

    Raises ValueError naming the line when a line is malformed (fewer than six
    fields, a count that is not an integer) or absurd (objsize outside
    1..PAGE_SIZE << MAX_PAGE_ORDER, objperslab outside 1..MAX_OBJS_PER_PAGE,
    pagesperslab not a power of two up to 1 << MAX_PAGE_ORDER, or a slab too
    small for its objects)."""
    rows = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("slabinfo") or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) < 6 or not all(f.isdigit() for f in fields[3:6]):
            raise ValueError("line %d: malformed slabinfo line: %r" % (n, line[:80]))
        name, size, objs, pages = fields[0], int(fields[3]), int(fields[4]), int(fields[5])
        if not 1 <= size <= MAX_OBJSIZE:
            raise ValueError("line %d: %s: objsize %d outside 1..%d" % (n, name, size, MAX_OBJSIZE))
        if not 1 <= objs <= MAX_OBJS_PER_PAGE:
            raise ValueError("line %d: %s: objperslab %d outside 1..%d" % (n, name, objs, MAX_OBJS_PER_PAGE))
        if pages < 1 or pages & (pages - 1) or pages > 1 << MAX_PAGE_ORDER:
            raise ValueError("line %d: %s: pagesperslab %d is not a power of two up to %d"
                             % (n, name, pages, 1 << MAX_PAGE_ORDER))
        if objs * size > pages * PAGE_SIZE:
            raise ValueError("line %d: %s: %d objects of %d B do not fit in %d pages"
                             % (n, name, objs, size, pages))
        rows.append((name, size, objs, pages))
    return rows


def cpulist_count(text):
    """How many CPUs a /sys cpulist ("0-3,6") names; 0 for None or garbage."""
    total = 0
    for part in (text or "").split(","):
        m = re.match(r"^(\d+)(?:-(\d+))?$", part.strip())
        if not m:
            return 0
        total += int(m.group(2) or m.group(1)) - int(m.group(1)) + 1
    return total


def host_cpus():
    """num_present_cpus(), falling back to nr_cpu_ids as the kernel does."""
    present = cpulist_count(fsio.read_or_none("/sys/devices/system/cpu/present"))
    if present > 1:
        return present
    possible = cpulist_count(fsio.read_or_none("/sys/devices/system/cpu/possible"))
    return possible or os.cpu_count() or 1


def calc_for(release):
    """The order algorithm of a kernel release ("6.1.0-18-amd64"): v6.8 from 6.8 on, and when unknown."""
    m = re.match(r"^(\d+)\.(\d+)", release or "")
    return "v6.8" if not m or (int(m.group(1)), int(m.group(2))) >= (6, 8) else "v6.6"


def host_calc():
    return calc_for(os.uname().release)


def boot_slab_params(cmdline):
    """slub_/slab_ min_objects, min_order, max_order from a kernel command line."""
    params = {}
    for word in cmdline.split():
        key, _, value = word.partition("=")
        for prefix in ("slub_", "slab_"):
            if key.startswith(prefix) and key[len(prefix):] in ("min_objects", "min_order", "max_order"):
                params[key[len(prefix):]] = int(value, 0)
    return params


def validate(text, nr_cpus, calc, min_objects=None):
    """List of (name, objsize, got, want) mismatches, and the row count."""
    rows = parse_slabinfo(text)
    got = [slab_geometry(size, nr_cpus, calc, min_objects) for _, size, _, _ in rows]
    return [(r[0], r[1], g, r[2:]) for r, g in zip(rows, got) if g != r[2:]], len(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("size", nargs="?", type=int, help="kmem_cache.size (slabinfo objsize)")
    ap.add_argument("--cpus", type=int, help="num_present_cpus (default: this host)")
    ap.add_argument("--calc", choices=["v6.6", "v6.8"], help="algorithm (default: this kernel's)")
    ap.add_argument("--validate", nargs="?", const="/proc/slabinfo", metavar="SLABINFO")
    ap.add_argument("--published", action="store_true")
    args = ap.parse_args(argv)
    cpus = args.cpus or host_cpus()
    calc = args.calc or host_calc()
    if args.cpus is not None and args.cpus < 1:
        ap.error("--cpus must be at least 1")

    if args.published:
        calc = args.calc or "v6.6"
        match = cpus_matching_published(calc)
        print("published rows reproduced (calc %s) for CPU counts: %s" %
              (calc, compress_ranges(match) or "none"))
        for name, size, objs, pages in PUBLISHED_ROWS:
            print("%-18s %5d B: model %2d per %d pages (cpus=%d), published %2d per %d" %
                  (name, size, *slab_geometry(size, cpus, calc), cpus, objs, pages))
        return 0 if match else 1
    if args.validate:
        try:
            with open(args.validate, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            print("%s: SKIP: cannot read %s: %s" % (fsio.prog(), args.validate, e.strerror))
            return 77
        except UnicodeDecodeError:
            raise fsio.InputError("%s: not UTF-8 text" % args.validate) from None
        params = boot_slab_params(fsio.read_or_none("/proc/cmdline") or "")
        if "min_order" in params or "max_order" in params:
            print("%s: SKIP: the kernel was booted with a slab order parameter %s; "
                  "the model assumes the default orders" % (fsio.prog(), params))
            return 77
        try:
            bad, total = validate(text, cpus, calc, params.get("min_objects"))
        except ValueError as e:
            raise fsio.InputError("%s: %s" % (args.validate, e)) from None
        for name, size, got, want in bad:
            print("MISMATCH %s objsize %d: model %d/%d, slabinfo %d/%d" %
                  (name, size, got[0], got[1], want[0], want[1]))
        print("slabinfo validation (cpus=%d, calc %s, kernel %s): %d of %d caches match" %
              (cpus, calc, os.uname().release, total - len(bad), total))
        if total == 0:
            raise fsio.InputError("%s: no cache rows" % args.validate)
        return 1 if bad else 0
    if args.size is None:
        ap.error("give SIZE, --validate or --published")
    if args.size <= 0:
        ap.error("SIZE must be positive")
    objs, pages = slab_geometry(args.size, cpus, calc)
    print("%d B: %d objects per %d pages (order %d), cpus=%d, min_objects=%d, calc %s" %
          (args.size, objs, pages, pages.bit_length() - 1, cpus, slub_min_objects(cpus), calc))
    return 0


def compress_ranges(values):
    """Sorted integers as runs: [1, 2, 3, 7] -> "1-3,7"."""
    runs = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ",".join("%d-%d" % (a, b) if a != b else str(a) for a, b in runs)


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
