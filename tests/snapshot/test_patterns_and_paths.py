import os
from pathlib import Path

import pytest

from headwater import observed
from headwater.paths import NAME_MAX, OutsidePath, inside, normalize, relative_to_root, symlink_on_the_way
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


def test_the_root_itself_is_the_empty_path(tmp_path):
    assert relative_to_root(".", tmp_path) == ""
    assert relative_to_root(str(tmp_path), tmp_path) == ""


def test_a_file_that_stands_with_no_link_on_its_way_is_inside(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "x.md").write_text("x\n", encoding="utf-8")
    assert relative_to_root("docs/x.md", tmp_path) == "docs/x.md"


def test_an_absolute_path_written_with_backslashes_under_the_root_means_its_relative_form(tmp_path):
    (tmp_path / "docs").mkdir()
    assert relative_to_root(str(tmp_path / "docs" / "x.md").replace("/", "\\"), tmp_path) == "docs/x.md"


def test_a_repository_at_the_file_system_root_holds_every_absolute_path_and_link(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "in")
    assert relative_to_root("/no-such-folder-here/x.md", Path("/")) == "no-such-folder-here/x.md"
    assert relative_to_root(str(tmp_path / "in" / "x.md"), Path("/")) == str(tmp_path / "in" / "x.md")[1:]


def test_a_name_of_the_longest_length_a_file_system_holds_is_a_path_and_one_byte_more_is_not(tmp_path):
    longest = "a" * NAME_MAX
    assert relative_to_root(f"docs/{longest}", tmp_path) == f"docs/{longest}"
    assert relative_to_root(f"{'b' * 200}/{'c' * 200}", tmp_path) == f"{'b' * 200}/{'c' * 200}"
    with pytest.raises(OutsidePath):
        relative_to_root(f"docs/{longest}a", tmp_path)


@pytest.mark.parametrize("typed", ["../x.md", "/etc/passwd", "docs/\x00.md", "docs/\udcff.md", "docs/../../x.md",
                                   "in/out/x.md", f"docs/{'a' * (NAME_MAX + 1)}"])
def test_a_refusal_names_the_path_as_typed(tmp_path, typed):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "repo").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "repo" / "in")
    with pytest.raises(OutsidePath) as refused:
        relative_to_root(typed, tmp_path / "repo")
    assert refused.value.args == (typed,)


@pytest.mark.parametrize("typed", ["\x00", "/x", "a/../../x"])
def test_normalising_refuses_naming_the_path_as_typed(typed):
    with pytest.raises(OutsidePath) as refused:
        normalize(typed)
    assert refused.value.args == (typed,)


def test_the_first_link_on_a_path_is_named_from_the_root(tmp_path):
    (tmp_path / "docs" / "real").mkdir(parents=True)
    os.symlink(tmp_path / "docs" / "real", tmp_path / "docs" / "out")
    assert symlink_on_the_way("docs/out/x.md", tmp_path) == "docs/out"
    assert symlink_on_the_way("docs/out", tmp_path) == "docs/out"
    assert symlink_on_the_way("docs/real/x.md", tmp_path) is None
    os.symlink(tmp_path, tmp_path.parent / f"{tmp_path.name}-linked")
    assert symlink_on_the_way("", tmp_path.parent / f"{tmp_path.name}-linked") is None  # the root is no component


def test_every_component_a_path_is_judged_by_is_announced_to_the_recorder(tmp_path):
    (tmp_path / "docs" / "real").mkdir(parents=True)
    os.symlink(tmp_path / "docs" / "real", tmp_path / "docs" / "in")
    with observed.Recorder(observed.Scope(())) as recorder:
        relative_to_root("docs/in/x.md", tmp_path)
    probed = recorder.noted[observed.PROBED]
    assert {str(tmp_path / p) for p in ("docs", "docs/in", "docs/in/x.md")} <= probed
    with observed.Recorder(observed.Scope(())) as recorder:
        symlink_on_the_way("docs/real/x.md", tmp_path)
    assert {str(tmp_path / p) for p in ("docs", "docs/real", "docs/real/x.md")} <= recorder.noted[observed.PROBED]


def test_a_root_whose_name_ends_in_the_letter_x_holds_its_absolute_paths_and_links(tmp_path):
    root = tmp_path / "repoX"  # as a temporary folder's random name may
    (root / "docs" / "real").mkdir(parents=True)
    os.symlink(root / "docs" / "real", root / "docs" / "in")
    assert relative_to_root(str(root / "docs" / "x.md"), root) == "docs/x.md"
    assert relative_to_root("docs/in/x.md", root) == "docs/in/x.md"


def test_a_path_that_climbs_out_or_is_absolute_names_nothing_inside():
    assert inside(" a/./b\\c ") == "a/b/c"
    assert inside("../x") == inside("/etc/passwd") == inside("a\x00b") == ""
