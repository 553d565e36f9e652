"""`route`'s answer: the route a task took, with the taxonomy its pointers are named through."""

from __future__ import annotations

from typing import TYPE_CHECKING

from headwater.frozen import frozen
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy

if TYPE_CHECKING:  # the renderers dispatch on this class without loading route's machinery
    from headwater.reads.route.router import Route


@frozen
class RouteAnswer:
    route: Route
    taxonomy: Taxonomy


def route_answer(snapshot: Snapshot, task: str, budget: int | None = None, *, read_tree: bool = True) -> RouteAnswer:
    """The route of a task within a budget (route's default when None); `read_tree=False` where
    no working tree is there to consult (MCP)."""
    from headwater.reads.route.router import DEFAULT_BUDGET, route

    chosen = DEFAULT_BUDGET if budget is None else budget
    return RouteAnswer(route(snapshot, task, chosen, read_tree=read_tree), snapshot.taxonomy)
