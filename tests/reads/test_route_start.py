"""What route's first call builds and keeps: counts, not bodies; stems summed as it builds, saturated when asked."""

import datetime as dt
from collections import Counter

from headwater.corpus.document import Document
from headwater.reads.route.answer import route_answer
from headwater.reads.route.index import FIELDS, Entry, RouteIndex
from headwater.reads.route.rank import Scorer
from headwater.reads.route.tokens import ENGLISH_STOP_WORDS, Tokenizer
from headwater.snapshot import load
from headwater.yaml.nodes import Map


def test_the_route_index_counts_each_body_without_keeping_it_on_the_document(quickstart):
    snapshot = load(quickstart, dt.date(2026, 11, 1))
    documents = snapshot.census.documents
    index = RouteIndex.of(documents, snapshot.taxonomy, "docs")
    assert any(sum(entry.counts[FIELDS.index("body")].values()) for entry in index.entries)
    assert not [d.path for d in documents if "body" in vars(d)]


def test_a_stem_is_summed_as_the_index_is_built_saturated_on_its_first_asking_and_scores_alike_after():
    def entry(path: str, body: dict[str, int]) -> Entry:
        document = Document(path, "page", Map((), 1, 1), "", "", 1, path)
        return Entry(document, tuple(Counter(body if name == "body" else {}) for name in FIELDS))

    scorer = Scorer.of(RouteIndex((entry("a.md", {"retri": 2}), entry("b.md", {"queue": 1, "retri": 1})),
                                  Tokenizer(ENGLISH_STOP_WORDS)))
    assert scorer.postings("zebra") is None and scorer.postings("queue") is not None
    first = scorer.rank(("retri",), floor=0.0)
    assert scorer.postings("retri") is scorer.postings("retri")
    assert scorer.rank(("retri",), floor=0.0) == first and [h.position for h in first.hits] == [0, 1]


def test_route_answers_alike_in_a_fresh_session_and_after_other_tasks_saturated_its_stems(quickstart):
    tasks = ("why do we retry with backoff", "retry queue", "what does the deploy guide say")
    fresh = [route_answer(load(quickstart, dt.date(2026, 11, 1)), task) for task in tasks]
    session = load(quickstart, dt.date(2026, 11, 1))
    for task in reversed(tasks):
        route_answer(session, task)
    assert [route_answer(session, task) for task in tasks] == fresh
