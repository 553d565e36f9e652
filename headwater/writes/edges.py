"""`--relates rel=target` for a new document: only relations the kind may declare, only targets
that resolve in the snapshot's graph (a document by identifier, or a `code_path` pattern that
matches something), and which far halves the targets then owe."""

from __future__ import annotations

from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.paths import OutsidePath, normalize
from headwater.patterns import opening_wildcard
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Permitted
from headwater.textsafe import shown
from headwater.writes.inputs import COMMAND_LINE, Spelling


@frozen
class Proposed:
    written_as: str
    target: str  # as the new document writes it
    path: str | None  # the target document, for a document target
    reached: str  # what the report says the target is
    far_half: str | None  # the name the target writes back, when the relation requires it
    symmetric: bool


def propose(snapshot: Snapshot, kind: str, relates: list[tuple[str, str]],
            spelling: Spelling = COMMAND_LINE) -> list[Proposed]:
    permitted = {p.written_as: p for p in snapshot.taxonomy.permitted(kind)}
    out: list[Proposed] = []
    for name, raw in relates:
        allowed = permitted.get(name)
        if allowed is None:
            names = ", ".join(permitted) or "none"
            raise Refusal(f"a `{kind}` may not declare `{shown(name)}`; the relations it may declare are {names}")
        proposed = _bind(snapshot, kind, allowed, raw.strip())
        if any(p.written_as == name and p.target == proposed.target for p in out):
            raise Refusal(f"`{spelling.giving('relates', shown(f'{name}={raw}'))}` is given twice")
        out.append(proposed)
    return out


def grouped(proposed: list[Proposed]) -> list[tuple[str, list[str]]]:
    """Targets under each relation name, in the order the relations were first given."""
    names: dict[str, list[str]] = {}
    for edge in proposed:
        names.setdefault(edge.written_as, []).append(edge.target)
    return list(names.items())


def _far_half(allowed: Permitted) -> str | None:
    relation = allowed.relation
    if relation.reciprocal != "required":
        return None
    return relation.name if allowed.inverse else (relation.inverse or relation.name)


def _bind(snapshot: Snapshot, kind: str, allowed: Permitted, raw: str) -> Proposed:
    taxonomy, graph = snapshot.taxonomy, snapshot.graph
    document_ends = tuple(k for k in allowed.far_kinds if k in taxonomy.kinds)
    anchor_ends = [a for a in allowed.far_kinds if taxonomy.is_anchor_kind(a)]
    symmetric = allowed.relation.reciprocal == "symmetric"
    if document_ends:
        document = graph.document_by_id(raw)
        if document is not None and document.kind:
            if not taxonomy.end_admits(document_ends, document.kind):
                raise Refusal(f"`{allowed.written_as}` from a `{kind}` reaches {', '.join(allowed.far_kinds)}, "
                              f"and `{shown(raw)}` is a `{document.kind}`")
            return Proposed(allowed.written_as, raw, document.path, f"{raw} ({document.path})",
                            _far_half(allowed), symmetric)
        if raw in graph.near_miss:
            raise Refusal(f"`{shown(raw)}` is carried by {graph.near_miss[raw]}, which is untyped, so "
                          f"`{allowed.written_as}` cannot reach it")
    if anchor_ends:
        return _anchor(snapshot, allowed, raw, symmetric)
    raise Refusal(f"no document carries `{shown(raw)}`, so `{allowed.written_as}` has nothing to reach")


def _anchor(snapshot: Snapshot, allowed: Permitted, raw: str, symmetric: bool) -> Proposed:
    try:
        pattern = normalize(raw)
    except OutsidePath:
        raise Refusal(f"`{shown(raw)}` climbs above the repository or is absolute, so `{allowed.written_as}` "
                      "cannot reach it") from None
    if not pattern or opening_wildcard(pattern):
        raise Refusal(f"`{shown(raw)}` opens with a wildcard, and no literal segment bounds the search")
    matched = snapshot.tree.matches(pattern)
    if not matched:
        raise Refusal(f"no document carries `{shown(raw)}`, and as a path pattern it matches nothing in the repository")
    return Proposed(allowed.written_as, pattern, None, f"{pattern} ({len(matched)} path(s))", None, symmetric)
