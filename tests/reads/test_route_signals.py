"""The abbreviation reader behind HW-DR-0039's vocabulary measurement (tests/benchmarks/route_signals.py)."""

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "route_signals.py"


def _signals():
    spec = importlib.util.spec_from_file_location("route_signals", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_an_abbreviation_a_page_declares_is_read_with_the_words_its_letters_spell(tmp_path):
    (tmp_path / "a.md").write_text("Scale with the Horizontal Pod Autoscaler (HPA) and the Software Development "
                                   "Kits (SDKs), not the (Beta) label.\n", encoding="utf-8")
    assert _signals().declared_aliases(tmp_path) == {"hpa": "horizontal pod autoscaler",
                                                     "sdk": "software development kits"}


def test_an_abbreviation_declared_with_two_meanings_is_not_read(tmp_path):
    (tmp_path / "a.md").write_text("Trust the Certificate Authority (CA).\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("Add nodes with the Cluster Autoscaler (CA).\n", encoding="utf-8")
    assert _signals().declared_aliases(tmp_path) == {}


def test_a_task_is_routed_with_the_long_form_beside_the_abbreviation_it_holds():
    rewrite = _signals().with_aliases({"hpa": "horizontal pod autoscaler"})
    assert rewrite("tune the HPA") == "tune the HPA horizontal pod autoscaler"
    assert rewrite("tune the horizontal pod autoscaler (HPA)") == "tune the horizontal pod autoscaler (HPA)"
