"""`route`'s answer: the route a task took, with the taxonomy its pointers are named through."""

from __future__ import annotations

from dataclasses import dataclass

from headwater.reads.route import DEFAULT_BUDGET, Route, route
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy


@dataclass(frozen=True)
class RouteAnswer:
    route: Route
    taxonomy: Taxonomy


def route_answer(snapshot: Snapshot, task: str, budget: int = DEFAULT_BUDGET, *, read_tree: bool = True) -> RouteAnswer:
    """The route of a task; `read_tree=False` where no working tree is there to consult (MCP)."""
    return RouteAnswer(route(snapshot, task, budget, read_tree=read_tree), snapshot.taxonomy)
