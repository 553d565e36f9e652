"""The source tree, widened by the pinned files: `<corpus>:<path>` is looked up in the pin.

Anchors bind through this tree, so a `governs` edge can name `svc:src/app.py` exactly as it
names `src/app.py`: matched against the pinned listing, its revision the pinned content digest.
"""

from __future__ import annotations

from pathlib import Path

from headwater.corpus.tree import SourceTree
from headwater.federation.pinned import Federation
from headwater.patterns import compile_pattern, is_wild
from headwater.taxonomy.declaration import Exclusion


class FederatedTree(SourceTree):
    def __init__(self, repo: Path, exclusions: tuple[Exclusion, ...], federation: Federation) -> None:
        super().__init__(repo, exclusions)
        self.federation = federation

    def _pinned(self, path: str) -> tuple[str, ...]:
        """The pinned files at a path: the file itself, or every file under it."""
        files = self.federation.files
        if path in files:
            return (path,)
        return tuple(sorted(p for p in files if p.startswith(path.rstrip("/") + "/")))

    def exists(self, path: str) -> bool:
        if self.federation.corpus_of(path):
            return bool(self._pinned(path))
        return super().exists(path)

    def matches(self, pattern: str) -> tuple[str, ...]:
        if not self.federation.corpus_of(pattern):
            return super().matches(pattern)
        if not is_wild(pattern):
            return (pattern,) if self._pinned(pattern) else ()
        compiled = compile_pattern(pattern)
        return tuple(sorted(p for p in self.federation.files
                            if p.startswith(compiled.literal_prefix) and compiled.matches(p)))

    def revision_lines(self, path: str) -> tuple[str, ...]:
        if not self.federation.corpus_of(path):
            return super().revision_lines(path)
        return tuple(f"{p}\t{self.federation.files[p]}\n" for p in self._pinned(path))
