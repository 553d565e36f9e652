"""Shape: one document against its kind — facets, identifier, placement, warrant, sections, state."""

from __future__ import annotations

import re

from headwater.check.context import Context
from headwater.check.finding import Severity, Skip
from headwater.check.patches import Create, Patch, SetScalar
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.hits import hit, problem_hit, ticked
from headwater.clock import parse_date
from headwater.corpus.census import Classifier
from headwater.corpus.document import Document
from headwater.graph import ProblemKind
from headwater.taxonomy.model import PLACEHOLDER, Scheme
from headwater.yaml.nodes import Map, Node, Scalar

WARRANTS = ("accepted", "regenerated", "transcribed", "asserted")
NO_PROVENANCE = "the document declares no `provenance`, so there is no warrant to judge"


def _declared(ctx: Context, doc: Document) -> list[tuple[str, Scalar, Node]]:
    """(facet, key, value) for every front-matter key the taxonomy declares as a facet."""
    return [(key.text, key, value) for key, value in doc.front.entries if key.text in ctx.taxonomy.facets]


# -- facets ---------------------------------------------------------------------------------


@rule("facet.required.missing", 1, Scope.DOCUMENT, Severity.ERROR,
      short="A facet the document's kind requires is absent.",
      full="Every document must declare each facet its kind requires, down the `is_a` chain.",
      help="""
The kind of a document (and every kind it inherits from) names facets each of its documents
must carry in front matter. This finding is about the whole file: add the facet with a value
the taxonomy admits. `headwater explain <path>` lists what the kind requires.
""",
      tags=("shape", "facet"),
      routes=lambda ctx, doc: bool(ctx.taxonomy.required_facets(doc.kind)))
def facet_required_missing(ctx: Context, doc: Document):
    return [
        hit(doc, None, f"the kind `{doc.kind}` requires the facet `{name}`, and this document "
             "does not declare it", f"add `{name}:` to the front matter, with its value", name)
        for name in ctx.taxonomy.required_facets(doc.kind) if name not in doc.front
    ]


def _routes_values(ctx: Context, doc: Document) -> bool:
    return any(ctx.taxonomy.admitted_values(doc.kind, name) for name, _, _ in _declared(ctx, doc))


@rule("facet.value.not_permitted", 2, Scope.DOCUMENT, Severity.ERROR,
      short="A facet's value is outside the set the taxonomy admits.",
      full="A facet with a closed set of values (narrowed per kind) carries a value outside it.",
      help="""
Facets such as the state facet declare the values they admit, and a kind may narrow them.
The message lists the values admitted here; write one of them.
""",
      tags=("shape", "facet"),
      routes=_routes_values)
def facet_value_not_permitted(ctx: Context, doc: Document):
    hits = []
    for name, _, value in _declared(ctx, doc):
        admitted = ctx.taxonomy.admitted_values(doc.kind, name)
        if not admitted or not isinstance(value, Scalar) or not value.text.strip():
            continue
        if value.text.strip() not in admitted:
            hits.append(hit(doc, value, f"`{name}: {value.text.strip()}` is not a value `{name}` admits "
                             f"for `{doc.kind}`; it admits {ticked(admitted)}",
                             f"write one of {ticked(admitted)}", name))
    return hits


def _blank_problem(ctx: Context, name: str, value: Node) -> str | None:
    facet = ctx.taxonomy.facets[name]
    if not isinstance(value, Scalar):
        shape = "a list" if not isinstance(value, Map) else "a mapping"
        return f"`{name}` is {shape}, and the taxonomy declares it a single {facet.type}"
    if not value.text.strip():
        return f"`{name}` is declared empty"
    if facet.type == "date" and parse_date(value.text.strip()) is None:
        return f"`{name}: {value.text.strip()}` is not a calendar date written YYYY-MM-DD"
    return None


@rule("facet.value.blank", 1, Scope.DOCUMENT, Severity.ERROR,
      short="A facet is declared empty, in the wrong shape, or as a malformed date.",
      full="A declared facet has no value, a list or mapping where a single value is declared, "
           "or a `date` facet that is not a YYYY-MM-DD calendar date.",
      help="""
A facet written with no value says nothing, and a list where the taxonomy declares one value
cannot be read. Date facets are calendar dates written `YYYY-MM-DD`.
""",
      tags=("shape", "facet"),
      routes=lambda ctx, doc: bool(_declared(ctx, doc)))
def facet_value_blank(ctx: Context, doc: Document):
    hits = []
    for name, key, value in _declared(ctx, doc):
        problem = _blank_problem(ctx, name, value)
        if problem:
            facet = ctx.taxonomy.facets[name]
            example = "a date such as 2026-01-31" if facet.type == "date" else f"one {facet.type} value"
            where = value if isinstance(value, Scalar) and value.text.strip() else key
            hits.append(hit(doc, where, problem, f"write `{name}:` as {example}, or delete the key", name))
    return hits


def _freshness(ctx: Context):
    name = ctx.taxonomy.facet_for_role("freshness")
    facet = ctx.taxonomy.facets.get(name or "")
    return facet if facet is not None and facet.stale_after_days is not None else None


def _ages(ctx: Context, doc: Document) -> bool:
    """A terminal document is history: nobody re-verifies a superseded record against today."""
    facet = _freshness(ctx)
    return facet is not None and facet.name in doc.front and not ctx.taxonomy.is_terminal(ctx.state(doc))


@rule("facet.freshness.stale", 2, Scope.DOCUMENT, Severity.WARN,
      short="A live document was last verified longer ago than its freshness window allows.",
      full="The facet in the `freshness` role is older, at the run date, than its "
           "`stale_after_days`. A document at a terminal state is history and does not go stale.",
      help="""
A document says when someone last checked it against what it describes. Once that date is
older than the window the taxonomy sets, re-read the document, correct it, and move the date.
A superseded or deprecated document records what held, so its date never goes stale.
""",
      tags=("shape", "facet", "freshness"),
      routes=_ages,
      reads_clock=True)
def facet_freshness_stale(ctx: Context, doc: Document):
    facet = _freshness(ctx)
    value = doc.value(facet.name)
    written = parse_date(value.text.strip()) if isinstance(value, Scalar) else None
    if written is None:
        return Skip(f"the `{facet.name}` date does not read, which `facet.value.blank` reports")
    age = (ctx.today - written).days
    if age <= facet.stale_after_days:
        return []
    return [hit(doc, value, f"`{facet.name}` is {written.isoformat()}, {age} days before "
                 f"{ctx.today.isoformat()}, and it goes stale after {facet.stale_after_days} days",
                 f"re-read the document against what it describes, correct it, then set "
                 f"`{facet.name}` to the date you did", facet.name)]


# -- identifier -----------------------------------------------------------------------------


def _scheme(ctx: Context, doc: Document) -> Scheme | None:
    return ctx.taxonomy.scheme_of(doc.kind)


def _segments(scheme: Scheme) -> list[tuple[str, str]]:
    """The pattern as (regex, name) pieces, in order."""
    pieces, last = [], 0
    for match in PLACEHOLDER.finditer(scheme.pattern):
        if match.start() > last:
            literal = scheme.pattern[last:match.start()]
            pieces.append((re.escape(literal), f"the literal `{literal}`"))
        token = match.group(1)
        if token == "namespace":
            pieces.append((re.escape(scheme.namespace or ""), f"the namespace `{scheme.namespace}`"))
        elif token == "slug":
            pieces.append(("[a-z0-9]+(?:-[a-z0-9]+)*", "the lowercase slug"))
        else:
            width = int(match.group(2) or 1)
            pieces.append((f"[0-9]{{{width},}}", f"the {width}-digit sequence number"))
        last = match.end()
    if last < len(scheme.pattern):
        pieces.append((re.escape(scheme.pattern[last:]), f"the literal `{scheme.pattern[last:]}`"))
    return pieces


def failing_segment(scheme: Scheme, identifier: str) -> str:
    """The first piece of the scheme that the identifier does not satisfy."""
    pieces = _segments(scheme)
    for count, (_, name) in enumerate(pieces, start=1):
        prefix = "".join(p for p, _ in pieces[:count])
        tail = "$" if count == len(pieces) else ""
        if not re.match(prefix + tail, identifier):
            return name
    return "the end of the identifier"


def _next_identifier(ctx: Context, scheme: Scheme) -> str:
    return scheme.mint(ctx.highest_sequences[scheme.name] + 1, "slug")


@rule("identifier.pattern.not_met", 1, Scope.DOCUMENT, Severity.ERROR,
      short="The document's `id` does not match its kind's identifier scheme.",
      full="The identifier does not match the pattern of the scheme the kind names; the "
           "message names the first segment that fails.",
      help="""
A kind with an identifier scheme gives every document an `id` of one shape, such as
`{namespace}-DR-{seq:04d}`. Rewrite the `id` in that shape, and update the documents that
name the old one.
""",
      tags=("shape", "identifier"),
      routes=lambda ctx, doc: _scheme(ctx, doc) is not None,
      reads=(Reads.SUBJECT, Reads.IDS))  # the remedy names the next free identifier
def identifier_pattern_not_met(ctx: Context, doc: Document):
    scheme = _scheme(ctx, doc)
    node = doc.id_node
    if not isinstance(node, Scalar) or not node.text.strip():
        return Skip("the document has no usable `id`, which `identifier.unusable` reports")
    identifier = node.text.strip()
    if scheme.regex.match(identifier):
        return []
    return [hit(doc, node, f"`{identifier}` does not match the scheme `{scheme.name}` "
                 f"(`{scheme.pattern}`): {failing_segment(scheme, identifier)} fails",
                 f"write the `{doc.id_key}` in the shape `{_next_identifier(ctx, scheme)}`, and update "
                 "the documents that name it", doc.id_key)]


@rule("identifier.unusable", 2, Scope.DOCUMENT, Severity.ERROR,
      short="A document whose kind has an identifier scheme has no usable `id`.",
      full="A kind with an identifier scheme needs an `id` on every document; this one has none, "
           "an empty one, or one that is not a single value. A missing or empty one is proposed a "
           "distinct identifier (the file's own number where its shelf's layout carries one), and "
           "`--fix` writes it with its claim.",
      help="""
Other documents name this one by its identifier, so a kind with a scheme cannot do without
one. Every document lacking one is proposed its own: the number its file name carries where
the shelf's layout has `{seq}`, else the next free one. `headwater check --fix` writes the
`id` and its claim under `.headwater/ids/` (`headwater new` mints one for new documents).
""",
      tags=("shape", "identifier", "graph"),
      routes=lambda ctx, doc: _scheme(ctx, doc) is not None or doc.id_node is not None,
      reads=(Reads.SUBJECT, Reads.IDS, Reads.CLAIMS),  # the remedy names a free identifier
      patch=True)
def identifier_unusable(ctx: Context, doc: Document):
    key = doc.id_key
    refused = [problem_hit(p, f"write one identifier after `{key}:`")
               for p in ctx.graph.problems if p.kind is ProblemKind.ID_NOT_A_SCALAR and p.path == doc.path]
    scheme = _scheme(ctx, doc)
    if refused or scheme is None:
        return refused
    node = doc.id_node
    if node is not None and not (isinstance(node, Scalar) and not node.text.strip()):
        return []
    proposed = ctx.proposed_ids.get(doc.path)
    if proposed is None:
        return [hit(doc, doc.front.key(key) if node is not None else None,
                    f"this `{doc.kind}` has no usable `{key}`, and no identifier of `{scheme.name}` is free for it",
                    f"write `{key}` in the shape `{scheme.pattern}`", key)]
    claim = ctx.claim_path(scheme.name, proposed)
    patch = Patch(doc.path, doc.digest, (SetScalar((key,), proposed),))
    if ctx.claim_exists(scheme.name, proposed):  # minted for this file before, then lost from it
        fix = {"patch": patch}
        suggestion = (f"add `{key}: {proposed}`, which `{claim}` claims for this file "
                      "(`headwater check --fix` writes it)")
    else:
        fix = {"patch": patch, "companion": Patch(claim, None, (Create(doc.path + "\n"),))}
        suggestion = f"add `{key}: {proposed}` and its claim `{claim}` (`headwater check --fix` writes both)"
    if node is None:
        return [hit(doc, None, f"this `{doc.kind}` has no `{key}`, and its scheme `{scheme.name}` "
                     "gives every one of them an identifier", suggestion, key, **fix)]
    return [hit(doc, doc.front.key(key), f"`{key}` is declared empty", suggestion, key, **fix)]


# -- placement ------------------------------------------------------------------------------


def _discriminators(ctx: Context) -> list[str]:
    return sorted({s.discriminator for s in ctx.taxonomy.shelves.values()
                   if not s.homogeneous and s.discriminator})


@rule("shelf.placement_is_primary", 2, Scope.DOCUMENT, Severity.ERROR,
      short="A document restates its kind on a homogeneous shelf.",
      full="On a homogeneous shelf placement alone gives the kind; a discriminator facet written "
           "there restates it and can only disagree.",
      help="""
Homogeneous shelves type every file by where it stands. Writing the discriminator facet (for
example `doc_type`) on such a shelf says the kind twice; delete it and let placement decide.
""",
      tags=("shape", "shelf"),
      routes=lambda ctx, doc: any(name in doc.front for name in _discriminators(ctx)))
def shelf_placement_is_primary(ctx: Context, doc: Document):
    shelves = Classifier(ctx.taxonomy).matching_shelves(doc.path)
    if len(shelves) != 1 or not shelves[0].homogeneous:
        return Skip("the shelf is heterogeneous, so its discriminator is what names the kind")
    shelf = shelves[0]
    return [hit(doc, doc.front.key(name), f"`{name}` restates the kind on the homogeneous shelf "
                 f"`{shelf.name}`, where placement alone makes this a `{doc.kind}`",
                 f"delete `{name}:`; the shelf `{shelf.name}` already decides the kind", name)
            for name in _discriminators(ctx) if name in doc.front]


# -- warrant --------------------------------------------------------------------------------


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


# -- sections and state ---------------------------------------------------------------------


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


@rule("section.required.missing", 1, Scope.DOCUMENT, Severity.ERROR,
      short="No heading satisfies a section the kind requires.",
      full="The kind requires sections by heading; the body has no heading (at any level, "
           "compared trimmed and case-folded) for one of them.",
      help="""
A kind can require sections, such as `Context`, `Decision` and `Consequences` for a decision.
Add a heading with the section's name and write the section.
""",
      tags=("shape", "section"),
      routes=lambda ctx, doc: bool(ctx.taxonomy.required_sections(doc.kind)))
def section_required_missing(ctx: Context, doc: Document):
    present = {_fold(h.text) for h in doc.body.headings}
    return [hit(doc, None, f"the kind `{doc.kind}` requires a `{name}` section, and no heading "
                 "says it", f"add a `## {name}` heading and write the section", name)
            for name in ctx.taxonomy.required_sections(doc.kind) if _fold(name) not in present]


def _regime_states(ctx: Context, doc: Document) -> tuple[str, ...]:
    regime = ctx.taxonomy.lifecycle_of(doc.kind)
    if regime is None:
        return ()
    names = [regime.initial]
    for state, following in regime.transitions.items():
        names += [state, *following]
    return tuple(dict.fromkeys(names))


@rule("lifecycle.state.not_admitted", 1, Scope.DOCUMENT, Severity.ERROR,
      short="The document's state is not one its lifecycle regime names.",
      full="The kind is bound to a lifecycle regime, and the state facet holds a state that "
           "regime never reaches.",
      help="""
A lifecycle regime names the states a document of its kinds moves through. A state the
vocabulary admits but the regime never names cannot be reached; write one the regime names.
""",
      tags=("shape", "lifecycle"),
      routes=lambda ctx, doc: bool(_regime_states(ctx, doc)) and ctx.taxonomy.facet_for_role("state") in doc.front)
def lifecycle_state_not_admitted(ctx: Context, doc: Document):
    facet = ctx.taxonomy.facet_for_role("state")
    state = ctx.state(doc)
    if state is None:
        return Skip(f"the state `{facet}` has no single value, which `facet.value.blank` reports")
    admitted = ctx.taxonomy.admitted_values(doc.kind, facet)
    if admitted and state not in admitted:
        return Skip("the state is outside the facet's values, which `facet.value.not_permitted` reports")
    names = _regime_states(ctx, doc)
    if state in names:
        return []
    regime = ctx.taxonomy.lifecycle_of(doc.kind).name
    return [hit(doc, doc.value(facet), f"`{facet}: {state}` is not a state of the lifecycle "
                 f"`{regime}`, which names {ticked(names)}", f"write one of {ticked(names)}", facet)]


RULES = (
    facet_required_missing,
    facet_value_not_permitted,
    facet_value_blank,
    facet_freshness_stale,
    identifier_pattern_not_met,
    identifier_unusable,
    shelf_placement_is_primary,
    warrant_value_not_permitted,
    warrant_acceptance_unpaired,
    section_required_missing,
    lifecycle_state_not_admitted,
)
