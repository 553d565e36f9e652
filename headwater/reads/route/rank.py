"""Route's ranking: field-weighted BM25 (BM25F) over the route index, and the task's confidence.

A document's pseudo-frequency for a stem sums each field's occurrences times the field's weight,
each normalised by the field's length against the corpus mean (b); it saturates through k1, and
the stem's IDF scales it. The body's share is capped (CAPS): a long proposal that says "page" a
hundred times is about that word no more than a title that says it once, so a body alone never
carries a stem to saturation. Which documents hold each stem, and each field's length norm, are
found once per snapshot; a stem's saturated postings on the first task that holds it, then kept.

Confidence is a property of the task, not of a pointer: the best document's score over the
task's own IDF mass, where a stem the corpus lacks counts at the maximum IDF. It lies in [0, 1).
Coverage is the share of that mass the best document holds, in any field. Whether they, and how
the best document holds the task's words, are enough to answer is the abstention rule's to say
(`abstention`, HW-DR-0019 and HW-DR-0027); a task it does not trust gathers no hit. The weights
were chosen on the dapr-docs labelled set (tests/route_sets); CAPS, to which dapr-docs is
indifferent, against the body-carried confidence seen on the first kubernetes-enhancements set.

The lead (a summary read from the body where a document has no summary facet, HW-DR-0026) ranks
but does not vouch: it is UNVOUCHED, so confidence, coverage and the guards are judged on the best
document by the other fields, as if the lead were not there; only the order and floor of a
trusted task's pointers use every field. Prose holds a trap's generic words as a one-line summary
seldom does.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType

from headwater.corpus.document import Document
from headwater.reads.route.abstention import Agreement, trusted
from headwater.reads.route.index import FIELDS, RouteIndex
from headwater.reads.route.tokens import Tokenizer

WEIGHTS = MappingProxyType({"title": 3.0, "summary": 2.0, "headings": 0.5, "path": 2.0, "body": 0.1,
                            "lead": 2.0})
K1 = 1.6
CAPS = MappingProxyType({"body": 1.0})  # the most a field adds to one stem's pseudo-frequency
B = 0.75
FLOOR = 0.35  # a document scoring under this share of the best is not offered
PRIOR = 0.10  # the boost for a document whose kind serves a purpose the task matched
UNSEEN = 1.0  # a stem no document holds weighs this share of the maximum IDF in the task's mass
UNVOUCHED = frozenset({"lead"})  # fields that rank but do not vouch: confidence is judged without them


@dataclass(frozen=True)
class Hit:
    """One document's position in the index and its score (the prior included)."""

    position: int
    score: float


@dataclass(frozen=True)
class Ranking:
    hits: tuple[Hit, ...]  # the documents within `floor` of the best, best first; ties by path
    confidence: float  # best raw score over the task's IDF mass; 0 when nothing is reached
    coverage: float  # the share of the task's IDF mass the best-scoring document holds; 0 likewise
    reached: tuple[str, ...]  # the task stems some document holds, in task order


@dataclass(frozen=True)
class Postings:
    """Every document holding one stem: positions ascending, each one's IDF-weighted saturated
    frequency over every field and over the fields that vouch (UNVOUCHED left out), and the
    fields it sits in (a bit per field)."""

    positions: tuple[int, ...]
    values: tuple[float, ...]
    vouched: tuple[float, ...]
    fields: tuple[int, ...]


@dataclass(frozen=True)
class Scorer:
    documents: tuple[Document, ...]  # by index position
    tokenizer: Tokenizer
    held: tuple[dict[str, tuple[array, array]], ...]  # per field, stem → (positions ascending, counts)
    norms: tuple[tuple[float, ...], ...]  # per field, per position: its weight over its length norm
    idf: dict[str, float]  # every stem some document holds
    max_idf: float
    unvouched: bool  # whether any UNVOUCHED field holds a stem (if none, what vouches is everything)
    _postings: dict[str, Postings] = field(default_factory=dict, compare=False, repr=False)

    @staticmethod
    def of(index: RouteIndex) -> Scorer:
        entries = index.entries
        total = len(entries)
        lengths = [e.lengths for e in entries]
        means = [max(1e-9, sum(row[f] for row in lengths) / total) if total else 1.0
                 for f in range(len(FIELDS))]
        weights = [WEIGHTS[name] for name in FIELDS]
        norms = tuple(tuple(weights[f] / (1 - B + B * row[f] / means[f]) for row in lengths)
                      for f in range(len(FIELDS)))
        holding: Counter[str] = Counter()  # stem → how many documents hold it
        held: list[dict[str, tuple[array, array]]] = [{} for _ in FIELDS]
        for position, entry in enumerate(entries):
            holding.update(set().union(*entry.counts))
            for f, counts in enumerate(entry.counts):
                column = held[f]
                for stem, count in counts.items():
                    pair = column.get(stem)
                    if pair is None:
                        column[stem] = (array("i", (position,)), array("i", (count,)))
                    else:
                        pair[0].append(position)
                        pair[1].append(count)
        idf = {stem: _idf(total, found) for stem, found in holding.items()}
        unvouched = any(held[f] for f, name in enumerate(FIELDS) if name in UNVOUCHED)
        return Scorer(tuple(e.document for e in entries), index.tokenizer, tuple(held), norms, idf, _idf(total, 0),
                      unvouched)

    def postings(self, stem: str) -> Postings | None:
        """The stem's postings, saturated on its first asking and kept: a session pays for the
        stems its tasks hold, not for every stem of the corpus."""
        found = self._postings.get(stem)
        if found is None and stem in self.idf:
            found = self._postings[stem] = self._saturated(stem)
        return found

    def _saturated(self, stem: str) -> Postings:
        pseudo: dict[int, float] = {}
        where: dict[int, int] = {}
        vouched: dict[int, float] | None = None  # the sums before the first UNVOUCHED field (they come last)
        for f, column in enumerate(self.held):  # fields in order: each sum adds as the build did
            found = column.get(stem)
            if found is None:
                continue
            if vouched is None and FIELDS[f] in UNVOUCHED:
                vouched = dict(pseudo)
            positions, counts = found
            norm, cap, bit = self.norms[f], CAPS.get(FIELDS[f]), 1 << f
            values = [count * norm[p] for p, count in zip(positions, counts)]  # noqa: B905 (equal by build)
            if cap is not None:
                values = [min(value, cap) for value in values]
            if not pseudo:  # the first field's values as they are: 0.0 + v is v
                pseudo = dict(zip(positions, values))  # noqa: B905 (equal by build)
                where = dict.fromkeys(positions, bit)
                continue
            get, bits = pseudo.get, where.get
            for p, value in zip(positions, values):  # noqa: B905 (equal by build)
                pseudo[p] = get(p, 0.0) + value
                where[p] = bits(p, 0) | bit
        positions, idf = sorted(pseudo), self.idf[stem]  # the documents holding it, ascending
        return Postings(tuple(positions), _saturation(pseudo, positions, idf),
                        _saturation(pseudo if vouched is None else vouched, positions, idf),
                        tuple(map(where.__getitem__, positions)))

    def rank(self, stems: tuple[str, ...], favoured: Callable[[int], bool] = lambda _: False,
             excused: frozenset[str] = frozenset(), floor: float = FLOOR, confident: float = 0.0) -> Ranking:
        """Score every document a task stem reaches; a `favoured` position gets the purpose prior;
        hits are the documents within `floor` of the best. An `excused` stem no document holds (a
        word a matched purpose declares, such as `why`) says what the reader comes for, not what
        about, so it adds nothing to the task's mass. A task the abstention rule does not trust
        at `confident` (`abstention.trusted`) gathers no hit."""
        scores = self._summed(stems, lambda found: found.values)
        if not scores:
            return Ranking((), 0.0, 0.0, ())
        # Confidence and the guards are judged on the fields that vouch; every field ranks.
        judged = self._summed(stems, lambda found: found.vouched) if self.unvouched else scores
        mass = sum(self.idf.get(stem, 0.0 if stem in excused else self.max_idf * UNSEEN)
                   for stem in stems)
        judged_best = max(judged.values())
        leader = min([p for p, score in judged.items() if score == judged_best])  # ties: the first path
        reached = tuple(s for s in stems if s in self.idf)
        confidence = judged_best / mass if mass else 0.0
        held = tuple((stem, fields) for stem, fields in self.fields(leader, stems) if not UNVOUCHED.issuperset(fields))
        coverage = sum(self.idf[stem] for stem, _ in held) / mass if mass else 0.0
        if not trusted(confidence, coverage, confident, Agreement.of(held, len(reached), self.idf, mass, len(stems))):
            return Ranking((), confidence, coverage, reached)
        best = max(scores.values())
        pool = {p: s * (1 + PRIOR) if favoured(p) else s
                for p, s in scores.items() if s * (1 + PRIOR) >= best * floor}
        least = max(pool.values()) * floor
        # entries are in census (path) order, so a position breaks a tie as the path would
        kept = sorted(((p, s) for p, s in pool.items() if s >= least), key=lambda ps: (-ps[1], ps[0]))
        return Ranking(tuple(Hit(p, s) for p, s in kept), confidence, coverage, reached)

    def _summed(self, stems: tuple[str, ...], value_of: Callable[[Postings], tuple[float, ...]]) -> dict[int, float]:
        """Per document a task stem reaches, the sum of its stems' values (`value_of` a posting)."""
        scores: dict[int, float] = {}
        get = scores.get
        for stem in stems:
            found = self.postings(stem)
            if found is None:
                continue
            if not scores:  # the first stem's values as they are: 0.0 + v is v, in one call
                scores.update(zip(found.positions, value_of(found)))  # noqa: B905 (equal by build)
                continue
            for position, value in zip(found.positions, value_of(found)):  # noqa: B905 (equal by build)
                scores[position] = get(position, 0.0) + value
        return scores

    def fields(self, position: int, stems: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(stem, the fields it sits in) for each of the stems this document holds, in order."""
        found = []
        for stem in stems:
            postings = self.postings(stem)
            if postings is None:
                continue
            at = bisect_left(postings.positions, position)
            if at < len(postings.positions) and postings.positions[at] == position:
                found.append((stem, NAMED[postings.fields[at]]))
        return tuple(found)

    def document(self, hit: Hit) -> Document:
        return self.documents[hit.position]


def _saturation(pseudo: dict[int, float], positions: list[int], idf: float) -> tuple[float, ...]:
    """Each position's IDF-weighted saturated pseudo-frequency (0 where `pseudo` lacks it)."""
    return tuple([idf * (v / (K1 + v)) for v in (pseudo.get(p, 0.0) for p in positions)])


def _idf(total: int, holding: int) -> float:
    return math.log(1 + (total - holding + 0.5) / (holding + 0.5))


NAMED = tuple(tuple(name for f, name in enumerate(FIELDS) if mask & (1 << f)) for mask in range(1 << len(FIELDS)))
