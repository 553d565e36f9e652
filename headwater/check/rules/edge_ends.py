"""The ends of an edge, for the rules that judge edges: the hit at an edge, its ends in the
relation's own direction, whether its other half is written too, and the skip when the far end is
no document."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Skip
from headwater.corpus.document import Document
from headwater.graph import Edge

NOT_A_DOCUMENT = "the target is not a document, which `relation.target.unresolved` reports if it binds nothing"


HARVESTED = "the target is a document of a harvested corpus, which this repository reads and never writes"


def no_far_document(edge: Edge) -> Skip:
    return Skip(HARVESTED if edge.target.remote is not None else NOT_A_DOCUMENT)


def at_edge(edge: Edge, message: str, remediation: str, **more) -> Hit:
    return Hit(edge.source, edge.line, edge.column, message, remediation,
               f"{edge.written_as}>{edge.target.text}", **more)


def canonical(ctx: Context, edge: Edge) -> tuple[Document | None, Document | None]:
    """(source, target) in the relation's own direction, undoing an inverse spelling."""
    near, far = ctx.document(edge.source), ctx.far(edge)
    return (far, near) if edge.inverse else (near, far)


def told_by_forward_half(ctx: Context, edge: Edge) -> bool:
    """Whether this is an inverse half (`superseded_by`, `traced_by`) whose relation its source
    also writes, naming this document: `new --relates` writes both. A rule that judges the pair
    as one fact reports it at the source's half alone; one finding, one fix. Its verdict then
    reads which document carries each identifier, by which the halves bind (`Reads.IDS`)."""
    if not edge.inverse:
        return False
    source = ctx.far(edge)
    return source is not None and any(
        e.relation.name == edge.relation.name and not e.inverse and e.target.path == edge.source
        for e in ctx.graph.outbound.get(source.path, ()))
