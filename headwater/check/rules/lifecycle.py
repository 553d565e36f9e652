"""Lifecycles: a document's state against its regime, the states its edges set and depend on,
and how a change moved them."""

from __future__ import annotations

from collections import defaultdict

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity, Skip
from headwater.check.patches import Patch, SetScalar, replace_value
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.edge_ends import (
    NOT_A_DOCUMENT,
    at_edge,
    canonical,
    no_far_document,
    told_at_other_half,
)
from headwater.check.rules.hits import hit, ticked
from headwater.check.rules.prior import prior_front, prior_row
from headwater.check.superseded_since import superseded_since
from headwater.clock import parse_date
from headwater.corpus.census import Outcome, Row, excluded_by
from headwater.corpus.document import Document
from headwater.graph import Bound, Edge
from headwater.taxonomy.model import Lifecycle
from headwater.yaml.nodes import Scalar, scalar_text


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


def _set_facet(doc: Document, facet: str, value: str):
    """Over the value the author wrote where there is one (keeping its bytes around it), else a new key."""
    node = doc.value(facet)
    old = node.text.strip() if isinstance(node, Scalar) else ""
    edit = replace_value(doc.text, node.line, node.column, old, value) if old else None
    return edit or SetScalar((facet,), value)


def _resting(ctx: Context, edge: Edge) -> tuple[Document | None, Document | None]:
    """(the end that rests, the end it rests on): the non-governing end on the governing one, and
    where neither governs, the relation's own source on its target, however the half is spelled
    (`traced_by: X` written in Y says X traces to Y: X rests on Y)."""
    near, far = ctx.document(edge.source), ctx.far(edge)
    reading = ctx.taxonomy.governs_reading(edge.relation, edge.inverse)
    if reading == "source" or (reading == "neither" and edge.inverse):
        return far, near
    return near, far


def _stated(ctx: Context, edge: Edge) -> str:
    """The relation in the direction its name reads (`B supersedes A`), whichever end wrote it,
    so a finding about the end that rests never reads as if that end were the relation's source."""
    near, far = ctx.document(edge.source), ctx.far(edge)
    source, target = (far, near) if edge.inverse else (near, far)
    return f"{ctx.label(source)} `{edge.relation.name}` {ctx.label(target)}"


@rule("lifecycle.dependency.on_terminal", 3, Scope.EDGE, Severity.WARN,
      short="A live document rests on a document in a terminal state.",
      full="Through a `lifecycle_sensitive` relation, a live document rests on one that is "
           "superseded or retired; the non-governing end rests on the governing end, and "
           "where neither governs, the relation's source rests on its target, whichever end "
           "writes it. Where both halves are written, the half the source writes reports it.",
      help="""
A document that rests on a superseded or deprecated one may be carrying a rule that no longer
holds. Re-point the relation at the document that holds now, or retire the dependent too.
""",
      tags=("graph", "lifecycle"),
      routes=lambda ctx, edge: edge.relation.lifecycle_sensitive,
      reads=(Reads.SUBJECT, Reads.IDS))  # whether the source writes its half binds by identifier
def lifecycle_dependency_on_terminal(ctx: Context, edge: Edge):
    dependent, base = _resting(ctx, edge)
    if dependent is None or base is None:
        return no_far_document(edge)
    state_of_base = ctx.state(base)
    if not (ctx.taxonomy.is_live(ctx.state(dependent)) and ctx.taxonomy.is_terminal(state_of_base)):
        return []
    if told_at_other_half(ctx, edge):
        return []  # one fact, one finding: the other half reports it
    return [at_edge(edge, f"{ctx.label(dependent)} ({ctx.state(dependent)}) rests on {ctx.label(base)}, which "
                     f"is {state_of_base}: {_stated(ctx, edge)}",
                     f"re-point the relation at the document that holds now, or move "
                     f"{ctx.label(dependent)} to a terminal state too")]


@rule("lifecycle.state.not_set_by_edge", 5, Scope.EDGE, Severity.ERROR,
      short="A relation that sets its target's state finds the target in another state.",
      full="The relation declares `on_target.set_state` (for example `supersedes` sets "
           "`superseded`), and the target does not stand at that state. Error when the target "
           "is live, warning when it is terminal; silent while either end is at its initial state. "
           "Where both halves are written, the half the source writes reports it.",
      help="""
Writing `supersedes: X` makes `X` superseded; the target's own state facet must say so, with
the date it entered that state. The fix sets both on a live target, dated the day the live
source entered its own state (the earliest such day where several replace one target), as
`headwater adopt` dates it; where a live source records no such day, no fix is offered and the
remediation asks for the date.
""",
      tags=("graph", "lifecycle"),
      routes=lambda ctx, edge: edge.relation.set_state is not None,
      patch=True,  # whether the source writes its half binds by identifier; the fix's day reads every source
      reads=(Reads.SUBJECT, Reads.IDS, Reads.STATES))
def lifecycle_state_not_set_by_edge(ctx: Context, edge: Edge):
    source, target = canonical(ctx, edge)
    if source is None or target is None:
        return no_far_document(edge)
    wanted, state = edge.relation.set_state, ctx.state(target)
    if state is None:
        return Skip("the target declares no state, which the facet rules report")
    roles = (ctx.taxonomy.state_role(ctx.state(source) or ""), ctx.taxonomy.state_role(state))
    if state == wanted or "initial" in roles:
        return []
    if told_at_other_half(ctx, edge):
        return []  # one fact, one finding: the other half reports it
    live = ctx.taxonomy.is_live(state)
    facet = ctx.taxonomy.facet_for_role("state")
    entered = ctx.taxonomy.facet_for_role("state_entered")
    since, undated = _entered_on(ctx, edge, target, entered)
    values = {facet: wanted, **({entered: since} if since else {})}
    remedy = f"set {' and '.join(f'`{f}: {v}`' for f, v in values.items())} in {target.path}"
    unknown = bool(entered) and since is None  # the state alone would leave the old date claiming it
    if unknown:
        remedy += (f", and `{entered}` to the day {ctx.label(undated or source)} took over, which nothing here "
                   "records")
    fixable = live and not unknown
    edits = tuple(_set_facet(target, f, v) for f, v in values.items())
    return [at_edge(edge, f"{ctx.label(source)} {edge.relation.name} {ctx.label(target)}, which is "
                     f"still {state}; `{edge.relation.name}` sets its target to {wanted}",
                     remedy, severity=Severity.ERROR if live else Severity.WARN,
                     patch=Patch(target.path, target.digest, edits) if fixable else None)]


def _entered_on(ctx: Context, edge: Edge, target: Document,
                entered: str | None) -> tuple[str | None, Document | None]:
    """The day the target entered the state the edge sets: the earliest day a source of such an
    edge that has taken over (live, past its initial state: a draft has replaced nothing, and a
    terminal source's date says when it left) entered its own state. Every edge into the target
    so reads the same day, so their fixes agree. None while such a source records no day, for the
    earliest may be its, with that source."""
    if not entered:
        return None, None
    tax = ctx.taxonomy
    took_over = [source for source in _setting(ctx, target, edge.relation.set_state)
                 if tax.is_live(state := ctx.state(source)) and tax.state_role(state) != "initial"]
    dated = {source.path: _date_of(source, entered) for source in took_over}
    undated = next((source for source in took_over if dated[source.path] is None), None)
    if undated is not None or not took_over:
        return None, undated
    return superseded_since(dated.values(), _date_of(target, entered)), None


def _setting(ctx: Context, target: Document, state: str | None) -> list[Document]:
    """The sources of every relation setting `state` on the target, whichever end writes it."""
    written = (*ctx.graph.inbound.get(target.path, ()), *ctx.graph.outbound.get(target.path, ()))
    ends = (canonical(ctx, e) for e in written if e.relation.set_state == state)
    return list({source.path: source for source, far in ends if source and far and far.path == target.path}.values())


def _date_of(doc: Document, facet: str) -> str | None:
    text = doc.text_of(facet)
    return text if text and parse_date(text) else None


@rule("lifecycle.dependency.on_initial", 3, Scope.EDGE, Severity.WARN,
      short="A live document rests on a document still at its initial state.",
      full="Through a `lifecycle_sensitive` relation, a live document rests on one at the "
           "initial state (a draft), read as `lifecycle.dependency.on_terminal` reads it: the "
           "non-governing end rests on the governing end, and where neither governs, the "
           "relation's source rests on its target, whichever end writes it. A relation that "
           "writes a state onto its target is exempt: that edge is a statement about the target, "
           "not a reliance on it. Where both halves are written, the half the source writes "
           "reports it.",
      help="""
Nothing may rely on a draft yet. Promote the target once it is settled, point the relation at
a document that stands, or move the dependent document back to its initial state until the
target is settled. A relation the taxonomy does not mark `lifecycle_sensitive` (an association
such as `conflicts_with`) is no reliance.
""",
      tags=("graph", "lifecycle"),
      routes=lambda ctx, edge: (edge.relation.lifecycle_sensitive and edge.relation.set_state is None
                                and edge.target.bound is Bound.DOCUMENT),
      reads=(Reads.SUBJECT, Reads.IDS))  # whether the source writes its half binds by identifier
def lifecycle_dependency_on_initial(ctx: Context, edge: Edge):
    dependent, base = _resting(ctx, edge)
    if dependent is None or base is None:
        return Skip(NOT_A_DOCUMENT)
    state, base_state = ctx.state(dependent), ctx.state(base)
    tax = ctx.taxonomy
    if tax.state_role(state or "") != "live" or tax.state_role(base_state or "") != "initial":
        return []
    if told_at_other_half(ctx, edge):
        return []  # one fact, one finding: the other half reports it
    return [at_edge(edge, f"{ctx.label(dependent)} ({state}) rests on {ctx.label(base)}, which is still "
                     f"{base_state}: {_stated(ctx, edge)}",
                     f"promote {ctx.label(base)} once it is settled, or point the relation at a "
                     "document that stands")]


@rule("lifecycle.state.set_twice", 1, Scope.CORPUS, Severity.WARN,
      short="Two relations set one document to two different states.",
      full="Relations that declare `on_target.set_state` reach the same document and write "
           "different states onto it, so no state the document takes satisfies both.",
      help="""
One edge says the target became one thing, another says it became something else. Decide
which holds and delete or re-point the other relation.
""",
      tags=("graph", "lifecycle"),
      reads=(Reads.UNSTATED,))
def lifecycle_state_set_twice(ctx: Context, _subject):
    setting: dict[str, list[Edge]] = defaultdict(list)
    for edge in ctx.graph.edges:
        if edge.relation.set_state:
            _, target = canonical(ctx, edge)
            if target is not None:
                setting[target.path].append(edge)
    hits = []
    for path, edges in sorted(setting.items()):
        states = sorted({e.relation.set_state for e in edges})
        if len(states) > 1:
            writers = sorted({e.source for e in edges})
            hits.append(Hit(path, 0, 0, f"relations from {ticked(writers)} set this document to "
                            f"{ticked(states)} at once", "decide which state holds, and delete or "
                            "re-point the other relation", "+".join(states)))
    return hits


def reachable(regime: Lifecycle, start: str) -> list[str]:
    """Every state some path of transitions reaches from `start`, in the order first reached."""
    found, frontier = [], [start]
    while frontier:
        for state in regime.transitions.get(frontier.pop(0), ()):
            if state not in found:
                found.append(state)
                frontier.append(state)
    return found


def _states(regime: Lifecycle) -> set[str]:
    return {regime.initial, *regime.transitions, *(s for n in regime.transitions.values() for s in n)}


@rule("lifecycle.transition.not_permitted", 1, Scope.DOCUMENT, Severity.ERROR,
      short="The state moved, in this change, along no path the lifecycle admits.",
      full="Between the base revision and today the state facet moved from one state to another, "
           "and no sequence of the lifecycle regime's transitions leads from the first to the "
           "second.",
      help="""
A lifecycle regime names the transitions a document may take, such as `draft → current →
superseded`. A change may take several steps at once, but never one the regime does not
admit, such as a superseded decision back to `current`. Restore the state, or write a new
document for the new position.
""",
      tags=("change", "lifecycle"),
      routes=lambda ctx, doc: ctx.taxonomy.lifecycle_of(doc.kind) is not None,
      needs_change=True)
def lifecycle_transition_not_permitted(ctx: Context, doc: Document):
    front = prior_front(ctx, doc)
    if front is None or isinstance(front, Skip):
        return front or []
    facet = ctx.taxonomy.facet_for_role("state")
    regime = ctx.taxonomy.lifecycle_of(doc.kind)
    before, after = (scalar_text(front.get(facet)) or "").strip(), ctx.state(doc)
    if not before or not after or before == after:
        return []
    if before not in _states(regime) or after not in _states(regime):
        return Skip("a state outside the lifecycle's states has no transitions to judge, "
                    "which `lifecycle.state.not_admitted` reports")
    onward = reachable(regime, before)
    if after in onward:
        return []
    remedy = (f"set `{facet}` back to `{before}`, or to a state it reaches: {ticked(onward)}" if onward
              else f"set `{facet}` back to `{before}`, a terminal state; write a new document for the new position")
    return [hit(doc, doc.value(facet), f"`{facet}` moved from `{before}` to `{after}` in this change, and "
                 f"the lifecycle `{regime.name}` has no path from `{before}` to `{after}`", remedy, facet)]


def _departed_terminal(ctx: Context, path: str) -> tuple[Row, Lifecycle, str] | None:
    """The departed document's row, regime and state, when it stood terminal in a retaining regime."""
    census = ctx.snapshot.census
    if not path.startswith(census.root.rstrip("/") + "/") and census.root not in ("", "."):
        return None
    if excluded_by(path, ctx.snapshot.declaration.exclusions):
        return None
    row = prior_row(ctx, path)
    if row is None or row.outcome is not Outcome.TYPED:
        return None
    if row.document.id in ctx.snapshot.graph.ids:  # a document today carries its id: moved, not deleted
        return None
    regime = ctx.taxonomy.lifecycle_of(row.kind)
    state = ctx.state(row.document)
    if regime is None or not regime.retain_terminal or not ctx.taxonomy.is_terminal(state):
        return None
    return row, regime, state


@rule("lifecycle.deletion.not_permitted", 2, Scope.CORPUS, Severity.ERROR,
      short="The change deletes a terminal document its lifecycle retains.",
      full="At the base revision the document stood at a terminal state of a lifecycle regime "
           "with `retain_terminal: true`, and this change deletes it: no document today carries "
           "its identifier (one that does was moved, not deleted). Reported at the departed path.",
      help="""
A retaining lifecycle keeps superseded and deprecated documents: they are the record of what
was decided and why it stopped holding, and relations still name them. Restore the file from
the base revision.
""",
      tags=("change", "lifecycle"),
      needs_change=True)
def lifecycle_deletion_not_permitted(ctx: Context, _subject) -> list[Hit]:
    hits = []
    for path in sorted(ctx.change.departed):
        found = _departed_terminal(ctx, path)
        if found is None:
            continue
        row, regime, state = found
        hits.append(Hit(path, 0, 0, f"this change deletes a `{row.kind}` at the terminal state `{state}`, "
                        f"and the lifecycle `{regime.name}` retains terminal documents",
                        f"restore `{path}` from the base revision; a terminal document stays as the record",
                        "deleted"))
    return hits


RULES = (
    lifecycle_state_not_admitted,
    lifecycle_dependency_on_terminal,
    lifecycle_state_not_set_by_edge,
    lifecycle_dependency_on_initial,
    lifecycle_state_set_twice,
    lifecycle_transition_not_permitted,
    lifecycle_deletion_not_permitted,
)
