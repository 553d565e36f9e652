"""Whether the lock still describes its sources: each locked source's digest against its bytes."""

from __future__ import annotations

from pathlib import Path

from headwater import inplace
from headwater.errors import Refusal
from headwater.hashing import digest
from headwater.taxonomy.lock import Lock
from headwater.taxonomy.package import EMBEDDED_LABEL, embedded_root


def source_bytes(root: Path, label: str) -> bytes:
    """A locked source's bytes: `embedded:<dir>/<file>` in the engine, else read in place in the repository."""
    if label.startswith(EMBEDDED_LABEL):
        return (embedded_root() / label.removeprefix(EMBEDDED_LABEL)).read_bytes()
    return inplace.read(root, label)


def changed_sources(root: Path, lock: Lock) -> list[str]:
    """The labels of locked sources whose bytes today differ from the lock (or are gone)."""
    changed = []
    for source in lock.sources:
        try:
            today = digest(source_bytes(root, source.path))
        except inplace.NotInPlace as error:  # not a change to resolve again: a file never read
            raise Refusal(f"{source.path} cannot be read: {error.strerror}") from None
        except OSError:
            today = None
        if today != source.digest:
            changed.append(source.path)
    return changed
