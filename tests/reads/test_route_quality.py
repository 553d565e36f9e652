"""Route quality on twenty-six labelled sets — the Relay fixture, and over real snapshots unpacked
once per session dapr-docs (tuned), four more dapr-docs sets and six kubernetes-enhancements sets
(all seen; dapr-docs third.yml and kubernetes-enhancements fourth.yml were held out until
HW-DR-0031, dapr-docs fourth.yml and kubernetes-enhancements fifth.yml, written blind and run once
on HW-DR-0031, until HW-DR-0033; dapr-docs fifth.yml and kubernetes-enhancements sixth.yml, written
blind and run once on HW-DR-0033, until HW-DR-0039 read their failures; dapr-docs sixth.yml and
kubernetes-enhancements seventh.yml, written blind and run once on HW-DR-0033 as HW-DR-0039 kept it,
until HW-DR-0046 measured predictors over them; one set each over the madr, adr-tools and
log4brains ADR repositories, bound by `init` and `adopt`, written blind, run once untouched, then
seen by a sweep of the absent words' weight that changed no rule; a second set over each, written
blind and run once on HW-DR-0059's first form, then seen; a third, written blind and run once,
untouched, on HW-DR-0059, then seen; a fourth, written blind and run once, untouched, on
HW-DR-0060) —
against plain BM25 over title + summary + path.

The bars are the route issue's: hit@5 ≥ 0.90, false-pointer rate ≤ 5%, hit@5 at least 0.08
above BM25. Where BM25 already hits 0.92 or more (Relay: 0.97), no ranker can clear it by 0.08
within 1.0, so there the bar is route ≥ BM25. A bar a set does not meet yet is an expected
failure that names the figure, strict, so meeting it turns the suite red until the mark comes off.
"""

import importlib.util
import sys
from functools import cache
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "route_quality.py"
BENCHMARKS = Path(__file__).resolve().parents[2] / "BENCHMARKS.md"
SETS = ("routing", "dapr-docs", "dapr-docs-held-out", "kubernetes-enhancements",
        "kubernetes-enhancements-held-out", "kubernetes-enhancements-third", "dapr-docs-third",
        "kubernetes-enhancements-fourth", "dapr-docs-fourth", "kubernetes-enhancements-fifth",
        "dapr-docs-fifth", "kubernetes-enhancements-sixth", "dapr-docs-sixth", "kubernetes-enhancements-seventh",
        "madr", "adr-tools", "log4brains", "madr-second", "adr-tools-second", "log4brains-second",
        "madr-third", "adr-tools-third", "log4brains-third", "madr-fourth", "adr-tools-fourth", "log4brains-fourth")
SIZES = {"routing": (30, 15), "dapr-docs": (40, 15), "dapr-docs-held-out": (40, 15),
         "kubernetes-enhancements": (30, 15), "kubernetes-enhancements-held-out": (30, 15),
         "kubernetes-enhancements-third": (30, 15), "dapr-docs-third": (40, 15),
         "kubernetes-enhancements-fourth": (30, 15), "dapr-docs-fourth": (40, 15),
         "kubernetes-enhancements-fifth": (30, 15), "dapr-docs-fifth": (40, 15),
         "kubernetes-enhancements-sixth": (30, 15), "dapr-docs-sixth": (40, 15),
         "kubernetes-enhancements-seventh": (30, 15), "madr": (30, 15), "adr-tools": (15, 15),
         "log4brains": (15, 15), "madr-second": (30, 15), "adr-tools-second": (15, 15),
         "log4brains-second": (15, 15), "madr-third": (30, 15), "adr-tools-third": (15, 15),
         "log4brains-third": (15, 15), "madr-fourth": (30, 15), "adr-tools-fourth": (15, 15),
         "log4brains-fourth": (15, 15)}
CEILING = 0.92  # from here up BM25 + 0.08 is 1.0 or more: only a perfect route would meet it


@cache
def _quality():
    spec = importlib.util.spec_from_file_location("route_quality", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def measured(tmp_path_factory):
    """Per set: (title, results, labels); the real archives unpacked once for the session."""
    module = _quality()
    labels = module.fixture_labels()
    found = {"routing": (module.FIXTURE_TITLE, module.measure_at(module.ROUTING, labels), labels)}
    return found | module.measure_real(tmp_path_factory.mktemp("corpora"))


def _set(measured, name):
    if name not in measured:
        pytest.skip(f"../shared/corpora/{name}.tar.gz is absent, so its labelled set cannot be measured")
    return measured[name]


def _unmet(name: str, why: str):
    return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=why))


@pytest.mark.parametrize("name", SETS)
def test_each_labelled_set_is_large_enough_to_mean_something(measured, name):
    _, _, labels = _set(measured, name)
    on, off = SIZES[name]
    assert len(labels["on_topic"]) >= on and len(labels["off_topic"]) >= off


@pytest.mark.parametrize("name", SETS)
def test_benchmarks_md_records_the_table_the_script_prints(measured, name):
    title, results, labels = _set(measured, name)
    assert _quality().table(title, results, labels) in BENCHMARKS.read_text(encoding="utf-8")


DAPR_HELD_OUT, KEPS_SECOND, KEPS_THIRD = ("dapr-docs-held-out", "kubernetes-enhancements-held-out",
                                          "kubernetes-enhancements-third")
DAPR_THIRD, KEPS_FOURTH = "dapr-docs-third", "kubernetes-enhancements-fourth"
DAPR_FOURTH, KEPS_FIFTH = "dapr-docs-fourth", "kubernetes-enhancements-fifth"
DAPR_FIFTH, KEPS_SIXTH = "dapr-docs-fifth", "kubernetes-enhancements-sixth"
DAPR_SIXTH, KEPS_SEVENTH = "dapr-docs-sixth", "kubernetes-enhancements-seventh"
ADRS = ("madr", "adr-tools", "log4brains", "madr-second", "adr-tools-second", "log4brains-second",
        "madr-third", "adr-tools-third", "log4brains-third", "madr-fourth", "adr-tools-fourth", "log4brains-fourth")
ADR_TRAPS = {"adr-tools": "1 of 17 off-topic tasks gets a pointer (0.06)",
             "log4brains": "1 of 18 off-topic tasks gets a pointer (0.06)",
             "madr-second": "2 of 24 off-topic tasks get a pointer (0.08)",
             "log4brains-second": "1 of 19 off-topic tasks gets a pointer (0.05, over by a third of a task)"}


@pytest.mark.parametrize("name", ["routing", "dapr-docs", DAPR_HELD_OUT,
                                  _unmet("kubernetes-enhancements", "1 of 17 off-topic tasks gets a pointer (0.06)"),
                                  _unmet(KEPS_SECOND, "1 of 18 off-topic tasks gets a pointer (0.06)"),
                                  _unmet(KEPS_THIRD, "3 of 17 off-topic tasks get a pointer (0.18)"),
                                  DAPR_THIRD,
                                  _unmet(KEPS_FOURTH, "2 of 19 off-topic tasks get a pointer (0.11)"),
                                  _unmet(DAPR_FOURTH, "4 of 19 off-topic tasks get a pointer (0.21)"),
                                  _unmet(KEPS_FIFTH, "4 of 19 off-topic tasks get a pointer (0.21)"),
                                  _unmet(DAPR_FIFTH, "3 of 22 off-topic tasks get a pointer (0.14)"),
                                  _unmet(KEPS_SIXTH, "7 of 20 off-topic tasks get a pointer (0.35)"),
                                  DAPR_SIXTH,
                                  _unmet(KEPS_SEVENTH, "4 of 22 off-topic tasks get a pointer (0.18)"),
                                  *(_unmet(name, ADR_TRAPS[name]) if name in ADR_TRAPS else name for name in ADRS)])
def test_at_most_five_percent_of_off_topic_tasks_get_a_guessed_pointer(measured, name):
    _, results, _ = _set(measured, name)
    assert results[_quality().ROUTE].false_pointer_rate <= 0.05


SILENT_ON_ADRS = {"madr": "route hits 0.36 at 5, silent on 0.64 of on-topic tasks, against BM25's 0.50",
                  "adr-tools": "route hits 0.28 at 5, silent on 0.72 of on-topic tasks, against BM25's 0.67",
                  "log4brains": "route hits 0.50 at 5, silent on 0.50 of on-topic tasks, against BM25's 0.67",
                  "madr-second": "route hits 0.19 at 5, silent on 0.81 of on-topic tasks, against BM25's 0.53",
                  "adr-tools-second": "route hits 0.11 at 5, silent on 0.89 of on-topic tasks, against BM25's 0.72",
                  "log4brains-second": "route hits 0.40 at 5, silent on 0.60 of on-topic tasks, against BM25's 0.90",
                  "madr-third": "route hits 0.21 at 5, silent on 0.77 of on-topic tasks, against BM25's 0.69",
                  "adr-tools-third": "route hits 0.10 at 5, silent on 0.90 of on-topic tasks, against BM25's 0.45",
                  "log4brains-third": "route hits 0.38 at 5, silent on 0.62 of on-topic tasks, against BM25's 1.00",
                  "madr-fourth": "route hits 0.14 at 5, silent on 0.86 of on-topic tasks, against BM25's 0.50",
                  "adr-tools-fourth": "route hits 0.22 at 5, silent on 0.78 of on-topic tasks, against BM25's 0.83",
                  "log4brains-fourth": "route hits 0.20 at 5, silent on 0.80 of on-topic tasks, against BM25's 0.95"}
UNMET_ON_ADRS = [_unmet(name, why) for name, why in SILENT_ON_ADRS.items()]


@pytest.mark.parametrize("name", [*(name for name in SETS if name not in ADRS), *UNMET_ON_ADRS])
def test_route_hits_at_5_at_least_as_often_as_bm25(measured, name):
    _, results, _ = _set(measured, name)
    assert results[_quality().ROUTE].hit >= results[_quality().BM25].hit


@pytest.mark.parametrize("name", [*(name for name in SETS if name != "dapr-docs" and name not in ADRS),
                                  _unmet("dapr-docs", "hit@5 is 0.87 against BM25's 0.80"), *UNMET_ON_ADRS])
def test_route_hits_at_5_at_least_eight_points_above_bm25_where_that_fits_under_one(measured, name):
    """Where BM25 hits CEILING or more, route must only match it: no ranker beats 0.97 by 0.08."""
    _, results, _ = _set(measured, name)
    route, bm25 = results[_quality().ROUTE].hit, results[_quality().BM25].hit
    assert route >= (bm25 if bm25 >= CEILING else bm25 + 0.08)


@pytest.mark.parametrize("name", ["routing", _unmet("dapr-docs", "hit@5 is 0.87"),
                                  _unmet(DAPR_HELD_OUT, "hit@5 is 0.71"),
                                  _unmet("kubernetes-enhancements", "hit@5 is 0.84"),
                                  _unmet(KEPS_SECOND, "hit@5 is 0.86"),
                                  _unmet(KEPS_THIRD, "hit@5 is 0.87"),
                                  _unmet(DAPR_THIRD, "hit@5 is 0.69"),
                                  _unmet(KEPS_FOURTH, "hit@5 is 0.80"),
                                  _unmet(DAPR_FOURTH, "hit@5 is 0.83"), KEPS_FIFTH,
                                  _unmet(DAPR_FIFTH, "hit@5 is 0.81"), KEPS_SIXTH,
                                  _unmet(DAPR_SIXTH, "hit@5 is 0.83"), KEPS_SEVENTH, *UNMET_ON_ADRS])
def test_route_hits_at_5_on_nine_tasks_in_ten(measured, name):
    _, results, _ = _set(measured, name)
    assert results[_quality().ROUTE].hit >= 0.90
