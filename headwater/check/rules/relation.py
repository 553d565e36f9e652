"""Relations over time: participation a kind expects, and verifications whose criterion moved."""

from __future__ import annotations

import datetime as dt

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity, Skip
from headwater.check.observations import read_observations
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.hits import at
from headwater.check.rules.graph import NOT_A_DOCUMENT, _at_edge
from headwater.clock import parse_date, parse_days
from headwater.corpus.document import Document
from headwater.graph import Bound, Edge
from headwater.taxonomy.model import Expectation

SEVERITIES = {s.value: s for s in Severity}


def _applies(ctx: Context, doc: Document, expectation: Expectation) -> bool:
    return all(doc.text_of(facet) == value for facet, value in expectation.when.items())


def _participates(ctx: Context, doc: Document, expectation: Expectation) -> bool:
    """Whether an edge of the expected relation joins the document to a document of the kind:
    written here under that name, or written at the far end under the opposite spelling."""
    named = ctx.taxonomy.relation_named(expectation.relation)
    if named is None:
        return False
    relation, inverse = named

    def fits(other: Document | None) -> bool:
        return other is not None and (expectation.to_kind is None or ctx.taxonomy.is_a(other.kind, expectation.to_kind))

    near = ctx.graph.outbound.get(doc.path, ())
    far = ctx.graph.inbound.get(doc.path, ())
    return (any(e.relation is relation and e.inverse == inverse and fits(ctx.far(e)) for e in near)
            or any(e.relation is relation and (e.inverse != inverse or relation.reciprocal == "symmetric")
                   and fits(ctx.document(e.source)) for e in far))


def _origin(ctx: Context, doc: Document, expectation: Expectation) -> dt.date | None:
    return parse_date(doc.text_of(ctx.taxonomy.facet_for_role(expectation.since)) or "")


@rule("relation.participation.overdue", 1, Scope.DOCUMENT, Severity.WARN,
      short="A document has not taken part in a relation its kind expects within the window.",
      full="The kind declares `relations.expect`: a document in the `when` facet values takes "
           "part in the relation (toward `to_kind`) within `within` of the date its `since` role "
           "holds (`created` or `state_entered`). The window has passed and no such edge exists, "
           "written at either end. The expectation's `severity` is the finding's.",
      help="""
An expectation states that work of this kind reaches somebody: a standard that regulates
nothing, a requirement nothing elaborates. Add the relation the expectation names, or move the
document to a state the expectation does not cover. The rationale in the message says why the
taxonomy expects it.
""",
      tags=("graph", "relation"),
      routes=lambda ctx, doc: bool(ctx.taxonomy.expectations_of(doc.kind)),
      reads_clock=True, reads=(Reads.UNSTATED,))
def relation_participation_overdue(ctx: Context, doc: Document):
    hits = []
    for expectation in ctx.taxonomy.expectations_of(doc.kind):
        if not _applies(ctx, doc, expectation):
            continue
        origin, days = _origin(ctx, doc, expectation), parse_days(expectation.within)
        if origin is None or days is None:
            return Skip(f"the document states no `{expectation.since}` date the window counts from")
        late = (ctx.today - origin).days - days
        if late <= 0 or _participates(ctx, doc, expectation):
            continue
        toward = f" toward a `{expectation.to_kind}`" if expectation.to_kind else ""
        line, column = at(doc.value(ctx.taxonomy.facet_for_role(expectation.since)))
        hits.append(Hit(doc.path, line, column, f"`{expectation.id}`: {(ctx.today - origin).days} days since "
                        f"{origin.isoformat()} and no `{expectation.relation}`{toward}, which the kind "
                        f"expects within {expectation.within}: {expectation.rationale}",
                        f"add a `{expectation.relation}` relation{toward}, or move the document out of "
                        f"the state the expectation covers", expectation.id,
                        SEVERITIES.get(expectation.severity or "")))
    return hits


def _verification(ctx: Context, edge: Edge):
    """The observed verification of this edge's two documents, if the observations record one."""
    near, far = ctx.document(edge.source), ctx.far(edge)
    if edge.target.bound is not Bound.DOCUMENT or near is None or far is None or not near.id or not far.id:
        return None
    observations = ctx.snapshot.derived("observations", lambda: read_observations(ctx.snapshot.root))
    return observations.verification(near.id, far.id)


@rule("relation.target.verification.suspect", 1, Scope.EDGE, Severity.WARN,
      short="A recorded verification's criterion changed since it was verified.",
      full="`.headwater/observations.yml` records that the declaring document verified the "
           "relation's target document at a `criterion_digest`, and the target's bytes today hash "
           "to something else, so the verification may no longer hold.",
      help="""
A verification is evidence about one version of its criterion. Re-run the verification
against the criterion as it stands, then record the new `criterion_digest` (and commit) in
`.headwater/observations.yml`.
""",
      tags=("graph", "relation"),
      routes=lambda ctx, edge: _verification(ctx, edge) is not None,
      reads=(Reads.UNSTATED,))
def relation_target_verification_suspect(ctx: Context, edge: Edge):
    near, far, entry = ctx.document(edge.source), ctx.far(edge), _verification(ctx, edge)
    if near is None or far is None or entry is None:
        return Skip(NOT_A_DOCUMENT)
    if entry.fields["criterion_digest"] == far.digest:
        return []
    return [_at_edge(edge, f"{ctx.label(near)} verified {ctx.label(far)} at "
                     f"{entry.fields['criterion_digest'][:19]}…, and {ctx.label(far)} now hashes to "
                     f"{far.digest[:19]}…", "re-run the verification against the criterion as it "
                     f"stands, then record `criterion_digest: {far.digest}`")]


RULES = (relation_participation_overdue, relation_target_verification_suspect)
