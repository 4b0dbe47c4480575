"""churn: what each y2038 inode-timestamp approach costs a kernel tree.

spatch with churn/inode_times.cocci and `spatch --parse-c` (failures reported, never dropped) over
the tree's candidate files (churn.tree), every raw i_?time token checked against what spatch saw;
writes reports/churn/<name>.md and .csv (churn.report), or with --after the history report.
"""
import argparse
import collections
import datetime
import os
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time

from y2038lab.churn import history, report, sites, tree
from y2038lab.core.fsio import InputError, check_output_path, csv_text, prog, run_main, write_text

COCCI = os.path.join(report.CHURN_DIR, "inode_times.cocci")
MACROS = os.path.join(report.CHURN_DIR, "kernel_macros.h")
# headers whose types the inference needs beyond a file's own local includes
# (file_inode(), d_inode(), struct netfs_inode's embedded inode)
TYPE_HEADERS = ("include/linux/fs.h", "include/linux/dcache.h", "include/linux/netfs.h")


def spatch_version(spatch):
    try:
        run = subprocess.run([spatch, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise InputError(f"{spatch}: cannot run ({err}); install Debian's coccinelle package") from err
    first = run.stdout.splitlines()[0] if run.stdout else ""
    if run.returncode != 0 or not first.startswith("spatch version"):
        raise InputError(f"{spatch} --version: unexpected output {first!r}")
    return first.split(" compiled")[0]


# a function of a header under fs/ that returns a struct inode (xfs's and ntfs's VFS_I())
_INODE_FUNCTION = re.compile(r"^[ \t]*(?:static\s+)?(?:(?:inline|__always_inline)\s+)*(?:const\s+)?"
                             r"struct\s+inode\s*\*\s*([A-Za-z_]\w*)\s*\(", re.M)


def inode_functions(read_text, files):
    """The functions the headers of FILES (fs/**/*.h, read with READ_TEXT) declare or define returning a
    struct inode pointer, sorted.  spatch 1.1.1 gives a local header's functions only to the first file of a process that includes
    it: a later file finds the header's names in a cache that holds no function definition, so
    `VFS_I(ip)->i_mtime` stayed untyped there, and which file came first decided it.  run_spatch declares
    these functions to every file (`--include`)."""
    names = set()
    for path in files:
        if path.endswith(".h"):
            names.update(_INODE_FUNCTION.findall(tree.strip_c(read_text(path) or "")))
    return sorted(names)


def spatch_command(spatch, top, groups, timeout, cache, declared=None):
    # --no-saved-typedefs: each file parsed on its own, as a compiler would; else the typedefs a process
    # inferred in earlier files leak into later ones and a few accesses' typing depends on the order.
    # --cache-prefix: each file and header parsed once per process, its syntax tree kept in CACHE (else the
    # --include headers and a directory's local headers are parsed again for every file including them).
    cmd = [spatch, "--sp-file", COCCI, "--very-quiet", "--macro-file", MACROS, "--local-includes",
           "--include-headers-for-types", "--no-saved-typedefs", "-I", "include"]
    cmd += [x for h in TYPE_HEADERS if os.path.exists(os.path.join(top, h)) for x in ("--include", h)]
    cmd += ["--include", declared] if declared else []  # inode_functions(), as prototypes
    return cmd + ["--cache-prefix", cache, "--timeout", str(timeout), "--file-groups", groups]


def spatch_failures(log_text):
    """The files spatch gave up on, from its log: [(file, exception)].  A file that hit --timeout
    keeps the records written before; its missing accesses show up in the token accounting."""
    return [(m.group(2), m.group(1).rsplit(".", 1)[-1])
            for m in (re.match(r"^EXN: (\S+) in (\S+)", line.strip()) for line in log_text.splitlines()) if m]


def share(files, jobs):
    """FILES in JOBS contiguous slices, in order: one spatch process each.  spatch carries state from one
    file to the next within a process (a header's parse), so which file precedes which must be the same
    on every run, not left to the timing of spatch's own --jobs workers."""
    size = -(-len(files) // jobs)
    return [files[i:i + size] for i in range(0, len(files), size)]


def kill_running(procs):
    """Kill and reap whichever of PROCS still runs (after a timeout, an error, or Ctrl-C)."""
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def wait_all(procs, max_seconds):
    """Wait for every process of PROCS, killing all of them if they take over MAX_SECONDS together."""
    deadline = time.monotonic() + max_seconds
    try:
        for proc in procs:
            proc.wait(timeout=max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired as exc:
        raise InputError(f"spatch did not finish within {max_seconds} s (--max-seconds)") from exc
    finally:
        kill_running(procs)


def run_spatch(spatch, top, files, jobs, timeout, max_seconds, work, functions=()):
    """The semantic patch over FILES (each its own group) in JOBS processes (share), each with its own
    syntax-tree cache, FUNCTIONS (inode_functions) declared to every file: (records, the command of the
    last, the files spatch gave up on)."""
    out = os.path.join(work, "records")
    os.makedirs(out)
    declared = None
    if functions:
        declared = os.path.join(work, "inode_functions.h")
        write_text(declared, "".join(f"struct inode *{name}();\n" for name in functions))
    procs, logs = [], []
    for i, chunk in enumerate(share(files, jobs)):
        groups, logs = os.path.join(work, f"groups-{i}.txt"), logs + [os.path.join(work, f"spatch-{i}.log")]
        write_text(groups, "\n\n".join(chunk) + "\n")
        cmd = spatch_command(spatch, top, groups, timeout, os.path.join(work, f"ast-{i}"), declared)
        with open(logs[-1], "w", encoding="utf-8") as log:
            procs.append(subprocess.Popen(cmd, cwd=top, env=dict(os.environ, Y2038_CHURN_OUT=out),
                                          stdout=log, stderr=subprocess.STDOUT))
    wait_all(procs, max_seconds)
    log_texts = []
    for proc, log in zip(procs, logs):
        with open(log, encoding="utf-8", errors="replace") as f:
            log_texts.append(f.read())
        if proc.returncode != 0:
            raise InputError(f"spatch failed (exit {proc.returncode}): {log_texts[-1].strip()[-500:]}")
    records = []
    for name in sorted(os.listdir(out)):
        with open(os.path.join(out, name), encoding="utf-8", errors="replace") as f:
            try:
                records += sites.parse_records(f, name)
            except ValueError as exc:
                raise InputError(str(exc)) from exc
    return records, cmd, [f for text in log_texts for f in spatch_failures(text)]


def parse_check(spatch, top, files, jobs, max_seconds):
    """`spatch --parse-c` (with the macro file) over FILES in JOBS processes: {file: set of bad source
    lines (stripped)} for every file it parsed and every header it blamed, each line under the file it
    sits in."""
    procs = [subprocess.Popen([spatch, "--parse-c", "--macro-file", MACROS] + chunk, cwd=top,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
             for chunk in (files[i::jobs] for i in range(jobs)) if chunk]
    result = {}
    try:
        for proc in procs:
            text, _ = proc.communicate(timeout=max_seconds)
            current = None
            for line in text.splitlines():
                blamed = re.match(r'^\s*=\s*File "([^"]+)", line \d+', line)
                if line.startswith("PARSING: "):
                    current = line[len("PARSING: "):].strip()
                    result.setdefault(current, set())
                elif blamed and current:
                    current = os.path.normpath(blamed.group(1))
                elif current and line.startswith("BAD:!!!!! "):
                    result.setdefault(current, set()).add(line[len("BAD:!!!!! "):].strip())
    except subprocess.TimeoutExpired as exc:
        raise InputError(f"spatch --parse-c did not finish within {max_seconds} s") from exc
    finally:
        kill_running(procs)
    return result


def _reason(top, path, line, text, seen, bad_lines):
    """Why a field access was not attributed to a typed expression (the file is read only if needed)."""
    if seen:
        return "type unknown"  # spatch saw the access but could not type its base
    if tree.in_macro_body(top, path, line):
        return "in a macro body"
    return "in code spatch could not parse" if text in bad_lines.get(path, ()) else "not matched"


def account_tokens(top, files, found, bad_lines):
    """Every raw i_?time token of FILES against what spatch saw: (unresolved {(file, line, col):
    (reason, source line)} of the field accesses not attributed to a typed expression (_reason), tally:
    a Counter of every token by what it turned out to be)."""
    typed = {pos: extra[0] for pos, (_, extra) in found.by_kind["field"].items()}
    seen = found.positions("anyfield")
    macro_args = found.positions("macro_arg")
    unresolved, tally = {}, collections.Counter()
    for path in files:
        for line, col, how, text in tree.tokens(top, path):
            pos = (path, line, col)
            if how == "designator":
                kind = "designated initialisers (.i_mtime = ...)"
            elif how == "name":
                kind = ("macro arguments" if pos in macro_args
                        else "declarations and plain names (struct members, variables)")
            elif pos in typed:
                kind = ("struct inode accesses" if typed[pos] in sites.INODE_TYPES
                        else "accesses of other structures (on-disk inodes, ...)")
            else:
                reason = _reason(top, path, line, text, pos in seen, bad_lines)
                unresolved[pos] = (reason, text)
                kind = "unresolved: " + reason
            tally[kind] += 1
    return unresolved, tally


def display_command(cmd, nfiles, functions=()):
    """CMD as the report shows it: repository-relative paths, the temporary file list, cache and
    declarations described."""
    repo = os.path.dirname(os.path.dirname(COCCI)) + "/"
    shown = {"--file-groups": f"<its slice of the {nfiles} files, one per group>",
             "--cache-prefix": "<a temporary folder of its own>"}
    declared = f"<a temporary header declaring the {len(functions)} functions of the row 'Declared'>"
    return " ".join(shown[cmd[i - 1]] if i and cmd[i - 1] in shown
                    else declared if arg.endswith("/inode_functions.h") and not arg.startswith(repo)
                    else arg.replace(repo, "") if arg.startswith(repo) else shlex.quote(arg)
                    for i, arg in enumerate(cmd))


def cpu_seconds():
    """CPU time so far (user + system, s): (the spatch processes, this Python process)."""
    return tuple(sum(resource.getrusage(who)[:2]) for who in (resource.RUSAGE_CHILDREN, resource.RUSAGE_SELF))


def read_text_in(top):
    def read_text(rel):
        try:
            with open(os.path.join(top, rel), encoding="latin-1") as f:
                return f.read()
        except OSError:
            return None
    return read_text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--tree", help="a kernel source tree (top folder, with fs/ and include/)")
    src.add_argument("--tarball", help="a kernel source tarball, unpacked (fs/, include/) into --cache")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/y2038lab"),
                    help="where --tarball is unpacked (reused while the tarball is unchanged)")
    ap.add_argument("--name", help="report name (default: the tree folder's name)")
    ap.add_argument("--source-label", default="", help="what the tree is, for the header (e.g. a package)")
    ap.add_argument("--after-label", default="", help="what the --after tree is, for the header")
    ap.add_argument("--out", default="reports/churn", help="output folder (default: reports/churn)")
    ap.add_argument("--spatch", default="spatch")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120, help="spatch's limit per file, s")
    ap.add_argument("--max-seconds", type=int, default=4 * 3600, help="limit for each spatch run, s")
    ap.add_argument("--command", default="", help="the command line to record in the report")
    ap.add_argument("--after", help="history mode: the tree after a change; compare --tree's prediction with it")
    ap.add_argument("--approach", default="flag_day", choices=("flag_day", "accessor_functions"))
    args = ap.parse_args(argv)
    if args.jobs < 1 or args.timeout < 1 or args.max_seconds < 1:
        raise InputError("--jobs, --timeout and --max-seconds must be positive")
    if not os.path.isfile(COCCI):
        raise InputError(f"{COCCI}: the semantic patch is missing")

    started = datetime.datetime.now(datetime.timezone.utc)
    t0 = time.monotonic()
    version = spatch_version(args.spatch)
    source = args.tarball or os.path.abspath(args.tree)
    name = args.name or tree.tree_name(source)
    if args.after:
        if not args.tree:
            raise InputError("--after compares two folders: give the old one with --tree")
        tree.check_tree(args.after)
        args.after_label = args.after_label or tree.provenance(args.after)
        old_v, new_v = (re.sub(r"\.0$", "", tree.version(t)) for t in (source, args.after))
        name = args.name or f"history-v{old_v}-v{new_v}"
    if not name.replace("-", "").replace(".", "").replace("_", "").isalnum():
        raise InputError(f"--name {name!r}: use letters, digits, '.', '-', '_'")
    md_path, csv_path = (os.path.join(args.out, name + ext) for ext in (".md", ".csv"))
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as err:
        raise InputError(f"{args.out}: cannot create ({err.strerror})") from err
    for path in (md_path, csv_path):
        check_output_path(path)
    if args.tarball:
        print(f"{prog()}: unpacking fs/ and include/ of {args.tarball} into {args.cache}", file=sys.stderr)
        t_unpack = time.monotonic()
        top, reused = tree.unpack(args.tarball, args.cache)
        unpacked = "reused from the cache" if reused else f"unpacked in {time.monotonic() - t_unpack:.0f} s"
    else:
        top, unpacked = source, "given as a folder"
        tree.check_tree(top)
        args.source_label = args.source_label or tree.provenance(top)

    files = tree.source_files(top)
    cands = tree.candidates(top, files)
    if not cands:
        raise InputError(f"{top}: no file under fs/ names an inode timestamp")
    group_of, kind_of = tree.grouper(top, files)
    vfs_sources = [f for f in files if f.count("/") == 1 and f.endswith(".c")]
    read_text = read_text_in(top)
    helpers = sites.helper_names(read_text, vfs_sources)
    macros = sites.member_macros(read_text, files)
    print(f"{prog()}: spatch over {len(cands)} of {len(files)} files of {top}/fs (jobs {args.jobs})",
          file=sys.stderr)
    functions = inode_functions(read_text, files)
    with tempfile.TemporaryDirectory(prefix="y2038-churn-") as work:
        records, cmd, failures = run_spatch(args.spatch, top, cands, args.jobs, args.timeout,
                                            args.max_seconds, work, functions)
    spatch_seconds = time.monotonic() - t0
    print(f"{prog()}: {len(records)} records in {spatch_seconds:.0f} s; spatch --parse-c over the same files",
          file=sys.stderr)
    bad = parse_check(args.spatch, top, cands, args.jobs, args.max_seconds)
    found = sites.Sites(records)
    sites.resolve_sources(found, read_text)
    unresolved, tally = account_tokens(top, cands, found, bad)
    args.command = args.command or "python3 -m y2038lab churn " + shlex.join(argv or sys.argv[1:])
    if args.after:
        return history_main(args, top, found, helpers, macros, cands, bad, group_of, kind_of, version,
                            (md_path, csv_path), t0, started)
    rows = sites.count(found, helpers, group_of, unresolved, macros)
    run = dict(name=name, tree_version=tree.version(top), source=args.source_label, spatch=version, jobs=args.jobs,
               command=args.command, spatch_command=display_command(cmd, len(cands), functions),
               functions=functions, macros=macros, started=started,
               seconds=time.monotonic() - t0, spatch_seconds=spatch_seconds, files=len(files),
               candidates=cands, parse=bad, unresolved=unresolved, tokens=tally, failures=failures,
               timeout=args.timeout, unpacked=unpacked, load=os.getloadavg()[0],
               cpu_seconds=cpu_seconds(),
               parse_macro_only=[f for f in cands if bad.get(f) and tree.in_macro_bodies(top, f, bad[f])])
    table = report.table(rows, kind_of, group_of, cands, bad)
    write_text(csv_path, csv_text(table, sites.COLUMNS))
    report.write_md(md_path, table, run, found, helpers, group_of)
    print(f"{prog()}: wrote {md_path} and {csv_path} ({run['seconds']:.0f} s)", file=sys.stderr)
    return 0


def history_main(args, top, found, helpers, macros, cands, bad, group_of, kind_of, version, paths, t0, started):
    read_old, read_new = read_text_in(top), read_text_in(args.after)
    predicted, uses = sites.predicted_lines(found, helpers, args.approach, macros)
    if args.approach == "flag_day":
        predicted.update(history.update_time_lines(read_old, found, cands, group_of))
    vocab = history.vocabulary(read_old, read_new)
    rows, misses, noise = history.compare(top, args.after, cands, predicted, uses, bad, group_of, vocab)
    unparsed = sum(1 for f in cands if bad.get(f))
    spatch_cpu, python_cpu = cpu_seconds()
    header = [("Before", f"`{top}`: Linux {tree.version(top)} {args.source_label}"),
              ("After", f"`{os.path.abspath(args.after)}`: Linux {tree.version(args.after)} {args.after_label}"),
              ("spatch", version), ("Command", f"`{args.command}`"),
              ("Approach", f"`{args.approach}` (column of the tree report; predicted on the old tree)"),
              ("Files", f"{len(cands)} files of the old tree's fs/ spatch read; their diff against the new tree"),
              ("Unparsed", f"{unparsed} of them hold code spatch could not parse: a site there is neither "
                           "predicted nor excluded from the actual side (listed as misses)"),
              ("tv_sec macros", "given a timestamp, a member access (sites.member_macros): "
                                + (", ".join(f"`{m}()`" for m in sorted(macros)) or "none")),
              ("Vocabulary", f"{len(vocab)} words: " + ", ".join(f"`{w}`" for w in sorted(vocab)[:40])
               + (" ..." if len(vocab) > 40 else "")),
              ("Run time", f"{time.monotonic() - t0:.0f} s wall, {spatch_cpu + python_cpu:.0f} s CPU "
                           f"({spatch_cpu:.0f} s in spatch, {python_cpu:.0f} s in Python), on {os.uname().nodename} "
                           f"({os.cpu_count()} CPUs shared with other jobs, load average "
                           f"{os.getloadavg()[0]:.1f}), {started:%Y-%m-%d %H:%M} UTC")]
    table = history.table(rows, kind_of)
    history.write(paths, table, misses, noise, {"approach": args.approach, "old": tree.version(top),
                                               "new": tree.version(args.after), "header": header})
    print(f"{prog()}: wrote {paths[0]} and {paths[1]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
