"""Mechanical patches as pure text in, text out: each edit kind, their order, and their refusals."""

from __future__ import annotations

import json

import pytest

from headwater.check.patches import AddToList, Create, Patch, ReplaceSpan, SetScalar, apply, replace_value
from headwater.writes.roundtrip import UnsafeEdit

FRONT = "---\nid: X-1\nstatus: current   # agreed\nrelations:\n  governs: src/**\n---\n\nBody whitelist here.\n"


def patch(*edits, expects: str | None = "sha256:0") -> Patch:
    return Patch("docs/x.md", expects, edits)


def test_a_set_scalar_edit_replaces_one_value_and_keeps_the_comment_in_its_column():
    after = apply([patch(SetScalar(("status",), "superseded"))], FRONT)
    assert after == FRONT.replace("status: current   # agreed", "status: superseded # agreed")


def test_a_set_scalar_edit_adds_a_key_that_is_not_there_yet_quoted_as_a_string():
    after = apply([patch(SetScalar(("status_since",), "2026-11-01"))], FRONT)
    assert after == FRONT.replace("  governs: src/**\n", "  governs: src/**\nstatus_since: '2026-11-01'\n")


def test_add_to_list_and_set_scalar_land_in_the_order_the_patches_came():
    after = apply([patch(AddToList(("relations", "superseded_by"), "X-2")),
                   patch(SetScalar(("status",), "superseded"))], FRONT)
    assert after == FRONT.replace("current   #", "superseded #").replace(
        "  governs: src/**\n", "  governs: src/**\n  superseded_by:\n    - X-2\n")


def test_spans_on_one_line_apply_from_the_end_so_each_is_addressed_in_the_text_as_read():
    text = "---\nid: X-1\n---\nab ab ab\n"
    first, third = ReplaceSpan(4, 1, "ab", "xyz"), ReplaceSpan(4, 7, "ab", "Q")
    assert apply([patch(first, third)], text) == "---\nid: X-1\n---\nxyz ab Q\n"
    assert apply([patch(third), patch(first)], text) == "---\nid: X-1\n---\nxyz ab Q\n"


def test_spans_go_before_front_matter_edits_which_address_keys():
    span = ReplaceSpan(8, 6, "whitelist", "allowlist")
    after = apply([patch(SetScalar(("status",), "superseded"), span)], FRONT)
    assert after == FRONT.replace("current   #", "superseded #").replace("whitelist", "allowlist")


def test_a_span_on_the_first_and_last_line_and_first_column_applies():
    assert apply([patch(ReplaceSpan(1, 1, "a", "b"))], "a\nc") == "b\nc"
    assert apply([patch(ReplaceSpan(2, 1, "c", "d"))], "a\nc") == "a\nd"


@pytest.mark.parametrize(("span", "says"), [
    (ReplaceSpan(0, 1, "a", "b"), "line 0 column 1 is not in the file"),
    (ReplaceSpan(3, 1, "a", "b"), "line 3 column 1 is not in the file"),
    (ReplaceSpan(1, 0, "a", "b"), "line 1 column 0 is not in the file"),
    (ReplaceSpan(1, 2, "a", "b"), "line 1 column 2 no longer reads `a`"),
    (ReplaceSpan(2, 1, "cc", "d"), "line 2 column 1 no longer reads `cc`"),
])
def test_a_span_that_does_not_fit_is_refused_naming_where(span, says):
    with pytest.raises(UnsafeEdit) as refused:
        apply([patch(span)], "a\nc")
    assert str(refused.value) == says


def test_a_create_is_the_whole_text_and_only_where_nothing_is():
    assert apply([patch(Create("claimed\n"), expects=None)], None) == "claimed\n"
    with pytest.raises(UnsafeEdit, match="^a created file takes exactly one patch, and only where nothing is$"):
        apply([patch(Create("claimed\n"), expects=None)], "there already\n")
    with pytest.raises(UnsafeEdit, match="^a created file takes exactly one patch, and only where nothing is$"):
        apply([patch(Create("a\n"), expects=None), patch(Create("b\n"), expects=None)], None)
    with pytest.raises(UnsafeEdit, match="^a created file takes exactly one patch, and only where nothing is$"):
        apply([patch(Create("a\n"), SetScalar(("x",), "y"), expects=None)], None)


def test_an_edit_of_a_file_that_does_not_exist_is_refused():
    with pytest.raises(UnsafeEdit, match="^the file to edit does not exist$"):
        apply([patch(SetScalar(("status",), "superseded"))], None)


def test_no_edit_leaves_the_text_as_it_was():
    assert apply([patch()], FRONT) == FRONT


def test_a_patch_creates_exactly_when_it_expects_no_file():
    assert patch(Create("x"), expects=None).creates
    assert not patch(Create("x")).creates


def test_every_edit_kind_survives_the_cache_round_trip_through_json():
    every = patch(AddToList(("relations", "superseded_by"), "X-2"), SetScalar(("status",), "superseded"),
                  ReplaceSpan(8, 6, "whitelist", "allowlist"), Create("x\n"))
    data = every.as_data()
    assert data == ["docs/x.md", "sha256:0", [["add", ["relations", "superseded_by"], "X-2"],
                                               ["set", ["status"], "superseded"],
                                               ["replace", 8, 6, "whitelist", "allowlist"], ["create", "x\n"]]]
    assert Patch.from_data(json.loads(json.dumps(data))) == every
    assert Patch.from_data(patch(Create("y"), expects=None).as_data()) == patch(Create("y"), expects=None)


def test_replace_value_finds_the_value_from_its_node_column_and_nowhere_else():
    text = "---\nstatus: current   # current until replaced\n---\n"
    assert replace_value(text, 2, 9, "current", "superseded") == ReplaceSpan(2, 9, "current", "superseded")
    assert replace_value(text, 2, 1, "current", "x") == ReplaceSpan(2, 9, "current", "x")
    assert replace_value(text, 2, 10, "current", "x") == ReplaceSpan(2, 21, "current", "x")
    assert replace_value('---\ns: "a"\n---\n', 2, 4, "a", "b") == ReplaceSpan(2, 5, "a", "b")


@pytest.mark.parametrize(("line", "column", "old"), [(0, 1, "current"), (4, 1, "current"), (2, 1, ""),
                                                     (2, 1, "retired"), (2, 40, "current")])
def test_replace_value_is_none_where_the_value_is_not(line, column, old):
    assert replace_value("---\nstatus: current   # current\n---", line, column, old, "x") is None


def test_replace_value_reaches_the_first_and_the_last_line_and_the_first_column():
    text = "current\nx\nlast: current"
    assert replace_value(text, 1, 1, "current", "y") == ReplaceSpan(1, 1, "current", "y")
    assert replace_value(text, 3, 1, "current", "y") == ReplaceSpan(3, 7, "current", "y")
    assert replace_value(text, 3, 1, "last", "y") == ReplaceSpan(3, 1, "last", "y")
