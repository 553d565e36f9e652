"""`.headwater/`: the state folder, read and written only in place.

The folder itself, its cache, its claim store and each scheme's claims are where headwater keeps
what it writes and what `check` takes as evidence (claims); its vendored packages are the taxonomy
every verb reads. A symlink at any of them would send those reads and writes out of the root, so it
is refused in one sentence before anything is read.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from headwater.announcements import PROBE
from headwater.errors import Refusal

STATE = ".headwater"
DECLARATION = f"{STATE}/taxonomy.yml"  # what binds a repository to a taxonomy (read by `taxonomy.declaration`)
CLAIM_STORE = f"{STATE}/ids"
PACKAGES = f"{STATE}/packages"
CACHE = f"{STATE}/cache"  # disposable: what a run keeps for the next, never repository content
# and each folder in the claim store (a scheme's claims) and in the packages folder (a package)
GUARDED = (STATE, CACHE, CLAIM_STORE, PACKAGES)


def refuse_linked(root: Path) -> None:
    """Refuse when the state folder, its cache, its claim store, a scheme's claims, the packages
    folder or a vendored package is a symlink."""
    for relative in (*GUARDED, *_inside(root, CLAIM_STORE), *_inside(root, PACKAGES)):
        sys.audit(PROBE, root / relative)  # what replays a run looks here again (HW-DR-0037)
        if os.path.islink(root / relative):
            raise Refusal(f"`{relative}` is a symlink, and headwater reads and writes its state only in place")


def _inside(root: Path, folder: str) -> list[str]:
    where = root / folder
    for probed in (root / STATE, where):
        sys.audit(PROBE, probed)
    if os.path.islink(root / STATE) or os.path.islink(where) or not where.is_dir():
        return []
    return [f"{folder}/{name}" for name in sorted(os.listdir(where))]
