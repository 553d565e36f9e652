"""Warrant: an `evidenced` claim rests on evidence somebody can audit, not on an `asserted` text."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Severity, Skip
from headwater.check.rule import Scope, rule
from headwater.check.rules.graph import NOT_A_DOCUMENT, _at_edge, _canonical
from headwater.check.rules.shape import WARRANTS
from headwater.graph import Bound, Edge

UNSUPPORTING = ("asserted",)


@rule("warrant.evidence.unsupported", 1, Scope.EDGE, Severity.WARN,
      short="A document claims `evidence_basis: evidenced` and rests it on an `asserted` document.",
      full="Through a relation of the `evidence` family, a document whose provenance says "
           "`evidence_basis: evidenced` points at evidence whose warrant is `asserted` (or is no "
           "warrant at all). The relation's target is the evidence; a relation that declares "
           "`evidence_at: from` makes its source the evidence instead.",
      help="""
An asserted document is neither external nor audited, so it cannot support an evidenced claim.
Point at an artifact somebody can audit, have a person read the evidence and set its warrant,
or write `evidence_basis: reconstructed` and say what the account was reconstructed from.
""",
      tags=("graph", "warrant"),
      routes=lambda ctx, edge: edge.relation.family == "evidence" and edge.target.bound is Bound.DOCUMENT)
def warrant_evidence_unsupported(ctx: Context, edge: Edge):
    source, target = _canonical(ctx, edge)
    if source is None or target is None:
        return Skip(NOT_A_DOCUMENT)
    claimant, evidence = (target, source) if edge.relation.evidence_at == "from" else (source, target)
    if claimant.provenance("evidence_basis") != "evidenced":
        return []
    warrant = evidence.warrant
    if warrant in WARRANTS and warrant not in UNSUPPORTING:
        return []
    said = f"whose warrant is `{warrant}`" if warrant else "which states no warrant"
    return [_at_edge(edge, f"{ctx.label(claimant)} claims `evidence_basis: evidenced` and rests it, "
                     f"through `{edge.relation.name}`, on {ctx.label(evidence)}, {said}",
                     "point at evidence somebody can audit, have a person accept the evidence, or "
                     "write `evidence_basis: reconstructed`")]


RULES = (warrant_evidence_unsupported,)
