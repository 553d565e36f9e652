"""The shipped `.pre-commit-hooks.yaml`, run by the real pre-commit framework (the one slow test).

pre-commit builds the hook's environment by installing this project from a clone of its
committed HEAD, which needs the package index. When the environment does not build, the test
asks pip whether the index answers at all: only an unreachable index skips; a project that does
not install fails.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import copy_tree

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "corpus_fixtures"
GIT = ("git", "-c", "user.name=headwater tests", "-c", "user.email=tests@headwater.invalid",
       "-c", "commit.gpgsign=false")


def _git(*args: str, cwd: Path) -> None:
    subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def hook(tmp_path_factory):
    assert importlib.util.find_spec("pre_commit"), "pre-commit is a test extra: this install is broken"
    if shutil.which("git") is None:
        pytest.skip("git is not installed here")
    if not (REPO / ".git").exists():
        pytest.skip("the engine is not a git checkout, so pre-commit has no repository to install from")
    base = tmp_path_factory.mktemp("precommit")
    engine = base / "engine"
    _git("clone", "--quiet", str(REPO), str(engine), cwd=base)

    def run(fixture: str) -> subprocess.CompletedProcess:
        corpus = base / fixture
        copy_tree(FIXTURES / fixture, corpus)
        _git("init", "--quiet", cwd=corpus)
        _git("add", "--all", cwd=corpus)
        _git("commit", "--quiet", "--message", "corpus", cwd=corpus)
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "try-repo", str(engine), "headwater-check", "--all-files"],
            cwd=corpus, capture_output=True, text=True, timeout=240,
            env={**os.environ, "PRE_COMMIT_HOME": str(base / "cache"), "NO_COLOR": "1"})

    return run


def _unbuildable(ran: subprocess.CompletedProcess) -> bool:
    return "Installing environment" in ran.stdout and "headwater check..." not in ran.stdout


def _index_answers(scratch: Path) -> bool:
    """Whether pip reaches the package index pre-commit would install from (the build backend's own
    distribution stands in for every requirement)."""
    probe = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-cache-dir", "--retries", "0",
                            "--timeout", "20", "--dest", str(scratch), "setuptools>=77"],
                           capture_output=True, text=True, timeout=180)
    return probe.returncode == 0


def test_the_hook_passes_a_clean_corpus_and_fails_one_with_an_error(hook, tmp_path):
    clean = hook("quickstart")
    if _unbuildable(clean) and not _index_answers(tmp_path):
        pytest.skip("pre-commit could not build the hook's environment: the package index does not answer")
    assert not _unbuildable(clean), "the hook's environment did not build:\n" + clean.stdout + clean.stderr
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout
    broken = hook("check-all")
    assert broken.returncode == 1
    assert "Failed" in broken.stdout
    assert "identifier.claimed_twice" in broken.stdout and "✗ error" in broken.stdout
