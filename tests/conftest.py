"""Shared test fixtures: temporary copies of fixture repositories and an in-process CLI."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from headwater.cli.main import main

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "corpus_fixtures"


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
def copy_fixture(tmp_path):
    """Copy a fixture repository into a temporary directory; tests never write into fixtures."""

    def copy(name: str) -> Path:
        target = tmp_path / name.replace("/", "-")
        shutil.copytree(FIXTURES / name, target, symlinks=True)
        return target

    return copy


@pytest.fixture
def quickstart(copy_fixture) -> Path:
    return copy_fixture("quickstart")


@pytest.fixture
def hw(capsys):
    """Run `headwater <args>` in-process; returns status, stdout and stderr."""

    def run(*args: str) -> Ran:
        capsys.readouterr()
        status = main(list(args))
        captured = capsys.readouterr()
        return Ran(status, captured.out, captured.err)

    return run
