"""The ends of an edge, for the rules that judge edges: the hit at an edge, its ends in the
relation's own direction, and the skip when the far end is no document."""

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
