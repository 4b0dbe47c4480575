"""Atomic file output and one-line input errors, shared by every command.

No output is ever half written: each goes to a temporary file in the
destination's folder (the rename cannot cross file systems) that replaces the
destination only once written, flushed and closed.  On any failure (disk full,
`ulimit -f`, an exception while rendering) the previous file stays byte-identical.
"""
import contextlib
import csv
import gzip
import io
import os
import re
import signal
import subprocess
import sys
import tempfile


class InputError(Exception):
    """Bad input or an unusable output path: one line for the user, exit 2."""


def check_output_path(path):
    """Raise InputError now if PATH cannot be written atomically later; else return its folder."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(f"{path}: is a folder, expected a file path")
    if not os.path.isdir(folder):
        raise InputError(f"{path}: folder {folder} does not exist")
    # The mode bits too: root may write anywhere, but read-only marks what its owner keeps.
    if not os.access(folder, os.W_OK | os.X_OK) or not os.stat(folder).st_mode & 0o222:
        raise InputError(f"{path}: folder {folder} is not writable")
    if os.path.exists(path) and (not os.access(path, os.W_OK) or not os.stat(path).st_mode & 0o222):
        raise InputError(f"{path}: is read-only")
    return folder


@contextlib.contextmanager
def atomic_open(path, mode="w"):
    """`with atomic_open(p) as f:` a temporary file beside P ("w" or "wb"), renamed onto P on success."""
    with OutputSet() as out, out.open(path, mode) as f:
        yield f


class OutputSet:
    """Several files replaced together, all or none: `with OutputSet() as out: out.write_text(...)`.

    Each write fills its own temporary file at once (a full disk fails the
    write); the temporaries are renamed into place only when the `with` block
    ends without error, else all removed.  Renames allocate no data blocks, so
    `ulimit -f` or a full disk cannot stop the set half-way.  A new file keeps
    the permission bits of the one it replaces (0644 for a first one).
    """

    def __init__(self):
        self._pending = []  # (temporary, destination)

    def __enter__(self):
        return self

    @contextlib.contextmanager
    def open(self, path, mode="w"):
        if mode not in ("w", "wb"):
            raise ValueError(f"OutputSet.open: mode {mode!r} is not 'w' or 'wb'")
        if any(dest == path for _, dest in self._pending):
            raise ValueError(f"OutputSet: {path} written twice")
        folder = check_output_path(path)
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
                os.fchmod(f.fileno(), os.stat(path).st_mode & 0o7777 if os.path.exists(path) else 0o644)
                yield f
                f.flush()
                os.fsync(f.fileno())
            self._pending.append((tmp, path))
            tmp = None
        except OSError as err:
            raise InputError(f"{path}: not written ({err.strerror or err}); the previous file is unchanged") from err
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    def write_text(self, path, text):
        with self.open(path, "w") as f:
            f.write(text)

    def write_bytes(self, path, data):
        with self.open(path, "wb") as f:
            f.write(data)

    def save_figure(self, fig, path, **kwargs):
        fmt = os.path.splitext(path)[1].lstrip(".") or "png"
        with self.open(path, "wb") as f:
            fig.savefig(f, format=fmt, **kwargs)

    def __exit__(self, exc_type, exc, tb):
        pending, self._pending = self._pending, []
        done = 0
        try:
            for tmp, path in pending if exc_type is None else ():
                os.replace(tmp, path)
                done += 1
        except OSError as err:
            raise InputError(f"{path}: not renamed into place ({err.strerror or err}); "
                             f"{done} of {len(pending)} files of this step were replaced") from err
        finally:
            for tmp, _ in pending[done:]:  # not renamed: removed
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        return False


def read_text(path, what="file"):
    """The UTF-8 text of PATH (gunzipped when it ends in .gz, as the committed
    reference runs are); InputError naming the file when it cannot be read."""
    try:
        with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
            return f.read()
    except (EOFError, gzip.BadGzipFile) as err:
        raise InputError(f"{path}: not a complete gzip file ({err})") from None
    except FileNotFoundError:
        raise InputError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, expected a {what}") from None
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror or err})") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from None


def read_or_none(path):
    """The UTF-8 text of PATH, or None when it cannot be read (a stamp, a /sys file)."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def read_csv(path, columns, what="CSV file"):
    """(header, rows as dicts) of the CSV file PATH, which must hold COLUMNS and at least one row;
    InputError naming the file otherwise (read_text's errors, empty, not CSV, a missing column)."""
    text = read_text(path, what)
    if not text.strip():
        raise InputError(f"{path}: empty file, expected a {what}")
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        rows = list(reader)
    except csv.Error as err:
        raise InputError(f"{path}: not CSV ({err})") from None
    if missing := [c for c in columns if c not in (reader.fieldnames or [])]:
        raise InputError(f"{path}: no column {', '.join(missing)} in the header")
    if not rows:
        raise InputError(f"{path}: header only, no rows")
    return reader.fieldnames, rows


def csv_text(rows, columns, lineterminator="\n"):
    """ROWS (dicts) as CSV text: a header of COLUMNS, then each row's values in that order
    (a missing one empty, keys not in COLUMNS left out)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, columns, restval="", extrasaction="ignore", lineterminator=lineterminator)
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def write_text(path, text):
    """Write TEXT to PATH atomically."""
    with OutputSet() as out:
        out.write_text(path, text)


def save_figure(fig, path, **kwargs):
    """matplotlib's savefig, atomically (the format taken from PATH's suffix)."""
    with OutputSet() as out:
        out.save_figure(fig, path, **kwargs)


def run(cmd, **kwargs):
    """The standard output of the tool CMD; InputError when it cannot run or fails (its last lines)."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    except OSError as err:
        raise InputError(f"{cmd[0]}: cannot run ({err.strerror or err})") from None
    if proc.returncode != 0:
        tail = " | ".join((proc.stderr.strip() or proc.stdout.strip()).splitlines()[-3:])
        raise InputError(f"{' '.join(map(str, cmd))} failed (exit {proc.returncode}): {tail[:300]}")
    return proc.stdout


def first_line(cmd):
    """The first line of a tool's output (its version), or "unavailable"."""
    try:
        return (run(cmd).strip().splitlines() or [""])[0]
    except InputError:
        return "unavailable"


def cmake_cache(build_dir):
    """{NAME: value} of BUILD_DIR/CMakeCache.txt; InputError when the build was never configured."""
    path = os.path.join(build_dir, "CMakeCache.txt")
    if not os.path.exists(path):
        raise InputError(f"{path}: no CMake cache: configure and build first (scripts/lab build)")
    return dict(re.findall(r"^([A-Za-z0-9_]+):[A-Z]+=(.*)$", read_text(path, "CMake cache"), re.M))


def cmake_flags(cache, lang="C"):
    """The LANG flags a build used: CMAKE_<LANG>_FLAGS and those of its build type."""
    kind = cache.get("CMAKE_BUILD_TYPE", "").upper()
    return " ".join(x for x in (cache.get(f"CMAKE_{lang}_FLAGS", ""), cache.get(f"CMAKE_{lang}_FLAGS_{kind}", ""))
                    if x.strip())


def cmake_compiler(build_dir, lang="C"):
    """The LANG compiler a build used (a toolchain file sets it as a plain variable: not in the cache)."""
    folder = os.path.join(build_dir, "CMakeFiles")
    for version in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        path = os.path.join(folder, version, f"CMake{lang}Compiler.cmake")
        m = os.path.exists(path) and re.search(rf'^set\(CMAKE_{lang}_COMPILER "([^"]+)"\)', read_text(path), re.M)
        if m:
            return m.group(1)
    return cmake_cache(build_dir).get(f"CMAKE_{lang}_COMPILER") or "cc"


def prog():
    """The command's name as the user called it (`y2038lab NAME`): argparse's default prog too."""
    return os.path.basename(sys.argv[0])


def run_main(main, name=None):
    """Run MAIN(); an InputError becomes one line "NAME: error: ..." (default: prog()) on stderr, exit 2.

    SIGXFSZ (a write past `ulimit -f`) is ignored: the write fails with EFBIG,
    a clean error, instead of the signal killing the process before the rename."""
    with contextlib.suppress(AttributeError, ValueError):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        return main()
    except InputError as err:
        print(f"{name or prog()}: error: {err}", file=sys.stderr)
        return 2
