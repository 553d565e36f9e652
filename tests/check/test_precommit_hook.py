"""The shipped `.pre-commit-hooks.yaml`, run by the real pre-commit framework (the one slow test).

pre-commit builds the hook's environment by installing this project from a clone of its
committed HEAD, which needs the package index; when it cannot, the test skips and says why.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "corpus_fixtures"
GIT = ("git", "-c", "user.name=headwater tests", "-c", "user.email=tests@headwater.invalid",
       "-c", "commit.gpgsign=false")


def _git(*args: str, cwd: Path) -> None:
    subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def hook(tmp_path_factory):
    if importlib.util.find_spec("pre_commit") is None or shutil.which("git") is None:
        pytest.skip("pre-commit or git is not installed here")
    if not (REPO / ".git").exists():
        pytest.skip("the engine is not a git checkout, so pre-commit has no repository to install from")
    base = tmp_path_factory.mktemp("precommit")
    engine = base / "engine"
    _git("clone", "--quiet", str(REPO), str(engine), cwd=base)

    def run(fixture: str) -> subprocess.CompletedProcess:
        corpus = base / fixture
        shutil.copytree(FIXTURES / fixture, corpus)
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


def test_the_hook_passes_a_clean_corpus_and_fails_one_with_an_error(hook):
    clean = hook("quickstart")
    if _unbuildable(clean):
        pytest.skip("pre-commit could not build the hook's environment (no package index?)")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout
    broken = hook("check-all")
    assert broken.returncode == 1
    assert "Failed" in broken.stdout
    assert "identifier.claimed_twice" in broken.stdout and "✗ error" in broken.stdout
