"""`.headwater/cache/`: the disposable directory every cache file lives in.

The directory ignores itself (`writelock` gives it a `.gitignore` of `*`), so nothing in it is
meant to be committed — and nothing in it is trusted if it was: a cache file opens with one
header line naming what it holds and its format, then a line sealing the rest with this user's
key (`headwater.cachekey`). A missing, unreadable or foreign file (another header, another
format, a seal that does not verify) reads as empty, so anything doubtful costs a rerun, never
a wrong answer; so does a file reached through a symlink. A failed write changes nothing
else: it comes back as one sentence for the caller to put on stderr. Writes hold the write
lock, so they never race a write run's sweep.
"""

from __future__ import annotations

import hmac
import os
from pathlib import Path

from headwater import atomic, cachekey, writelock
from headwater.paths import symlink_on_the_way

CACHE_DIR = writelock.DIRECTORY
OPENING = 4096  # bytes that hold a cache file's header and seal lines, whatever follows


def _readable_key(root: Path, name: str) -> bytes | None:
    """This user's key, when `<cache>/<name>` may be read at all: not without a key, and not
    through a symlink (a cache reached so is not this repository's, whoever sealed it)."""
    secret = cachekey.key(create=False)
    return None if secret is None or symlink_on_the_way(f"{CACHE_DIR}/{name}", root) else secret


def read(root: Path, name: str, header: str) -> bytes | None:
    """The bytes after the header and seal of `<cache>/<name>`, or None when it cannot be trusted.
    The payload is read into bytes of its own size, once: a copy of a file of megabytes (a slice,
    a join of buffered reads) costs a page fault every four kilobytes."""
    secret = _readable_key(root, name)
    if secret is None:
        return None
    try:
        fd = os.open(root / CACHE_DIR / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)  # a fifo never blocks
    except OSError:
        return None
    try:
        opening = os.pread(fd, OPENING, 0)
        first = opening.find(b"\n")
        second = opening.find(b"\n", first + 1) if first >= 0 else -1
        if second < 0 or opening[:first] != header.encode("utf-8"):
            return None
        payload = os.pread(fd, os.fstat(fd).st_size - second - 1, second + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    head, seal = opening[:first], opening[first + 1:second]
    expected = cachekey.seal(secret, name.encode("utf-8"), head, payload).encode("ascii")
    return payload if hmac.compare_digest(seal, expected) else None


def first_line(root: Path, name: str, header: str) -> bytes | None:
    """The first line of `<cache>/<name>`'s payload, or None when the file cannot be trusted. The
    payload is verified in pieces and never held whole: a warm check asks this of the parse cache
    as it ends, when twenty megabytes more held would set the run's peak."""
    secret = _readable_key(root, name)
    if secret is None:
        return None
    try:
        with open(root / CACHE_DIR / name, "rb") as handle:
            head, seal = handle.readline().rstrip(b"\n"), handle.readline().rstrip(b"\n")
            if head != header.encode("utf-8"):
                return None
            mac = cachekey.sealing(secret, name.encode("utf-8"), head,
                                   rest=os.fstat(handle.fileno()).st_size - handle.tell())
            first = handle.readline()
            mac.update(first)
            while chunk := handle.read(1 << 20):
                mac.update(chunk)
    except OSError:
        return None
    return first.rstrip(b"\n") if hmac.compare_digest(seal, mac.hexdigest().encode("ascii")) else None


def write(root: Path, name: str, header: str, payload: bytes, *, wait: bool = True) -> str | None:
    """Write `<cache>/<name>` atomically; None, or the one-sentence reason it was not written. With
    `wait` false, a write lock another run holds is a reason, not a wait."""
    secret = cachekey.key(create=True)
    if secret is None:
        return (f"headwater: the cache was not written (no key this user alone can read in "
                f"{cachekey.folder()})")
    head = header.encode("utf-8")
    seal = cachekey.seal(secret, name.encode("utf-8"), head, payload).encode("ascii")
    try:
        with writelock.held(root, sweep=False, wait=wait):
            return _write(root, name, head + b"\n" + seal + b"\n" + payload)
    except writelock.Unavailable as unavailable:  # the folder itself: every cache file fails alike, say it once
        return f"headwater: the cache was not written ({CACHE_DIR}: {unavailable.why})"


def _write(root: Path, name: str, data: bytes) -> str | None:
    try:
        atomic.write_bytes(root / CACHE_DIR / name, data, root=root, durable=False)  # torn, it fails its seal
    except OSError as error:
        return f"headwater: the cache was not written ({CACHE_DIR}/{name}: {error.strerror or error})"
    return None
