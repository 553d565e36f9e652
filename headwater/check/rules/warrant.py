"""Warrants: a document's provenance — its warrant, its acceptance, the evidence it rests on, a promotion."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Severity, Skip
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.edge_ends import NOT_A_DOCUMENT, at_edge, canonical, told_at_other_half
from headwater.check.rules.hits import hit, ticked
from headwater.check.rules.prior import prior_front
from headwater.corpus.document import Document
from headwater.graph import Bound, Edge
from headwater.yaml.nodes import Map, Scalar, scalar_text

WARRANTS = ("accepted", "regenerated", "transcribed", "asserted")


NO_PROVENANCE = "the document declares no `provenance`, so there is no warrant to judge"


def _provenance(doc: Document) -> Map | None:
    node = doc.front.get("provenance")
    return node if isinstance(node, Map) else None


@rule("warrant.value.not_permitted", 1, Scope.DOCUMENT, Severity.ERROR,
      short="`provenance.warrant` is outside the four warrants.",
      full="A document's warrant says why it may be believed: `accepted`, `regenerated`, "
           "`transcribed` or `asserted`. Any other value is not a warrant.",
      help="""
`provenance.warrant` takes one of four values: `accepted` (a named person accepted it, with
`accepted_by`), `regenerated`, `transcribed` or `asserted`.
""",
      tags=("shape", "provenance"))
def warrant_value_not_permitted(ctx: Context, doc: Document):
    provenance = _provenance(doc)
    node = provenance.get("warrant") if provenance else None
    if node is None:
        return Skip(NO_PROVENANCE)
    text = node.text.strip() if isinstance(node, Scalar) else ""
    if text in WARRANTS:
        return []
    shown = f"`warrant: {text}`" if text else "an empty or non-scalar `warrant`"
    return [hit(doc, node, f"{shown} is not a warrant; a warrant is one of {ticked(WARRANTS)}",
                 f"write one of {ticked(WARRANTS)}", "provenance.warrant")]


@rule("warrant.acceptance.unpaired", 1, Scope.DOCUMENT, Severity.ERROR,
      short="`accepted` without `accepted_by`, or `accepted_by` without `accepted`.",
      full="An accepted warrant names who accepted it, and only an accepted warrant names an "
           "acceptor.",
      help="""
`warrant: accepted` needs `accepted_by` naming the person who accepted the document;
`accepted_by` beside any other warrant claims an acceptance that did not happen.
""",
      tags=("shape", "provenance"))
def warrant_acceptance_unpaired(ctx: Context, doc: Document):
    provenance = _provenance(doc)
    if provenance is None:
        return Skip(NO_PROVENANCE)
    warrant = provenance.get("warrant")
    accepted = isinstance(warrant, Scalar) and warrant.text.strip() == "accepted"
    by = provenance.get("accepted_by")
    named = isinstance(by, Scalar) and bool(by.text.strip())
    if accepted and not named:
        return [hit(doc, warrant, "`warrant: accepted` names nobody in `accepted_by`",
                     "add `accepted_by:` naming who accepted it, or lower the warrant to `asserted`",
                     "provenance.accepted_by")]
    if by is not None and not accepted:
        return [hit(doc, provenance.key("accepted_by"), "`accepted_by` stands beside a warrant "
                     "that is not `accepted`", "set `warrant: accepted` if that person accepted it, "
                     "otherwise delete `accepted_by`", "provenance.accepted_by")]
    return []


UNSUPPORTING = ("asserted",)


@rule("warrant.evidence.unsupported", 2, Scope.EDGE, Severity.WARN,
      short="A document claims `evidence_basis: evidenced` and rests it on an `asserted` document.",
      full="Through a relation of the `evidence` family, a document whose provenance says "
           "`evidence_basis: evidenced` points at evidence whose warrant is `asserted` (or is no "
           "warrant at all). The relation's target is the evidence; a relation that declares "
           "`evidence_at: from` makes its source the evidence instead. Where both halves are "
           "written, the half the source writes reports it.",
      help="""
An asserted document is neither external nor audited, so it cannot support an evidenced claim.
Point at an artifact somebody can audit, have a person read the evidence and set its warrant,
or write `evidence_basis: reconstructed` and say what the account was reconstructed from.
""",
      tags=("graph", "warrant"),
      routes=lambda ctx, edge: edge.relation.family == "evidence" and edge.target.bound is Bound.DOCUMENT,
      reads=(Reads.SUBJECT, Reads.IDS))  # whether the source writes its half binds by identifier
def warrant_evidence_unsupported(ctx: Context, edge: Edge):
    source, target = canonical(ctx, edge)
    if source is None or target is None:
        return Skip(NOT_A_DOCUMENT)
    claimant, evidence = (target, source) if edge.relation.evidence_at == "from" else (source, target)
    if claimant.provenance("evidence_basis") != "evidenced":
        return []
    warrant = evidence.warrant
    if warrant in WARRANTS and warrant not in UNSUPPORTING:
        return []
    if told_at_other_half(ctx, edge):
        return []  # one fact, one finding: the other half reports it
    said = f"whose warrant is `{warrant}`" if warrant else "which states no warrant"
    return [at_edge(edge, f"{ctx.label(claimant)} claims `evidence_basis: evidenced` and rests it, "
                     f"through `{edge.relation.name}`, on {ctx.label(evidence)}, {said}",
                     "point at evidence somebody can audit, have a person accept the evidence, or "
                     "write `evidence_basis: reconstructed`")]


def _warrant(front: Map) -> str:
    provenance = front.get("provenance")
    return (scalar_text(provenance.get("warrant")) or "").strip() if isinstance(provenance, Map) else ""


@rule("warrant.promoted", 1, Scope.DOCUMENT, Severity.INFO,
      short="The warrant moved from `asserted` to `accepted` in this change.",
      full="A promotion: at the base revision the document was only asserted, and this change "
           "records that a named person accepted it.",
      help="""
Promotions are counted so a reviewer sees, in the change that makes them, which documents
someone now vouches for. Nothing needs fixing; confirm that the person named in
`accepted_by` did accept the document.
""",
      tags=("change", "provenance"),
      routes=lambda ctx, doc: isinstance(doc.front.get("provenance"), Map),
      needs_change=True)
def warrant_promoted(ctx: Context, doc: Document):
    front = prior_front(ctx, doc)
    if front is None or isinstance(front, Skip):
        return front or []
    if _warrant(front) != "asserted" or _warrant(doc.front) != "accepted":
        return []
    provenance = doc.front.get("provenance")
    by = (scalar_text(provenance.get("accepted_by")) or "").strip()
    who = f", accepted by `{by}`" if by else ""
    return [hit(doc, provenance.get("warrant"), f"the warrant moved from `asserted` to `accepted` in this "
                 f"change{who}", "confirm that the person in `accepted_by` accepted this document; "
                 "nothing else is needed", "provenance.warrant")]


RULES = (warrant_value_not_permitted, warrant_acceptance_unpaired, warrant_evidence_unsupported, warrant_promoted)
