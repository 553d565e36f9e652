"""Shared test fixtures: temporary copies of fixture repositories, an in-process CLI, and goldens."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from headwater.cli.main import main
from tests.fixture_locks import FIXTURES, REPO, place_lock


def _no_cache(directory: str, names: list[str]) -> list[str]:
    """A cache a run left in a fixture (the README's first command writes one) is not fixture."""
    return ["cache"] if Path(directory).name == ".headwater" and "cache" in names else []


def copy_tree(source: Path, target: Path) -> Path:
    """Copy a fixture repository without its `.headwater/cache`, with the lock it shares when it
    keeps none (`tests/fixture_locks.py`); the one way tests copy fixtures."""
    shutil.copytree(source, target, symlinks=True, ignore=_no_cache)
    if source.resolve().is_relative_to(FIXTURES):
        place_lock(source, target)
    return target


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--bless", action="store_true", default=False,
                     help="re-record every golden file from this run's output (review the diff before committing)")


@pytest.fixture
def golden(request) -> Callable[[Path, str], None]:
    """Compare `text` with a golden file; `pytest --bless` re-records it instead."""
    bless = request.config.getoption("--bless")

    def compare(path: Path, text: str) -> None:
        if bless:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        assert path.is_file(), f"{path.name} has no golden yet: record it with `pytest --bless`, then review it"
        assert text == path.read_text(encoding="utf-8")

    return compare


@dataclass(frozen=True)
class Ran:
    status: int
    out: str
    err: str


@pytest.fixture(autouse=True, scope="session")
def cache_key_home(tmp_path_factory):
    """The cache key lives in a temp folder for the whole session (subprocesses inherit it), so the
    suite never writes into a real home."""
    import os

    folder = tmp_path_factory.mktemp("key-home")
    previous = os.environ.get("HEADWATER_KEY_HOME")
    os.environ["HEADWATER_KEY_HOME"] = str(folder)
    yield folder
    if previous is None:
        del os.environ["HEADWATER_KEY_HOME"]
    else:
        os.environ["HEADWATER_KEY_HOME"] = previous


@pytest.fixture
def benchmark_script(monkeypatch) -> Callable[[str], ModuleType]:
    """Import a script of tests/benchmarks by name, its folder on the path for this test alone."""
    monkeypatch.syspath_prepend(str(REPO / "tests" / "benchmarks"))
    return importlib.import_module


@pytest.fixture
def copy_fixture(tmp_path):
    """Copy a fixture repository into a temporary directory; tests never write into fixtures."""

    def copy(name: str) -> Path:
        return copy_tree(FIXTURES / name, tmp_path / name.replace("/", "-"))

    return copy


@pytest.fixture
def quickstart(copy_fixture) -> Path:
    return copy_fixture("quickstart")


def hw_process(*args: str, hash_seed: str = "0") -> Ran:
    """Run `headwater <args>` in a new interpreter: nothing carried over from this process, and a
    hash seed of its own, so a comparison with an in-process run proves determinism."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    ran = subprocess.run([sys.executable, "-m", "headwater", *args], capture_output=True, text=True,
                         env=env, timeout=300)
    return Ran(ran.returncode, ran.stdout, ran.stderr)


@pytest.fixture
def hw(capsys):
    """Run `headwater <args>` in-process; returns status, stdout and stderr."""

    def run(*args: str) -> Ran:
        capsys.readouterr()
        status = main(list(args))
        captured = capsys.readouterr()
        return Ran(status, captured.out, captured.err)

    return run


@dataclass(frozen=True)
class Tally:
    """check-all's findings as its golden reports record them (`--now 2026-11-01`), so a test that
    counts them follows the goldens when a rule is added instead of pinning numbers of its own."""

    counts: str  # the line the text report ends with
    live: int
    errors: int
    total: int  # live and held by an adoption task
    documents: int


def check_all_tally() -> Tally:
    import json

    golden = REPO / "tests" / "check" / "golden"
    document = json.loads((golden / "check-all.json").read_text(encoding="utf-8"))
    live = [f for f in document["findings"] if f["escape"] == "none"]
    counts = (golden / "check-all.txt").read_text(encoding="utf-8").splitlines()[-1].strip()
    return Tally(counts, len(live), sum(1 for f in live if f["severity"] == "error"), len(document["findings"]),
                 document["coverage"]["classified"])
