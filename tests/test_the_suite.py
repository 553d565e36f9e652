"""The suite keeps itself honest: fixtures are copied without a run's cache, and goldens re-record
only under `pytest --bless`."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import copy_tree

TESTS = Path(__file__).resolve().parent


def sources() -> dict[str, str]:
    """Every test source but this one, which names what it looks for."""
    return {p.relative_to(TESTS).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(TESTS.rglob("*.py")) if p.resolve() != Path(__file__).resolve()}


def test_a_copied_fixture_leaves_a_runs_cache_behind_and_keeps_everything_else(tmp_path):
    source = tmp_path / "fixture"
    for name in (".headwater/cache/checks", ".headwater/taxonomy.lock", "docs/cache/a.md", "docs/.headwater/x"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(name)
    (source / "docs" / "link").symlink_to("cache")
    copy = copy_tree(source, tmp_path / "copy")
    files = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file() or p.is_symlink())
    assert files == [".headwater/taxonomy.lock", "docs/.headwater/x", "docs/cache/a.md", "docs/link"]
    assert (copy / "docs" / "link").is_symlink()


def test_every_copy_of_a_fixture_goes_through_the_one_helper():
    """A `copytree` straight from `corpus_fixtures` would carry a cache a run left there."""
    straight = []
    for name, text in sources().items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("copytree") and node.args:
                source = ast.unparse(node.args[0])
                if "FIXTURES" in source or "corpus_fixtures" in source:
                    straight.append(f"{name}:{node.lineno}")
    assert straight == []


def test_no_test_re_records_a_golden_from_an_environment_variable():
    variable = "HEADWATER_" + "BLESS"
    for name, text in sources().items():
        assert variable not in text, name
        assert not re.search(r"environ[^\n]*BLESS", text), name



def test_the_mutation_script_measures_modules_that_exist_against_tests_that_exist(monkeypatch):
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("mutation_run", TESTS / "mutation" / "run.py")
    script = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mutation_run", script)  # its dataclass looks itself up there
    spec.loader.exec_module(script)
    repo = TESTS.parent
    assert script.MODULES
    for module, tests in script.MODULES.items():
        assert (repo / module).is_file(), module
        # `--deselect file::test` leaves out a test that must exist all the same
        assert tests and all(_selects(repo, test) for test in tests if test != "--deselect"), module


def _selects(repo, test: str) -> bool:
    """A test file that exists, or one test of it named as pytest names it (`file::test`)."""
    path, _, name = test.partition("::")
    return (repo / path).exists() and (not name or f"def {name}(" in (repo / path).read_text(encoding="utf-8"))


def test_the_mcp_and_federation_folders_collect_together_in_either_order():
    """A bare `from conftest import …` finds whichever folder's conftest was imported first."""
    for folders in (["tests/mcp", "tests/federation"], ["tests/federation", "tests/mcp"]):
        ran = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
                              *folders], cwd=TESTS.parent, capture_output=True, text=True, check=False)
        assert ran.returncode == 0, ran.stdout[-2000:]
        assert "error" not in ran.stdout.lower()
