"""The shipped `.pre-commit-hooks.yaml`, run by the real pre-commit framework (the one slow test)
from a `.pre-commit-config.yaml` written as the pre-commit guide writes it.

pre-commit builds the hook's environment once, by installing this project from a clone of its
committed HEAD, which needs the package index. When the environment does not build, the test
asks pip whether the index answers at all: only an unreachable index skips; a project that does
not install fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

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

    revision = subprocess.run(["git", "rev-parse", "HEAD"], cwd=engine, check=True, capture_output=True,
                              text=True).stdout.strip()

    def run(fixture: str, folder: str = "", args: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
        top = base / "-".join((fixture, folder or "top", *args))
        copy_tree(FIXTURES / fixture, top / folder)
        (top / ".pre-commit-config.yaml").write_text(_guide_s_config(engine, revision, args), encoding="utf-8")
        _git("init", "--quiet", cwd=top)
        _git("add", "--all", cwd=top)
        _git("commit", "--quiet", "--message", "corpus", cwd=top)
        # one store for every run, so the environment is built once
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"],
                              cwd=top, capture_output=True, text=True, timeout=240,
                              env={**os.environ, "PRE_COMMIT_HOME": str(base / "cache"), "NO_COLOR": "1"})

    return run


def _guide_s_config(engine: Path, revision: str, args: tuple[str, ...]) -> str:
    """The guide's `.pre-commit-config.yaml`, pointed at the clone, with the hook's `args`."""
    guide = (REPO / "docs" / "guides" / "pre-commit.md").read_text(encoding="utf-8")
    config = YAML(typ="safe").load(re.search(r"```yaml\n(.*?)```", guide, re.DOTALL).group(1))
    [repository] = config["repos"]
    repository.update(repo=str(engine), rev=revision)
    if args:
        repository["hooks"][0]["args"] = list(args)
    return json.dumps(config)  # YAML reads JSON


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


def test_in_a_governed_folder_of_a_repository_the_hook_given_the_folder_checks_it(hook):
    guide = (REPO / "docs" / "guides" / "pre-commit.md").read_text(encoding="utf-8")
    assert "args: [--root, docs-site]" in guide
    bare = hook("check-all", "docs-site")
    assert bare.returncode == 1 and "this repository is not bound to a taxonomy" in bare.stdout
    given = hook("check-all", "docs-site", ("--root", "docs-site"))
    assert given.returncode == 1, given.stdout + given.stderr
    assert "identifier.claimed_twice" in given.stdout and "✗ error" in given.stdout
