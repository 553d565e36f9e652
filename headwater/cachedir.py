"""`.headwater/cache/`: the disposable directory every cache file lives in.

The directory creates itself with a `.gitignore` of `*`, so nothing in it is ever committed.
A cache file opens with one header line naming what it holds and its format; a missing,
unreadable or foreign file (another header, another format) reads as empty, so anything
doubtful costs a rerun, never a wrong answer. A failed write changes nothing else: it comes
back as one sentence for the caller to put on stderr.
"""

from __future__ import annotations

from pathlib import Path

from headwater import atomic

CACHE_DIR = ".headwater/cache"
IGNORE = b"*\n"


def read(root: Path, name: str, header: str) -> bytes | None:
    """The bytes after the header line of `<cache>/<name>`, or None when it cannot be trusted."""
    try:
        data = (root / CACHE_DIR / name).read_bytes()
    except OSError:
        return None
    head, newline, payload = data.partition(b"\n")
    if not newline or head != header.encode("utf-8"):
        return None
    return payload


def write(root: Path, name: str, header: str, payload: bytes) -> str | None:
    """Write `<cache>/<name>` atomically; None, or the one-sentence reason it was not written."""
    directory = root / CACHE_DIR
    try:
        directory.mkdir(parents=True, exist_ok=True)
        ignore = directory / ".gitignore"
        if not ignore.is_file():
            atomic.write_bytes(ignore, IGNORE)
    except OSError as error:  # the directory itself: every cache file fails alike, say it once
        return f"headwater: the cache was not written ({CACHE_DIR}: {error.strerror or error})"
    try:
        atomic.write_bytes(directory / name, header.encode("utf-8") + b"\n" + payload)
    except OSError as error:
        return f"headwater: the cache was not written ({CACHE_DIR}/{name}: {error.strerror or error})"
    return None
