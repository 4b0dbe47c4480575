"""pahole (dwarves 1.24) on the layout probes: the manifests, the runs, the parser.

Each ABI's build folder holds layout_abi.txt (the ABI) and layout_probes.txt
(layouts/CMakeLists.txt: one line "<body> <repr> <object>" per layout, in the
order of the one list of bodies and representations): the layouts report
takes its bodies and representations from there, never from a list of its own.
The timestamp members of a representation are read from pahole's struct inode
(members named i_atime, i_mtime_sec, i_ctime_nsec, ...: i_[amc]time[_<part>]).
"""
import os
import re

from y2038lab.core import fsio

CACHELINE = 64
# A fixed cache line, so the reference set does not depend on the host's CPU.
PAHOLE = ["pahole", f"--cacheline_size={CACHELINE}"]
# pahole 1.24 on i386 objects marks every struct holding a 4-aligned s64 (struct
# inode, timespec64) __attribute__((__packed__)), which they are not.
PAHOLE_ABI_FLAGS = {"i386": ["--suppress_packed"]}
STRUCTS = ["inode", "ext4_inode_info", "msdos_inode_info", "cifsInodeInfo", "netfs_inode",
           "address_space", "rw_semaphore", "timespec64", "kernel_old_timespec", "inode_timespec"]
TIMESTAMP_MEMBER = re.compile(r"i_[amc]time(?:_[a-z]+)?")
MEMBER_RE = re.compile(r"^\s*(.*?)\s*\b(\w+)(?:\[\d*\])*(?:\s+__attribute__\(\(.*\)\))?;"
                       r"\s*/\*\s*(\d+)(?::\d+)?\s+(\d+)\s*\*/")
# The struct's own summary comments (depth 1): {key: int} from each.
SUMMARY = ((("size", "cachelines"), r"size: (\d+), cachelines: (\d+)"), (("holes",), r"sum holes: (\d+)"),
           (("padding",), r"/\* padding: (\d+) \*/"))


def pahole(abi, obj, *args):
    return fsio.run(PAHOLE + PAHOLE_ABI_FLAGS.get(abi, []) + list(args) + [obj])


def parse_struct(text, name, where="pahole output"):
    """{'size','cachelines','holes','padding','members':{name:(off,size)},'types':{name:type}}
    of one struct in pahole's output, or None when the struct is not there."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(f"struct {name} {{")), None)
    if start is None:
        return None
    info = {"members": {}, "types": {}, "holes": 0, "padding": 0, "size": None, "cachelines": None}
    depth = 0
    for line in lines[start:]:
        depth += line.count("{") - line.count("}")
        m = MEMBER_RE.search(line)
        # Only direct members and the members of anonymous unions (pahole prints absolute offsets).
        if m and "}" not in line.split("/*")[0]:
            info["members"].setdefault(m.group(2), (int(m.group(3)), int(m.group(4))))
            info["types"].setdefault(m.group(2), " ".join(m.group(1).split()))
        for keys, pattern in SUMMARY:
            m = re.search(pattern, line)
            if m and depth == 1:
                info.update(zip(keys, map(int, m.groups())))
        if depth == 0 and line.startswith("}"):
            break
    if info["size"] is None:
        raise fsio.InputError(f"{where}: no size line for struct {name}")
    return info


def timestamp_members(inode):
    """The a/m/c timestamp members of a parsed struct inode, in offset order."""
    names = [n for n in inode["members"] if TIMESTAMP_MEMBER.fullmatch(n)]
    return sorted(names, key=lambda n: inode["members"][n][0])


def line_of(off, size):
    first, last = off // CACHELINE, (off + size - 1) // CACHELINE
    return str(first) if first == last else f"{first}-{last}"


def discover(build_dirs):
    """[(abi, build dir, [(body, repr, object)])] from each build folder's manifests."""
    out = []
    for d in build_dirs:
        abi_path, probes_path = os.path.join(d, "layout_abi.txt"), os.path.join(d, "layout_probes.txt")
        for path in (abi_path, probes_path):
            if not os.path.exists(path):
                raise fsio.InputError(f"{path}: missing (configure {d} and build its layout_probes target)")
        abi = fsio.read_text(abi_path).strip()
        abi = "i386" if abi in ("i686", "i386") else abi
        if not re.fullmatch(r"\w+", abi):
            raise fsio.InputError(f"{abi_path}: {abi!r} is not an ABI name")
        probes = []
        for n, line in enumerate(fsio.read_text(probes_path).splitlines(), start=1):
            if not line.strip():
                continue
            fields = line.split()
            if len(fields) != 3:
                raise fsio.InputError(f"{probes_path}: line {n}: expected '<body> <repr> <object>'")
            if not os.path.exists(fields[2]):
                raise fsio.InputError(f"{fields[2]}: missing object (build the layout_probes target of {d})")
            probes.append(tuple(fields))
        if not probes:
            raise fsio.InputError(f"{probes_path}: no layouts listed")
        out.append((abi, d, probes))
    return out


def axes(abis):
    """(bodies, reprs) in manifest order, over every ABI."""
    probes = [p for _, _, ps in abis for p in ps]
    return list(dict.fromkeys(p[0] for p in probes)), list(dict.fromkeys(p[1] for p in probes))
