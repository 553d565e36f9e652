"""Whether the lock still describes its sources: each locked source's digest against its bytes."""

from __future__ import annotations

from pathlib import Path

from headwater.hashing import digest
from headwater.taxonomy.lock import Lock
from headwater.taxonomy.package import EMBEDDED_LABEL, embedded_root


def source_file(root: Path, label: str) -> Path:
    """Where a locked source lives: `embedded:<dir>/<file>` in the engine, else in the repository."""
    if label.startswith(EMBEDDED_LABEL):
        return embedded_root() / label.removeprefix(EMBEDDED_LABEL)
    return root / label


def changed_sources(root: Path, lock: Lock) -> list[str]:
    """The labels of locked sources whose bytes today differ from the lock (or are gone)."""
    changed = []
    for source in lock.sources:
        try:
            today = digest(source_file(root, source.path).read_bytes())
        except OSError:
            today = None
        if today != source.digest:
            changed.append(source.path)
    return changed
