"""The lexical half of `route`: four surfaces per document, term weights, the reach test.

Surfaces: the summary (+3), the text of the anchors the document's edges name (+2), every
scalar front-matter value (+1) and the path (+1). A term weighs the number of documents it
rules out; it is distinctive when at most half the corpus carries it, and only a distinctive
term can reach a document. Bodies and headings are never read.
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

    def points(self, term: str) -> int:
        return sum(points for surface, points in SURFACE_POINTS if term in self.held[surface])

    def carries(self, term: str) -> bool:
        return any(term in held for held in self.held.values())


@dataclass(frozen=True)
class Score:
    document: Document
    lexical: int
    reached: tuple[str, ...]  # the distinctive terms that reached it, in task order


@dataclass(frozen=True)
class Ranking:
    distinctive: tuple[str, ...]
    scores: tuple[Score, ...]  # one per document, in census path order


def surfaces(document: Document, graph: Graph, tax: Taxonomy) -> Surfaces:
    named = [e.target.anchor for e in graph.outbound.get(document.path, ()) if e.target.anchor]
    anchors = " ".join(" ".join(anchor.patterns) for anchor in named)
    facets = " ".join(value.text for _, value in document.front.entries
                      if isinstance(value, Scalar))
    texts = {"summary": document.text_of(tax.facet_for_role("scent")) or "", "anchors": anchors,
             "facets": facets, "path": document.path}
    return Surfaces(document, {name: frozenset(terms(text)) for name, text in texts.items()})


def rank(graph: Graph, tax: Taxonomy, task_terms: tuple[str, ...]) -> Ranking:
    read = [surfaces(d, graph, tax) for d in graph.census.documents]
    total = len(read)
    weights: dict[str, int] = {}
    distinctive: list[str] = []
    for term in task_terms:
        carried = sum(1 for s in read if s.carries(term))
        weights[term] = 1 if total < 2 else total - carried
        if total < 2 or carried * 2 <= total:
            distinctive.append(term)
    scores = []
    for surface in read:
        lexical = sum(surface.points(t) * weights[t] for t in task_terms)
        reached = tuple(t for t in distinctive if surface.points(t) > 0)
        scores.append(Score(surface.document, lexical, reached))
    return Ranking(tuple(distinctive), tuple(scores))
