"""The ends of an edge, for the rules that judge edges: the hit at an edge, its ends in the
relation's own direction, whether its other half, also written, reports what it states, and the
skip when the far end is no document."""

from __future__ import annotations

from collections.abc import Iterator

from headwater.check.context import Context
from headwater.check.finding import Hit, Skip
from headwater.corpus.document import Document
from headwater.graph import Edge
from headwater.taxonomy.model import Relation

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


def told_at_other_half(ctx: Context, edge: Edge) -> bool:
    """Whether the fact this half states is reported at the relation's other half, also written:
    an inverse half (`superseded_by`, `traced_by`) whose source writes the relation naming this
    document (`new --relates` writes both), or the later-sorting half of a symmetric pair
    (`conflicts_with` written at both ends, which either end alone would state). A rule that judges the pair
    as one fact reports it once; one finding, one fix. Its verdict then reads which document
    carries each identifier, by which the halves bind (`Reads.IDS`)."""
    far = ctx.far(edge)
    symmetric = edge.relation.reciprocal == "symmetric"
    if far is None or not (edge.inverse or (symmetric and far.path < edge.source)):
        return False
    return has_half(ctx, far, edge.relation, False, edge.source)


def has_half(ctx: Context, holder: Document, relation: Relation, inverse: bool, other: str) -> bool:
    """Whether `holder` writes `relation` (its inverse spelling, if `inverse`) naming the path `other`."""
    return any(e.target.path == other for e in _halves(ctx, holder, relation, inverse))


def names_half(ctx: Context, holder: Document, relation: Relation, inverse: bool, identifier: str) -> bool:
    """Whether `holder` writes `relation` (its inverse spelling, if `inverse`) naming `identifier`,
    wherever that identifier binds."""
    return any(e.target.text == identifier for e in _halves(ctx, holder, relation, inverse))


def _halves(ctx: Context, holder: Document, relation: Relation, inverse: bool) -> Iterator[Edge]:
    return (e for e in ctx.graph.outbound.get(holder.path, ())
            if e.relation.name == relation.name and e.inverse == inverse)
