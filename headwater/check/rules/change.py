"""Change-scoped: what moved between the base revision and today, read from a `--change` manifest.

The runner skips these with a stated reason when the run carries no change; here `ctx.change`
is always a `headwater.check.change.Change`.
"""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity, Skip
from headwater.check.rule import Scope, rule
from headwater.check.rules.hits import hit, ticked
from headwater.corpus.census import Classifier, Outcome, Row, excluded_by
from headwater.corpus.document import Document
from headwater.hashing import digest
from headwater.taxonomy.model import Lifecycle
from headwater.yaml.nodes import Map, scalar_text

UNREAD_PRIOR = "the prior version has no front matter that reads, so there is nothing to compare"


def prior_row(ctx: Context, path: str) -> Row | None:
    """The prior version of a path as the census would have read it, or None when it had none."""
    data = ctx.change.prior.get(path)
    if data is None:
        return None
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return Row(path, Outcome.UNREADABLE, "not UTF-8 text")
    return Classifier(ctx.taxonomy).classify(path, text, digest(data))


def _prior_front(ctx: Context, doc: Document) -> Map | None | Skip:
    """The front matter at the base revision; None when the document did not move (or is new)."""
    row = prior_row(ctx, doc.path)
    if row is None:
        return None
    return row.document.front if row.document is not None else Skip(UNREAD_PRIOR)


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
    front = _prior_front(ctx, doc)
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
    front = _prior_front(ctx, doc)
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
    regime = ctx.taxonomy.lifecycle_of(row.kind)
    state = ctx.state(row.document)
    if regime is None or not regime.retain_terminal or not ctx.taxonomy.is_terminal(state):
        return None
    return row, regime, state


@rule("lifecycle.deletion.not_permitted", 1, Scope.CORPUS, Severity.ERROR,
      short="The change deletes a terminal document its lifecycle retains.",
      full="At the base revision the document stood at a terminal state of a lifecycle regime "
           "with `retain_terminal: true`, and this change deletes it. Reported at the departed "
           "path.",
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


RULES = (lifecycle_transition_not_permitted, warrant_promoted, lifecycle_deletion_not_permitted)
