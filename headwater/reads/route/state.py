"""State-aware pointers: a terminal document (superseded, deprecated…) is offered only with its
live successor beside it, ahead of it; one with no live successor is not offered.

Succession is read from the taxonomy's data: every document-target edge whose relation is of the
succession family, its governing end being the successor. A chain is followed to its first
document that is not terminal. Placing works on paths alone, so a call builds pointers only for
what the budget lets through.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar

from headwater.corpus.document import Document
from headwater.federation.pinned import Federation
from headwater.frozen import frozen
from headwater.graph import Bound, Graph
from headwater.taxonomy.model import Taxonomy

K = TypeVar("K", str, tuple[str, str])  # a document's path here, or (corpus, path) of a harvested one


@frozen
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

    def terminal(path: str) -> bool | None:
        document = graph.documents.get(path)
        return None if document is None else tax.is_terminal(state_of(document, tax))

    return live_successors(after, terminal)


def remote_successors(federation: Federation) -> dict[tuple[str, str], tuple[str, str]]:
    """The same for harvested documents, keyed (corpus, path): succession as each pinned export
    states it, a chain never leaving its corpus."""
    after: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for corpus, link in federation.links:
        if link.succession:
            after.setdefault((corpus, link.governed), []).append((corpus, link.governing))

    def terminal(key: tuple[str, str]) -> bool | None:
        document = federation.at_path.get(key)
        return None if document is None else document.terminal

    return live_successors(after, terminal)


def live_successors(after: Mapping[K, list[K]], terminal: Callable[[K], bool | None]) -> dict[K, K]:
    """Each terminal document → its first live successor, `after` naming each one's successors;
    `terminal` is None where no document stands."""
    found = {}
    for key in sorted(after):
        if terminal(key):
            live = _first_live(key, after, terminal)
            if live is not None:
                found[key] = live
    return found


def _first_live(key: K, after: Mapping[K, list[K]], terminal: Callable[[K], bool | None]) -> K | None:
    seen, frontier = {key}, sorted(after.get(key, ()))
    while frontier:
        current = frontier.pop(0)
        if current in seen:
            continue
        seen.add(current)
        state = terminal(current)
        if state is None:
            continue
        if not state:
            return current
        frontier.extend(sorted(after.get(current, ())))
    return None


@frozen
class Anchored(Generic[K]):
    """A document a named path reaches (`anchors`), or the live successor offered ahead of one."""

    key: K
    anchors: tuple[str, ...] = ()
    succeeds: K | None = None  # offered ahead of this terminal document, which it succeeds
    successor: K | None = None  # this terminal document's live successor, offered ahead of it


def anchored_places(governs: Mapping[K, tuple[str, ...]], successor_of: Mapping[K, K]) -> list[Anchored[K]]:
    """The governing documents in the order given, each terminal one with its live successor ahead
    of it (a superseded decision still governs its path, and is never offered alone)."""
    out: list[Anchored[K]] = []
    placed = set(governs)
    for key, anchors in governs.items():
        successor = successor_of.get(key)
        if successor is not None and successor not in placed:
            out.append(Anchored(successor, succeeds=key))
            placed.add(successor)
        out.append(Anchored(key, anchors, successor=successor))
    return out


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
