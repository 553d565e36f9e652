"""State-aware pointers: a terminal document (superseded, deprecated…) is offered only with its
live successor beside it, ahead of it; one with no live successor is not offered.

Succession is read from the taxonomy's data: every document-target edge whose relation is of the
succession family, its governing end being the successor. A chain is followed to its first
document that is not terminal. Placing works on paths alone, so a call builds pointers only for
what the budget lets through.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from headwater.corpus.document import Document
from headwater.graph import Bound, Graph
from headwater.taxonomy.model import Taxonomy


@dataclass(frozen=True)
class Place:
    path: str
    succeeds: str = ""  # offered ahead of this terminal document, which it succeeds
    successor: str = ""  # this terminal document's live successor, offered ahead of it


def state_of(document: Document, tax: Taxonomy) -> str | None:
    return document.text_of(tax.facet_for_role("state"))


def terminal_paths(documents: Sequence[Document], tax: Taxonomy) -> frozenset[str]:
    return frozenset(d.path for d in documents if tax.is_terminal(state_of(d, tax)))


def successors(graph: Graph, tax: Taxonomy) -> dict[str, str]:
    """Terminal document path → the path of its first live successor along the chain."""
    after: dict[str, list[str]] = {}
    for edge in graph.edges:
        if edge.relation.family != "succession" or edge.target.bound is not Bound.DOCUMENT:
            continue
        end = tax.governs_reading(edge.relation, edge.inverse)
        if end == "source":
            after.setdefault(edge.target.path or "", []).append(edge.source)
        elif end == "target":
            after.setdefault(edge.source, []).append(edge.target.path or "")
    found = {}
    for path in sorted(after):
        document = graph.documents.get(path)
        if document is not None and tax.is_terminal(state_of(document, tax)):
            live = _first_live(path, after, graph, tax)
            if live:
                found[path] = live
    return found


def _first_live(path: str, after: dict[str, list[str]], graph: Graph, tax: Taxonomy) -> str | None:
    seen, frontier = {path}, sorted(after.get(path, ()))
    while frontier:
        current = frontier.pop(0)
        if current in seen:
            continue
        seen.add(current)
        document = graph.documents.get(current)
        if document is None:
            continue
        if not tax.is_terminal(state_of(document, tax)):
            return current
        frontier.extend(sorted(after.get(current, ())))
    return None


def placed(ranked: Sequence[str], slots: int, successor_of: dict[str, str],
           terminal: frozenset[str], offered: frozenset[str] = frozenset()) -> tuple[list[Place], int]:
    """The ranked paths that fit `slots`, in order, each terminal one preceded by its live
    successor (unless `offered` already, as an anchored pointer is) and one without a live
    successor left out; and how many offerable paths the budget withheld."""
    out: list[Place] = []
    seen: set[str] = set(offered)
    withheld = 0
    for path in ranked:
        if path in seen:
            continue
        if path not in terminal:
            if len(out) < slots:
                out.append(Place(path))
                seen.add(path)
            else:
                withheld += 1
            continue
        successor = successor_of.get(path)
        if successor is None:
            continue  # never offered alone
        if successor not in seen and len(out) < slots:
            out.append(Place(successor, succeeds=path))
            seen.add(successor)
        if len(out) < slots:
            out.append(Place(path, successor=successor))
            seen.add(path)
        else:
            withheld += 1
    return out, withheld
