"""Route's ranking: field-weighted BM25 (BM25F) over the route index, and the task's confidence.

A document's pseudo-frequency for a stem sums each field's occurrences times the field's weight,
each normalised by the field's length against the corpus mean (b); it saturates through k1, and
the stem's IDF scales it. The body's share is capped (CAPS): a long proposal that says "page" a
hundred times is about that word no more than a title that says it once, so a body alone never
carries a stem to saturation. Each stem's pseudo-frequencies are summed once per snapshot, from
every document's counts read once (HW-DR-0030); a stem is saturated on the first task that holds
it, then kept. A server's first answer need not wait for every stem's sums: a scorer made
`deferring` gathers a stem's sums from the counts when a task first asks for it, the same floats
in the same order, and is `complete`d once that answer is out (HW-DR-0053). A task's scores add
in one list per position, in task order, so each is the same sum of the same numbers however the
index stores them.

Confidence is a property of the task, not of a pointer: the best document's score over the
task's own IDF mass, where a stem the corpus lacks counts at the maximum IDF. It lies in [0, 1).
Coverage is the share of that mass the best document holds, in any field. Whether they, and how
the best document holds the task's words, are enough to answer is the abstention rule's to say
(`abstention`, HW-DR-0019, HW-DR-0027 and HW-DR-0031), as is whether the document ranked first
explains the task (HW-DR-0033), for which this module says how much that document's body dwells
on each word only its body holds; a task it does not trust gathers no hit.
The weights were first chosen on the dapr-docs labelled set (tests/route_sets), the body's raised
to 0.1 on every real set together (HW-DR-0031); CAPS, to which dapr-docs is indifferent, against
the body-carried confidence seen on the first kubernetes-enhancements set.

The lead (a summary read from the body where a document has no summary facet, HW-DR-0026) ranks
but does not vouch: it is UNVOUCHED, so confidence, coverage and the guards are judged on the best
document by the other fields, as if the lead were not there; only the order and floor of a
trusted task's pointers use every field. Prose holds a trap's generic words as a one-line summary
seldom does. Where that judgement does not trust the task, the lead vouches after all when the
words the best document holds only in its prose would meet in fewer than CHANCE documents by
chance (HW-DR-0059): on a few records with no summary (a folder of decision records bound by
`init`), the lead is all a record says of itself, and two of its rarer words together are no
accident; in hundreds of long proposals, the words a trap shares with some lead are common enough
to meet there by chance. That chance is then the test of whether the first document holds the
task's words in passing, which `explains` otherwise makes by how much a body dwells on them, so
that judgement does not ask it again (HW-DR-0060): against a task's mass, in which each word a
few records lack weighs the most, a record's context could not explain a task it answers.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import field
from itertools import accumulate, compress, islice, repeat
from operator import add, ge, itemgetter, mul
from types import MappingProxyType

from headwater.corpus.document import Document
from headwater.frozen import frozen
from headwater.reads.route.abstention import Agreement, explains, trusted
from headwater.reads.route.index import FIELDS, Entry, RouteIndex
from headwater.reads.route.tokens import Tokenizer

WEIGHTS = MappingProxyType({"title": 3.0, "summary": 2.0, "headings": 0.5, "path": 2.0, "body": 0.1,
                            "lead": 2.0})
K1 = 1.6
CAPS = MappingProxyType({"body": 1.0})  # the most a field adds to one stem's pseudo-frequency
B = 0.75
FLOOR = 0.35  # a document scoring under this share of the best is not offered
PRIOR = 0.10  # the boost for a document whose kind serves a purpose the task matched
UNSEEN = 1.0  # a stem no document holds weighs this share of the maximum IDF in the task's mass
DENSE = 0.4  # the share of documents from which a stem's values add as a spread over every position
UNVOUCHED = frozenset({"lead"})  # fields that rank but do not vouch: confidence is judged without them
UNVOUCHED_BITS = sum(1 << f for f, name in enumerate(FIELDS) if name in UNVOUCHED)
CAPPED = tuple(CAPS.get(name, math.inf) for name in FIELDS)
PROSE = "body"  # the field whose words a document may hold only in passing
PROSAIC = frozenset({PROSE, *UNVOUCHED})  # the fields of running prose, where any word may fall
CHANCE = 1.0  # the lead vouches where fewer documents than this would hold its prose words by chance
SATURATED = CAPS[PROSE] / (K1 + CAPS[PROSE])  # the most the capped body gives one stem, over its IDF


Sums = tuple[array, array, array, dict[int, float]]  # a stem's (positions, pseudo, field bits, before)
Table = list[Sums | None] | dict[int, Sums | None]


@frozen
class Hit:
    """One document's position in the index and its score (the prior included)."""

    position: int
    score: float


@frozen
class Ranking:
    hits: tuple[Hit, ...]  # the documents within `floor` of the best, best first; ties by path
    confidence: float  # best raw score over the task's IDF mass; 0 when nothing is reached
    coverage: float  # the share of the task's IDF mass the best-scoring document holds; 0 likewise
    reached: tuple[str, ...]  # the task stems some document holds, in task order


@frozen
class Postings:
    """Every document holding one stem: positions ascending, each one's IDF-weighted saturated
    frequency over every field, and the fields it sits in (a bit per field); and, for the
    documents an UNVOUCHED field holds it in, the value over the fields that vouch (elsewhere
    the two are the same number)."""

    positions: array  # of "i"
    values: array  # of "d", by position
    fields: array  # of "B", by position
    vouched: dict[int, float]  # position → its value without the UNVOUCHED fields, where they hold the stem


@frozen
class Folded:
    """Every document's counts, read once from the entries and kept compact until the corpus's
    mean field lengths are known: per document and field (FIELDS order), how many stems it
    holds, then those stems' ids and counts, flat."""

    documents: tuple[Document, ...]
    stems: list[str]  # by id, in first-seen order
    ids: array  # of "i"
    counts: array  # of "i", by id
    sizes: array  # of "i": per document, a row of one size per field
    lengths: tuple[array, ...]  # per field, per document: its length (the sum of its counts)

    @staticmethod
    def of(entries: Iterable[Entry]) -> Folded:
        documents, known, stems = [], {}, []
        ids, counts, sizes = array("i"), array("i"), array("i")
        lengths = tuple(array("q") for _ in FIELDS)
        for entry in entries:
            documents.append(entry.document)
            fold(entry, known, stems, (ids, counts, sizes, lengths))
        return Folded(tuple(documents), stems, ids, counts, sizes, lengths)


def fold(entry: Entry, known: dict[str, int], stems: list[str],
         into: tuple[array, array, array, tuple[array, ...]]) -> None:
    """Append one document's row (`Folded`'s layout) to `into` (ids, counts, sizes, lengths),
    giving a stem not `known` the next id."""
    ids, counts, sizes, lengths = into
    for held, length in zip(entry.counts, lengths, strict=True):
        for stem in held:
            if stem not in known:
                known[stem] = len(stems)
                stems.append(stem)
        ids.extend(map(known.__getitem__, held))
        counts.extend(held.values())
        sizes.append(len(held))
        length.append(sum(held.values()))


@frozen
class Scorer:
    documents: tuple[Document, ...]  # by index position
    tokenizer: Tokenizer
    idf: dict[str, float]  # every stem some document holds
    max_idf: float
    # stem → its pseudo-frequencies (positions, sums, field bits, sums before an UNVOUCHED
    # field), until a task first asks for it and they are saturated into `_postings`
    _sums: dict[str, Sums] = field(compare=False, repr=False)
    _postings: dict[str, Postings] = field(default_factory=dict, compare=False, repr=False)
    _spread_values: dict[str, array] = field(default_factory=dict, compare=False, repr=False)
    # while deferring: what gathers a stem's sums on its first asking, until `complete` (empty after)
    _deferred: list[Gathering] = field(default_factory=list, compare=False, repr=False)

    @staticmethod
    def of(index: RouteIndex) -> Scorer:
        """Every stem's pseudo-frequencies and IDF, the entries read once, into `Folded`."""
        return Scorer.over(Folded.of(index.entries), index.tokenizer)

    @staticmethod
    def over(folded: Folded, tokenizer: Tokenizer) -> Scorer:
        """Each document's fields add, in FIELDS order, into its pseudo-frequencies stem by stem;
        a stem's document frequency is the length of its positions. A stem of `folded` no
        document holds (one a refolded row dropped, `refold`) has no IDF."""
        total = len(folded.documents)
        means = _means(folded)
        weights = [WEIGHTS[name] for name in FIELDS]
        table: list[Sums | None] = [None] * len(folded.stems)
        last = [-1] * len(folded.stems)
        pairs, sizes = zip(folded.ids, folded.counts, strict=True), iter(folded.sizes)
        for position in range(total):
            for f, size in zip(range(len(FIELDS)), sizes):  # noqa: B905 (sizes holds a row per document)
                if size:
                    norm = weights[f] / (1 - B + B * folded.lengths[f][position] / means[f])
                    _pseudo(table, last, position, f, islice(pairs, size), norm)
        sums = {stem: found for stem, found in zip(folded.stems, table, strict=True) if found is not None}
        idf = {stem: _idf(total, len(found[0])) for stem, found in sums.items()}
        return Scorer(folded.documents, tokenizer, idf, _idf(total, 0), sums)

    @staticmethod
    def deferring(folded: Folded, tokenizer: Tokenizer) -> Scorer:
        """`over`'s scorer with no sums made yet: each stem's are gathered from `folded` when a
        task first asks for it, its IDF with them, until `complete` makes the rest."""
        return Scorer(folded.documents, tokenizer, {}, _idf(len(folded.documents), 0), {},
                      _deferred=[Gathering.of(folded)])

    def complete(self) -> None:
        """Every stem's sums and IDF, as `over` makes them and in its order, where a deferring
        scorer has not yet made them; nothing for one that was never deferring."""
        if not self._deferred:
            return
        whole = Scorer.over(self._deferred.pop().folded, self.tokenizer)
        self.idf.clear()
        self.idf.update(whole.idf)
        self._sums.clear()
        self._sums.update((stem, sums) for stem, sums in whole._sums.items() if stem not in self._postings)

    def postings(self, stem: str) -> Postings | None:
        """The stem's postings, saturated on its first asking (one pass over the documents that
        hold it: the sums are already made, or gathered now while deferring) and kept."""
        found = self._postings.get(stem)
        if found is None and self._deferred and stem not in self._sums:
            gathered = self._deferred[0].sums(stem)
            if gathered is not None:
                self._sums[stem] = gathered
                self.idf[stem] = _idf(len(self.documents), len(gathered[0]))
        if found is None and stem in self._sums:
            positions, pseudo, fields, before = self._sums.pop(stem)
            weight = self.idf[stem]
            found = self._postings[stem] = Postings(
                positions, array("d", [weight * (v / (K1 + v)) for v in pseudo]), fields,
                {p: weight * (v / (K1 + v)) for p, v in before.items()})
        return found

    def rank(self, stems: tuple[str, ...], favoured: Callable[[int], bool] = lambda _: False,
             excused: frozenset[str] = frozenset(), floor: float = FLOOR, confident: float = 0.0) -> Ranking:
        """Score every document a task stem reaches; a `favoured` position gets the purpose prior;
        hits are the documents within `floor` of the best. An `excused` stem no document holds (a
        word a matched purpose declares, such as `why`) says what the reader comes for, not what
        about, so it adds nothing to the task's mass. A task the abstention rule does not trust
        at `confident` (`abstention.trusted`) gathers no hit."""
        found = [(stem, postings) for stem, postings in zip(stems, map(self.postings, stems), strict=True)
                 if postings is not None]
        if not found:
            return Ranking((), 0.0, 0.0, ())
        scores = self._summed(found)
        mass = sum(self.idf.get(stem, 0.0 if stem in excused else self.max_idf * UNSEEN)
                   for stem in stems)
        reached = tuple(s for s in stems if s in self.idf)
        # the document ranked first on every field (the lead's too) is the one offered first,
        # but for the purpose prior's nudge
        best = max(scores)
        first = scores.index(best)
        # Confidence and the guards are judged on the fields that vouch; every field ranks.
        judged = self._judged([postings for _, postings in found], scores)
        confidence, coverage, answered = self._verdict(stems, scores, judged, first, mass, confident, UNVOUCHED)
        if not answered and judged is not scores:  # the lead holds a task word: it vouches where that is no chance
            # that chance is the test of prose words that `explains` makes by depth (HW-DR-0060)
            lead = self._verdict(stems, scores, scores, first, mass, confident, frozenset(), explaining=False)
            if lead[2] and self._expected(first, stems) < CHANCE:
                confidence, coverage, answered = lead
        if not answered:
            return Ranking((), confidence, coverage, reached)
        boost = 1 + PRIOR
        least = best * floor
        near = list(compress(range(len(scores)), map(ge, map(mul, scores, repeat(boost)), repeat(least))
                             if least > 0 else scores))  # with no floor, every document reached (its sum is positive)
        pool = {p: scores[p] * boost if favoured(p) else scores[p] for p in near}
        least = max(pool.values()) * floor
        # entries are in census (path) order, so a position breaks a tie as the path would: the
        # pool is in position order, and a sort by score alone keeps that order among equals
        kept = sorted([(p, s) for p, s in pool.items() if s >= least], key=itemgetter(1), reverse=True)
        return Ranking(tuple(Hit(p, s) for p, s in kept), confidence, coverage, reached)

    def _summed(self, found: list[tuple[str, Postings]]) -> list[float]:
        """Per position, the sum of the stems' values in task order (0.0 where none reaches). A
        stem most documents hold adds its values spread over every position in one pass, as a
        sum of 0.0 leaves a score as it was."""
        total = len(self.documents)
        scores = [0.0] * total
        for stem, postings in found:
            if len(postings.positions) >= DENSE * total:
                scores = list(map(add, scores, self._spread(stem, postings)))
                continue
            for position, value in zip(postings.positions, postings.values):  # noqa: B905 (equal by build)
                scores[position] += value
        return scores

    def _spread(self, stem: str, postings: Postings) -> array:
        """The stem's values at every position (0.0 where it is not held), made on its first
        asking and kept."""
        spread = self._spread_values.get(stem)
        if spread is None:
            spread = self._spread_values[stem] = array("d", bytes(8 * len(self.documents)))
            for position, value in zip(postings.positions, postings.values):  # noqa: B905 (equal by build)
                spread[position] = value
        return spread

    def _judged(self, found: list[Postings], scores: list[float]) -> list[float]:
        """`scores` summed over the fields that vouch: the same sums but where an UNVOUCHED field
        holds a task stem, which are added again in task order."""
        led = sorted(set().union(*(postings.vouched for postings in found)))
        if not led:
            return scores
        judged = scores.copy()
        for p in led:
            total = 0.0
            for postings in found:
                value = postings.vouched.get(p)
                if value is None:
                    at = bisect_left(postings.positions, p)
                    if at == len(postings.positions) or postings.positions[at] != p:
                        continue
                    value = postings.values[at]
                total += value
            judged[p] = total
        return judged

    def _verdict(self, stems: tuple[str, ...], scores: list[float], judged: list[float], first: int, mass: float,
                 confident: float, unvouched: frozenset[str], explaining: bool = True) -> tuple[float, float, bool]:
        """The task's confidence and coverage, judged on `judged` (the scores over the fields
        that vouch, every field but `unvouched`), and whether the abstention rule trusts it: with
        `explaining` off, whether the first document explains the task is not asked."""
        judged_best = max(judged)
        # ties: the first path; a position no stem reaches sums to 0.0, which a reached one beats
        leader = judged.index(judged_best) if judged_best > 0 else next(compress(range(len(scores)), scores))
        held = self._vouched(leader, stems, unvouched)
        first_held = held if first == leader else self._vouched(first, stems, unvouched)
        confidence = judged_best / mass if mass else 0.0
        coverage = sum(self.idf[stem] for stem, _ in held) / mass if mass else 0.0
        explained = not explaining or explains(first_held, self.idf, mass, self._depths(first, first_held))
        agreement = Agreement.of(held, sum(stem in self.idf for stem in stems), self.idf, mass, len(stems),
                                 explained=explained)
        return confidence, coverage, trusted(confidence, coverage, confident, agreement)

    def _expected(self, position: int, stems: tuple[str, ...]) -> float:
        """How many documents would hold, by chance, the task words this one holds only in its
        prose (body or lead), as if words fell independently: the corpus's size times each word's
        share of the documents, times the ways to pick as many of the task's words the corpus
        holds (the words were found by looking, so any such set might have been). With none, the
        corpus's size: nothing but chance."""
        total = len(self.documents)
        prose = [stem for stem, fields in self.fields(position, stems) if PROSAIC.issuperset(fields)]
        if not prose:
            return total
        known = sum(stem in self.idf for stem in stems)
        return math.comb(known, len(prose)) * total * math.prod(len(self._postings[stem].positions) / total
                                                                for stem in prose)

    def _vouched(self, position: int, stems: tuple[str, ...],
                 unvouched: frozenset[str] = UNVOUCHED) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(stem, fields) for each task stem the document holds in a field that vouches."""
        return tuple((stem, fields) for stem, fields in self.fields(position, stems)
                     if not unvouched.issuperset(fields))

    def _depths(self, position: int, held: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, float]:
        """For each held stem that only the body vouches for, how much the body dwells on it: the
        square root of its saturated value over the most a capped body gives (a word said once in
        a page of average length counts about 0.4, one said ten times or more counts 1). A stem a
        field that names or heads the document holds is held as a subject, in full (absent here)."""
        found = {}
        for stem, fields in held:
            if [name for name in fields if name not in UNVOUCHED] != [PROSE]:
                continue
            postings = self._postings[stem]  # saturated when the task was scored
            value = postings.vouched.get(position)
            if value is None:
                value = postings.values[bisect_left(postings.positions, position)]
            found[stem] = math.sqrt(value / self.idf[stem] / SATURATED)  # at most 1: the body is capped
        return found

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


@frozen
class Gathering:
    """One stem's sums made from `Folded` alone: its occurrences found in the ids' bytes, each
    mapped to its document and field by where each row's stems end, and added as `Scorer.over` adds
    them, document by document, field by field."""

    folded: Folded
    known: dict[str, int]  # stem → its id
    raw: bytes  # the ids, as bytes, searched for one id's
    ends: list[int]  # per row (document, then field), the offset its stems end at
    means: list[float]

    @staticmethod
    def of(folded: Folded) -> Gathering:
        return Gathering(folded, {stem: at for at, stem in enumerate(folded.stems)}, folded.ids.tobytes(),
                         list(accumulate(folded.sizes)), _means(folded))

    def sums(self, stem: str) -> Sums | None:
        """The stem's (positions, pseudo-frequencies, field bits, sums before an UNVOUCHED
        field), or None where no document holds it."""
        sid = self.known.get(stem)
        if sid is None:
            return None
        table: dict[int, Sums | None] = {sid: None}
        last, width, itemsize = {sid: -1}, len(FIELDS), self.folded.ids.itemsize
        needle, at = array(self.folded.ids.typecode, (sid,)).tobytes(), -1
        while (at := self.raw.find(needle, at + 1)) >= 0:
            if at % itemsize:
                continue  # the id's bytes straddle two ids
            offset = at // itemsize
            position, f = divmod(bisect_right(self.ends, offset), width)
            norm = WEIGHTS[FIELDS[f]] / (1 - B + B * self.folded.lengths[f][position] / self.means[f])
            _pseudo(table, last, position, f, ((sid, self.folded.counts[offset]),), norm)
        return table[sid]


def _means(folded: Folded) -> list[float]:
    """Per field, the corpus's mean length (BM25F's b normalises each document's by it)."""
    total = len(folded.documents)
    return [max(1e-9, sum(lengths) / total) if total else 1.0 for lengths in folded.lengths]


def _pseudo(table: Table, last: list[int] | dict[int, int], position: int,
            f: int, counts: Iterable[tuple[int, int]], norm: float) -> None:
    """Add one field of the document at `position` (`last` says, per stem id, the last position
    added): for each (stem id, count), its count times the field's norm, capped, to the stem's
    (positions, pseudo-frequencies, field bits, sums before an UNVOUCHED field). Fields come in
    FIELDS order, so a sum adds as BM25F reads it (the first field's value as it is), and an
    UNVOUCHED field, which comes last, finds the sum of the fields that vouch."""
    cap, bit, unvouched = CAPPED[f], 1 << f, bool(UNVOUCHED_BITS & (1 << f))
    for stem, count in counts:
        value = count * norm
        if value > cap:
            value = cap
        if last[stem] == position:
            _, pseudo, fields, before = table[stem]
            if unvouched:
                before[position] = pseudo[-1]
            pseudo[-1] += value
            fields[-1] |= bit
            continue
        last[stem] = position
        found = table[stem]
        if found is None:
            table[stem] = (array("i", (position,)), array("d", (value,)), array("B", (bit,)),
                           {position: 0.0} if unvouched else {})
            continue
        positions, pseudo, fields, before = found
        if unvouched:
            before[position] = 0.0
        positions.append(position)
        pseudo.append(value)
        fields.append(bit)


def _idf(total: int, holding: int) -> float:
    return math.log(1 + (total - holding + 0.5) / (holding + 0.5))


NAMED = tuple(tuple(name for f, name in enumerate(FIELDS) if mask & (1 << f)) for mask in range(1 << len(FIELDS)))
