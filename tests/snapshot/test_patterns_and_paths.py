import os

import pytest

from headwater.paths import OutsidePath, normalize, relative_to_root
from headwater.patterns import compile_pattern, opening_wildcard


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("tools/**", "tools", True),
        ("tools/**", "tools/a/b.sh", True),
        ("docs/spec/**", "docs/special/x", False),
        ("hooks/**", "hooks-disabled/x", False),
        ("a/b", "a/b/c", False),
        ("a/*/c", "a/b/c", True),
        ("a/*/c", "a/b/d/c", False),
        ("src/**/*.py", "src/a.py", True),
        ("src/**/*.py", "src/x/y/a.py", True),
        ("src/ingest", "src/ingest/x.py", False),
        ("a?c", "abc", True),
        ("a?c", "ac", False),
    ],
)
def test_the_pattern_language(pattern, path, matches):
    assert compile_pattern(pattern).matches(path) is matches


def test_specificity_is_leading_literal_segments_then_literal_characters():
    assert compile_pattern("docs/decisions/**").specificity == (2, 13)
    assert compile_pattern("docs/**").specificity < compile_pattern("docs/decisions/**").specificity


def test_a_pattern_that_opens_with_a_wildcard_bounds_nothing():
    assert opening_wildcard("**/x") and opening_wildcard("*.md") and not opening_wildcard("docs/**")


@pytest.mark.parametrize(
    ("typed", "normal"),
    [("./a//b/../c\\d", "a/c/d"), ("a/../x", "x"), ("./x", "x"), ("x/", "x")],
)
def test_typed_paths_normalise_lexically(typed, normal):
    assert normalize(typed) == normal


@pytest.mark.parametrize("typed", ["../x", "/etc/passwd", "a/../../x", "a\x00b"])
def test_climbs_and_absolute_paths_are_outside(typed):
    with pytest.raises(OutsidePath):
        normalize(typed)


def test_an_absolute_path_under_the_root_means_its_relative_form(tmp_path):
    (tmp_path / "docs").mkdir()
    assert relative_to_root(str(tmp_path / "docs" / "x.md"), tmp_path) == "docs/x.md"


def test_a_path_through_a_symlink_that_leaves_the_root_is_outside(tmp_path):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", root / "docs" / "out")
    with pytest.raises(OutsidePath):
        relative_to_root("docs/out/secret.md", root)


def test_a_path_through_a_symlink_inside_the_root_to_one_that_leaves_it_is_outside(tmp_path):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", root / "docs" / "out")
    os.symlink(root / "docs", root / "in")  # stays inside: on its own, it is a path of the corpus
    assert relative_to_root("in/decisions.md", root) == "in/decisions.md"
    with pytest.raises(OutsidePath):
        relative_to_root("in/out/secret.md", root)
