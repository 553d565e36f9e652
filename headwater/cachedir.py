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

import contextlib
import hmac
import os
from collections.abc import Iterator
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
        with _opened(root, name, header) as opened:
            if opened is None:
                return None
            fd, head, seal, start = opened
            payload = os.pread(fd, os.fstat(fd).st_size - start, start)
    except OSError:
        return None
    expected = cachekey.seal(secret, name.encode("utf-8"), head, payload).encode("ascii")
    return payload if hmac.compare_digest(seal, expected) else None


def first_line(root: Path, name: str, header: str, alone: bool = False) -> bytes | None:
    """The first line of `<cache>/<name>`'s payload, or None when the file cannot be trusted. The
    payload is verified in pieces and never held whole: a warm check asks this of the parse cache
    as it ends, when twenty megabytes more held would set the run's peak. `alone`: hashed by this
    thread alone (`cachekey.pieces`)."""
    secret = _readable_key(root, name)
    if secret is None:
        return None
    try:
        with _opened(root, name, header) as opened:
            if opened is None:
                return None
            fd, head, seal, start = opened
            rest = os.fstat(fd).st_size - start
            first = _line(fd, start, rest)
            expected = cachekey.sealed(secret, name.encode("utf-8"), head, rest=rest,
                                       read=lambda at, size: os.pread(fd, min(size, rest - at), start + at),
                                       alone=alone)
    except OSError:
        return None
    return first if hmac.compare_digest(seal, expected.encode("ascii")) else None


@contextlib.contextmanager
def _opened(root: Path, name: str, header: str) -> Iterator[tuple[int, bytes, bytes, int] | None]:
    """(its descriptor, its header and seal lines, where its payload starts) of `<cache>/<name>`,
    while the block runs; None when it is not there, cannot be read, or is of another header."""
    try:
        fd = os.open(root / CACHE_DIR / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)  # a fifo never blocks
    except OSError:
        yield None
        return
    try:
        opening = os.pread(fd, OPENING, 0)
        first = opening.find(b"\n")
        second = opening.find(b"\n", first + 1) if first >= 0 else -1
        opened = ((fd, opening[:first], opening[first + 1:second], second + 1)
                  if second >= 0 and opening[:first] == header.encode("utf-8") else None)
    except OSError:
        opened = None
    try:
        yield opened
    finally:
        os.close(fd)


def _line(fd: int, start: int, rest: int) -> bytes:
    """The line that starts the payload, without its line break (the whole payload if it has none)."""
    found, size = b"", 1 << 12
    while len(found) < rest:
        found = os.pread(fd, min(size, rest), start)
        end = found.find(b"\n")
        if end >= 0:
            return found[:end]
        size *= 4
    return found


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
