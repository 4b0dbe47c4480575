"""The pinned tree and one patched copy per representation.

Debian's linux-source-6.12 (/usr/src/linux-source-6.12.tar.xz) is unpacked once
into CACHE/kernel/ (into a temporary folder, renamed when complete).  A
representation's source is CACHE/kernel/src/<repr>: a copy of that tree made of
hard links (no file is written twice), then `patch` (which writes each patched
file anew, never through the link) with kernel/kunit.patch (the Kconfig entry and
the Makefile line of the lab's KUnit suite) and layouts/repr_<repr>.kernel.patch
(the representation's fields and accessor bodies in include/linux/fs.h), and the
suite's C file copied in.  A stamp holds the hash of the hunks: while they are
unchanged the copy is kept, so a rerun rebuilds only what changed (at most the
suite's own object).
"""
import glob
import hashlib
import os
import re
import shutil
import subprocess
import tarfile
import tempfile

from y2038lab.core import fsio

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TARBALL = "/usr/src/linux-source-6.12.tar.xz"
PACKAGE = "linux-source-6.12"
COMMON = os.path.join(TOP, "kernel", "kunit.patch")
SUITE = os.path.join(TOP, "kernel", "y2038_inode_kunit.c")
SUITE_IN_TREE = os.path.join("fs", "y2038_inode_kunit.c")
HUNK = os.path.join(TOP, "layouts", "repr_{}.kernel.patch")
# v6.11's discrete fields and the accessors every representation's hunk rewrites.
ACCESSORS = ("\ttime64_t\t\ti_atime_sec;\n", "static inline time64_t inode_get_atime_sec(",
             "static inline struct timespec64 inode_set_ctime_to_ts(")


def hunks():
    """{repr: its kernel hunk}, every layouts/repr_<repr>.kernel.patch."""
    paths = sorted(glob.glob(HUNK.format("*")))
    return {re.fullmatch(r"repr_(\w+)\.kernel\.patch", os.path.basename(p))[1]: p for p in paths}


def version(tree):
    """'6.12.57' from the tree's Makefile."""
    text = fsio.read_text(os.path.join(tree, "Makefile"), "kernel Makefile")
    parts = [re.search(rf"^{k} = (\d+)$", text, re.M) for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL")]
    if not all(parts):
        raise fsio.InputError(f"{tree}/Makefile: no VERSION, PATCHLEVEL and SUBLEVEL")
    return ".".join(p[1] for p in parts)


def check_accessors(tree):
    """InputError unless include/linux/fs.h has v6.11's discrete timestamps and accessors."""
    fs_h = os.path.join(tree, "include", "linux", "fs.h")
    text = fsio.read_text(fs_h, "include/linux/fs.h")
    missing = [a.strip() for a in ACCESSORS if a not in text]
    if missing:
        raise fsio.InputError(f"{fs_h}: not a v6.11+ tree (no '{missing[0]}'): the lab's hunks rewrite "
                              "v6.11's discrete timestamp fields and their accessors")


def unpack(tarball, cache):
    """The tree unpacked from TARBALL under CACHE/kernel (once)."""
    root = os.path.join(cache, "kernel")
    tree = os.path.join(root, PACKAGE)
    if os.path.isfile(os.path.join(tree, ".y2038-unpacked")):
        return tree
    if not os.path.isfile(tarball):
        raise fsio.InputError(f"{tarball}: not found (apt-get install {PACKAGE}, or scripts/lab deps kernel)")
    os.makedirs(root, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".unpack-", dir=root)
    try:
        with tarfile.open(tarball) as tar:
            tar.extractall(tmp, filter="tar" if hasattr(tarfile, "tar_filter") else None)
        top = [d for d in os.listdir(tmp) if os.path.isdir(os.path.join(tmp, d))]
        if len(top) != 1:
            raise fsio.InputError(f"{tarball}: expected one top folder, found {top}")
        open(os.path.join(tmp, top[0], ".y2038-unpacked"), "w").close()
        shutil.rmtree(tree, ignore_errors=True)
        os.replace(os.path.join(tmp, top[0]), tree)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tree


def apply(tree, patch, dry_run=False):
    """`patch -p1` PATCH in TREE; InputError naming the patch and the first hunk that fails."""
    res = subprocess.run(["patch", "-p1", "--forward", "--batch", "--no-backup-if-mismatch", "-d", tree, "-i", patch]
                         + (["--dry-run"] if dry_run else []), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    if res.returncode != 0:
        why = [x for x in res.stdout.splitlines() if "FAILED" in x or "malformed" in x or "reversed" in x.lower()]
        raise fsio.InputError(f"{patch}: does not apply to {tree}: {(why or res.stdout.splitlines() or ['?'])[0]}")


def _digest(*paths):
    h = hashlib.sha256()
    for p in paths:
        h.update(fsio.read_text(p, "hunk").encode())
    return h.hexdigest()


def source(tree, cache, repr_):
    """CACHE/kernel/src/REPR: TREE with the common hunk, REPR's hunk and the suite (see the head)."""
    hunk = hunks().get(repr_)
    if hunk is None:
        raise fsio.InputError(f"representation '{repr_}' has no kernel hunk ({HUNK.format(repr_)}; "
                              f"have: {', '.join(hunks())})")
    src = os.path.join(cache, "kernel", "src", repr_)
    stamp = os.path.join(src, ".y2038-hunks")
    digest = _digest(COMMON, hunk)
    if fsio.read_or_none(stamp) != digest:
        shutil.rmtree(src, ignore_errors=True)
        os.makedirs(os.path.dirname(src), exist_ok=True)
        tmp = src + ".partial"
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(tree, tmp, copy_function=os.link, symlinks=True)
        for p in (COMMON, hunk):
            apply(tmp, p)
        with open(os.path.join(tmp, ".y2038-hunks"), "w", encoding="utf-8") as f:
            f.write(digest)
        os.replace(tmp, src)
    dest = os.path.join(src, SUITE_IN_TREE)
    if fsio.read_or_none(dest) != fsio.read_text(SUITE, "KUnit suite"):
        if os.path.exists(dest):
            os.unlink(dest)  # never write through a hard link into the pristine tree
        shutil.copyfile(SUITE, dest)
    return src
