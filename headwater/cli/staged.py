"""`check --staged`: the tree a commit would hold, written out of git's index into a private
folder and checked there instead of the working tree.

A commit gate must judge what is committed: an unstaged edit that fixes a staged error, or an
untracked draft with errors of its own, is not in the commit. Only the index's entries under the
root are written out: a check reads nothing outside its root (the corpus, `.headwater/`, and every
path an anchor, a link or a pin names are paths under it; one that climbs out names nothing), and
a governed folder of a large repository would otherwise pay for every file of the repository at
every commit (HW-DR-0078). The cache the last check left is copied beside them, so the run reuses
every verdict and parse whose inputs the index holds as they are. The cache files the run rewrote
are carried back, so the next commit starts warm where a team only ever commits (HW-DR-0073);
nothing else of the working tree is written, and the folder is removed whatever happens,
SIGTERM included.
"""

from __future__ import annotations

import contextlib
import os
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
    place = _place(root, top)
    # a hook a timeout or a CI runner ends with SIGTERM still removes its folder
    with writelock.interruptible(), tempfile.TemporaryDirectory(prefix="headwater-staged-") as folder:
        try:
            _write_out(top, place, folder)
        except GitFailed as failed:
            raise Refusal(f"{WHO} could not write out git's index ({failed}), so nothing was checked") from None
        staged = Path(folder, place)
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


def _place(root: Path, top: Path) -> str:
    """The root's folder as git's index names it, from the top of the work tree ("" for the top):
    by real paths, as git reads a folder reached through a link."""
    place = os.path.relpath(os.path.realpath(root), os.path.realpath(top))
    if place == ".." or place.startswith("../"):
        raise Refusal(f"{WHO} checks what git's index holds, and the root is a link out of its git work tree")
    return "" if place == "." else place


def _write_out(top: Path, place: str, folder: str) -> None:
    """The index's entries under `place`, each written out below `folder` by its name from the top,
    as `checkout-index --all` writes the whole index: not an unmerged or a skip-worktree entry
    (`ls-files -t` tags every other one `H`), nor an intent-to-add entry (`git add -N`), which would
    be written out empty and which a commit leaves out (index against work tree, the one kind shown
    as added). Run at the top, where a hook's `GIT_DIR` and `GIT_INDEX_FILE` name the repository
    and the index the commit writes; the place is a literal path, never a pattern."""
    under = ("--", place) if place else ()
    listed = run_git(top, WHO, "--literal-pathspecs", "ls-files", "-z", "-t", *under)
    unadded = run_git(top, WHO, "--literal-pathspecs", "diff-files", "--name-only", "--diff-filter=A", "-z", *under)
    left_out = set(unadded.split(b"\0"))
    names = [entry[2:] for entry in listed.split(b"\0") if entry.startswith(b"H ") and entry[2:] not in left_out]
    run_git(top, WHO, "checkout-index", "-z", "--stdin", f"--prefix={folder}/",
            stdin=b"".join(name + b"\0" for name in names))


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
