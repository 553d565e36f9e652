"""Atomic, confined file writes: a temp file beside the target, fsync, then one rename or link.

The fsync is what keeps a user's document whole through a power cut; a cache file (`durable`
false) skips it, for a cache torn so fails its seal and costs a rerun, never a wrong answer.

Never a half-written file, and never a write outside the root or through a symlink: every
directory on the way down from the root is opened with `O_NOFOLLOW` relative to the one
above it (created when missing), and the temp file, the rename and the link all name their
directory by that descriptor, so a symlink planted anywhere on the way is a refusal rather
than a door. Temp files are named `.headwater-tmp-…`, so a run killed mid-write leaves
something `sweep` recognizes and removes on the next write run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from headwater.errors import Refusal
from headwater.statefolder import STATE

TEMP_PREFIX = ".headwater-tmp-"
NAME_BYTES = 200  # of the target's name kept in a temp name: the whole stays under 255 bytes


class Unconfined(Refusal):
    """A write that would land outside the root or pass through a symlink: refused, never made."""


def _default_mode() -> int:
    """What `open()` would give a new file: 0o666 less the umask (a temp file is born 0o600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def parts_under(root: Path, path: Path | str) -> list[str]:
    """The components of `path` below `root`, refusing anything that is not strictly under it."""
    text = os.fspath(path)
    base = os.fspath(root).rstrip("/") + "/"
    relative = text[len(base):] if text.startswith(base) else text
    parts = relative.split("/")
    if os.path.isabs(relative) or any(part in ("", ".", "..") for part in parts):
        raise Unconfined(f"`{relative}` is not a path under the repository root, so nothing was written there")
    return parts


class Unwritable(Refusal):
    """A file its owner keeps read-only, or one with a second name: replacing it is refused, never made."""


def _refuse_to_replace(status: os.stat_result, relative: str) -> None:
    """A rename puts a new file under this one name: a read-only file (kept so on purpose, or by a
    version control that wants an edit opened first) would be written regardless, and a file's
    other names (hard links) would keep the old text while this one moved on."""
    if not status.st_mode & stat.S_IWUSR:
        raise Unwritable(f"{relative} is read-only, and headwater writes no file its owner keeps read-only; "
                         "make it writable (`chmod u+w`) and run it again")
    if status.st_nlink > 1:
        raise Unwritable(f"{relative} has {status.st_nlink} names (hard links), and a write replaces it under this "
                         "one alone, the others keeping the old text; make it a file of its own (copy it, then "
                         "move the copy over it) and run it again")


def _symlink_refusal(parts: list[str]) -> Unconfined:
    return Unconfined(f"`{'/'.join(parts)}` is a symlink, and headwater writes nothing through a symlink")


def _open_directory(name: str, parent: int, walked: list[str]) -> int:
    """Open one directory below `parent` without following a symlink, creating it when missing."""
    try:
        return _open_unfollowed(name, parent, walked)
    except FileNotFoundError:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o777, dir_fd=parent)
        return _open_unfollowed(name, parent, walked)


def _open_unfollowed(name: str, parent: int, walked: list[str]) -> int:
    try:
        return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=parent)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link(name, parent):
            raise _symlink_refusal(walked) from None
        if error.errno == errno.ENOTDIR:  # named by its whole path, for whoever says why nothing was written
            raise NotADirectoryError(errno.ENOTDIR, "a file where a folder must be", "/".join(walked)) from None
        raise


def _is_link(name: str, directory: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=directory, follow_symlinks=False).st_mode)
    except OSError:
        return False


@contextlib.contextmanager
def directory_of(root: Path, path: Path | str) -> Iterator[tuple[int, str]]:
    """(a descriptor of the target's directory, the target's name), every component checked."""
    parts = parts_under(root, path)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for index, part in enumerate(parts[:-1]):
            child = _open_directory(part, fd, parts[: index + 1])
            os.close(fd)
            fd = child
        if _is_link(parts[-1], fd):
            raise _symlink_refusal(parts)
        yield fd, parts[-1]
    finally:
        os.close(fd)


@contextlib.contextmanager
def _staged(directory: int, name: str, data: bytes, mode: int, durable: bool = True) -> Iterator[str]:
    """A complete temp file beside `name` (synced when `durable`), removed afterwards whatever happens."""
    stem = name.encode("utf-8", "surrogateescape")[:NAME_BYTES].decode("utf-8", "ignore")
    tmp, fd = "", -1
    while fd < 0:
        tmp = f"{TEMP_PREFIX}{stem}.{os.urandom(4).hex()}"  # what `secrets.token_hex` returns
        with contextlib.suppress(FileExistsError):
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if durable:
                os.fsync(handle.fileno())
        yield tmp
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=directory)


def write_bytes(path: Path, data: bytes, *, root: Path, durable: bool = True) -> None:
    """Replace (or create) `path` under `root` with `data` in one rename, keeping an existing file's
    mode; synced first unless `durable` is false (a cache file: the module's docstring says why).
    A durable write refuses a file that is read-only or has a second name (`_refuse_to_replace`);
    a cache file is headwater's own to replace."""
    with directory_of(root, path) as (directory, name):
        try:
            status = os.stat(name, dir_fd=directory, follow_symlinks=False)
            found = status.st_mode
        except FileNotFoundError:
            status, found = None, stat.S_IFREG | _default_mode()
        if not stat.S_ISREG(found):  # a rename would replace a folder or a special file: refused in its words
            number = errno.EISDIR if stat.S_ISDIR(found) else errno.EEXIST
            raise OSError(number, os.strerror(number) if stat.S_ISDIR(found) else "not a regular file",
                          "/".join(parts_under(root, path)))
        if status is not None and durable:
            _refuse_to_replace(status, "/".join(parts_under(root, path)))
        mode = found & 0o7777
        with _staged(directory, name, data, mode, durable) as tmp:
            os.replace(tmp, name, src_dir_fd=directory, dst_dir_fd=directory)


def create_exclusive(path: Path, data: bytes, *, root: Path) -> None:
    """Create `path` under `root` with all of `data`, only if nothing is there yet.

    The staged file is hard-linked into place: the link either fails with FileExistsError or
    publishes a complete file, so a reader never sees a half-written one and two writers never
    both win.
    """
    with directory_of(root, path) as (directory, name), _staged(directory, name, data, _default_mode()) as tmp:
        os.link(tmp, name, src_dir_fd=directory, dst_dir_fd=directory, follow_symlinks=False)


def append(path: Path, data: bytes, *, root: Path) -> None:
    """Append `data` to `path` under `root` in one write (concurrent lines never interleave)."""
    with directory_of(root, path) as (directory, name):
        fd = os.open(name, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644, dir_fd=directory)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


def remove(path: Path, *, root: Path) -> None:
    """Remove `path` under `root` if it is there (taking back a file this run created)."""
    with directory_of(root, path) as (directory, name), contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=directory)


def sweep(root: Path) -> None:
    """Remove the temp files (and a package's staging folder) a killed run left anywhere under the
    root; symlinks are never entered.

    Only the write lock proves a temp file stale: every writer under this root holds it while it
    writes. A folder with a `.headwater/` of its own is another root (a monorepo's package, a
    vendored repository), whose writers hold its lock, not this one: it is left to its own sweep."""
    start = os.fspath(root)
    for top, directories, names in os.walk(start):
        if top != start and STATE in directories:
            directories[:] = []
            continue
        staged = [d for d in directories if d.startswith(TEMP_PREFIX)]
        for name in staged:
            import shutil  # here: a staging folder left behind is rare, and every run imports this module

            shutil.rmtree(os.path.join(top, name), ignore_errors=True)
        directories[:] = [d for d in directories if d != ".git" and d not in staged]
        for name in names:
            if name.startswith(TEMP_PREFIX):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(top, name))
