"""`related`: a document's edges, outbound in graph order, then inbound from other documents."""

from __future__ import annotations

from headwater.corpus.census import Outcome
from headwater.corpus.document import Document
from headwater.errors import Refusal
from headwater.federation.pinned import Federation, RemoteDocument, Unread
from headwater.frozen import frozen
from headwater.graph import Bound, Edge, Graph
from headwater.reads.target import find_row
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy

VERSION = "1.0"  # of the `related --json` document's shape


@frozen
class Neighbour:
    relation: str
    inbound: bool
    targets: tuple[str, ...]
    far: Document | RemoteDocument | None  # the document at the other end, when it is one
    cue: str | None
    cue_is_declared: bool
    governs: str
    unread: tuple[Unread, ...] = ()  # the pins binding nothing whose corpus the target names

    @property
    def target(self) -> str:
        return ", ".join(self.targets)


@frozen
class Related:
    """`related`'s answer: the argument as the reader wrote it, and the document's edges."""

    argument: str
    taxonomy: Taxonomy
    neighbours: tuple[Neighbour, ...]


def _flip(end: str) -> str:
    return {"source": "target", "target": "source"}.get(end, end)


def _targets(edge: Edge) -> tuple[str, ...]:
    if edge.target.anchor is not None and edge.target.bound is Bound.ANCHOR:
        return edge.target.anchor.patterns
    if edge.target.bound is Bound.DOCUMENT and edge.target.id:
        return (edge.target.id,)
    return tuple(p.strip() for p in edge.target.raw.split(",")) if edge.target.raw else ("",)


def neighbours(graph: Graph, tax: Taxonomy, path: str, federation: Federation) -> list[Neighbour]:
    scent = tax.facet_for_role("scent")
    found = []
    for edge in graph.outbound.get(path, ()):
        bound = edge.target.bound is Bound.DOCUMENT
        far = graph.documents.get(edge.target.path or "") if bound else None
        remote = edge.target.remote
        declared = edge.attribute("cue")
        cue = declared or (far.text_of(scent) if far else remote.summary if remote else None)
        targets = _targets(edge)
        unread = tuple(u for u in federation.unread if any(u.names(t) for t in targets))
        found.append(Neighbour(edge.written_as, False, targets, far or remote, cue, bool(declared),
                               tax.governs_reading(edge.relation, edge.inverse), unread))
    for edge in graph.inbound.get(path, ()):
        if edge.source == path:
            continue
        far = graph.documents[edge.source]
        relation = edge.relation
        if edge.inverse:
            name = relation.name
        else:
            symmetric = relation.reciprocal == "symmetric"
            name = relation.inverse or (relation.name if symmetric else f"{relation.name} of")
        cue = far.text_of(scent)
        found.append(Neighbour(name, True, (edge.source,), far, cue, False,
                               _flip(tax.governs_reading(relation, edge.inverse))))
    return found


def related(snapshot: Snapshot, argument: str) -> Related:
    """The edges of a path or an identifier, read as `explain` reads its argument, with the same
    refusals (`related` named as the verb)."""
    row = find_row(snapshot, argument, "related")
    if row.outcome is not Outcome.TYPED:
        raise Refusal(f"{argument} is not a document of this corpus")
    tax = snapshot.taxonomy
    return Related(argument, tax, tuple(neighbours(snapshot.graph, tax, row.path, snapshot.federation)))
