"""The source tree anchors bind against: a governed folder (`dir/**`) matches what the pattern
language says it matches, taken from the folder's listing without matching each path."""

import os

import pytest

from headwater.corpus.tree import SourceTree
from headwater.patterns import compile_pattern
from headwater.taxonomy.declaration import Exclusion


@pytest.fixture
def repo(tmp_path):
    for path in ("src/audit/a.py", "src/audit/deep/er/b.py", "src/audit/skip.tmp", "src/auditor/c.py",
                 "src/other/d.py", "top.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(path)
    os.symlink("../other/d.py", tmp_path / "src/audit/link.py")
    return tmp_path


@pytest.mark.parametrize("pattern", ["src/audit/**", "src/**", "src/audit/deep/**", "src/audit/**/b.py",
                                     "src/*/a.py", "src/audit/*", "src/nowhere/**"])
def test_a_pattern_matches_exactly_the_listed_paths_the_pattern_language_accepts(repo, pattern):
    tree = SourceTree(repo, (Exclusion("**/*.tmp", "scratch"),))
    everything = SourceTree(repo, ()).matches("src/**") + SourceTree(repo, ()).matches("top.py")
    expected = tuple(p for p in everything if compile_pattern(pattern).matches(p) and not p.endswith(".tmp"))
    assert tree.matches(pattern) == expected


def test_a_governed_folder_holds_its_files_and_links_but_not_a_sibling_sharing_its_name(repo):
    tree = SourceTree(repo, ())
    assert tree.matches("src/audit/**") == ("src/audit/a.py", "src/audit/deep/er/b.py", "src/audit/link.py",
                                            "src/audit/skip.tmp")
