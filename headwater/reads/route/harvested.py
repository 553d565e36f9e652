"""Harvested pointers for `route`: documents of pinned corpora whose exported edges govern a
path the task names. They follow this corpus's own pointers, marked with the corpus they come
from, and like any anchored pointer they are identity, never cut by the budget."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from headwater.federation.pinned import Federation, RemoteDocument
from headwater.reads.terms import read_path


@dataclass(frozen=True)
class HarvestedOffer:
    document: RemoteDocument
    anchors: tuple[str, ...]


def harvested_offers(federation: Federation, task: str, normal: Callable[[str], str]) -> tuple[HarvestedOffer, ...]:
    """`normal` reads a word as a repository path, as route reads it for this corpus's anchors."""
    if not federation.governing:
        return ()
    governs: dict[tuple[str, str], list[str]] = {}
    documents: dict[tuple[str, str], RemoteDocument] = {}
    for word in task.split():
        path = read_path(word, lambda p: bool(federation.governors_of(p)), normal=normal)
        for document in federation.governors_of(path) if path else ():
            key = (document.corpus, document.path)
            documents.setdefault(key, document)
            if path not in governs.setdefault(key, []):
                governs[key].append(path)
    return tuple(HarvestedOffer(documents[k], tuple(governs[k])) for k in sorted(documents))
