"""Reading `.headwater/taxonomy.lock`: the one source of declarations for every verb."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from headwater import inplace
from headwater.announcements import PROBE
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.hashing import sha256_hex
from headwater.statefolder import DECLARATION
from headwater.taxonomy.declaration import LOCK, UNBOUND
from headwater.taxonomy.model import Taxonomy
from headwater.yaml.files import decode, load_text
from headwater.yaml.nodes import to_plain

MARK = "\nresolved:\n"


@frozen
class LockedSource:
    """One source the resolved taxonomy was built from, by content digest."""

    path: str
    digest: str


@frozen
class Lock:
    """`.headwater/taxonomy.lock`: the resolved taxonomy and the sources it was resolved from."""

    digest: str
    package: str
    version: str
    bundles: tuple[str, ...]
    sources: tuple[LockedSource, ...]
    taxonomy: Taxonomy


def body_of(text: str) -> str:
    """The `resolved:` block at column 0: the text the digest covers."""
    start = text.find(MARK)
    if start < 0:
        return ""
    lines = text[start + len(MARK):].splitlines(keepends=True)
    return "".join(line[2:] if line.startswith("  ") else line for line in lines)


def read_lock(root: Path) -> Lock:
    path = root / LOCK
    sys.audit(PROBE, path)  # what replays a run looks here again (HW-DR-0037)
    if not path.is_file():
        if os.path.lexists(path):
            raise Refusal(f"{LOCK} is not a regular file. Remove it, then run `headwater taxonomy resolve`")
        if not os.path.lexists(root / DECLARATION):
            raise Refusal(UNBOUND)  # resolve would refuse it too: binding comes first
        raise Refusal(f"{LOCK} is missing. Run `headwater taxonomy resolve` to write it")
    try:
        text = decode(inplace.read(root, LOCK), LOCK)
    except OSError as error:
        raise Refusal(f"{LOCK} cannot be read: {error.strerror}") from None
    node = load_text(text, LOCK)  # None: empty, or comments alone
    plain = to_plain(node) if node is not None else {}
    head = plain.get("lock") if isinstance(plain, dict) else None
    resolved = plain.get("resolved") if isinstance(plain, dict) else None
    if not isinstance(head, dict) or not isinstance(resolved, dict):
        raise Refusal(f"{LOCK} is not a lock (no `lock:` and `resolved:` blocks). Run `headwater taxonomy resolve`")
    declared = str(head.get("digest", ""))
    if declared != "sha256:" + sha256_hex(body_of(text).encode("utf-8")):
        raise Refusal(f"{LOCK} was edited by hand: its body no longer hashes to its digest. "
                      "Run `headwater taxonomy resolve`")
    sources = head.get("sources") if isinstance(head.get("sources"), list) else []
    return Lock(
        digest=declared,
        package=str(head.get("package", "")),
        version=str(head.get("version", "")),
        bundles=tuple(head.get("bundles") or ()),
        sources=tuple(LockedSource(str(s.get("path")), str(s.get("digest"))) for s in sources
                      if isinstance(s, dict)),
        taxonomy=Taxonomy(resolved),
    )
