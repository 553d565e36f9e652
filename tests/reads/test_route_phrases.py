"""The phrase reader behind HW-DR-0054's measurement (tests/benchmarks/route_phrases.py)."""


import pytest


@pytest.fixture
def measure(benchmark_script):
    return benchmark_script("route_phrases")


def test_a_phrase_is_two_neighbouring_stems_in_either_order(measure):
    assert measure.phrases(["rotat", "certif", "sidecar"]) == {frozenset({"rotat", "certif"}),
                                                                 frozenset({"certif", "sidecar"})}
    assert measure.phrases(["certif", "rotat"]) == measure.phrases(["rotat", "certif"])


def test_a_repeated_stem_and_a_lone_word_make_no_phrase(measure):
    assert measure.phrases(["state", "state"]) == set()
    assert measure.phrases(["state"]) == set()


def test_a_task_is_a_hit_only_when_every_page_it_asks_for_is_in_the_first_five(measure):
    task = measure.Task("c", ("a.md", "b.md"), (), ())
    assert task.outcome(["a.md", "x", "y", "z", "b.md"]) == "hit"
    assert task.outcome(["a.md", "x", "y", "z", "w", "b.md"]) == "miss"
    assert task.outcome([]) == "silent"
    trap = measure.Task("c", None, (), ())
    assert (trap.outcome(["x"]), trap.outcome([])) == ("trap", "quiet")
