"""`check --staged`: the tree a commit would hold, written out of git's index into a private
folder and checked there instead of the working tree.

A commit gate must judge what is committed: an unstaged edit that fixes a staged error, or an
untracked draft with errors of its own, is not in the commit. The index is written out whole
(the graph reads the corpus and every path its anchors name), with the cache the last check left
copied beside it, so the run reuses every verdict and parse whose inputs the index holds as they
are. The cache files the run rewrote are carried back, so the next commit starts warm where a
team only ever commits (HW-DR-0073); nothing else of the working tree is written, and the folder
is removed whatever happens.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from headwater import atomic, writelock
from headwater.cachedir import CACHE_DIR
from headwater.check.replay import MEMO as REPLAY
from headwater.discovery import git_top
from headwater.errors import Refusal
from headwater.paths import symlink_on_the_way
from headwater.statefolder import DECLARATION
from headwater.taxonomy.declaration import LOCK
from headwater.writes.change_capture import GitFailed, run_git

WHO = "`--staged`"
# each folder's own: the write lock, and the replay, whose key names the folder the run read
NOT_CARRIED = frozenset({writelock.LOCK_NAME, REPLAY})


@contextmanager
def staged_root(root: Path) -> Iterator[Path]:
    """The root as the index holds it, in a private folder that lasts for the block."""
    top = git_top(root)
    if top is None:
        raise Refusal(f"{WHO} checks what git's index holds, and this repository is in no git work tree")
    with tempfile.TemporaryDirectory(prefix="headwater-staged-") as folder:
        # the index git's hooks name (`GIT_INDEX_FILE`, as `commit -a` sets it) is the one read
        try:
            run_git(top, WHO, "checkout-index", "--all", f"--prefix={folder}/")
            # `git add -N` leaves an intent-to-add entry, which is written out empty and which a
            # commit leaves out; index against work tree, it is the one kind shown as added
            unadded = run_git(top, WHO, "diff-files", "--name-only", "--diff-filter=A", "-z")
        except GitFailed as failed:
            raise Refusal(f"{WHO} could not write out git's index ({failed}), so nothing was checked") from None
        _remove(Path(folder), unadded)
        staged = Path(folder) / Path(root).absolute().relative_to(top)
        _refuse_an_unstaged_binding(Path(root), staged)
        left = _stamps(Path(root) / CACHE_DIR)  # before the copy: a run writing meanwhile shows
        _copy_cache(Path(root) / CACHE_DIR, staged / CACHE_DIR)
        copied = _stamps(staged / CACHE_DIR)
        yield staged
        _carry_back(staged / CACHE_DIR, copied, Path(root), left)


def _refuse_an_unstaged_binding(root: Path, staged: Path) -> None:
    """What `init` or `taxonomy resolve` wrote and nobody staged: the plain refusal would tell the
    user to write again what the working tree already holds."""
    unstaged = [name for name in (DECLARATION, LOCK) if (root / name).is_file() and not (staged / name).is_file()]
    if unstaged:
        them = "them" if len(unstaged) > 1 else "it"
        raise Refusal(f"{WHO} checks what the commit holds, and git's index does not hold "
                      f"{' or '.join(unstaged)}, which the working tree does: stage {them} with "
                      f"`git add {' '.join(unstaged)}`")


def _remove(folder: Path, names: bytes) -> None:
    """The files git named (NUL-separated, from the top) removed from the written-out index, never
    through a linked folder (git keeps no entry below a link, and a removal must not trust that)."""
    for name in filter(None, names.split(b"\0")):
        relative = os.fsdecode(name)
        if symlink_on_the_way(posixpath.dirname(relative), folder) is None:
            (folder / relative).unlink(missing_ok=True)


def _copy_cache(source: Path, target: Path) -> None:
    """The cache the last check left, copied as it is (never through a symlink: a linked folder
    or file is copied as the link, which the cache then refuses to read); none is no loss."""
    if source.is_dir() and not source.is_symlink():
        shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(writelock.LOCK_NAME))


def _stamps(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Each cache file's (inode, size, modification time): a cache file is only ever replaced whole
    (`atomic.write_bytes`), so a file rewritten since shows a new inode."""
    try:
        entries = list(os.scandir(folder)) if not folder.is_symlink() else []
    except OSError:
        return {}
    found = {}
    for entry in entries:
        if entry.name not in NOT_CARRIED and not entry.name.startswith(".") and entry.is_file(follow_symlinks=False):
            held = entry.stat(follow_symlinks=False)
            found[entry.name] = (held.st_ino, held.st_size, held.st_mtime_ns)
    return found


def _carry_back(staged: Path, copied: dict[str, tuple[int, int, int]], root: Path,
                left: dict[str, tuple[int, int, int]]) -> None:
    """The cache files the gate's run rewrote, written over the root's under its write lock, each
    in one rename. Nothing is carried when another run holds the lock or rewrote the root's cache
    since the copy (its files are at least as new as the gate's), or when a write fails: every cache
    file is keyed by what it was made from and verified when read, so a file not carried costs the
    next run its warmth and nothing else."""
    rewritten = sorted(name for name, stamp in _stamps(staged).items() if copied.get(name) != stamp)
    if not rewritten:
        return
    with (contextlib.suppress(writelock.Unavailable, atomic.Unconfined, OSError),
          writelock.held(root, sweep=False, wait=False)):
        if _stamps(root / CACHE_DIR) != left:
            return
        for name in rewritten:
            atomic.write_bytes(root / CACHE_DIR / name, (staged / name).read_bytes(), root=root, durable=False)
