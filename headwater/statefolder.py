"""`.headwater/`: the state folder, read and written only in place.

The folder itself, its cache, its claim store and each scheme's claims are where headwater keeps
what it writes and what `check` takes as evidence (claims). A symlink at any of them would send
those reads and writes out of the root, so it is refused in one sentence before anything is read.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from headwater.errors import Refusal

STATE = ".headwater"
DECLARATION = f"{STATE}/taxonomy.yml"  # what binds a repository to a taxonomy (read by `taxonomy.declaration`)
CLAIM_STORE = f"{STATE}/ids"
GUARDED = (STATE, f"{STATE}/cache", CLAIM_STORE)  # and each scheme's folder in the claim store


def refuse_linked(root: Path) -> None:
    """Refuse when the state folder, its cache, its claim store or a scheme's claims is a symlink."""
    for relative in (*GUARDED, *_schemes(root)):
        sys.audit("headwater.probe", root / relative)  # what replays a run looks here again (HW-DR-0037)
        if os.path.islink(root / relative):
            raise Refusal(f"`{relative}` is a symlink, and headwater reads and writes its state only in place")


def _schemes(root: Path) -> list[str]:
    store = root / CLAIM_STORE
    for probed in (root / STATE, store):
        sys.audit("headwater.probe", probed)
    if os.path.islink(root / STATE) or os.path.islink(store) or not store.is_dir():
        return []
    return [f"{CLAIM_STORE}/{name}" for name in sorted(os.listdir(store))]
