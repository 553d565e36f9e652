"""The repository tree that `code_path` anchors bind against, listed lazily per subtree.

A wildcard pattern lists only the subtree under its literal prefix; a literal pattern only
asks whether its entry exists. Symlinks are listed, never followed; `.git` is never listed.
"""

from __future__ import annotations

import os
import stat
import sys
from functools import lru_cache
from pathlib import Path

from headwater.announcements import PROBE, READ
from headwater.corpus.census import excluded_by
from headwater.corpus.walk import EntryKind, walk
from headwater.hashing import sha256_hex
from headwater.inplace import read_regular
from headwater.paths import symlink_on_the_way
from headwater.patterns import Pattern, compile_pattern, is_wild
from headwater.taxonomy.declaration import Exclusion


class SourceTree:
    def __init__(self, repo: Path, exclusions: tuple[Exclusion, ...]) -> None:
        self.repo = repo
        self.exclusions = exclusions
        self._listing = lru_cache(maxsize=None)(self._list)
        # a file several anchors match is hashed once per snapshot, as the census reads each once
        self._content = lru_cache(maxsize=None)(self._read_content)
        # and a directory several anchors match is listed into lines once
        self._lines = lru_cache(maxsize=None)(self._revision_lines)
        # and the folders above the paths anchors name are looked at once each
        self._linked = lru_cache(maxsize=None)(lambda parent: symlink_on_the_way(parent, self.repo))

    def _list(self, prefix: str) -> tuple[str, ...]:
        sys.audit(PROBE, os.path.join(self.repo, prefix))  # looked at again by a replay (HW-DR-0037)
        if prefix and (symlink_on_the_way(prefix, self.repo) or not (self.repo / prefix).is_dir()):
            return ()  # a subtree reached through a symlink is not the repository's to list
        entries = walk(self.repo, prefix)
        return tuple(
            e.path for e in entries
            if e.kind in (EntryKind.FILE, EntryKind.SYMLINK) and not excluded_by(e.path, self.exclusions)
        )

    def exists(self, path: str) -> bool:
        """The entry itself may be a symlink (listed, not followed); a path through one is absent."""
        parent = path.rpartition("/")[0]
        if parent and self._linked(parent):
            return False
        full = os.path.join(self.repo, path)
        sys.audit(PROBE, full)
        return os.path.lexists(full)

    def matches(self, pattern: str) -> tuple[str, ...]:
        """Repository paths the pattern matches (a literal matches its own entry, even a directory)."""
        if not is_wild(pattern):  # literal: one existence check, and no regex compiled for it
            return (pattern,) if self.exists(pattern) else ()
        compiled = compile_pattern(pattern)
        listed = self._listing(compiled.literal_prefix)
        if _everything_below(compiled):  # `dir/**`: every path listed under `dir` (a governed folder)
            return listed
        return tuple(p for p in listed if compiled.matches(p))

    def revision(self, paths: tuple[str, ...]) -> str:
        """The content digest of what an anchor matches: path and bytes of each file, sorted."""
        lines = {line for path in paths for line in self.revision_lines(path)}
        return "sha256:" + sha256_hex("".join(sorted(lines)).encode("utf-8"))

    def revision_lines(self, path: str) -> tuple[str, ...]:
        """`<path>\t<content digest>` for the file, or for each file under the directory."""
        return self._lines(path)

    def _revision_lines(self, path: str) -> tuple[str, ...]:
        sys.audit(PROBE, os.path.join(self.repo, path))
        try:
            directory = stat.S_ISDIR(os.lstat(os.path.join(self.repo, path)).st_mode)  # one lstat, no pathlib
        except OSError:
            directory = False
        if directory:
            return tuple(f"{child}\t{self._content(child)}\n" for child in self._listing(path))
        return (f"{path}\t{self._content(path)}\n",)

    def _read_content(self, path: str) -> str:
        """A file's digest, or a symlink's by the text it points at: a link is never followed,
        so a revision never reads outside the root, and a pipe is never opened. A file is read
        at once (most are), and only what could not be read is looked at again."""
        full = os.path.join(self.repo, path)
        try:
            data = read_regular(full)
        except OSError:
            sys.audit(PROBE, full)  # what stands there instead: a link, or nothing readable
            try:
                return "link:" + sha256_hex(os.fsencode(os.readlink(full))) if os.path.islink(full) else "unreadable"
            except OSError:
                return "unreadable"
        found = sha256_hex(data)
        sys.audit(READ, full, data, found)  # the bytes a replay finds again (HW-DR-0037), hashed once
        return found


def _everything_below(pattern: Pattern) -> bool:
    """Whether the pattern is its literal prefix and one `**`, which matches every path listed
    under that prefix (each has one or more non-empty segments below it)."""
    literal = len(pattern.literal_prefix.split("/")) if pattern.literal_prefix else 0
    return len(pattern.segments) == literal + 1 and pattern.segments[-1] == "**"
