"""Atomic file writes: a temp file beside the target, fsync, then one rename or link.
Never a half-written file."""

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _default_mode() -> int:
    """What `open()` would give a new file: 0o666 less the umask (a temp file is born 0o600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def _staged(path: Path, data: bytes, mode: int) -> Iterator[str]:
    """A complete, synced temp file beside `path`, removed afterwards whatever happens."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        yield tmp
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def write_bytes(path: Path, data: bytes) -> None:
    """Replace (or create) `path` with `data` in one rename, keeping an existing file's mode."""
    mode = path.stat().st_mode & 0o7777 if path.exists() else _default_mode()
    with _staged(path, data, mode) as tmp:
        os.replace(tmp, path)


def create_exclusive(path: Path, data: bytes) -> None:
    """Create `path` with all of `data`, only if nothing is there yet.

    The staged file is hard-linked into place: the link either fails with FileExistsError or
    publishes a complete file, so a reader never sees a half-written one and two writers never
    both win.
    """
    with _staged(path, data, _default_mode()) as tmp:
        os.link(tmp, path)
