"""Graph: relation entries, their targets and endpoints, and identity across documents."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity, Skip
from headwater.check.patches import AddToList, Create, Patch, ReplaceSpan, SetScalar, replace_value
from headwater.check.rule import Precision, Reads, Scope, rule
from headwater.check.rules.hits import hit, problem_hit, ticked
from headwater.corpus.document import Document
from headwater.graph import Bound, Edge, ProblemKind
from headwater.taxonomy.canonical import scalar
from headwater.taxonomy.model import Relation
from headwater.yaml.nodes import Scalar

DECLARATION_PROBLEMS = {
    ProblemKind.RELATIONS_NOT_A_MAPPING: "write `relations:` as a mapping from relation names to targets",
    ProblemKind.UNKNOWN_RELATION: "use a relation the taxonomy declares; `headwater explain {path}` "
                                  "lists the ones this kind may write",
    ProblemKind.ENTRY_WITHOUT_TO: "give the entry a `to:` naming its target",
    ProblemKind.DUPLICATE_TARGET: "delete the repeated entry",
    ProblemKind.LIST_TARGET: "write each identifier as its own entry of the list under the relation",
}
NOT_A_DOCUMENT = "the target is not a document, which `relation.target.unresolved` reports if it binds nothing"
HARVESTED = "the target is a document of a harvested corpus, which this repository reads and never writes"


def _no_far_document(edge: Edge) -> Skip:
    return Skip(HARVESTED if edge.target.remote is not None else NOT_A_DOCUMENT)


def _at_edge(edge: Edge, message: str, remediation: str, **more) -> Hit:
    return Hit(edge.source, edge.line, edge.column, message, remediation,
               f"{edge.written_as}>{edge.target.text}", **more)


def _written(edge: Edge) -> str:
    return f"`{edge.written_as}: {edge.target.text}`"


def _canonical(ctx: Context, edge: Edge) -> tuple[Document | None, Document | None]:
    """(source, target) in the relation's own direction, undoing an inverse spelling."""
    near, far = ctx.document(edge.source), ctx.far(edge)
    return (far, near) if edge.inverse else (near, far)


# -- declaration and identity ---------------------------------------------------------------


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


@rule("identifier.claimed_twice", 1, Scope.CORPUS, Severity.ERROR,
      short="Two documents declare one identifier.",
      full="An identifier names one document; when two declare it, each gets a finding.",
      help="""
Two documents carry the same `id`, so every relation and link that names it is ambiguous.
Keep the identifier on the document that had it first and give the other a fresh one.
""",
      tags=("graph", "identifier"),
      reads=(Reads.SUBJECT,))
def identifier_claimed_twice(ctx: Context, _subject):
    return [problem_hit(p, "keep the identifier on one document and give the other the next free one")
            for p in ctx.graph.problems if p.kind is ProblemKind.DUPLICATE_ID]


def _reconcile_first(ctx: Context, doc: Document):
    scheme = ctx.taxonomy.scheme_of(doc.kind)
    return scheme if scheme is not None and scheme.allocation == "reconcile-first" else None


@rule("identifier.claim.missing", 2, Scope.DOCUMENT, Severity.ERROR,
      short="A `reconcile-first` identifier has no claim file.",
      full="Identifiers of a `reconcile-first` scheme are claimed in `.headwater/ids/<scheme>/<id>` "
           "so two branches cannot mint the same one; this identifier has no claim.",
      help="""
A claim file records that an identifier is spent, so that branches reconcile before merging
instead of minting the same number twice. The fix creates the file, holding the document's path.
""",
      tags=("graph", "identifier"),
      routes=lambda ctx, doc: _reconcile_first(ctx, doc) is not None,
      patch=True, reads=(Reads.SUBJECT, Reads.CLAIMS))
def identifier_claim_missing(ctx: Context, doc: Document):
    scheme = _reconcile_first(ctx, doc)
    identifier = doc.id
    if identifier is None or not scheme.regex.match(identifier):
        return Skip("the document has no identifier of its scheme, which the identifier rules report")
    if ctx.claim_exists(scheme.name, identifier):
        return []
    claim = ctx.claim_path(scheme.name, identifier)
    return [hit(doc, doc.id_node, f"`{identifier}` is spent, and `{claim}` does not claim it",
                f"create `{claim}` holding `{doc.path}`", "id",
                patch=Patch(claim, None, (Create(doc.path + "\n"),)))]


# -- targets and endpoints ------------------------------------------------------------------


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
    return [_at_edge(edge, f"{_written(edge)} binds to nothing: {reason}", remedy)]


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
    return [_at_edge(edge, f"{_written(edge)} names this document itself",
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
    return [_at_edge(edge, f"{_written(edge)}: {problem}",
                     "use a relation that joins these kinds, or delete the entry")
            for problem in problems if problem]


# -- reciprocity and pairs ------------------------------------------------------------------


def _has_half(ctx: Context, holder: Document, relation: Relation, inverse: bool, other: str) -> bool:
    return any(e.relation.name == relation.name and e.inverse == inverse and e.target.path == other
               for e in ctx.graph.outbound.get(holder.path, ()))


@rule("relation.reciprocity.missing", 3, Scope.EDGE, Severity.ERROR,
      short="A relation that must be written at both ends lacks its far half.",
      full="The relation is `reciprocal: required` (the far document writes the inverse) or "
           "`symmetric` (the far document writes the same relation), and the far half is missing.",
      help="""
Some relations are read from both ends, so both documents write their half: `supersedes` on
one and `superseded_by` on the other. The fix adds the missing half to the far document.
""",
      tags=("graph", "relation"),
      routes=lambda ctx, edge: edge.relation.reciprocal in ("required", "symmetric"),
      patch=True, reads=(Reads.SUBJECT, Reads.IDS))  # the far document's edges bind by identifier
def relation_reciprocity_missing(ctx: Context, edge: Edge):
    far = ctx.far(edge)
    near = ctx.document(edge.source)
    if far is None:
        return _no_far_document(edge)
    if near.id is None:
        return Skip("the declaring document has no identifier the far half could name")
    symmetric = edge.relation.reciprocal == "symmetric"
    inverse = edge.inverse if symmetric else not edge.inverse
    if _has_half(ctx, far, edge.relation, inverse, near.path):
        return []
    name = edge.relation.name if symmetric or edge.inverse else edge.relation.inverse
    half = f"`{name}: {near.id}`"
    return [_at_edge(edge, f"{_written(edge)} needs its far half, and {far.path} lacks {half}",
                     f"add {half} under `relations:` in {far.path}",
                     patch=Patch(far.path, far.digest, (AddToList(("relations", name), near.id),)))]


@rule("relation.pair.invalid", 2, Scope.EDGE, Severity.WARN,
      short="Both ends of a relation hold a combination the relation declares invalid.",
      full="The relation declares `invalid_when.both`, and both documents it joins hold those "
           "facet values (for example two `current` decisions that conflict).",
      help="""
Some pairs cannot both hold: two decisions that conflict cannot both be current. Settle which
one holds, and move the other to a terminal state (or supersede it).
""",
      tags=("graph", "relation", "lifecycle"),
      routes=lambda ctx, edge: bool(edge.relation.invalid_when_both))
def relation_pair_invalid(ctx: Context, edge: Edge):
    near, far = ctx.document(edge.source), ctx.far(edge)
    if far is None:
        return _no_far_document(edge)
    condition = edge.relation.invalid_when_both
    if not all(near.text_of(f) == v and far.text_of(f) == v for f, v in condition.items()):
        return []
    held = ", ".join(f"`{f}: {v}`" for f, v in condition.items())
    return [_at_edge(edge, f"{_written(edge)} joins two documents that both hold {held}, which "
                     f"`{edge.relation.name}` declares invalid",
                     "settle which document holds, and move the other out of that state")]


# -- revisions ------------------------------------------------------------------------------


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
    if target.bound is Bound.ANCHOR and target.anchor is not None:
        today = ctx.snapshot.tree.revision(target.anchor.matched)
    elif target.bound is Bound.DOCUMENT and ctx.far(edge) is not None:
        today = ctx.far(edge).digest
    elif target.remote is not None:
        today = target.remote.digest  # as the pinned export states it
    elif recorded is None:
        return []
    else:
        return Skip("the target binds to nothing, so it has no revision to compare")
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


def _set_facet(doc: Document, facet: str, value: str):
    """Over the value the author wrote where there is one (keeping its bytes around it), else a new key."""
    node = doc.value(facet)
    old = node.text.strip() if isinstance(node, Scalar) else ""
    edit = replace_value(doc.text, node.line, node.column, old, value) if old else None
    return edit or SetScalar((facet,), value)


# -- lifecycle over edges -------------------------------------------------------------------


def _resting(ctx: Context, edge: Edge) -> tuple[Document | None, Document | None]:
    """(the end that rests, the end it rests on): the non-governing end on the governing one."""
    near, far = ctx.document(edge.source), ctx.far(edge)
    if ctx.taxonomy.governs_reading(edge.relation, edge.inverse) == "source":
        return far, near
    return near, far


@rule("lifecycle.dependency.on_terminal", 1, Scope.EDGE, Severity.WARN,
      short="A live document rests on a document in a terminal state.",
      full="Through a `lifecycle_sensitive` relation, a live document rests on one that is "
           "superseded or retired; the non-governing end rests on the governing end, and "
           "where neither governs, the source rests on the target.",
      help="""
A document that rests on a superseded or deprecated one may be carrying a rule that no longer
holds. Re-point the relation at the document that holds now, or retire the dependent too.
""",
      tags=("graph", "lifecycle"),
      routes=lambda ctx, edge: edge.relation.lifecycle_sensitive)
def lifecycle_dependency_on_terminal(ctx: Context, edge: Edge):
    dependent, base = _resting(ctx, edge)
    if dependent is None or base is None:
        return _no_far_document(edge)
    state_of_base = ctx.state(base)
    if not (ctx.taxonomy.is_live(ctx.state(dependent)) and ctx.taxonomy.is_terminal(state_of_base)):
        return []
    return [_at_edge(edge, f"{ctx.label(dependent)} ({ctx.state(dependent)}) rests through "
                     f"`{edge.relation.name}` on {ctx.label(base)}, which is {state_of_base}",
                     f"re-point the relation at the document that holds now, or move "
                     f"{ctx.label(dependent)} to a terminal state too")]


@rule("lifecycle.state.not_set_by_edge", 2, Scope.EDGE, Severity.ERROR,
      short="A relation that sets its target's state finds the target in another state.",
      full="The relation declares `on_target.set_state` (for example `supersedes` sets "
           "`superseded`), and the target does not stand at that state. Error when the target "
           "is live, warning when it is terminal; silent while either end is at its initial state.",
      help="""
Writing `supersedes: X` makes `X` superseded; the target's own state facet must say so, with
the date it entered that state. The fix sets both on a live target.
""",
      tags=("graph", "lifecycle"),
      routes=lambda ctx, edge: edge.relation.set_state is not None,
      patch=True, reads_clock=True)  # the patch dates the state it sets
def lifecycle_state_not_set_by_edge(ctx: Context, edge: Edge):
    source, target = _canonical(ctx, edge)
    if source is None or target is None:
        return _no_far_document(edge)
    wanted, state = edge.relation.set_state, ctx.state(target)
    if state is None:
        return Skip("the target declares no state, which the facet rules report")
    roles = (ctx.taxonomy.state_role(ctx.state(source) or ""), ctx.taxonomy.state_role(state))
    if state == wanted or "initial" in roles:
        return []
    live = ctx.taxonomy.is_live(state)
    facet = ctx.taxonomy.facet_for_role("state")
    entered = ctx.taxonomy.facet_for_role("state_entered")
    values = {facet: wanted, **({entered: ctx.today.isoformat()} if entered else {})}
    edits = tuple(_set_facet(target, f, v) for f, v in values.items())
    remedy = " and ".join(f"`{f}: {v}`" for f, v in values.items())
    return [_at_edge(edge, f"{ctx.label(source)} {edge.relation.name} {ctx.label(target)}, which is "
                     f"still {state}; `{edge.relation.name}` sets its target to {wanted}",
                     f"set {remedy} in {target.path}", severity=Severity.ERROR if live else Severity.WARN,
                     patch=Patch(target.path, target.digest, edits) if live else None)]


RULES = (
    relation_declaration_unusable,
    identifier_claimed_twice,
    identifier_claim_missing,
    relation_target_unresolved,
    relation_target_is_source,
    relation_endpoint_not_permitted,
    relation_reciprocity_missing,
    relation_pair_invalid,
    relation_target_suspect,
    lifecycle_dependency_on_terminal,
    lifecycle_state_not_set_by_edge,
)
