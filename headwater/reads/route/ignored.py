"""Whether git would ignore a path, read from the `.gitignore` files alone (git never runs).

Nobody governs a cache, so `route` drops ignored paths from its ungoverned list. Each
`.gitignore` from the root down to the path's directory is consulted; the deepest file with a
matching pattern decides, and a path under an ignored directory stays ignored, as in git.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pathspec

from headwater.inplace import read_regular
from headwater.paths import symlink_on_the_way


def ignored(root: Path, path: str) -> bool:
    specs = _Specs(root)
    parts = path.split("/")
    for depth in range(1, len(parts) + 1):
        if specs.decides_ignored("/".join(parts[:depth]), is_dir=depth < len(parts)):
            return True
    return False


class _Specs:
    """The `.gitignore` files of one repository, each read at most once per question."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.spec = lru_cache(maxsize=None)(self._read)

    def _read(self, directory: str) -> pathspec.GitIgnoreSpec | None:
        if directory and symlink_on_the_way(directory, self.root):
            return None  # a directory reached through a symlink is not the repository's
        try:
            text = read_regular(self.root / directory / ".gitignore").decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        return pathspec.GitIgnoreSpec.from_lines(text.splitlines())

    def decides_ignored(self, entry: str, is_dir: bool) -> bool:
        verdict = False
        directories = entry.split("/")[:-1]
        for level in range(len(directories) + 1):
            base = "/".join(directories[:level])
            spec = self.spec(base)
            if spec is None:
                continue
            relative = entry[len(base) + 1 :] if base else entry
            result = spec.check_file(relative + ("/" if is_dir else ""))
            if result.include is not None:
                verdict = result.include
        return verdict
