"""CONTRIBUTING.md is followed, not only read: "Add a rule" runs verbatim in a copy of the repository,
and every file a recipe names exists, so the map cannot go stale."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "CONTRIBUTING.md"
RULE_ID = "scratch.heading.shouts"  # a throwaway rule of a prefix no module holds yet
# What the rule recipe's commands and the rule tests read; nothing else is copied.
COPIED = ("pyproject.toml", "headwater", "taxonomy", "docs/rules.md", "tests/conftest.py", "tests/check",
          "tests/cli/test_rule_and_reads.py", "corpus_fixtures/rules", "corpus_fixtures/check-all",
          "corpus_fixtures/quickstart")
REGENERATED = ("corpus_fixtures/", "tests/check/golden/")  # what the recipe's commands rewrite

RULE_MODULE = '''"""Scratch: a throwaway rule, written by the test that follows CONTRIBUTING.md."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.corpus.document import Document


@rule("scratch.heading.shouts", 1, Scope.DOCUMENT, Severity.WARN,
      short="A heading is written in capitals.",
      full="A heading of the body has letters, and every one of them is a capital.",
      help="Write the heading in sentence case.",
      tags=("body",), routes=lambda ctx, doc: bool(_shouting(doc)))
def scratch_heading_shouts(ctx: Context, doc: Document) -> list[Hit]:
    return [Hit(doc.path, h.line, 1, f"the heading `{h.text}` shouts", "write it in sentence case", h.text)
            for h in _shouting(doc)]


def _shouting(doc: Document) -> list:
    return [h for h in doc.body.headings if h.text.isupper()]


RULES = (scratch_heading_shouts,)
'''
CASES = '''        "scratch.heading.shouts": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(title="A RECORD")}),
            "pass": fixture({})},
'''
CHECK_ALL_DOCUMENT = '''        "docs/decisions/0018-shouts.md": decision("ACME-DR-0018", title="LOUD"),
'''


def recipe(title: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found, f"CONTRIBUTING.md has no recipe `## {title}`"
    return found.group(1)


def commands(section: str) -> list[list[str]]:
    """The recipe's ```sh blocks, each a list of command lines."""
    return [block.strip().splitlines() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def named_paths(section: str) -> list[str]:
    """Every repository path the recipe writes in backticks: a word with a slash and a suffix."""
    return sorted({token for token in re.findall(r"`([^`\s]+)`", section)
                   if "/" in token and re.search(r"\.(py|md|toml|json)$", token)})


def exists(path: str) -> bool:
    """A path with `<placeholder>`s exists when some file matches it with each placeholder a name."""
    if "<" not in path:
        return (REPO / path).is_file()
    return any(REPO.glob(re.sub(r"<[^>]+>", "*", path)))


@pytest.mark.parametrize("title", ["Add a rule", "Add a verb", "Add an MCP tool", "Add a report format"])
def test_every_file_a_recipe_names_exists(title):
    paths = named_paths(recipe(title))
    assert paths, f"the recipe `{title}` names no file"
    assert [p for p in paths if not exists(p)] == []


def fingerprint(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in root.rglob("*") if p.is_file() and "cache" not in p.parts and "__pycache__" not in p.parts}


def insert_after(path: Path, anchor: str, text: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count(anchor) == 1, f"{path.name} no longer has `{anchor.strip()}` once: follow the recipe by hand"
    path.write_text(source.replace(anchor, anchor + text), encoding="utf-8")


def run(line: str, root: Path) -> None:
    """Run one command line of the recipe in the copy: its `python` and `headwater` are this
    interpreter's, importing the copy's package."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    env = {**os.environ, "PYTHONPATH": str(root), "PATH": path}
    ran = subprocess.run(["bash", "-c", line], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, f"`{line}` failed:\n{ran.stdout[-3000:]}\n{ran.stderr[-3000:]}"


def test_adding_a_rule_as_the_recipe_says_passes_the_rule_tests_and_touches_three_files(tmp_path):
    section = recipe("Add a rule")
    files = [p for p in named_paths(section) if p.split("/")[0] in ("headwater", "tests", "docs")]
    module = next(p for p in files if p.startswith("headwater/check/rules/<")).replace("<prefix>", "scratch")
    cases = next(p for p in files if p.startswith("tests/check/"))
    regeneration, rule_tests = commands(section)
    root = tmp_path / "repo"
    for name in COPIED:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("__pycache__", "cache"))
        else:
            shutil.copy(REPO / name, root / name)
    before = fingerprint(root)

    (root / module).write_text(RULE_MODULE, encoding="utf-8")
    insert_after(root / cases, "def cases() -> dict[str, dict[str, dict]]:\n    revision = app_revision()\n"
                 "    return {\n", CASES)
    insert_after(root / cases, "    files = {\n", CHECK_ALL_DOCUMENT)
    for line in regeneration:
        run(line.replace("<rule id>", RULE_ID), root)
    for line in rule_tests:
        run(line, root)

    after = fingerprint(root)
    touched = sorted(p for p in after.keys() | before.keys() if before.get(p) != after.get(p))
    by_hand = [p for p in touched if not p.startswith(REGENERATED)]
    assert by_hand == sorted([module, cases, "docs/rules.md"])
    assert f"corpus_fixtures/rules/{RULE_ID}/fail/docs/decisions/0001-base.md" in touched
    assert RULE_ID in (root / "docs/rules.md").read_text(encoding="utf-8")
    assert RULE_ID in (root / "tests/check/golden/check-all.json").read_text(encoding="utf-8")
