"""The round-trip edit on its own: what it keeps, what it refuses and how each refusal reads.

`test_far_half_edit.py` edits a document's front matter through `new`; these call the edit
directly, as `taxonomy vendor` and `check --fix` do, on the inputs no command there happens to give.
"""

from __future__ import annotations

import pytest

from headwater.writes.roundtrip import UnsafeEdit, add_to_list, edit_front_matter, set_scalar


def _refusal(edit, *args) -> str:
    with pytest.raises(UnsafeEdit) as refused:
        edit(*args)
    return str(refused.value)


def test_each_refusal_names_the_key_it_concerns_by_its_whole_address():
    assert _refusal(set_scalar, "a: 1\n", (), "y") == "an edit needs the address of a key"
    assert _refusal(set_scalar, "a:\n  b: text\n", ("a", "b", "c"), "y") == "`a.b` is not a mapping"
    assert _refusal(set_scalar, "relations:\n  governs: [a]\n", ("relations", "governs"), "y") == (
        "`relations.governs` holds a list or a mapping, not one value")
    assert _refusal(add_to_list, "relations:\n  governs:\n    a: b\n", ("relations", "governs"), "y") == (
        "`relations.governs` is a mapping, not a list")
    assert _refusal(set_scalar, "- a\n- b\n", ("id",), "X-1") == "the YAML is not a mapping"
    assert _refusal(set_scalar, 'relations:\n  traced_by: "X-0\tdraft"\n', ("relations", "traced_by"), "y") == (
        "`relations.traced_by` cannot be written without rewriting a line that holds a tab")


def test_an_edit_that_needs_a_line_outside_its_entry_is_refused_naming_that_line():
    # the relations are an alias: the entry they stand for is written on another line
    before = "base: &b {traces_to: [X-0]}\nrelations: *b\n"
    assert _refusal(add_to_list, before, ("relations", "superseded_by"), "X-2") == (
        "`relations.superseded_by` cannot be written without rewriting the line `base: &b {traces_to: [X-0]}`")


def test_a_comment_the_dump_drops_with_the_value_it_replaces_is_refused_and_named():
    before = "provenance: {warrant:  # by the board\n  accepted}\n"
    assert _refusal(set_scalar, before, ("provenance", "warrant"), "promoted") == (
        "`provenance.warrant` cannot be written without dropping the comment `# by the board`")


@pytest.mark.parametrize(("before", "after"), [
    ("relations:\n  traces_to: [HW-DR-0001,HW-DR-0002]\n",
     "relations:\n  traces_to: [HW-DR-0001,HW-DR-0002]\n  superseded_by:\n    - X-2\n"),
    ("relations:\n  traces_to: [ A, B ]\nstatus: current\n",
     "relations:\n  traces_to: [ A, B ]\n  superseded_by:\n    - X-2\nstatus: current\n"),
    ("relations:\n  traces_to: ['A',\"B\"]\n", "relations:\n  traces_to: ['A',\"B\"]\n  superseded_by:\n    - X-2\n"),
    ("relations:\n  traces_to: [A,B]  # why\n", "relations:\n  traces_to: [A,B]  # why\n  superseded_by:\n    - X-2\n"),
    ("relations:\n  traces_to: {A: 1,B: 2}\n", "relations:\n  traces_to: {A: 1,B: 2}\n  superseded_by:\n    - X-2\n"),
    ("relations:\n  traces_to: [A,\n    B]\n", "relations:\n  traces_to: [A,\n    B]\n  superseded_by:\n    - X-2\n"),
    ("relations:\r\n  traces_to: [A,B]\r\n", "relations:\r\n  traces_to: [A,B]\r\n  superseded_by:\r\n    - X-2\r\n"),
    ("id: X-1\nrelations:\n  supersedes: [X-0,X-1]\n# a\n# b\n# c\nowners: [b]\n",
     "id: X-1\nrelations:\n  supersedes: [X-0,X-1]\n  superseded_by:\n    - X-2\n# a\n# b\n# c\nowners: [b]\n"),
    ("relations: {traces_to: [A,B]}\n", "relations: {traces_to: [A,B], superseded_by: [X-2]}\n"),
])
def test_a_key_added_after_a_flow_collection_keeps_the_collection_as_its_author_spelled_it(before, after):
    # ruamel writes `[A,B]` back as `[A, B]`; the respelled line was tied to the insertion beside it,
    # and `new --relates supersedes=` refused to write the far half
    assert add_to_list(before, ("relations", "superseded_by"), "X-2") == after


@pytest.mark.parametrize(("edit", "before", "after"), [
    (set_scalar, "id: X-1\nstatus: drft\ntags: [a,b]\n", "id: X-1\nstatus: current\ntags: [a,b]\n"),
    (set_scalar, "{id: X-1,status: drft, tags: [a,b]}\n", "{id: X-1,status: current, tags: [a,b]}\n"),
    (set_scalar, "provenance: {warrant: asserted,by: x}\nstatus: drft # c\n",
     "provenance: {warrant: asserted,by: x}\nstatus: current # c\n"),
    (add_to_list, "relations:\n  status: [A,B]   # why\nz: 1\n",
     "relations:\n  status: [A,B, current]   # why\nz: 1\n"),
    (add_to_list, "relations:\n  status: [ A, B ]\n", "relations:\n  status: [ A, B, current ]\n"),
    (set_scalar, "{ id: X-1 }\n", "{ id: X-1, status: current }\n"),
])
def test_an_edited_line_keeps_the_spelling_of_what_it_does_not_change(edit, before, after):
    address = ("status",) if edit is set_scalar else ("relations", "status")
    assert edit(before, address, "current") == after


@pytest.mark.parametrize(("before", "after"), [
    ("relations:\n  supersedes: X-0\n# why: X-0 was wrong\nstatus: current\n",
     "relations:\n  supersedes:\n    - X-0\n    - X-2\n# why: X-0 was wrong\nstatus: current\n"),
    ("relations:\n  supersedes: X-0\n  # why\n  governs: a\n",
     "relations:\n  supersedes:\n    - X-0\n    - X-2\n  # why\n  governs: a\n"),
    ("relations:\r\n  supersedes: X-0\r\n# why\r\n",
     "relations:\r\n  supersedes:\r\n    - X-0\r\n    - X-2\r\n# why\r\n"),
    ("relations:\n  supersedes: X-0   # was one\n# why\n\nstatus: current\n",
     "relations:\n  supersedes:       # was one\n    - X-0\n    - X-2\n# why\n\nstatus: current\n"),
])
def test_a_scalar_that_becomes_a_list_keeps_the_comment_lines_after_it_after_the_list(before, after):
    # ruamel keeps them with the key, and wrote them between the key and its new list
    assert add_to_list(before, ("relations", "supersedes"), "X-2") == after


@pytest.mark.parametrize(("before", "after"), [
    ("tags: x  # e\n# trailing note\n", 'tags: x  # e\ntitle: T\nid: X-1\n# trailing note\n'),
    ("tags: [a]\n# trailing note\n", 'tags: [a]\ntitle: T\nid: X-1\n# trailing note\n'),
    ("tags: x\n\n# trailing note\n", 'tags: x\n\ntitle: T\nid: X-1\n# trailing note\n'),
])
def test_keys_added_one_after_another_go_ahead_of_the_comment_lines_that_trail_the_last_entry(before, after):
    # after a one-value entry ruamel wrote a new key after those lines, after a flow list ahead of them:
    # `adopt` put the title ahead of a record's closing comment and its identifier after it
    assert set_scalar(set_scalar(before, ("title",), "T"), ("id",), "X-1") == after


def test_a_hash_inside_a_block_scalar_is_the_scalar_s_and_a_key_goes_after_it():
    before = "summary: |\n  text\n  # not a comment\n"
    assert set_scalar(before, ("id",), "X-1") == before + "id: X-1\n"


@pytest.mark.parametrize("spelled", ["~", "null   # none yet", ""])
def test_a_null_mapping_opens_into_the_block_its_first_key_needs(spelled):
    before = f"id: X-1\nrelations: {spelled}\nstatus: current\n"
    after = add_to_list(before, ("relations", "superseded_by"), "X-2")
    assert after.split("\n")[2:] == ["  superseded_by:", "    - X-2", "status: current", ""]
    assert after.split("\n")[1].rstrip() == ("relations:        # none yet" if "#" in spelled else "relations:")


def test_a_stray_line_end_in_a_taxonomy_file_is_named_by_its_own_line():
    before = '\ntaxonomy:\n  package: "p\u2028q"\n  bundles: []\ncorpus: x\n'
    assert _refusal(set_scalar, before, ("taxonomy", "digest"), "sha256:ab").startswith("line 3 holds U+2028,")


def test_a_file_whose_last_line_has_no_line_end_keeps_that_line_and_gets_one():
    before = "# header\ntaxonomy:\n  package: p"
    assert set_scalar(before, ("taxonomy", "digest"), "sha256:ab") == (
        '# header\ntaxonomy:\n  package: p\n  digest: "sha256:ab"\n')


@pytest.mark.parametrize(("before", "key", "after"), [
    ("id: X-1\ntags: [a,b]\nrelations:\n  superseded_by: X-0\n", "superseded_by",  # respelled above the edit
     "id: X-1\ntags: [a,b]\nrelations:\n  superseded_by:\n    - X-0\n    - X-2\n"),
    ("relations:\n  governs: [x]\n# note\ntags: [a,b]\n", "governs",  # and below it, past a line that stays
     "relations:\n  governs: [x, X-2]\n# note\ntags: [a,b]\n"),
])
def test_a_line_outside_the_edit_keeps_its_spelling_where_the_dump_respells_it(before, key, after):
    assert add_to_list(before, ("relations", key), "X-2") == after


def test_a_line_of_the_edited_list_that_stays_keeps_its_own_bytes():
    before = "relations:\n  superseded_by:\n    - X-0   \n    - - a\n      - b\n"
    assert add_to_list(before, ("relations", "superseded_by"), "X-2") == before + "    - X-2\n"


def test_a_key_goes_after_a_nested_mapping_indented_by_four_though_a_key_above_holds_nothing():
    before = "title:\nrelations:\n    governs:\n        - src/**\n"
    assert add_to_list(before, ("relations", "superseded_by"), "X-2") == before + "    superseded_by:\n        - X-2\n"


def test_a_front_matter_written_as_one_flow_mapping_takes_the_key_on_that_line():
    assert set_scalar("{id: X-1}\n", ("status",), "draft") == "{id: X-1, status: draft}\n"


def test_a_long_value_stays_on_one_line():
    value = "-".join(["a-long-identifier"] * 8)
    assert set_scalar("id: X-1\n", ("summary",), f"{value} and more words") == (
        f'id: X-1\nsummary: "{value} and more words"\n')


def test_a_front_matter_of_comments_alone_keeps_an_indented_comment():
    assert edit_front_matter("---\n  # indented note\n---\n", lambda t: set_scalar(t, ("id",), "X-1")) == (
        "---\n  # indented note\nid: X-1\n---\n")


def test_an_empty_file_gets_front_matter_and_nothing_else():
    assert edit_front_matter("", lambda t: set_scalar(t, ("id",), "X-1")) == "---\nid: X-1\n---\n"


def test_a_front_matter_only_a_stray_line_end_closes_is_refused_and_named():
    refused = _refusal(edit_front_matter, "---\nid: X-1\r---\nbody\n", lambda t: set_scalar(t, ("id",), "X-2"))
    assert refused.startswith("line 2 holds U+000D,")


def test_a_blank_line_inside_the_edited_entry_keeps_its_spaces():
    before = "relations:\n  superseded_by: X-0\n\n     \n  governs: a\n"
    assert add_to_list(before, ("relations", "superseded_by"), "X-2") == (
        "relations:\n  superseded_by:\n    - X-0\n    - X-2\n\n     \n  governs: a\n")


def test_a_key_of_a_flow_mapping_is_set_on_its_line():
    before = "provenance: {warrant: accepted, accepted_by: j.doe}\n"
    assert set_scalar(before, ("provenance", "warrant"), "promoted") == (
        "provenance: {warrant: promoted, accepted_by: j.doe}\n")


def test_a_new_key_goes_ahead_of_an_indented_comment_that_trails_its_mapping():
    before = "relations:\n  traces_to: [X-0]\n  # more to come\nstatus: current\n"
    assert add_to_list(before, ("relations", "superseded_by"), "X-2") == (
        "relations:\n  traces_to: [X-0]\n  superseded_by:\n    - X-2\n  # more to come\nstatus: current\n")
