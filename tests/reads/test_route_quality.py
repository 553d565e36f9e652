"""Route quality on the labelled Relay corpus, against a plain BM25 ranking of the same summaries."""

import importlib.util
import sys
from functools import cache
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "route_quality.py"
BENCHMARKS = Path(__file__).resolve().parents[2] / "BENCHMARKS.md"

@cache
def _quality():
    spec = importlib.util.spec_from_file_location("route_quality", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module, module.measure(), module.labels()


def test_the_labelled_set_is_large_enough_to_mean_something():
    _, _, labelled = _quality()
    assert len(labelled["on_topic"]) >= 30 and len(labelled["off_topic"]) >= 15


def test_benchmarks_md_records_the_table_the_script_prints():
    module, results, labelled = _quality()
    assert module.table(results, labelled) in BENCHMARKS.read_text(encoding="utf-8")


def test_route_hits_at_5_at_least_as_often_as_bm25():
    _, results, _ = _quality()
    assert results["route"].hit >= results["BM25 (summaries)"].hit


def test_no_off_topic_task_gets_an_unanchored_pointer():
    _, results, _ = _quality()
    assert results["route"].false_pointer_rate == 0
