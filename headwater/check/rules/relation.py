"""Relations: the declared `relations:` block and each edge it makes — target, endpoints,
reciprocity, freshness, participation."""

from __future__ import annotations

import datetime as dt

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity, Skip
from headwater.check.observations import read_observations
from headwater.check.patches import AddToList, Patch, ReplaceSpan, replace_value
from headwater.check.rule import Precision, Reads, Scope, rule
from headwater.check.rules.edge_ends import (
    NOT_A_DOCUMENT,
    at_edge,
    has_half,
    names_half,
    no_far_document,
    told_at_other_half,
)
from headwater.check.rules.hits import at, problem_hit, ticked
from headwater.check.suspect import revision_today
from headwater.clock import parse_date, parse_days
from headwater.corpus.document import Document
from headwater.graph import Bound, Edge, ProblemKind
from headwater.taxonomy.canonical import scalar
from headwater.taxonomy.model import Expectation

DECLARATION_PROBLEMS = {
    ProblemKind.RELATIONS_NOT_A_MAPPING: "write `relations:` as a mapping from relation names to targets",
    ProblemKind.UNKNOWN_RELATION: "use a relation the taxonomy declares; `headwater explain {path}` "
                                  "lists the ones this kind may write",
    ProblemKind.ENTRY_WITHOUT_TO: "give the entry a `to:` naming its target",
    ProblemKind.DUPLICATE_TARGET: "delete the repeated entry",
    ProblemKind.LIST_TARGET: "write each identifier as its own entry of the list under the relation",
}


def _written(edge: Edge) -> str:
    return f"`{edge.written_as}: {edge.target.text}`"


@rule("relation.declaration.unusable", 2, Scope.DOCUMENT, Severity.ERROR,
      short="The `relations:` block cannot be read as declared relations.",
      full="`relations:` is not a mapping, names a relation the taxonomy does not declare, has "
           "an entry without `to`, has a list-shaped entry under a relation that reaches only "
           "documents, or names one target twice.",
      help="""
`relations:` maps relation names (or their inverse names) to a target, a list of targets, or
`{to: target, <attribute>: value}` entries. Each problem here stops one entry from becoming
an edge of the graph.
""",
      tags=("graph", "relation"),
      routes=lambda ctx, doc: doc.relations is not None)
def relation_declaration_unusable(ctx: Context, doc: Document):
    return [problem_hit(p, DECLARATION_PROBLEMS[p.kind].format(path=doc.path))
            for p in ctx.graph.problems if p.path == doc.path and p.kind in DECLARATION_PROBLEMS]


@rule("relation.target.unresolved", 4, Scope.EDGE, Severity.ERROR,
      short="A relation's target binds to nothing.",
      full="The target names no typed document and no file: an unknown identifier, an untyped "
           "file, a pattern matching nothing, or a path written where an identifier belongs.",
      help="""
A document target is an identifier (`ACME-DR-0001`), never a path; an anchor target is a
pattern over the repository that must match at least one file. The message says why this
one binds nothing and, for a path, which identifier to write instead.
""",
      tags=("graph", "relation"))
def relation_target_unresolved(ctx: Context, edge: Edge):
    if edge.target.bound is not Bound.UNBOUND:
        return []
    reason = edge.target.reason
    if "write `" in reason:
        remedy = "write " + reason.split("write ", 1)[1] + " as the target"
    elif edge.target.anchor is not None or "pattern" in reason or "climbs" in reason:
        remedy = "write a repository-relative pattern that matches at least one file"
    else:
        ends = edge.relation.sources if edge.inverse else edge.relation.targets
        remedy = f"name the identifier of an existing {' or '.join(ends)}, or delete the entry"
    return [at_edge(edge, f"{_written(edge)} binds to nothing: {reason}", remedy)]


@rule("relation.target.is_source", 3, Scope.EDGE, Severity.ERROR,
      short="A relation names its own document.",
      full="An edge whose target is the document that declares it relates nothing.",
      help="""
A relation joins two things. An entry that names the declaring document itself (by its
identifier, or by its own path as an anchor) says nothing; delete it or name the other end.
""",
      tags=("graph", "relation"))
def relation_target_is_source(ctx: Context, edge: Edge):
    target = edge.target
    own = (target.bound is Bound.DOCUMENT and target.path == edge.source) or (
        target.anchor is not None and target.anchor.patterns == (edge.source,))
    if not own:
        return []
    return [at_edge(edge, f"{_written(edge)} names this document itself",
                     "name the other end of the relation, or delete the entry")]


def _end_problem(ctx: Context, ends: tuple[str, ...], kind: str | None, who: str) -> str | None:
    if kind is None or ctx.taxonomy.end_admits(ends, kind):
        return None
    return f"{who} is a `{kind}`, and the relation admits {ticked(ends)} there"


@rule("relation.endpoint.not_permitted", 1, Scope.EDGE, Severity.ERROR,
      short="An endpoint's kind is outside the relation's `from` or `to`.",
      full="The relation declares which kinds may stand at each end; this edge puts a kind "
           "outside that declaration at one of them.",
      help="""
Each relation declares the kinds at its `from` end and its `to` end (an inverse name swaps
them). `headwater explain <path>` lists the relations a document's kind may declare.
""",
      tags=("graph", "relation"))
def relation_endpoint_not_permitted(ctx: Context, edge: Edge):
    relation = edge.relation
    near_ends, far_ends = (relation.targets, relation.sources) if edge.inverse else (relation.sources, relation.targets)
    near, far = ctx.document(edge.source), ctx.far(edge)
    problems = [_end_problem(ctx, near_ends, near.kind, "this document"),
                _end_problem(ctx, far_ends, far.kind if far else None, f"`{edge.target.text}`")]
    return [at_edge(edge, f"{_written(edge)}: {problem}",
                     "use a relation that joins these kinds, or delete the entry")
            for problem in problems if problem]


@rule("relation.reciprocity.missing", 4, Scope.EDGE, Severity.ERROR,
      short="A relation that must be written at both ends lacks its far half.",
      full="The relation is `reciprocal: required` (the far document writes the inverse), and "
           "the far half is missing. A `symmetric` relation is one fact written once: either end "
           "may write it, and the other end owes nothing.",
      help="""
Some relations are read from both ends, so both documents write their half: `supersedes` on
one and `superseded_by` on the other. The fix adds the missing half to the far document. A
symmetric relation (`conflicts_with`) reads the same from either end, so one end writing it
is enough.
""",
      tags=("graph", "relation"),
      # a symmetric relation reads the same from either end, so one half states the whole fact
      routes=lambda ctx, edge: edge.relation.reciprocal == "required",
      patch=True, reads=(Reads.SUBJECT, Reads.IDS))  # the far document's edges bind by identifier
def relation_reciprocity_missing(ctx: Context, edge: Edge):
    far = ctx.far(edge)
    near = ctx.document(edge.source)
    if far is None:
        return no_far_document(edge)
    if near.id is None:
        return Skip("the declaring document has no identifier the far half could name")
    inverse = not edge.inverse
    if has_half(ctx, far, edge.relation, inverse, near.path):
        return []
    if names_half(ctx, far, edge.relation, inverse, near.id):
        return []  # written, but the identifier binds elsewhere: `identifier.claimed_twice` says why
    name = edge.relation.name if edge.inverse else edge.relation.inverse
    half = f"`{name}: {near.id}`"
    return [at_edge(edge, f"{_written(edge)} needs its far half, and {far.path} lacks {half}",
                     f"add {half} under `relations:` in {far.path}",
                     patch=Patch(far.path, far.digest, (AddToList(("relations", name), near.id),)))]


def _held(condition: dict[str, tuple[str, ...]], near: Document, far: Document) -> str:
    """What the two ends hold: a condition may admit several values (a team's live states), so
    the ends need not hold the same one."""
    if all(near.text_of(f) == far.text_of(f) for f in condition):
        return "both hold " + ", ".join(f"`{f}: {near.text_of(f)}`" for f in condition)
    return "hold " + " and ".join(", ".join(f"`{f}: {end.text_of(f)}`" for f in condition) for end in (near, far))


@rule("relation.pair.invalid", 3, Scope.EDGE, Severity.WARN,
      short="Both ends of a relation hold a combination the relation declares invalid.",
      full="The relation declares `invalid_when.both`, and both documents it joins hold those "
           "facet values (for example two `current` decisions that conflict). Where both halves "
           "are written, one of them reports it.",
      help="""
Some pairs cannot both hold: two decisions that conflict cannot both be current. Settle which
one holds, and move the other to a terminal state (or supersede it).
""",
      tags=("graph", "relation", "lifecycle"),
      routes=lambda ctx, edge: bool(edge.relation.invalid_when_both),
      reads=(Reads.SUBJECT, Reads.IDS))  # whether the other half is written binds by identifier
def relation_pair_invalid(ctx: Context, edge: Edge):
    near, far = ctx.document(edge.source), ctx.far(edge)
    if far is None:
        return no_far_document(edge)
    condition = edge.relation.invalid_when_both
    if not all(near.text_of(f) in held and far.text_of(f) in held for f, held in condition.items()):
        return []
    if told_at_other_half(ctx, edge):
        return []  # one fact, one finding: the other half reports it
    return [at_edge(edge, f"{_written(edge)} joins two documents that {_held(condition, near, far)}, which "
                     f"`{edge.relation.name}` declares invalid",
                     "settle which document holds, and move the other out of that state")]


def _short(revision: str) -> str:
    return revision.removeprefix("sha256:")[:12]


@rule("relation.target.suspect", 12, Scope.EDGE, Severity.WARN,
      short="What an edge's target holds changed since the edge was verified.",
      full="The edge records the `verified_revision` at which someone checked the target, and "
           "the target's revision today differs (for an anchor, the content digest of what its "
           "patterns match).",
      help="""
An edge stamped with `verified_revision` says "I checked this document against that target at
this revision". When the target changes, re-read the document against it; then record the
re-read with `headwater change` and `headwater check --fix --change <manifest>`.
""",
      tags=("graph", "relation", "revision"), precision=Precision.HIGH,
      routes=lambda ctx, edge: "verified_revision" in edge.relation.attributes,
      patch=True, reads=(Reads.SUBJECT, Reads.ANCHOR, Reads.CHANGE))  # the stamp needs the change
def relation_target_suspect(ctx: Context, edge: Edge):
    recorded = edge.attribute("verified_revision")
    target = edge.target
    restated = ctx.change is not None and ctx.change.restates_edge(edge.source, target.text, ctx.snapshot)
    if recorded is None and not restated:
        return []  # nothing recorded, nothing re-read: no revision to read (it costs a hash)
    today = revision_today(ctx.snapshot, edge)
    if today is None:
        return [] if recorded is None else Skip("the target binds to nothing, so it has no revision to compare")
    if recorded is None:
        return _first_stamp(ctx, edge, today)
    if today == recorded.strip():
        return []
    node = dict(edge.attributes)["verified_revision"]
    return [Hit(edge.source, node.line, node.column,
                f"{_written(edge)} was verified at {_short(recorded)}, and its target is at "
                f"{_short(today)} today", f"re-read this document against `{target.text}`; then record "
                "the re-read with `headwater change` and `headwater check --fix --change <manifest>`",
                f"{edge.written_as}>{target.text}",
                patch=_stamp(ctx.document(edge.source), node, recorded.strip(), today) if restated else None)]


def _first_stamp(ctx: Context, edge: Edge, today: str) -> list[Hit]:
    """An unstamped edge the change states a re-read of: record the revision it was read at.

    Only an entry written as a bare value can take the stamp mechanically (it becomes
    `{to: <value>, verified_revision: <digest>}`); any other shape is left to the author."""
    doc = ctx.document(edge.source)
    written = _bare_entry(doc, edge) if doc else None
    if written is None:
        return []
    stamped = f"{{to: {scalar(edge.target.raw)}, verified_revision: {scalar(today)}}}"
    patch = Patch(doc.path, doc.digest, (ReplaceSpan(edge.line, edge.column, written, stamped),))
    return [Hit(edge.source, edge.line, edge.column,
                f"{_written(edge)} carries no `verified_revision`, and this change states a re-read of it",
                f"record the re-read: write `verified_revision: {_short(today)}…` on the entry, which "
                "`headwater check --fix --change <manifest>` does", f"{edge.written_as}>{edge.target.text}",
                severity=Severity.INFO, patch=patch)]


def _bare_entry(doc: Document, edge: Edge) -> str | None:
    """The entry's text as written at its position (plain or quoted), when it is a bare value."""
    lines = doc.text.split("\n")
    if not 1 <= edge.line <= len(lines):
        return None
    at = lines[edge.line - 1][edge.column - 1:]
    raw = edge.target.raw
    for written in (raw, f'"{raw}"', f"'{raw}'"):
        if at.startswith(written) and not at[len(written):].lstrip().startswith(":"):
            return written
    return None


def _stamp(doc: Document, node, recorded: str, today: str) -> Patch | None:
    edit = replace_value(doc.text, node.line, node.column, recorded, today)
    return Patch(doc.path, doc.digest, (edit,)) if edit else None


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
    if edge.target.bound is not Bound.DOCUMENT:
        return None
    observations = ctx.snapshot.derived("observations", lambda: read_observations(ctx.snapshot.root))
    if not observations.verifications:  # most corpora record none: no edge's ends need looking up
        return None
    near, far = ctx.document(edge.source), ctx.far(edge)
    if near is None or far is None or not near.id or not far.id:
        return None
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
    return [at_edge(edge, f"{ctx.label(near)} verified {ctx.label(far)} at "
                     f"{entry.fields['criterion_digest'][:19]}…, and {ctx.label(far)} now hashes to "
                     f"{far.digest[:19]}…", "re-run the verification against the criterion as it "
                     f"stands, then record `criterion_digest: {far.digest}`")]


RULES = (
    relation_declaration_unusable,
    relation_target_unresolved,
    relation_target_is_source,
    relation_endpoint_not_permitted,
    relation_reciprocity_missing,
    relation_pair_invalid,
    relation_target_suspect,
    relation_participation_overdue,
    relation_target_verification_suspect,
)
