"""The abbreviation reader behind HW-DR-0039's vocabulary measurement (tests/benchmarks/route_signals.py)."""


import pytest


@pytest.fixture
def signals(benchmark_script):
    return benchmark_script("route_signals")


def test_an_abbreviation_a_page_declares_is_read_with_the_words_its_letters_spell(signals, tmp_path):
    (tmp_path / "a.md").write_text("Scale with the Horizontal Pod Autoscaler (HPA) and the Software Development "
                                   "Kits (SDKs), not the (Beta) label.\n", encoding="utf-8")
    assert signals.declared_aliases(tmp_path) == {"hpa": "horizontal pod autoscaler",
                                                     "sdk": "software development kits"}


def test_an_abbreviation_declared_with_two_meanings_is_not_read(signals, tmp_path):
    (tmp_path / "a.md").write_text("Trust the Certificate Authority (CA).\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("Add nodes with the Cluster Autoscaler (CA).\n", encoding="utf-8")
    assert signals.declared_aliases(tmp_path) == {}


def test_a_task_is_routed_with_the_long_form_beside_the_abbreviation_it_holds(signals):
    rewrite = signals.with_aliases({"hpa": "horizontal pod autoscaler"})
    assert rewrite("tune the HPA") == "tune the HPA horizontal pod autoscaler"
    assert rewrite("tune the horizontal pod autoscaler (HPA)") == "tune the horizontal pod autoscaler (HPA)"
