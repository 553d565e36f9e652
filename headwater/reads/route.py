"""`route`: the documents that govern a task, each with the evidence that reached it, or silence.

The order of work is a contract: anchors the task names (identity, never cut by the budget);
purposes scored on the terms that separate them; documents scored on four surfaces and let
through only by a distinctive term (the confidence gate); the total order; turn-taking between
purposes and kinds; the budget; reading precedence. A wrong pointer costs more than a missing
one, so when nothing is confident the route is silent and says why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum

from headwater.corpus.document import Document
from headwater.graph import Bound, Graph
from headwater.reads.governing import Targets, governing_documents
from headwater.reads.harvested import HarvestedOffer, harvested_offers
from headwater.reads.route_purposes import PurposeWords
from headwater.reads.route_rank import Ranking, SurfaceIndex, rank
from headwater.reads.route_scope import Ungoverned, ungoverned
from headwater.reads.route_turns import by_precedence, in_turns
from headwater.reads.terms import read_path, terms
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy

VERSION = "1.0"
DEFAULT_BUDGET = 5


class Silence(Enum):
    NO_PURPOSES = ("no_purposes", "the taxonomy declares no purposes, so a task matches nothing")
    NO_TERMS = ("no_terms", "the task carries no term of two characters or more")
    NO_PURPOSE_MATCHED = ("no_purpose_matched", "no declared purpose answers this task")
    NO_DOCUMENT_REACHED = (
        "no_document_reached",
        "a purpose matched and no document under it was reached, so the route is silent")

    @property
    def reason(self) -> str:
        return self.value[0]

    @property
    def says(self) -> str:
        return self.value[1]


@dataclass(frozen=True)
class Evidence:
    """Why a pointer is offered: the anchors it governs, or the terms that reached it."""

    anchors: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    rank: int = 0
    of: int = 0

    def as_json(self) -> dict:
        if self.anchors:
            return {"by": "anchor", "anchors": list(self.anchors)}
        return {"by": "terms", "terms": list(self.terms), "rank": self.rank, "of": self.of}

    def line(self) -> str:
        if self.anchors:
            return "governs " + " ".join(self.anchors)
        return f"matched {' '.join(self.terms)}, rank {self.rank} of {self.of}"


@dataclass(frozen=True)
class Offered:
    document: Document
    evidence: Evidence


@dataclass(frozen=True)
class Route:
    task: str
    terms: tuple[str, ...]
    anchors: tuple[str, ...]
    ungoverned: tuple[Ungoverned, ...]
    separating: tuple[str, ...] = ()
    distinctive: tuple[str, ...] = ()
    matched: tuple[tuple[str, int], ...] = ()
    pointers: tuple[Offered, ...] = ()
    withheld: int = 0
    silence: Silence | None = None
    harvested: tuple[HarvestedOffer, ...] = ()  # pointers into pinned corpora, after these


def route(snapshot: Snapshot, task: str, budget: int = DEFAULT_BUDGET, *,
          read_tree: bool = True) -> Route:
    """Route one task. `read_tree=False` reads a task's words as paths through the edges alone
    (the MCP server holds no tree)."""
    graph, tax = snapshot.graph, snapshot.taxonomy

    def in_tree(path: str) -> bool:
        return read_tree and snapshot.tree.exists(path)

    targets = snapshot.derived("route.targets", lambda: Targets.of(graph))
    known = (in_tree, targets.names, targets.reaches)

    def is_directory(path: str) -> bool:
        return read_tree and (snapshot.root / path).is_dir()

    anchors = _named_anchors(task, targets, known)
    anchored = _anchored(graph, tax, anchors)
    governed_elsewhere = snapshot.federation.governors_of  # a harvested governor governs it too
    base = Route(task, terms(task), anchors,
                 tuple(u for u in ungoverned(snapshot, task, known, is_directory) if not governed_elsewhere(u.path)),
                 harvested=harvested_offers(snapshot.federation, task))
    if not tax.purposes:
        return _settle(base, snapshot, anchored, Silence.NO_PURPOSES)
    if not base.terms:
        return _settle(base, snapshot, anchored, Silence.NO_TERMS)
    words = snapshot.derived("route.purposes", lambda: PurposeWords.of(tax))
    separating = words.separating(base.terms)
    matched = words.matched(separating)
    base = replace(base, separating=separating, matched=matched)
    if not matched:
        return _settle(base, snapshot, anchored, Silence.NO_PURPOSE_MATCHED)
    index = snapshot.derived("route.surfaces", lambda: SurfaceIndex.of(graph, tax))
    ranking = rank(index, words.subjects(base.terms), base.terms)
    base = replace(base, distinctive=ranking.distinctive)
    candidates = _candidates(ranking, tax, matched, {o.document.path for o in anchored})
    if not candidates and not anchored and not base.harvested:
        return _settle(base, snapshot, anchored, Silence.NO_DOCUMENT_REACHED)
    slots = max(0, budget - len(anchored))
    turned = in_turns(candidates, [name for name, _ in matched],
                      lambda o: tax.purpose_of(o.document.kind) or "",
                      lambda o: o.document.kind or "")
    ranked = _ordered(snapshot, turned[:slots])
    return replace(base, pointers=tuple(_ordered(snapshot, anchored)) + tuple(ranked),
                 withheld=max(0, len(candidates) - slots))


def _settle(base: Route, snapshot: Snapshot, anchored: list[Offered],
            silence: Silence) -> Route:
    """A branch that ends early: the anchored pointers in full, or silence when there are none."""
    if anchored or base.harvested:
        return replace(base, pointers=tuple(_ordered(snapshot, anchored)))
    return replace(base, silence=silence)


def _named_anchors(task: str, targets: Targets, known: tuple[Callable[[str], bool], ...]
                   ) -> tuple[str, ...]:
    found: list[str] = []
    for word in task.split():
        path = read_path(word, *known)
        if path and path not in found and targets.reaches(path):
            found.append(path)
    return tuple(found)


def _anchored(graph: Graph, tax: Taxonomy, anchors: tuple[str, ...]) -> list[Offered]:
    governs: dict[str, list[str]] = {}
    documents: dict[str, Document] = {}
    for anchor in anchors:
        for document in governing_documents(graph, tax, anchor):
            documents.setdefault(document.path, document)
            governs.setdefault(document.path, []).append(anchor)
    return [Offered(documents[p], Evidence(anchors=tuple(governs[p]))) for p in documents]


def _candidates(ranking: Ranking, tax: Taxonomy, matched: tuple[tuple[str, int], ...],
                anchored: set[str]) -> list[Offered]:
    """Reached documents whose kind serves a matched purpose, in the total order, ranked."""
    purpose_score = dict(matched)
    needed = (len(ranking.distinctive) + 1) // 2  # at least half the task's distinctive terms
    gated = [s for s in ranking.scores
             if s.reached and len(s.reached) >= needed and s.document.path not in anchored
             and (tax.purpose_of(s.document.kind or "") or "") in purpose_score]
    gated.sort(key=lambda s: (-purpose_score[tax.purpose_of(s.document.kind or "") or ""],
                              -s.lexical, s.document.path))
    return [Offered(s.document, Evidence(terms=s.reached, rank=index, of=len(gated)))
            for index, s in enumerate(gated, start=1)]


def _ordered(snapshot: Snapshot, block: list[Offered]) -> list[Offered]:
    pairs = snapshot.derived("route.precedence", lambda: governance_pairs(snapshot.graph, snapshot.taxonomy))
    return by_precedence(block, lambda a, b: (a.document.path, b.document.path) in pairs)


def governance_pairs(graph: Graph, tax: Taxonomy) -> set[tuple[str, str]]:
    """(governing, governed) paths, from every document-target edge with a governing end."""
    pairs = set()
    for edge in graph.edges:
        if edge.target.bound is not Bound.DOCUMENT or not edge.target.path:
            continue
        end = tax.governs_reading(edge.relation, edge.inverse)
        if end == "source":
            pairs.add((edge.source, edge.target.path))
        elif end == "target":
            pairs.add((edge.target.path, edge.source))
    return pairs
