"""The parts of HW-DR-0046's measurement (tests/benchmarks/route_qpp.py) that need no corpus: the
gate chosen out of sample, the rank-average, clarity and RM3's expanded task."""

from types import SimpleNamespace

import pytest


@pytest.fixture
def qpp(benchmark_script):
    return benchmark_script("route_qpp")


def _task(group: str, kind: str, value: float) -> dict:
    return {"set": group, "offer": None if kind == "trap" else ["a.md"], "hit": kind == "hit", "value": value}


def test_each_set_is_gated_at_the_cut_that_beats_the_line_on_the_other_sets(qpp):
    # On "a" traps sit low and hits high, so the least cut that costs no hit there (0.11, the
    # first decile of its traps) gates "b" (one trap and one hit under it); "b" holds one trap,
    # no decile to cut at, so "a" is left ungated.
    tasks = [_task("a", "trap", 0.1), _task("a", "trap", 0.2), _task("a", "hit", 0.9),
             _task("b", "trap", 0.105), _task("b", "hit", 0.108), _task("b", "hit", 0.8)]
    values = {id(t): t["value"] for t in tasks}
    assert qpp.held_out(tasks, values, "set") == "1, 1"


def test_no_gate_is_applied_where_no_cut_beats_the_line_on_the_other_sets(qpp):
    # On "a" any cut silencing a trap costs eight hits, more than the line pays for one trap.
    tasks = [_task("a", "trap", 0.85), _task("a", "trap", 0.9), *(_task("a", "hit", v / 10) for v in range(1, 9)),
             _task("b", "trap", 0.5), _task("b", "hit", 0.6)]
    values = {id(t): t["value"] for t in tasks}
    assert qpp.held_out(tasks, values, "set") == "0, 0"


def test_the_rank_average_gives_tied_values_their_mean_rank(qpp):
    assert qpp._ranks({1: 0.5, 2: 0.1, 3: 0.5, 4: 0.9}) == {2: 0.0, 1: 0.5, 3: 0.5, 4: 1.0}


def test_clarity_is_zero_when_the_top_pages_speak_as_the_corpus_does_and_grows_when_they_focus(qpp):
    corpus = SimpleNamespace(background={"queue": 0.5, "retry": 0.5})
    assert qpp.clarity(corpus, [0], [1.0], [{"queue": 1.0, "retry": 1.0}]) == pytest.approx(0.0)
    assert qpp.clarity(corpus, [0], [1.0], [{"queue": 2.0}]) > 0.3


def test_rm3_keeps_the_task_at_its_share_and_adds_the_top_pages_heaviest_other_stems(qpp):
    feedback = [{"retry": 1.0, "backoff": 3.0, "jitter": 1.0}, {"retry": 1.0, "cron": 5.0}]
    corpus = SimpleNamespace(scores=lambda weights: [2.0, 0.0], feedback=feedback)
    weights, chosen = qpp.expanded(corpus, ("retry",), docs=10, many=1, original=0.5)
    assert chosen == ("backoff",)
    assert weights == {"retry": 0.5, "backoff": 0.5}
