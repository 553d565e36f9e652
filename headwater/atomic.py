"""Atomic file writes: a temp file beside the target, fsync, rename. Never a half-written file."""

import contextlib
import os
import tempfile
from pathlib import Path


def _default_mode() -> int:
    """What `open()` would give a new file: 0o666 less the umask (a temp file is born 0o600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_bytes(path: Path, data: bytes) -> None:
    """Replace (or create) `path` with `data` in one rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, path.stat().st_mode & 0o7777 if path.exists() else _default_mode())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def create_exclusive(path: Path, data: bytes) -> None:
    """Create `path` with all of `data`, only if nothing is there yet.

    The bytes land in a temp file first and are hard-linked into place: the link either
    fails with FileExistsError or publishes a complete file, so a reader never sees a
    half-written one and two writers never both win.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _default_mode())
        os.link(tmp, path)
    finally:
        os.unlink(tmp)
