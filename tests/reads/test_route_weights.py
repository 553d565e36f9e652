"""The constants setter behind HW-DR-0054's search of route's BM25F constants (tests/benchmarks/route_weights.py)."""


import datetime as dt

import pytest

from headwater.reads.route import rank, router
from headwater.snapshot import load


@pytest.fixture
def search(benchmark_script, monkeypatch):
    for name in ("WEIGHTS", "K1", "B", "SATURATED"):  # put back whatever a test sets
        monkeypatch.setattr(rank, name, getattr(rank, name))
    monkeypatch.setattr(router, "CONFIDENT", router.CONFIDENT)
    return benchmark_script("route_weights")


def test_route_as_it_is_is_what_the_search_starts_from_and_sets_back(search):
    before = (dict(rank.WEIGHTS), rank.K1, rank.B, router.CONFIDENT, rank.SATURATED)
    search.setting({**search.AS_IT_IS, "title": 1.0, "k1": 2.0, "b": 0.9, "confident": 0.2})
    assert (rank.WEIGHTS["title"], rank.K1, rank.B, router.CONFIDENT) == (1.0, 2.0, 0.9, 0.2)
    assert abs(rank.SATURATED - 1.0 / 3.0) < 1e-12
    search.setting(search.AS_IT_IS)
    assert (dict(rank.WEIGHTS), rank.K1, rank.B, router.CONFIDENT, rank.SATURATED) == before


def test_a_task_hits_at_five_when_every_page_it_asks_for_is_offered_and_at_one_when_its_first_is_first(search):
    assert search.hits(("a.md", "b.md"), ["b.md", "x", "y", "z", "a.md"]) == (True, False)
    assert search.hits(("a.md",), ["a.md"]) == (True, True)
    assert search.hits(("a.md",), ["x", "y", "z", "w", "v", "a.md"]) == (False, False)


def test_the_search_keeps_a_change_only_when_it_judges_better(search):
    judged = lambda constants: -abs(constants["title"] - 2)  # noqa: E731 — best at 2
    chosen = search.searched({**search.AS_IT_IS, "title": 6}, {"title": (1, 2, 3)}, judged)
    assert chosen["title"] == 2
    assert search.searched({"title": 2}, {"title": (1, 3)}, judged) == {"title": 2}
    assert search.searched({"title": 2}, {"title": (1, 3)}, lambda _: 0) == {"title": 2}  # a tie keeps it


def test_the_ranking_alone_is_every_document_a_task_reaches_best_first_and_route_offers_from_its_head(
        search, copy_fixture):
    snapshot = load(copy_fixture("routing"), dt.date(2026, 11, 1))
    task = "why do we retry deliveries with backoff"
    reader = snapshot.derived("route.reader", lambda: router.Reader.of(snapshot))
    ranked = search.ranking_alone(reader.scorer, task)
    scores = [score for _, score in ranked]
    assert scores and scores == sorted(scores, reverse=True) and min(scores) > 0
    offered = [o.document.path for o in router.route(snapshot, task, 5).pointers]
    assert offered[0] in [reader.scorer.documents[p].path for p, _ in ranked[:2]]
    assert search.ranking_alone(reader.scorer, "the of and") == []
