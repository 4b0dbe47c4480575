"""Classify the sites churn/inode_times.cocci found and count them per approach.

spatch writes one record per (rule, position); this module joins them by position (file, line, column
of the field name) and gives every access to an inode's i_atime/i_mtime/i_ctime one use class: a base
column of churn/columns.tsv (the definitions the report prints: member access, local or struct copy,
value or address passed, helper use, other use) or neutral (to or from another inode timestamp, the
middle of a chain `a = b = c` of them included, a VFS clock call, a struct iattr/kstat field; its size;
its address cast to another pointer type).  tv_sec printed for a long conversion is a flag-day site of
its own (format_sites).  A filesystem function is any function that is not a VFS/time
helper: not named in the HELPER_HEADERS nor defined in fs/*.c.  The per-approach formulas:
approach_counts(), as columns.tsv states them.
"""
import collections
import re

from y2038lab.churn.tree import strip_c as tree_strip_c

INODE_TYPES = {"struct inode", "const struct inode"}
IATTR_TYPES = {"struct iattr", "const struct iattr"}
KSTAT_TYPES = {"struct kstat", "const struct kstat"}
IATTR_FIELDS = {"ia_atime", "ia_mtime", "ia_ctime"}
KSTAT_FIELDS = {"atime", "mtime", "ctime", "btime"}
CLOCK_CALLS = {"current_time", "current_fs_time", "current_fs_time_sec"}
CLOCK_MACROS = {"CURRENT_TIME", "CURRENT_TIME_SEC"}
# the VFS's own ->update_time (fs/inode.c); the filesystems' ones are read
# from the .update_time members of their struct inode_operations
VFS_UPDATE_TIME = {"generic_update_time"}
# the clock interfaces the 2016 RFC replaced (gone from mainline since v4.18)
LEGACY_CLOCKS = CLOCK_MACROS | {"current_fs_time", "current_fs_time_sec"}

# Where the VFS and the kernel's time and string helpers are declared: a
# function named in one of these (or defined in fs/*.c) is "from the VFS".
HELPER_HEADERS = ("include/linux/fs.h", "include/linux/fs_stack.h", "include/linux/stat.h",
                  "include/linux/time.h", "include/linux/time64.h", "include/linux/ktime.h",
                  "include/linux/timekeeping.h", "include/linux/jiffies.h", "include/linux/math64.h",
                  "include/linux/string.h", "include/linux/fortify-string.h", "include/linux/printk.h",
                  "include/linux/kernel.h", "include/linux/minmax.h", "include/linux/compiler.h",
                  "include/asm-generic/rwonce.h", "include/vdso/time64.h", "include/uapi/linux/time.h")

COLUMNS = ("fs", "kind", "files", "reads", "writes", "member_accesses", "local_copies", "struct_copies",
           "value_passed", "address_passed", "helper_uses", "other_uses", "macro_args", "setattr_sites",
           "getattr_sites", "update_time_sites", "boundary_sites", "current_time_calls", "legacy_time_calls",
           "retyped_locals", "retyped_local_copies", "vfs_value_sites", "clock_stores", "tv_sec_formats",
           "rfc_macros", "boundary_conversion", "flag_day", "accessor_functions", "needs_manual", "needs_manual_fs",
           "bergmann_fs", "bergmann_wide_fs", "unresolved", "unparsed_files")

# a clock value stored into one of these, or into a plain (retyped) local, is no flag-day site
_VFS_DEST_RE = re.compile(r"^\w+$|(->|\.)\s*(i_[amc]time|ia_[amc]time)$")
# `a->i_mtime = a->i_ctime = ...`: the other side of the outer copy is another inode timestamp
_CHAIN_RE = re.compile(r"^[^=]*(->|\.)\s*i_[amc]time\s*=[^=]")
_CALL_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_DEF_RE = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;]*$", re.M)


def helper_names(read_text, tree_files):
    """Names of VFS/time helpers: called or declared in HELPER_HEADERS, or
    defined at the top level of fs/*.c.  read_text(path) returns the text of
    a tree-relative path or None; tree_files lists the tree's fs/*.c."""
    names = set(CLOCK_CALLS)
    for paths, regex in ((HELPER_HEADERS, _CALL_RE), (tree_files, _DEF_RE)):
        for path in paths:
            names.update(regex.findall(read_text(path) or ""))
    return names


_COMMENT_RE = re.compile(r"/\*.*?(?:\*/|\Z)|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)(.*)$", re.M)


def member_macros(read_text, tree_files):
    """Function-like macros of TREE_FILES (fs/**/*.[ch]) whose parameters the body uses only as `(p).tv_sec`
    or `(p).tv_nsec` (jffs2's `I_SEC(tv)`, hfs's `hfs_u_to_mtime(time)`): a timestamp given to one is a
    tv_sec/tv_nsec access once expanded, compiling unchanged whatever the type; a name defined twice
    qualifies only if every definition does."""
    verdict = {}
    for path in tree_files:
        text = re.sub(r"\\\n", " ", tree_strip_c(read_text(path) or ""))
        for name, params, body in _DEFINE_RE.findall(text):
            names = [p.strip() for p in params.split(",")]
            ok = all(re.fullmatch(r"[A-Za-z_]\w*", p) for p in names) and all(
                0 < len(re.findall(rf"\b{p}\b", body))
                == len(re.findall(rf"(?:\(\s*{p}\s*\)|\b{p})\s*\.\s*tv_n?sec\b", body)) for p in names)
            verdict[name] = verdict.get(name, True) and ok
    return {name for name, ok in verdict.items() if ok}


def parse_records(lines, source="spatch output"):
    """Records of inode_times.cocci: (kind, file, line, col, function, extra...)."""
    records = []
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line:
            continue
        parts = line.split("\t")
        if len(parts) < 5 or not parts[2].isdigit() or not parts[3].isdigit():
            raise ValueError(f"{source}:{n}: not a churn record: {line[:80]!r}")
        records.append((parts[0], parts[1], int(parts[2]), int(parts[3]), parts[4], tuple(parts[5:])))
    return records


class Sites:
    """Every record, indexed by kind and position."""

    def __init__(self, records):
        self.by_kind = collections.defaultdict(dict)
        for kind, path, line, col, func, extra in records:
            # one record per position and kind; a rule may fire twice on one
            # position (two disjunction branches), the data is the same
            self.by_kind[kind].setdefault((path, line, col), (func, extra))

    def positions(self, kind, types=None):
        return {pos for pos, (_, extra) in self.by_kind[kind].items()
                if types is None or (extra and extra[0] in types)}

    def extra(self, kind, pos):
        entry = self.by_kind[kind].get(pos)
        return entry[1] if entry else None


def classify(sites, helpers, macros=frozenset()):
    """Per inode-timestamp access, {position: info}: info = {'write', 'member', 'member_write', 'addr',
    'retyped'} flags and 'use', one of member, local, struct, value, address, helper, neutral, other.
    MACROS: member_macros() (a timestamp given to one is a member access)."""
    update_time = VFS_UPDATE_TIME | {extra[1] for _, extra in sites.by_kind["iop"].values()
                                     if extra[0] == "update_time"}
    flags = {kind: sites.positions(kind, INODE_TYPES) for kind in ("write", "member", "addr")}
    retyped = {(pos[0], func, extra[1]) for pos, (func, extra) in sites.by_kind["retyped_local"].items()}
    out = {}
    for pos in sites.positions("field", INODE_TYPES):
        info = {kind: pos in positions for kind, positions in flags.items()}
        info["member_write"] = info["write"] and info["member"]
        info["use"] = _use(sites, helpers, macros, update_time, pos, info)
        local = sites.by_kind["local"].get(pos)
        info["retyped"] = info["use"] == "local" and info["write"] and (pos[0], local[0], local[1][1]) in retyped
        out[pos] = info
    return out


def _use(sites, helpers, macros, update_time, pos, info):
    if pos in sites.by_kind["sizeof"] or pos in sites.by_kind["addr_cast"]:
        return "neutral"  # its size, or its address cast to another pointer type: unchanged whatever the type
    if info["addr"]:
        if pos in sites.by_kind["byte_copy"]:
            return "struct"  # memcpy() between the inode's timestamp and another type's storage
        callee = sites.extra("addr_arg", pos)
        if callee is not None and callee[1] in helpers:
            return helper_use(callee[1])
        return "address"
    if info["member"]:
        return "member"
    peer = sites.extra("peer_vfs", pos)  # an iattr/kstat field, not any field named mtime
    if sites.extra("peer_field", pos) is not None or (peer is not None and peer[1] in IATTR_TYPES | KSTAT_TYPES):
        return "neutral"
    call = sites.extra("peer_call", pos)
    if call is not None:  # a VFS helper's result: a time helper is renamed, the clock is not
        return ("neutral" if call[1] in CLOCK_CALLS else helper_use(call[1])) if call[1] in helpers else "struct"
    local = sites.extra("local", pos)
    if local is not None:
        return "neutral" if local[1] in CLOCK_MACROS else "other" if local[1].isupper() else "local"
    copy = sites.extra("copy", pos)
    if copy is not None:
        # `inode->i_mtime = *time` in an ->update_time: the VFS's own value
        vfs_value = re.fullmatch(r"\*\s*\w+", copy[1]) and sites.by_kind["copy"][pos][0] in update_time
        return "neutral" if vfs_value or _CHAIN_RE.match(copy[1]) else "struct"
    if sites.extra("return", pos) is not None:
        return "struct"
    arg = sites.extra("value_arg", pos)
    if arg is not None:
        return "member" if arg[1] in macros else helper_use(arg[1]) if arg[1] in helpers else "value"
    return "other"


def helper_use(name):
    """A VFS helper of the timestamp's type (timespec64_equal(), named for time) is
    renamed with it; a type-generic one (memset(), swap()) is not: neutral."""
    return "helper" if "time" in name.lower() else "neutral"


def vfs_struct_crossings(sites, helpers):
    """struct iattr / struct kstat time-field uses whose other side is neither
    an inode timestamp nor a VFS helper: {'setattr': set, 'getattr': set,
    'values': the subset a flag day changes (whole values, not from the
    clock nor another iattr/kstat field)}."""
    paired = sites.positions("vfs_peer_field")
    same = {pos for pos, (_, extra) in sites.by_kind["vfs_same"].items()
            if len(extra) > 1 and extra[1] in IATTR_TYPES | KSTAT_TYPES | {"clock"}}
    out = {"setattr": set(), "getattr": set(), "values": set()}
    for pos, (_, extra) in sites.by_kind["vfs_struct"].items():
        if len(extra) < 2 or pos in paired:
            continue
        arg = sites.extra("vfs_arg", pos)
        if arg is not None and arg[1] in helpers:
            continue
        if extra[0] in IATTR_TYPES and extra[1] in IATTR_FIELDS:
            out["setattr"].add(pos)
        elif extra[0] in KSTAT_TYPES and extra[1] in KSTAT_FIELDS:
            out["getattr"].add(pos)
        else:
            continue
        if pos not in sites.by_kind["vfs_member"] and pos not in same:
            out["values"].add(pos)
    return out


# a string literal; a printf conversion (flags, width, precision, length, conversion), `%%` included
_STRING_RE = re.compile(r'"(?:\\.|[^"\\])*"')
_CONVERSION_RE = re.compile(r"%(?:%|[-+ #0]*(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|L|q|j|z|Z|t)?([a-zA-Z]))")
# the fields whose tv_sec a flag day retypes, by the type they belong to
_TIMESTAMP_FIELDS = ((INODE_TYPES, {"i_atime", "i_mtime", "i_ctime"}), (IATTR_TYPES, IATTR_FIELDS),
                     (KSTAT_TYPES, KSTAT_FIELDS))


def split_arguments(text):
    """TEXT (a call's arguments) split at its top-level commas, strings and character literals kept whole."""
    args, depth, start, k = [], 0, 0, 0
    while k < len(text):
        c = text[k]
        if c in "\"'":
            m = re.compile(r"%s(?:\\.|[^%s\\])*%s" % (c, c, c)).match(text, k)
            k = m.end() if m else len(text)
            continue
        depth += 1 if c in "([{" else -1 if c in ")]}" else 0
        if c == "," and depth == 0:
            args.append(text[start:k].strip())
            start = k + 1
        k += 1
    return args + [text[start:].strip()] if text.strip() else args


def long_conversion(conv):
    """True for a conversion (length modifier, letter) that prints a long (`%ld`, `%lu`, `%lx`): -Wformat
    warns there once tv_sec is a long long; `%d` already warned for a long before, `%lld` never does."""
    return conv[1] in "diouxX" and conv[0] == "l"


def printed_conversion(before, n):
    """The conversion that prints the argument after the N arguments BEFORE (their source text) of a
    printf-style call: (length modifier, conversion letter), or None (no format string before it, or its
    conversions do not reach the argument).  The format is the last argument holding a string literal
    with a `%`; `*` widths and precisions take an argument each, `%%` none."""
    args = split_arguments(before)
    if len(args) != n:
        return None
    fmt_at = max((i for i, a in enumerate(args) if "%" in "".join(_STRING_RE.findall(a))), default=None)
    if fmt_at is None:
        return None
    want = n - fmt_at - 1  # the arguments between the format and ours, each taken by a conversion
    for m in _CONVERSION_RE.finditer("".join(s[1:-1] for s in _STRING_RE.findall(args[fmt_at]))):
        if m.group() == "%%":
            continue
        want -= (m.group(1) == "*") + (m.group(2) == "*")
        if want < 0:
            return None  # ours is a width or a precision
        if want == 0:
            return m.group(3) or "", m.group(4)
        want -= 1
    return None


def call_arguments(text, line, col):
    """([the arguments' source text, comments blanked, strings kept], the index of the one holding LINE, COL)
    of the call around that position of TEXT (spatch's position: column in bytes from 0), or None.
    spatch's own text of arguments spaces a string's conversions apart (`" % ld "`): the source is read."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    if line > len(starts):
        return None
    blank = tree_strip_c(text)
    kept = _COMMENT_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()) if m.group()[0] == "/" else m.group(), text)
    depth, k, at = 0, starts[line - 1] + col, starts[line - 1] + col
    while k > 0:  # back to the call's `(`
        k -= 1
        c = blank[k]
        if c in ")]}":
            depth += 1
        elif c in "([{" and depth:
            depth -= 1
        elif c == "(":
            break
        elif c in "[{;":
            return None
    else:
        return None
    cuts, depth, j = [k], 0, k + 1
    while j < len(blank):  # forward to its `)`, cutting at its commas
        c = blank[j]
        if c in "([{":
            depth += 1
        elif c in ")]}" and depth:
            depth -= 1
        elif c == ")":
            break
        elif c == "," and depth == 0:
            cuts.append(j)
        j += 1
    else:
        return None
    cuts.append(j)
    args = [kept[a + 1:b].strip() for a, b in zip(cuts, cuts[1:])]
    return args, sum(1 for cut in cuts[1:-1] if cut < at)


def arguments_before(text, line, col):
    """The arguments before the one at LINE, COL of the call around it (call_arguments), joined; None if
    there is no call around it."""
    found = call_arguments(text, line, col)
    return ", ".join(found[0][:found[1]]) if found else None


BYTE_COPIES = {"memcpy", "memmove"}
_TIMESTAMP_TEXT = re.compile(r"(->|\.)\s*i_[amc]time\b")


def resolve_sources(sites, read_text):
    """What only the source tells (READ_TEXT(path)), kept in SITES: the tv_sec format sites (format_sites) as
    by_kind["format_site"] {position: (function, (conversion,))}, and the addresses given to memcpy()/memmove()
    whose other side is no inode timestamp (a copy between the inode's type and another: a struct copy) as
    by_kind["byte_copy"] {position: (function, (the other argument,))}."""
    texts = {}

    def text_of(path):
        if path not in texts:
            texts[path] = read_text(path) or ""
        return texts[path]

    copies = {}
    for pos, (func, extra) in sites.by_kind["addr_arg"].items():
        if len(extra) > 1 and extra[1] in BYTE_COPIES:
            found = call_arguments(text_of(pos[0]), pos[1], pos[2])
            if found and found[1] in (0, 1) and len(found[0]) > 1:
                other = found[0][1 - found[1]]
                if not _TIMESTAMP_TEXT.search(other):
                    copies[pos] = (func, (other,))
    sites.by_kind["byte_copy"] = copies
    out = {}
    for pos, (func, extra) in sites.by_kind["format_arg"].items():
        if len(extra) < 4 or not extra[3].isdigit() or not any(
                extra[0] in types and extra[1] in fields for types, fields in _TIMESTAMP_FIELDS):
            continue
        before = arguments_before(text_of(pos[0]), pos[1], pos[2])
        conv = printed_conversion(before, int(extra[3])) if before is not None else None
        if conv and long_conversion(conv):
            out[pos] = (func, ("%" + "".join(conv),))
    sites.by_kind["format_site"] = out


def format_sites(sites):
    """tv_sec of an inode, iattr or kstat timestamp passed as it is to a printf-style call for an integer
    conversion shorter than long long (`%ld`, `%lu`, `%lx`): a flag day to time64_t seconds makes
    -Wformat warn there (v4.18 cast them for `%lld`).  {position: the conversion}; resolve_sources() finds
    them (none before it ran)."""
    return {pos: extra[0] for pos, (_, extra) in sites.by_kind["format_site"].items()}


def clock_stores(sites):
    """Clock values stored into the filesystem's own storage (not an inode,
    iattr or kstat timestamp, not a plain local)."""
    return {pos for pos, (_, extra) in sites.by_kind["clock_store"].items()
            if extra and not _VFS_DEST_RE.search(extra[0].strip())}


def approach_counts(c):
    """The per-approach sums and 0/1 flags of one row of base counts (a dict), in place; what each
    approach changes (rfc_macros, accessor_functions, boundary_conversion, flag_day): churn/columns.tsv."""
    accesses = c["reads"] + c["writes"] + c["macro_args"]
    c["boundary_sites"] = (c["setattr_sites"] + c["getattr_sites"] + c["update_time_sites"]
                           + c["member_accesses"] + c["struct_copies"] + c["value_passed"]
                           + c["address_passed"])
    c["rfc_macros"] = accesses + c["legacy_time_calls"]
    c["accessor_functions"] = accesses
    c["boundary_conversion"] = c["boundary_sites"] + c["local_copies"]
    c["flag_day"] = (c["local_copies"] - c["retyped_local_copies"] + c["retyped_locals"] + c["struct_copies"]
                     + c["value_passed"] + c["address_passed"] + c["helper_uses"] + c["other_uses"]
                     + c["update_time_sites"] + c["vfs_value_sites"] + c["clock_stores"] + c["tv_sec_formats"])
    c["needs_manual_fs"] = 1 if c["needs_manual"] > 0 else 0
    c["bergmann_fs"] = 1 if c["local_copies"] + c["address_passed"] > 0 else 0
    c["bergmann_wide_fs"] = 1 if c["local_copies"] + c["address_passed"] + c["struct_copies"] + c["value_passed"] else 0
    return c


def count(sites, helpers, group_of, unresolved=None, macros=frozenset()):
    """Base and per-approach counts per group (group_of(path) -> name).

    unresolved: {position: reason} of accesses not attributed (reported,
    never counted in the approaches).  Returns {group: counts dict}.
    """
    rows = collections.defaultdict(lambda: dict.fromkeys(COLUMNS[3:], 0))

    def add(pos, column):
        rows[group_of(pos[0])][column] += 1

    use_column = {"local": "local_copies", "struct": "struct_copies", "value": "value_passed",
                  "address": "address_passed", "helper": "helper_uses", "other": "other_uses",
                  "member": "member_accesses"}
    for pos, info in classify(sites, helpers, macros).items():
        add(pos, "writes" if info["write"] else "reads")
        if info["use"] in use_column:
            add(pos, use_column[info["use"]])
        if info["retyped"]:
            add(pos, "retyped_local_copies")
        if info["member"] and info["use"] != "member":
            add(pos, "member_accesses")
        if info["addr"] or info["member_write"]:
            add(pos, "needs_manual")
    for pos, (_, extra) in sites.by_kind["macro_arg"].items():
        if extra and extra[0].isupper():
            add(pos, "macro_args")
            add(pos, "needs_manual")
    update_time = {(group_of(pos[0]), extra[1]): pos for pos, (_, extra) in sites.by_kind["iop"].items()
                   if extra[0] == "update_time"}  # one site per implementation and directory
    crossings = vfs_struct_crossings(sites, helpers)
    for column, positions in (("setattr_sites", crossings["setattr"]), ("getattr_sites", crossings["getattr"]),
                              ("retyped_locals", sites.by_kind["retyped_local"]), ("clock_stores", clock_stores(sites)),
                              ("vfs_value_sites", crossings["values"]), ("unresolved", unresolved or {}),
                              ("update_time_sites", update_time.values()), ("tv_sec_formats", format_sites(sites))):
        for pos in positions:
            add(pos, column)
    for pos, (_, extra) in sites.by_kind["clock"].items():
        add(pos, "current_time_calls")
        if extra and extra[0] in LEGACY_CLOCKS:
            add(pos, "legacy_time_calls")
    return {group: approach_counts(row) for group, row in rows.items()}


FLAG_DAY_USES = {"local", "struct", "value", "address", "helper", "other"}


def predicted_lines(sites, helpers, approach, macros=frozenset()):
    """The (file, line)s holding APPROACH's sites ("flag_day" or
    "accessor_functions"), {(file, line): what}, and the use classes of every
    classified access per line (to explain what was not predicted).  The
    flag day's update_time signatures are added by the caller (text search)."""
    info, uses, out = classify(sites, helpers, macros), collections.defaultdict(set), {}
    for pos, i in sorted(info.items()):
        uses[pos[:2]].add(i["use"])
        if approach == "accessor_functions" or (i["use"] in FLAG_DAY_USES and not i["retyped"]):
            out.setdefault(pos[:2], i["use"])
    if approach == "accessor_functions":
        out.update({pos[:2]: "macro argument" for pos, (_, extra) in sites.by_kind["macro_arg"].items()
                    if extra and extra[0].isupper()})
    else:
        crossings = vfs_struct_crossings(sites, helpers)
        out.update({pos[:2]: "setattr" if pos in crossings["setattr"] else "getattr" for pos in crossings["values"]})
        out.update({pos[:2]: "retyped local" for pos in sites.by_kind["retyped_local"]})
        out.update({pos[:2]: "clock store" for pos in clock_stores(sites)})
        out.update({pos[:2]: "tv_sec format" for pos in format_sites(sites)})
    return out, uses
