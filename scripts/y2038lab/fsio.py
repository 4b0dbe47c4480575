"""Atomic file output and one-line input errors, shared by every script.

A report that kernel developers paste into mail must never be half written:
every output goes to a temporary file in the destination's own folder (so the
rename cannot cross file systems) and replaces the destination only once it
was written, flushed and closed without error.  On any failure (disk full,
`ulimit -f`, an exception while rendering) the temporary file is removed and
the previous file is left byte-identical.
"""
import contextlib
import os
import signal
import sys
import tempfile


class InputError(Exception):
    """Bad input or an unusable output path: one line for the user, exit 2."""


def _check_destination(path):
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(f"{path}: is a folder, expected a file path")
    if not os.path.isdir(folder):
        raise InputError(f"{path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{path}: folder {folder} is not writable")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise InputError(f"{path}: is read-only")
    return folder


def check_output_path(path):
    """Raise InputError now if PATH cannot be written atomically later."""
    _check_destination(path)


@contextlib.contextmanager
def atomic_open(path, mode="w", encoding="utf-8", newline=None):
    """Open a temporary file beside PATH; on success rename it onto PATH.

    Usage: `with atomic_open(p) as f: f.write(...)`.  mode is "w" or "wb".
    The new file keeps the old file's permission bits (0644 for a new one).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open: mode {mode!r} is not 'w' or 'wb'")
    folder = _check_destination(path)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        try:
            perm = os.stat(path).st_mode & 0o7777
        except FileNotFoundError:
            perm = 0o644
        os.fchmod(fd, perm)
        kwargs = {} if "b" in mode else {"encoding": encoding, "newline": newline}
        with os.fdopen(fd, mode, **kwargs) as f:
            fd = None
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as err:
        raise InputError(f"{path}: not written ({err.strerror or err}); the previous file is unchanged") from err
    finally:
        if fd is not None:
            os.close(fd)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_text(path, text):
    """Write TEXT to PATH atomically."""
    with atomic_open(path, "w") as f:
        f.write(text)


def write_bytes(path, data):
    """Write DATA to PATH atomically."""
    with atomic_open(path, "wb") as f:
        f.write(data)


def save_figure(fig, path, **kwargs):
    """matplotlib's savefig, atomically (the format taken from PATH's suffix)."""
    fmt = os.path.splitext(path)[1].lstrip(".") or "png"
    with atomic_open(path, "wb") as f:
        fig.savefig(f, format=fmt, **kwargs)


def run_main(main, prog):
    """Run MAIN(); an InputError becomes one line on stderr and exit 2.

    SIGXFSZ (a write past `ulimit -f`) is ignored so that the write fails with
    EFBIG, which atomic_open turns into a clean error, instead of killing the
    process between the temporary file and the rename.
    """
    with contextlib.suppress(AttributeError, ValueError):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        return main()
    except InputError as err:
        print(f"{prog}: error: {err}", file=sys.stderr)
        return 2
