"""The pieces behind the levers HW-DR-0057 measured and HW-DR-0059 left
(tests/benchmarks/route_small.py)."""

import sys

import pytest

from headwater.reads.route import rank


@pytest.fixture
def small(benchmark_script, monkeypatch):
    for name in ("UNSEEN",):  # put back whatever a test sets
        monkeypatch.setattr(rank, name, getattr(rank, name))
    return benchmark_script("route_small")


def test_a_weighed_table_weighs_only_the_words_it_lacks_and_never_an_excused_one(small):
    table = small.Weighed({"queue": 2.5}, lambda stem: 0.25 if stem == "the" else 1.0)
    assert table.get("queue", 9.0) == 2.5
    assert (table.get("the", 8.0), table.get("lunr", 8.0)) == (2.0, 8.0)
    assert table.get("why", 0.0) == 0.0  # a word a matched purpose declares adds nothing, as route has it
    assert table.get("lunr") is None and "the" not in table and table["queue"] == 2.5  # a dict otherwise


def test_the_english_weight_is_none_without_its_package(small, monkeypatch):
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # an import of it fails
    assert small.background() is None


def test_the_english_weight_counts_a_common_word_nothing_and_a_rare_one_in_full(small):
    pytest.importorskip("wordfreq")
    weight = small.background()
    assert weight("the") == 0.0 and weight("xylography") == 1.0
