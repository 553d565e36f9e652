"""The one all-or-nothing writer for a batch of files: `check --fix`, `adopt` and `new` write through it.

Each file is created exclusively (never over another) or replaced atomically, after the caller's
check that it still holds what the run read; a failed write or check puts back every file the
batch had written, under the write lock's steady sections so an interrupt lands between files.
The caller words every sentence: it knows what it was writing and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from headwater import atomic, writelock
from headwater.errors import Refusal
from headwater.frozen import frozen


@frozen
class FileWrite:
    path: str  # relative to the root
    before: bytes | None  # what the run read; None: the file is created
    after: bytes


class BatchFailed(Exception):
    """A write or a check failed at `item`; every earlier file was put back except `unrestored`."""

    def __init__(self, item: FileWrite, cause: OSError | Refusal, unrestored: list[str]) -> None:
        super().__init__(str(cause))
        self.item, self.cause, self.unrestored = item, cause, unrestored


def write_all(root: Path, batch: Sequence[FileWrite], still: Callable[[FileWrite], None]) -> None:
    """Write the batch in order; `still(item)` refuses when the file no longer holds `item.before`."""
    done: list[FileWrite] = []
    item = None
    try:
        for item in batch:
            with writelock.steady():  # an interrupt lands before this write or after its note
                still(item)
                if item.before is None:
                    atomic.create_exclusive(root / item.path, item.after, root=root)
                else:
                    atomic.write_bytes(root / item.path, item.after, root=root)
                done.append(item)
    except (OSError, Refusal) as error:
        with writelock.steady():
            unrestored = put_back(root, done)
        raise BatchFailed(item, error, unrestored) from None


def put_back(root: Path, done: Sequence[FileWrite]) -> list[str]:
    """Undo written files, last first; the paths that could not be put back."""
    failed = []
    for item in reversed(done):
        try:
            if item.before is None:
                atomic.remove(root / item.path, root=root)
            else:
                atomic.write_bytes(root / item.path, item.before, root=root)
        except (OSError, Refusal):
            failed.append(item.path)
    return failed
