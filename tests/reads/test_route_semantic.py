"""The parts of HW-DR-0040's semantic measurement (tests/benchmarks/route_semantic.py) that need no
model: the gate's tally, the two hybrids' orders, what of a document is embedded, and the refusal
when the optional packages are absent."""

import datetime as dt

import pytest

from headwater.snapshot import load
from tests.reads.test_route_lead import _corpus


@pytest.fixture
def semantic(benchmark_script):
    return benchmark_script("route_semantic")


def test_a_gate_counts_the_traps_and_right_answers_under_each_cut_at_the_traps_quantiles(semantic):
    rows = semantic.gate_rows([0.1, 0.2, 0.3, 0.4, 0.5], [0.15, 0.6, 0.7], quantiles=4)
    assert [(silenced, lost) for _, silenced, lost in rows] == [(1, 0), (2, 1), (4, 1)]
    assert semantic.gate_rows([0.3], [0.1]) == []


def test_a_mix_all_route_keeps_route_s_order_and_all_cosine_follows_the_cosine(semantic):
    pool = {7: 3.0, 2: 2.0, 9: 1.0}
    cosine = {7: 0.1, 2: 0.5, 9: 0.9}.__getitem__
    assert semantic.mixed(pool, cosine, 1.0) == [7, 2, 9]
    assert semantic.mixed(pool, cosine, 0.0) == [9, 2, 7]
    assert semantic.mixed({}, cosine, 0.5) == []


def test_fusion_puts_first_the_document_both_rankings_hold_high(semantic):
    assert semantic.fused([1, 2, 3], [3, 1, 4]) == [1, 3, 2, 4]


def test_a_document_without_a_summary_is_embedded_by_its_title_and_the_lead_route_reads(semantic, tmp_path, hw):
    snapshot = load(_corpus(tmp_path, hw), dt.date(2026, 11, 1))
    documents = {d.path: d for d in snapshot.census.documents}
    tax = snapshot.taxonomy
    assert semantic.document_text(documents["docs/plans/migrate.md"], tax, "name") == (
        "Widget plan. The quokka migration moves beta. It takes gamma.")
    assert semantic.document_text(documents["docs/notes/first.md"], tax, "name") == "A note. The wombat opens it."
    assert semantic.document_text(documents["docs/notes/blurbed.md"], tax, "name") == "Blurbed. about the koala"
    assert semantic.document_text(documents["docs/plans/migrate.md"], tax, "headings") == (
        "Widget plan. The quokka migration moves beta. It takes gamma.; Synopsis; Details")


def test_without_the_optional_packages_it_says_so_in_one_sentence_and_exits_2(semantic, monkeypatch, capsys):
    monkeypatch.setattr(semantic, "OPTIONAL", ("no_such_package_for_route_semantic",))
    assert semantic.main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "no_such_package_for_route_semantic" in err and err.startswith("route_semantic: ")
