"""The lexical half of `route`, pinned by numbers: surface points, term weights, the reach test."""

from __future__ import annotations

import datetime as dt

import pytest

from headwater.reads.route_rank import Score, SurfaceIndex, Surfaces, rank, surfaces
from headwater.snapshot import load


def index(*documents: dict[str, int]) -> SurfaceIndex:
    """An index over documents named d0, d1, … whose surfaces give each term the points shown."""
    read = tuple(Surfaces(f"d{n}", {}, points) for n, points in enumerate(documents))
    carriers: dict[str, list[int]] = {}
    for position, surface in enumerate(read):
        for term in surface.scored:
            carriers.setdefault(term, []).append(position)
    return SurfaceIndex(read, {term: tuple(found) for term, found in carriers.items()})


FOUR = index({"queue": 3, "retry": 1}, {"queue": 1, "postgres": 2}, {"tenant": 3}, {"queue": 1, "tenant": 1})


def test_a_term_weighs_the_number_of_documents_it_rules_out_times_its_points():
    ranking = rank(FOUR, ("retry", "postgres", "queue"), ("queue", "retry", "postgres"))
    assert ranking.distinctive == ("retry", "postgres")  # `queue` is carried by three of four
    # queue weighs 4 - 3 = 1, retry and postgres 4 - 1 = 3: every task term counts, distinctive or not
    assert ranking.scores == (Score("d0", 3 * 1 + 1 * 3, ("retry",)), Score("d1", 1 * 1 + 2 * 3, ("postgres",)))


def test_a_term_carried_by_exactly_half_the_corpus_is_distinctive_and_by_more_is_not():
    ranking = rank(FOUR, ("tenant",), ("tenant",))
    assert ranking.distinctive == ("tenant",)
    assert ranking.scores == (Score("d2", 3 * 2, ("tenant",)), Score("d3", 1 * 2, ("tenant",)))
    assert rank(FOUR, ("queue",), ("queue",)).scores == ()


def test_only_a_subject_term_reaches_a_document_though_every_term_scores():
    ranking = rank(FOUR, ("postgres",), ("retry", "postgres"))
    assert ranking.distinctive == ("postgres",)
    assert ranking.scores == (Score("d1", 2 * 3, ("postgres",)),)  # d0 carries retry, not a subject


def test_reached_terms_follow_the_task_order_and_a_term_nobody_carries_weighs_the_whole_corpus():
    ranking = rank(FOUR, ("tenant", "queue", "nowhere"), ("nowhere", "tenant", "queue"))
    assert ranking.distinctive == ("nowhere", "tenant")
    assert [(s.document, s.reached) for s in ranking.scores] == [("d2", ("tenant",)), ("d3", ("tenant",))]
    assert ranking.scores[1].lexical == 1 * 2 + 1 * 1


@pytest.mark.parametrize("corpus", [index({"queue": 3}), index()])
def test_in_a_corpus_of_one_document_or_none_every_subject_term_is_distinctive_and_weighs_one(corpus):
    ranking = rank(corpus, ("queue",), ("queue", "other"))
    assert ranking.distinctive == ("queue",)
    assert ranking.scores == ((Score("d0", 3, ("queue",)),) if corpus.surfaces else ())


def test_in_a_corpus_of_two_a_term_one_carries_is_distinctive_and_one_both_carry_is_not():
    pair = index({"queue": 2, "retry": 1}, {"retry": 3})
    assert rank(pair, ("queue", "retry"), ("queue", "retry")).distinctive == ("queue",)
    assert rank(pair, ("queue", "retry"), ("queue", "retry")).scores == (Score("d0", 2 * 1 + 1 * 0, ("queue",)),)


def test_surfaces_give_summary_three_anchors_two_facets_and_path_one_each_once(quickstart):
    snapshot = load(quickstart, dt.date(2026, 11, 1))
    graph, tax = snapshot.graph, snapshot.taxonomy
    document = next(d for d in snapshot.census.documents if d.path == "docs/decisions/0003-rate-limit-per-tenant.md")
    read = surfaces(document, graph, tax)
    assert set(read.held) == {"summary", "anchors", "facets", "path"}
    for term, points in read.scored.items():
        expected = sum(weight for name, weight in (("summary", 3), ("anchors", 2), ("facets", 1), ("path", 1))
                       if term in read.held[name])
        assert points == expected, term
    assert read.points("tenant") == 3 + 1 + 1  # summary, the summary again as a facet, the path
    assert read.points("rate") == 2 + 1 + 1  # the governed path, the title facet, the path
    assert read.points("ingest") >= 3 and read.points("absent") == 0
    built = SurfaceIndex.of(graph, tax)
    position = [s.document.path for s in built.surfaces].index(document.path)
    assert built.surfaces[position] == read
    assert all(position in built.carriers[term] for term in read.scored)
    assert all(list(found) == sorted(found) for found in built.carriers.values())
