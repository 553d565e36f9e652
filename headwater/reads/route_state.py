"""State-aware pointers: a terminal document (superseded, deprecated…) is offered only with its
live successor beside it, ahead of it; one with no live successor is not offered.

Succession is read from the taxonomy's data: every document-target edge whose relation is of the
succession family, its governing end being the successor. A chain is followed to its first
document that is not terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

from headwater.corpus.document import Document
from headwater.graph import Bound, Graph
from headwater.taxonomy.model import Taxonomy


class Offer(Protocol):
    document: Document
    successor: str


def state_of(document: Document, tax: Taxonomy) -> str | None:
    return document.text_of(tax.facet_for_role("state"))


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


def placed(candidates: Sequence[Offer], slots: int, successor_of: dict[str, str], tax: Taxonomy,
           beside: Callable[[str, str], Offer]) -> tuple[list, int]:
    """The candidates that fit `slots`, in order, each terminal one preceded by its successor
    (the successor's own offer when it was reached, else `beside(successor, terminal)`); and how
    many offerable candidates the budget withheld."""
    by_path = {c.document.path: c for c in candidates}
    out: list = []
    seen: set[str] = set()
    withheld = 0
    for offer in candidates:
        path = offer.document.path
        if path in seen:
            continue
        if not tax.is_terminal(state_of(offer.document, tax)):
            if len(out) < slots:
                out.append(offer)
                seen.add(path)
            else:
                withheld += 1
            continue
        successor = successor_of.get(path)
        if successor is None:
            continue  # never offered alone
        if successor not in seen and len(out) < slots:
            reached = by_path.get(successor)
            out.append(_succeeding(reached, path) if reached else beside(successor, path))
            seen.add(successor)
        if len(out) < slots:
            out.append(replace(offer, successor=successor))
            seen.add(path)
        else:
            withheld += 1
    return out, withheld


def _succeeding(offer, terminal: str):
    return replace(offer, evidence=replace(offer.evidence, succeeds=terminal))
