"""The kernel tree side of the churn count: a tarball unpacked (only what the count reads), the
tree's version, the files spatch reads, the directory each counts for, and the raw i_?time tokens
(the check that no site was silently dropped)."""
import os
import re
import shutil
import tarfile

from y2038lab.core.fsio import InputError, read_or_none, write_text

WANTED = ("fs/", "include/", "Makefile")
STAMP = ".y2038lab-unpacked"
SOURCE = ".y2038lab-source"  # optional, in a tree folder: where it came from (one line)
CANDIDATE_RE = re.compile(rb"\b(i_[amc]time|ia_[amc]time|CURRENT_TIME(_SEC)?|current_fs_time(_sec)?"
                          rb"|current_time|update_time|setattr|getattr|kstat)\b")
TOKEN_RE = re.compile(r"\bi_[amc]time\b")
FSTYPE_RE = re.compile(rb"struct\s+file_system_type\s+\w+\s*=")
# a comment, or a string or character literal up to its quote, the end of its line or of the text
LITERAL_RE = re.compile(r"/\*.*?(?:\*/|\Z)|//[^\n]*"
                        r"|\"(?:\\.|\\\Z|[^\"\\\n])*(?:\"|\n|\Z)|'(?:\\.|\\\Z|[^'\\\n])*(?:'|\n|\Z)", re.S)


def tree_name(source):
    """The report name of a tree folder or tarball: its base name, without .tar.*."""
    return re.sub(r"\.tar(\.\w+)?$", "", os.path.basename(os.path.normpath(source)))


def unpack(tarball, cache):
    """Extract fs/, include/ and Makefile of TARBALL into CACHE/<name>/, once: reused while its stamp
    names the same tarball, size and mtime; else extracted beside it and renamed into place (an
    interrupted run leaves no half tree).  Returns (the tree's path, True if reused)."""
    try:
        st = os.stat(tarball)
    except OSError as err:
        raise InputError(f"{tarball}: {err.strerror}") from err
    tree = os.path.join(cache, tree_name(tarball))
    stamp = f"{os.path.abspath(tarball)} {st.st_size} {int(st.st_mtime)}\n"
    if read_or_none(os.path.join(tree, STAMP)) == stamp:
        return tree, True
    os.makedirs(cache, exist_ok=True)
    tmp = f"{tree}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        _extract(tarball, tmp)
        write_text(os.path.join(tmp, STAMP), stamp)
        shutil.rmtree(tree, ignore_errors=True)
        os.replace(tmp, tree)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tree, False


def _extract(tarball, dest):
    try:
        with tarfile.open(tarball, "r|*") as tar:
            for member in tar:
                parts = member.name.split("/", 1)
                if len(parts) != 2 or not parts[1].startswith(WANTED):
                    continue
                rel = os.path.normpath(parts[1])
                if rel.startswith("..") or os.path.isabs(rel):
                    raise InputError(f"{tarball}: unsafe member {member.name!r}")
                target = os.path.join(dest, rel)
                if member.isdir():
                    os.makedirs(target, exist_ok=True)
                elif member.isfile():
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    with open(target, "wb") as out:
                        shutil.copyfileobj(tar.extractfile(member), out)
                # symlinks and devices: not needed by the count, never followed
    except (tarfile.TarError, EOFError, OSError) as err:
        raise InputError(f"{tarball}: cannot unpack ({err})") from err
    if not os.path.isdir(os.path.join(dest, "fs")):
        raise InputError(f"{tarball}: no <top>/fs/ folder: not a kernel source tarball")


def check_tree(tree):
    """Raise InputError unless TREE looks like a kernel source tree."""
    if not os.path.isdir(tree):
        raise InputError(f"{tree}: not a folder")
    for need in ("fs", "include", "Makefile"):
        if not os.path.exists(os.path.join(tree, need)):
            raise InputError(f"{tree}: no {need} here: not a kernel source tree")


def provenance(tree):
    """The one line of TREE/.y2038lab-source (e.g. a mirror and commit), or ""."""
    return (read_or_none(os.path.join(tree, SOURCE)) or "").split("\n")[0].strip()


def version(tree):
    """The kernel version its top Makefile states, e.g. '6.1.192'."""
    with open(os.path.join(tree, "Makefile"), encoding="utf-8", errors="replace") as f:
        found = re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)[ \t]*=[ \t]*(\S*)", f.read(), re.M)
    fields = dict(reversed(found))  # the first assignment of each
    if "VERSION" not in fields or "PATCHLEVEL" not in fields:
        raise InputError(f"{tree}/Makefile: no VERSION/PATCHLEVEL lines")
    v = f"{fields['VERSION']}.{fields['PATCHLEVEL']}"
    if fields.get("SUBLEVEL"):
        v += f".{fields['SUBLEVEL']}"
    return v + fields.get("EXTRAVERSION", "")


def source_files(tree):
    """Every fs/**/*.c and *.h of TREE, tree-relative, sorted."""
    out = []
    for root, dirs, files in os.walk(os.path.join(tree, "fs")):
        dirs.sort()
        out += [os.path.relpath(os.path.join(root, name), tree)
                for name in sorted(files) if name.endswith((".c", ".h"))]
    return out


def candidates(tree, files):
    """The files naming a timestamp field, clock or inode operation the semantic patch looks for."""
    return [path for path in files if CANDIDATE_RE.search(_read(tree, path))]


def _read(tree, path):
    with open(os.path.join(tree, path), "rb") as f:
        return f.read()


def grouper(tree, files):
    """group_of(path) and kind_of(group) for fs/<name>/ directories: fs/*.[ch] is "vfs",
    fs/<name>/... is <name>, a directory holding only subdirectories (fs/smb/) split one level
    further (smb/client).  kind_of(): "vfs", "filesystem" (a file of the group defines a struct
    file_system_type) or "library"."""
    top_has_code = {path.split("/")[1] for path in files if path.count("/") == 2}

    def group_of(path):
        parts = path.split("/")
        if len(parts) <= 2:
            return "vfs"
        if parts[1] in top_has_code or len(parts) == 3:
            return parts[1]
        return f"{parts[1]}/{parts[2]}"

    registers = set()
    for path in files:  # a group's files are read until one registers a file system
        group = group_of(path)
        if group != "vfs" and group not in registers and FSTYPE_RE.search(_read(tree, path)):
            registers.add(group)

    def kind_of(group):
        return "vfs" if group == "vfs" else "filesystem" if group in registers else "library"

    return group_of, kind_of


def strip_c(text):
    """TEXT with comments, string and character literals blanked (same length, newlines kept)."""
    return LITERAL_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def tokens(tree, path):
    """The i_atime/i_mtime/i_ctime tokens of a file outside comments and strings: [(line, column
    in bytes from 0 as spatch counts, how, text)], how "field" (after -> or .), "designator"
    (.i_mtime = in an initializer) or "name" (a declaration, a variable, a macro argument)."""
    raw = _read(tree, path).decode("latin-1")
    found = []
    for number, (line, raw_line) in enumerate(zip(strip_c(raw).split("\n"), raw.split("\n")), 1):
        for m in TOKEN_RE.finditer(line):
            before = line[:m.start()].rstrip()
            designator = before.endswith(".") and before[:-1].rstrip()[-1:] in ("", "{", ",")
            how = "designator" if designator else "field" if before.endswith(("->", ".")) else "name"
            found.append((number, m.start(), how, raw_line.strip()))
    return found


def in_macro_body(tree, path, line):
    """True if LINE of PATH belongs to a #define (directly or by \\ continuation)."""
    lines = _read(tree, path).decode("latin-1").split("\n")
    k = line - 1
    while k > 0 and lines[k - 1].rstrip().endswith("\\"):
        k -= 1
    return lines[k].lstrip().startswith("#") and "define" in lines[k]


def in_macro_bodies(tree, path, texts):
    """True if every line of PATH whose stripped text is one of TEXTS belongs to a #define."""
    hits = [n for n, line in enumerate(_read(tree, path).decode("latin-1").split("\n"), 1) if line.strip() in texts]
    return bool(hits) and all(in_macro_body(tree, path, n) for n in hits)
