"""Whether the lock still describes its sources: each locked source's digest against its bytes, and
the declaration's package, version, bundles and overlay against what the lock was resolved from."""

from __future__ import annotations

from pathlib import Path

from headwater import inplace
from headwater.errors import Refusal
from headwater.hashing import digest
from headwater.taxonomy.declaration import DECLARATION, LOCK, Declaration
from headwater.taxonomy.lock import Lock
from headwater.taxonomy.package import EMBEDDED_LABEL, embedded_root


def source_bytes(root: Path, label: str) -> bytes:
    """A locked source's bytes: `embedded:<dir>/<file>` in the engine, else read in place in the repository."""
    if label.startswith(EMBEDDED_LABEL):
        return (embedded_root() / label.removeprefix(EMBEDDED_LABEL)).read_bytes()
    return inplace.read(root, label)


def changed_sources(root: Path, lock: Lock, declaration: Declaration) -> list[str]:
    """The labels of locked sources whose bytes today differ from the lock (or are gone), and the
    declaration's when it names another package, version, set of bundles or overlay."""
    labels = {source.path for source in lock.sources}
    declared = (declaration.package, declaration.version, sorted(declaration.bundles))
    moved = declared != (lock.package, lock.version, sorted(lock.bundles)) or (
        declaration.overlay is not None and declaration.overlay not in labels)
    changed = [DECLARATION] if moved else []
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


class StaleLock(Refusal):
    """The lock its sources have moved past, with the labels of the sources that moved."""

    def __init__(self, changed: list[str]) -> None:
        super().__init__(f"{LOCK} is stale: {', '.join(changed)} changed since it was resolved. "
                         "Run `headwater taxonomy resolve`")
        self.changed = tuple(changed)

    def in_the_index(self) -> Refusal:
        """The same refusal where the lock judged is the one git's index holds (`check --staged`):
        resolving again moves only the working tree, so it names the files to stage too."""
        staged = " ".join([LOCK, *(label for label in self.changed if not label.startswith(EMBEDDED_LABEL))])
        return Refusal(f"the {LOCK} git's index holds is stale: {', '.join(self.changed)} changed since it "
                       f"was resolved. Run `headwater taxonomy resolve`, then stage the lock with its sources: "
                       f"`git add {staged}`")


def refuse_stale(snapshot) -> None:
    """Refuse a verb whose answer or writes would follow a lock its sources have moved past."""
    changed = changed_sources(snapshot.root, snapshot.lock, snapshot.declaration)
    if changed:
        raise StaleLock(changed)
