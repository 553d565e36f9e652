"""The key that authenticates cache files: this user's, on this machine, outside every repository.

A cache file carries an HMAC of its name, header and payload under this key, so a cache file
someone else wrote (committed with `git add -f`, copied from a clone, edited by hand) fails
authentication and reads as empty. The key is 32 random bytes in a file created 0600, under
`$HEADWATER_KEY_HOME`, else `$XDG_CACHE_HOME/headwater/`, else `~/.cache/headwater/`; the
first cache write creates it, whole, and replaces one of another size (cut short, emptied). Without
a usable key nothing is read from a cache and nothing is written to one.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path

KEY_FILE = "cache-key"
SIZE = 32


def folder() -> Path:
    explicit = os.environ.get("HEADWATER_KEY_HOME")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "headwater"


def _homeless() -> bool:
    """Whether the key would be made under a home that is not there (`nobody`'s /nonexistent):
    a folder a variable names is made as asked, a missing home never is."""
    named = os.environ.get("HEADWATER_KEY_HOME") or os.environ.get("XDG_CACHE_HOME")
    return not named and not Path.home().is_dir()


def key(create: bool) -> bytes | None:
    """The key, created when asked and missing (or replaced when damaged); None when there is none
    this user alone can read."""
    path = folder() / KEY_FILE
    found = _private(path)
    if found is not None and len(found) == SIZE:
        return found
    if not create or _homeless() or (found is None and os.path.lexists(path)):
        return None  # a key file someone else could read or write is never replaced: nothing is trusted there
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _install(path, replace=found is not None)
    found = _private(path)  # whoever won a race to write it, every run uses that one
    return found if found is not None and len(found) == SIZE else None


def _install(path: Path, replace: bool) -> None:
    """A fresh key at `path`, whole or not at all: written beside it, then linked in (never over
    another run's) or, over a damaged key (a private file of the wrong size: no seal was ever made
    with it), renamed over it. Two runs replacing one damaged key at once each seal with their own
    for a moment; a seal the other key cannot verify is a cache miss, never a wrong answer."""
    temp = path.with_name(f".{KEY_FILE}.{os.urandom(4).hex()}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        try:
            os.write(fd, os.urandom(SIZE))  # what `secrets.token_bytes` returns; unsynced, as a cache
        finally:
            os.close(fd)
        if replace:
            os.replace(temp, path)
        else:
            os.link(temp, path, follow_symlinks=False)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)


def _private(path: Path) -> bytes | None:
    """The bytes (up to one more than a key's) of a regular file this user owns and alone can
    read, or None when it is not that (or not there)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        status = os.fstat(fd)
        private = stat.S_ISREG(status.st_mode) and status.st_uid == os.getuid() and not status.st_mode & 0o077
        return os.read(fd, SIZE + 1) if private else None
    finally:
        os.close(fd)


def seal(secret: bytes, *parts: bytes) -> str:
    """The hex seal of the parts: an HMAC-SHA256 of each but the last, each length-prefixed so no
    two splits seal alike, then of the last's length and the SHA-256 of each of its pieces of
    `PIECE` bytes (`pieces`)."""
    *before, last = parts
    view = memoryview(last)
    return sealed(secret, *before, rest=len(last), read=lambda at, size: view[at:at + size])


PIECE = 1 << 20  # bytes of a payload hashed alone: a seal of megabytes is hashed on two cores, a piece each


def sealed(secret: bytes, *parts: bytes, rest: int, read: Callable[[int, int], bytes | memoryview],
           alone: bool = False) -> str:
    """`seal` of the parts and a last part of `rest` bytes that `read(offset, size)` gives, piece
    by piece, so a file is sealed without being held whole; `alone`: see `pieces`."""
    mac = hmac.new(secret, digestmod=hashlib.sha256)
    for part in parts:
        mac.update(len(part).to_bytes(8, "big"))
        mac.update(part)
    mac.update(rest.to_bytes(8, "big"))
    for digest in pieces(rest, read, alone):
        mac.update(digest)
    return mac.hexdigest()


def pieces(size: int, read: Callable[[int, int], bytes | memoryview], alone: bool = False) -> list[bytes]:
    """The SHA-256 of each piece of `size` bytes, the odd ones hashed in a thread beside this one:
    hashing and reading let go of the interpreter's lock, so two pieces are hashed at once (a
    short-lived thread, joined before this returns: nothing runs on when a process forks after).
    `alone`: every piece in this thread, in a worker whose process beside it has the other core."""
    digests = [b""] * -(-size // PIECE)

    def hash_every_other(first: int) -> None:
        for index in range(first, len(digests), 2):
            digests[index] = hashlib.sha256(read(index * PIECE, PIECE)).digest()

    def helping() -> None:
        with contextlib.suppress(Exception):  # what it could not hash is hashed here, and any error raised here
            hash_every_other(1)

    helper = threading.Thread(target=helping) if len(digests) > 1 and not alone else None
    if helper is not None:
        helper.start()
    try:
        hash_every_other(0)
    finally:
        if helper is not None:
            helper.join()
    for index, digest in enumerate(digests):
        if not digest:
            digests[index] = hashlib.sha256(read(index * PIECE, PIECE)).digest()
    return digests
