"""Whether an edge's stamp still holds: the revision its target is at today beside the one it
was verified at. `relation.target.suspect` reports the difference, and `route` names it as the
evidence of a pointer the edge reaches."""

from __future__ import annotations

from headwater.graph import Bound, Edge
from headwater.snapshot import Snapshot


def revision_today(snapshot: Snapshot, edge: Edge) -> str | None:
    """The target's revision: for an anchor the content digest of what its patterns match, for a
    document its digest (a harvested one's as its pinned export states it); None when it binds nothing."""
    target = edge.target
    if target.bound is Bound.ANCHOR and target.anchor is not None:
        return snapshot.tree.revision(target.anchor.matched)
    far = snapshot.graph.documents.get(target.path) if target.bound is Bound.DOCUMENT and target.path else None
    if far is not None:
        return far.digest
    return target.remote.digest if target.remote is not None else None


def is_suspect(snapshot: Snapshot, edge: Edge) -> bool:
    """The edge records a `verified_revision` and its target is somewhere else today."""
    recorded = edge.attribute("verified_revision")
    if recorded is None:
        return False
    today = revision_today(snapshot, edge)
    return today is not None and today != recorded.strip()
