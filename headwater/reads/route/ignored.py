"""Whether git would ignore a path, read from the `.gitignore` files alone (git never runs).

Nobody governs a cache, so `route` drops ignored paths from its ungoverned list. Each
`.gitignore` from the root down to the path's directory is consulted; the deepest file with a
matching pattern decides, and a path under an ignored directory stays ignored, as in git.
"""

from __future__ import annotations

import os
import stat
import sys
from functools import lru_cache
from pathlib import Path

import pathspec

from headwater.announcements import PROBE
from headwater.inplace import read_regular


def ignored(root: Path, path: str, folder: bool = False) -> bool:
    """`folder`: the path names a folder, which a pattern ending in `/` (`build/`) matches."""
    specs = _Specs(root)
    parts = path.split("/")
    folders = _real_folders(root, parts[:-1])
    entry = ""
    for depth, name in enumerate(parts, start=1):
        entry = f"{entry}/{name}" if entry else name  # each entry built on the one before it
        if specs.decides_ignored(entry, folder or depth < len(parts), folders[:depth]):
            return True
    return False


def _real_folders(root: Path, names: list[str]) -> list[str]:
    """The root ("") and the folders on the way down that are real folders, to the first that is
    not: a `.gitignore` stands in none deeper (a folder reached through a symlink is not the
    repository's), so however deep a path a task names, only these are ever consulted."""
    folders = [""]
    for name in names:
        below = f"{folders[-1]}/{name}" if folders[-1] else name
        sys.audit(PROBE, root / below)  # what replays a run looks here again (HW-DR-0037)
        try:
            if not stat.S_ISDIR(os.lstat(root / below).st_mode):  # a link, a file: nothing below is read
                break
        except OSError:
            break
        folders.append(below)
    return folders


class _Specs:
    """The `.gitignore` files of one repository, each read at most once per question."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.spec = lru_cache(maxsize=None)(self._read)

    def _read(self, directory: str) -> pathspec.GitIgnoreSpec | None:
        try:
            text = read_regular(self.root / directory / ".gitignore").decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        return pathspec.GitIgnoreSpec.from_lines(text.splitlines())

    def decides_ignored(self, entry: str, is_dir: bool, folders: list[str]) -> bool:
        """Whether the `.gitignore` files of `folders` (the real ones above `entry`, the root
        first) ignore it: the deepest with a matching pattern decides."""
        verdict = False
        for base in folders:
            spec = self.spec(base)
            if spec is None:
                continue
            relative = entry[len(base) + 1 :] if base else entry
            result = spec.check_file(relative + ("/" if is_dir else ""))
            if result.include is not None:
                verdict = result.include
        return verdict
