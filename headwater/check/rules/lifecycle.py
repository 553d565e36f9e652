"""Lifecycle: what a live document may rest on, and targets set to two states at once."""

from __future__ import annotations

from collections import defaultdict

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity, Skip
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.hits import ticked
from headwater.check.rules.graph import NOT_A_DOCUMENT, _at_edge, _canonical
from headwater.graph import Bound, Edge


@rule("lifecycle.dependency.on_initial", 1, Scope.EDGE, Severity.WARN,
      short="A live document writes a relation to a document still at its initial state.",
      full="The declaring document stands at a live state and names, through any relation, a "
           "document at the initial state (a draft). A relation that writes a state onto its "
           "target is exempt: that edge is a statement about the target, not a reliance on it.",
      help="""
Nothing may rely on a draft yet. Promote the target once it is settled, point the relation at
a document that stands, or move the declaring document back to its initial state until the
target is settled.
""",
      tags=("graph", "lifecycle"),
      routes=lambda ctx, edge: edge.relation.set_state is None and edge.target.bound is Bound.DOCUMENT)
def lifecycle_dependency_on_initial(ctx: Context, edge: Edge):
    writer, target = ctx.document(edge.source), ctx.far(edge)
    if writer is None or target is None:
        return Skip(NOT_A_DOCUMENT)
    state, far_state = ctx.state(writer), ctx.state(target)
    tax = ctx.taxonomy
    if tax.state_role(state or "") != "live" or tax.state_role(far_state or "") != "initial":
        return []
    return [_at_edge(edge, f"{ctx.label(writer)} ({state}) names {ctx.label(target)} through "
                     f"`{edge.written_as}`, and {ctx.label(target)} is still {far_state}",
                     f"promote {ctx.label(target)} once it is settled, or point the relation at a "
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
            _, target = _canonical(ctx, edge)
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


RULES = (lifecycle_dependency_on_initial, lifecycle_state_set_twice)
