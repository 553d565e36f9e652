"""The walk: every entry under a directory, sorted by path bytes, symlinks never followed.

Directories named `.git` are version-control storage, not repository content, and are not
descended into. Nothing here opens a file; reading is the census's job.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

SKIPPED_DIRECTORIES = frozenset({b".git"})


class EntryKind(Enum):
    FILE = "file"
    SYMLINK = "symlink"
    SPECIAL = "special"
    UNREADABLE_DIRECTORY = "unreadable directory"
    UNDECODABLE_NAME = "undecodable name"
    MISSING_ROOT = "missing root"


@dataclass(frozen=True)
class Entry:
    path: str  # repository-relative, `/`-separated; undecodable bytes shown as \xNN
    raw: bytes  # the same path as bytes, for the sort
    kind: EntryKind
    detail: str = ""


def display(raw: bytes) -> str:
    return raw.decode("utf-8", "backslashreplace")


def walk(repo: Path, start: str) -> list[Entry]:
    """Entries under `repo/start` (repository-relative `start`; "" is the repository)."""
    base = repo / start if start else repo
    prefix = os.fsencode(start + "/") if start else b""
    if not base.is_dir():
        raw = os.fsencode(start or ".")
        return [Entry(display(raw), raw, EntryKind.MISSING_ROOT)]
    entries: list[Entry] = []
    stack = [(os.fsencode(base), prefix)]
    while stack:
        directory, relative = stack.pop()
        try:
            with os.scandir(directory) as listing:
                children = sorted(listing, key=lambda e: e.name)
        except OSError as error:
            raw = relative.rstrip(b"/")
            entries.append(Entry(display(raw), raw, EntryKind.UNREADABLE_DIRECTORY, error.strerror or ""))
            continue
        for child in children:
            entries.extend(_classify(child, relative, stack))
    entries.sort(key=lambda e: e.raw)
    return entries


def _classify(child: os.DirEntry, relative: bytes, stack: list) -> list[Entry]:
    raw = relative + child.name
    try:
        mode = child.stat(follow_symlinks=False).st_mode
    except OSError as error:
        return [Entry(display(raw), raw, EntryKind.SPECIAL, error.strerror or "")]
    try:
        child.name.decode("utf-8")
    except UnicodeDecodeError:
        return [Entry(display(raw), raw, EntryKind.UNDECODABLE_NAME)]
    if stat.S_ISLNK(mode):
        try:
            target = os.readlink(child.path).decode("utf-8", "backslashreplace")
        except OSError:
            target = ""
        return [Entry(display(raw), raw, EntryKind.SYMLINK, target)]
    if stat.S_ISDIR(mode):
        if child.name not in SKIPPED_DIRECTORIES:
            stack.append((child.path, raw + b"/"))
        return []
    if stat.S_ISREG(mode):
        return [Entry(display(raw), raw, EntryKind.FILE)]
    return [Entry(display(raw), raw, EntryKind.SPECIAL)]
