"""Route's scoring loop against BM25F written the plain way: each stem's saturated value per
document, the value without the fields that do not vouch, and the fields it sits in are the same
numbers, bit for bit, however the index folds and adds them (HW-DR-0030)."""

import random
from collections import Counter

from headwater.corpus.document import Document
from headwater.reads.route import rank
from headwater.reads.route.index import FIELDS, Entry, RouteIndex
from headwater.reads.route.tokens import ENGLISH_STOP_WORDS, Tokenizer
from headwater.yaml.nodes import Map

STEMS = ("retri", "queue", "backoff", "ledger", "tenant", "quota", "audit", "servic")


def _entries(seed: int, documents: int = 60) -> tuple[Entry, ...]:
    pick = random.Random(seed)
    entries = []
    for at in range(documents):
        counts = tuple(Counter({stem: pick.randint(1, 40 if name == "body" else 3)
                                for stem in pick.sample(STEMS, pick.randint(0, 4 if name != "lead" else 2))})
                       if name != "lead" or at % 3 == 0 else Counter() for name in FIELDS)
        entries.append(Entry(Document(f"d{at:03}.md", "page", Map((), 1, 1), "", "", 1, f"d{at:03}.md"), counts))
    return tuple(entries)


def _plain(entries: tuple[Entry, ...]) -> dict[str, dict[int, tuple[float, float, tuple[str, ...]]]]:
    """stem → position → (value, value over the vouching fields, fields), the textbook way."""
    total = len(entries)
    means = [max(1e-9, sum(e.lengths[f] for e in entries) / total) for f in range(len(FIELDS))]
    holding = Counter(stem for e in entries for stem in set().union(*e.counts))
    found: dict[str, dict[int, tuple[float, float, tuple[str, ...]]]] = {}
    for position, entry in enumerate(entries):
        for stem in set().union(*entry.counts):
            pseudo, vouched, fields = 0.0, 0.0, []
            for f, name in enumerate(FIELDS):
                if stem in entry.counts[f]:
                    norm = rank.WEIGHTS[name] / (1 - rank.B + rank.B * entry.lengths[f] / means[f])
                    pseudo += min(entry.counts[f][stem] * norm, rank.CAPS.get(name, float("inf")))
                    fields.append(name)
                if name not in rank.UNVOUCHED:
                    vouched = pseudo
            idf = rank._idf(total, holding[stem])
            found.setdefault(stem, {})[position] = (idf * (pseudo / (rank.K1 + pseudo)),
                                                    idf * (vouched / (rank.K1 + vouched)), tuple(fields))
    return found


def _built(scorer: rank.Scorer, stem: str) -> dict[int, tuple[float, float, tuple[str, ...]]]:
    postings = scorer.postings(stem)
    return {p: (value, postings.vouched.get(p, value), rank.NAMED[bits])
            for p, value, bits in zip(postings.positions, postings.values, postings.fields, strict=True)}


def test_each_stems_saturated_values_are_the_plain_bm25f_numbers_bit_for_bit():
    for seed in range(5):
        entries = _entries(seed)
        scorer = rank.Scorer.of(RouteIndex(entries, Tokenizer(ENGLISH_STOP_WORDS)))
        plain = _plain(entries)
        assert set(scorer.idf) == set(plain)
        assert all(_built(scorer, stem) == plain[stem] for stem in plain)


def test_the_scorer_reads_its_entries_once_so_a_generator_builds_the_same_scores():
    entries = _entries(7)
    built = rank.Scorer.of(RouteIndex(entries, Tokenizer(ENGLISH_STOP_WORDS)))
    streamed = rank.Scorer.of(RouteIndex(iter(entries), Tokenizer(ENGLISH_STOP_WORDS)))
    task = ("retri", "queue", "audit")  # an unseen word would leave the task unexplained, so no hits
    assert streamed.documents == built.documents
    assert streamed.rank(task, floor=0.0) == built.rank(task, floor=0.0)
    assert streamed.rank(task, floor=0.0).hits


def _mass(scorer: rank.Scorer, task: tuple[str, ...]) -> float:
    return sum(scorer.idf.get(stem, scorer.max_idf * rank.UNSEEN) for stem in task)


def test_confidence_is_the_best_sum_over_the_vouching_fields_in_task_order_lead_or_not():
    tasks = [(a, b) for a in STEMS for b in STEMS if a != b]
    tasks += [("quota", "retri", "audit"), ("servic", "queue", "zebra")]
    for seed in range(5):
        entries = _entries(seed)
        scorer = rank.Scorer.of(RouteIndex(entries, Tokenizer(ENGLISH_STOP_WORDS)))
        plain = _plain(entries)
        for task in tasks:
            judged = [0.0] * len(entries)
            for stem in task:
                for position, (_, vouched, _) in plain.get(stem, {}).items():
                    judged[position] += vouched
            assert scorer.rank(task, floor=0.0).confidence == max(judged) / _mass(scorer, task), (seed, task)


def test_a_session_scores_a_task_as_a_fresh_index_does_after_other_tasks_spread_their_common_stems():
    entries = _entries(3)
    index = RouteIndex(entries, Tokenizer(ENGLISH_STOP_WORDS))
    session, tasks = rank.Scorer.of(index), [("servic", "audit"), ("tenant", "retri"), ("audit", "quota", "servic")]
    assert any(len(session.postings(stem).positions) >= rank.DENSE * len(entries) for stem in tasks[0])
    for task in tasks:
        session.rank(task, floor=0.0)
    for task in tasks:
        fresh = rank.Scorer.of(RouteIndex(entries, Tokenizer(ENGLISH_STOP_WORDS)))
        assert session.rank(task, floor=0.0) == fresh.rank(task, floor=0.0)


def test_a_lead_document_missing_the_tasks_first_word_is_still_judged_on_its_later_words():
    def entry(path: str, **fields: dict[str, int]) -> Entry:
        return Entry(Document(path, "page", Map((), 1, 1), "", "", 1, path),
                     tuple(Counter(fields.get(name, {})) for name in FIELDS))

    entries = (entry("a.md", title={"retri": 3}, lead={"queue": 1}), entry("b.md", body={"audit": 1}),
               entry("c.md", body={"queue": 1}))
    scorer = rank.Scorer.of(RouteIndex(entries, Tokenizer(ENGLISH_STOP_WORDS)))
    task = ("audit", "queue", "retri")
    best = _plain(entries)["retri"][0][1]  # a.md's title: its lead's `queue` does not vouch
    assert scorer.rank(task, floor=0.0).confidence == best / _mass(scorer, task)


def test_a_task_whose_words_sit_only_in_leads_has_no_confidence_and_gathers_nothing():
    def entry(path: str, **fields: dict[str, int]) -> Entry:
        return Entry(Document(path, "page", Map((), 1, 1), "", "", 1, path),
                     tuple(Counter(fields.get(name, {})) for name in FIELDS))

    entries = (entry("a.md", title={"ledger": 1}), entry("b.md", lead={"queue": 2}), entry("c.md", lead={"queue": 1}))
    ranking = rank.Scorer.of(RouteIndex(entries, Tokenizer(ENGLISH_STOP_WORDS))).rank(("queue",), floor=0.0)
    assert ranking == rank.Ranking((), 0.0, 0.0, ("queue",))
