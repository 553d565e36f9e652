"""Harvested pointers for `route`: documents of pinned corpora whose exported edges govern a
path the task names. They follow this corpus's own pointers, marked with the corpus they come
from, and like any anchored pointer they are identity, never cut by the budget. As the pinned
exports state their edges and states, a terminal one comes with its live successor ahead of it,
and a document that governs another's reading comes first."""

from __future__ import annotations

from collections.abc import Callable

from headwater.federation.pinned import Federation, RemoteDocument
from headwater.frozen import frozen
from headwater.reads.route.evidence import Evidence
from headwater.reads.route.state import anchored_places
from headwater.reads.route.turns import by_precedence
from headwater.reads.terms import read_path


@frozen
class HarvestedOffer:
    document: RemoteDocument
    evidence: Evidence
    successor: str = ""  # a terminal document's live successor (its path in the same corpus)


def harvested_offers(federation: Federation, task: str, read: Callable[[str], tuple[str, ...]],
                     successor_of: dict[tuple[str, str], tuple[str, str]]) -> tuple[HarvestedOffer, ...]:
    """`read` gives a word's readings as repository paths, route's one reading for this corpus's anchors;
    `successor_of` is `remote_successors` of the federation."""
    if not federation.governing:
        return ()
    governs: dict[tuple[str, str], list[str]] = {}
    for word in task.split():
        path = read_path(word, lambda p: bool(federation.governors_of(p)), read=read)
        for document in federation.governors_of(path) if path else ():
            paths = governs.setdefault((document.corpus, document.path), [])
            if path not in paths:
                paths.append(path)
    offers = [HarvestedOffer(federation.at_path[place.key],
                             Evidence(anchors=place.anchors, succeeds=place.succeeds[1] if place.succeeds else ""),
                             place.successor[1] if place.successor else "")
              for place in anchored_places({k: tuple(governs[k]) for k in sorted(governs)}, successor_of)]
    return tuple(by_precedence(offers, lambda a, b: (_key(a), _key(b)) in federation.precedes))


def _key(offer: HarvestedOffer) -> tuple[str, str]:
    return offer.document.corpus, offer.document.path
