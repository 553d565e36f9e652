"""The walk: every entry under a directory, sorted by path bytes, symlinks never followed.

Directories named `.git` are version-control storage, and `.headwater/cache` is what a run keeps
for the next: neither is repository content (a corpus rooted at the repository's top would list
the cache's files, which change between runs, and a warm run would print otherwise than a cold
one), and neither is descended into. Nothing here opens a file; reading is the census's job.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path

from headwater.announcements import LISTING, PROBE
from headwater.frozen import frozen
from headwater.statefolder import CACHE

SKIPPED_DIRECTORIES = frozenset({b".git"})
SKIPPED_PATHS = frozenset({CACHE.encode()})


class EntryKind(Enum):
    FILE = "file"
    SYMLINK = "symlink"
    SPECIAL = "special"
    UNREADABLE_DIRECTORY = "unreadable directory"
    UNDECODABLE_NAME = "undecodable name"
    MISSING_ROOT = "missing root"


@frozen
class Entry:
    """One entry the walk found: a file, or why it is not one (a symlink, a special file, …)."""

    path: str  # repository-relative, `/`-separated; undecodable bytes shown as \xNN
    raw: bytes  # the same path as bytes, for the sort
    kind: EntryKind
    detail: str = ""  # a symlink's target, which its row's reason names


def display(raw: bytes) -> str:
    return raw.decode("utf-8", "backslashreplace")


def walk(repo: Path, start: str) -> list[Entry]:
    """Entries under `repo/start` (repository-relative `start`; "" is the repository)."""
    base = repo / start if start else repo
    prefix = os.fsencode(start + "/") if start else b""
    sys.audit(PROBE, base)  # what replays a run looks here again (HW-DR-0037)
    if not base.is_dir():
        raw = os.fsencode(start or ".")
        return [Entry(display(raw), raw, EntryKind.MISSING_ROOT)]
    entries: list[Entry] = []
    stack = [(os.fsencode(base), prefix)]
    while stack:  # in any order: the entries are sorted once at the end
        directory, relative = stack.pop()
        try:
            with os.scandir(directory) as listing:
                children = list(listing)
            sys.audit(LISTING, directory, children)  # the listing a replay finds again (HW-DR-0037)
        except OSError:
            raw = relative.rstrip(b"/")
            entries.append(Entry(display(raw), raw, EntryKind.UNREADABLE_DIRECTORY))
            continue
        for child in children:
            found = _classify(child, relative, stack)
            if found is not None:
                entries.append(found)
    entries.sort(key=lambda e: e.raw)
    return entries


def _classify(child: os.DirEntry, relative: bytes, stack: list) -> Entry | None:
    """The entry for one child (None for a directory, pushed on the stack instead). Its type comes
    from the listing itself where the file system reports it, so most children cost no `lstat`."""
    raw = relative + child.name
    try:
        link, directory, regular = (child.is_symlink(), child.is_dir(follow_symlinks=False),
                                    child.is_file(follow_symlinks=False))
    except OSError:
        return Entry(display(raw), raw, EntryKind.SPECIAL)
    try:
        child.name.decode("utf-8")
    except UnicodeDecodeError:
        return Entry(display(raw), raw, EntryKind.UNDECODABLE_NAME)
    if link:
        sys.audit(PROBE, child.path)  # its target is in the row's reason
        try:
            target = os.readlink(child.path).decode("utf-8", "backslashreplace")
        except OSError:
            target = ""
        return Entry(display(raw), raw, EntryKind.SYMLINK, target)
    if directory:
        if child.name not in SKIPPED_DIRECTORIES and raw not in SKIPPED_PATHS:
            stack.append((child.path, raw + b"/"))
        return None
    return Entry(display(raw), raw, EntryKind.FILE if regular else EntryKind.SPECIAL)
