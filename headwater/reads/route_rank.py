"""The lexical half of `route`: four surfaces per document, term weights, the reach test.

Surfaces: the summary (+3), the text of the anchors the document's edges name (+2), every
scalar front-matter value (+1) and the path (+1). A term weighs the number of documents it
rules out; it is distinctive when at most half the corpus carries it and it is a subject term
(neither a function word of the taxonomy's language nor a word of a purpose), and only a
distinctive term can reach a document. Bodies and headings are never read.
"""

from __future__ import annotations

from dataclasses import dataclass

from headwater.corpus.document import Document
from headwater.graph import Graph
from headwater.reads.terms import terms
from headwater.taxonomy.model import Taxonomy
from headwater.yaml.nodes import Scalar

SURFACE_POINTS = (("summary", 3), ("anchors", 2), ("facets", 1), ("path", 1))


@dataclass(frozen=True)
class Surfaces:
    document: Document
    held: dict[str, frozenset[str]]  # surface name → the terms it holds
    scored: dict[str, int]  # term → the points its surfaces give it, summed once

    def points(self, term: str) -> int:
        return self.scored.get(term, 0)


@dataclass(frozen=True)
class Score:
    document: Document
    lexical: int
    reached: tuple[str, ...]  # the distinctive terms that reached it, in task order


@dataclass(frozen=True)
class Ranking:
    distinctive: tuple[str, ...]
    scores: tuple[Score, ...]  # one per document a distinctive term reaches, in census path order


@dataclass(frozen=True)
class SurfaceIndex:
    """Every document's surfaces and, per term, the documents that carry it: built once per
    snapshot, so a call costs what its terms reach, not the corpus."""

    surfaces: tuple[Surfaces, ...]
    carriers: dict[str, tuple[int, ...]]  # term → positions in `surfaces`, ascending

    @staticmethod
    def of(graph: Graph, tax: Taxonomy) -> SurfaceIndex:
        read = tuple(surfaces(d, graph, tax) for d in graph.census.documents)
        carriers: dict[str, list[int]] = {}
        for position, surface in enumerate(read):
            for term in surface.scored:
                carriers.setdefault(term, []).append(position)
        return SurfaceIndex(read, {term: tuple(found) for term, found in carriers.items()})


def surfaces(document: Document, graph: Graph, tax: Taxonomy) -> Surfaces:
    named = [e.target.anchor for e in graph.outbound.get(document.path, ()) if e.target.anchor]
    anchors = " ".join(" ".join(anchor.patterns) for anchor in named)
    facets = " ".join(value.text for _, value in document.front.entries
                      if isinstance(value, Scalar))
    texts = {"summary": document.text_of(tax.facet_for_role("scent")) or "", "anchors": anchors,
             "facets": facets, "path": document.path}
    held = {name: frozenset(terms(text)) for name, text in texts.items()}
    scored: dict[str, int] = {}
    for surface, points in SURFACE_POINTS:
        for term in held[surface]:
            scored[term] = scored.get(term, 0) + points
    return Surfaces(document, held, scored)


def rank(index: SurfaceIndex, subjects: tuple[str, ...], task_terms: tuple[str, ...]) -> Ranking:
    """`subjects`: the task terms allowed to reach a document (route_purposes.PurposeWords)."""
    total = len(index.surfaces)
    weights: dict[str, int] = {}
    distinctive: list[str] = []
    for term in task_terms:
        carriers = index.carriers.get(term, ())
        weights[term] = 1 if total < 2 else total - len(carriers)
        if (total < 2 or len(carriers) * 2 <= total) and term in subjects:
            distinctive.append(term)
    # Only a document a distinctive term reaches can pass the gate, so only those are scored.
    touched = {position for term in distinctive for position in index.carriers.get(term, ())}
    scores = []
    for position in sorted(touched):
        surface = index.surfaces[position]
        lexical = sum(surface.points(t) * weights[t] for t in task_terms)
        reached = tuple(t for t in distinctive if surface.points(t) > 0)
        scores.append(Score(surface.document, lexical, reached))
    return Ranking(tuple(distinctive), tuple(scores))
