"""What the tests of route's measurement scripts share: a script of tests/benchmarks imported as a module."""

import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture
def benchmark_script(monkeypatch) -> Callable[[str], ModuleType]:
    """Import a measurement script by name, its folder on the path for this test alone."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module
