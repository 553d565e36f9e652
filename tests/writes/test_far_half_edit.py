"""The far half goes in by a round-trip edit: every byte of the target outside the inserted lines
stays as the author wrote it (comments, key order, quoting, spacing). Golden files re-record
only under `pytest --bless`."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from headwater.writes.roundtrip import UnsafeEdit, add_to_list, edit_front_matter, set_scalar

GOLDEN = Path(__file__).parent / "golden"
BODY = "\n# Odd formatting\n\n## Context\n\nKept.\n"

TARGETS = {
    "commented-and-indented-by-four": (
        "---\n"
        "# The author's own comment, kept where it is.\n"
        "id: ACME-DR-0009\n"
        "status:   current      # aligned by hand\n"
        "status_since: '2026-09-01'\n"
        "summary: >-\n"
        "  A folded summary\n"
        "  over two lines.\n"
        "last_verified: 2026-09-02\n"
        'title: "Odd formatting"\n'
        "provenance: {warrant: accepted,   accepted_by: j.doe}\n"
        "relations:\n"
        "    # relations indented by four\n"
        "    governs:\n"
        "        - 'src/queue/**'   # single-quoted\n"
        "    traces_to: [ACME-DR-0001]\n"
        "zeta_note: 'kept last'\n"
        "---\n" + BODY
    ),
    "no-relations-yet": (
        "---\n"
        "id: ACME-DR-0009\n"
        "status: current\n"
        "status_since: 2026-09-01\n"
        "summary: 'Single quotes, and a trailing comment.'\n"
        "last_verified: 2026-09-02\n"
        "# the last line of the front matter is a comment\n"
        "---\n" + BODY
    ),
    "a-list-already-there": (
        "---\n"
        "id: ACME-DR-0009\n"
        "status: current\n"
        "status_since: 2026-09-01\n"
        'summary: "Double quotes."\n'
        "last_verified: 2026-09-02\n"
        "relations:\n"
        "  superseded_by:\n"
        "  - ACME-DR-0001   # written at the key's own indentation\n"
        "  governs: src/queue/**\n"
        "---\n" + BODY
    ),
}


def _only_inserted(before: str, after: str) -> list[str]:
    """The lines `after` adds to `before`; fails when any line of `before` changed or moved."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    added: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        assert tag in ("equal", "insert"), (tag, old[i1:i2], new[j1:j2])
        if tag == "insert":
            added += new[j1:j2]
    return added


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_new_writes_the_far_half_and_keeps_every_other_byte_of_the_target(hw, quickstart, golden, name):
    target = quickstart / "docs/decisions/0009-odd-formatting.md"
    target.write_text(TARGETS[name])
    ran = hw("new", "decision", "--title", "Replace the odd one", "--relates", "supersedes=ACME-DR-0009",
             "--root", str(quickstart), "--now", "2026-11-01")
    assert ran.status == 0, ran.err
    assert "edited docs/decisions/0009-odd-formatting.md" in ran.out.splitlines()
    after = target.read_text()
    golden(GOLDEN / f"{name}.md", after)
    added = _only_inserted(TARGETS[name], after)
    assert any("ACME-DR-0010" in line for line in added)


def test_a_scalar_under_the_far_name_becomes_a_list_changing_only_that_entry():
    before = "---\nid: X-1\n# keep me\nrelations:\n  superseded_by: X-0   # was one\n  governs: src/**\nz: 'q'\n---\n"
    after = edit_front_matter(before, lambda t: add_to_list(t, ("relations", "superseded_by"), "X-2"))
    head, tail = "---\nid: X-1\n# keep me\nrelations:\n", "  governs: src/**\nz: 'q'\n---\n"
    assert after.startswith(head) and after.endswith(tail)
    assert after[len(head):-len(tail)] == "  superseded_by:       # was one\n    - X-0\n    - X-2\n"


def test_set_scalar_adds_a_key_under_its_mapping_and_quotes_only_what_needs_it():
    before = "# header\ntaxonomy:\n  package: p   # the package\n  bundles: []\ncorpus:\n  root:  docs\n"
    after = set_scalar(before, ("taxonomy", "digest"), "sha256:ab")
    assert after == before.replace("  bundles: []\n", '  bundles: []\n  digest: "sha256:ab"\n')
    assert set_scalar(after, ("taxonomy", "digest"), "sha256:ab") == after


def test_an_edit_into_a_mapping_that_holds_a_list_is_refused():
    with pytest.raises(UnsafeEdit):
        add_to_list("relations:\n  governs:\n    a: b\n", ("relations", "governs"), "x")
    with pytest.raises(UnsafeEdit):
        set_scalar("relations: [a]\n", ("relations", "x"), "y")


@pytest.mark.parametrize(("before", "after"), [
    ("---\nid: X-1\ntags: [a, b]\n# trailing note\n---\n",
     "---\nid: X-1\ntags: [a, b]\nrelations:\n  superseded_by:\n    - X-2\n# trailing note\n---\n"),
    ("---\nid: X-1\nrelations:\n  supersedes: [X-0]\n# about owners\n\nowners: [b]\n---\n",
     "---\nid: X-1\nrelations:\n  supersedes: [X-0]\n  superseded_by:\n    - X-2\n"
     "# about owners\n\nowners: [b]\n---\n"),
])
def test_a_key_added_after_a_flow_list_goes_ahead_of_the_comments_that_trail_it_and_keeps_them(before, after):
    # it was refused as rewriting lines around it, and one such file held back every fix of a batch
    assert edit_front_matter(before, lambda t: add_to_list(t, ("relations", "superseded_by"), "X-2")) == after


@pytest.mark.parametrize(("before", "after"), [
    ("---\nid: X-1\nrelations: {}\nstatus: current\n---\n",
     "---\nid: X-1\nrelations:\n  superseded_by:\n    - X-2\nstatus: current\n---\n"),
    ("---\r\nid: X-1\r\nrelations:  {  }\r\n---\r\n",
     "---\r\nid: X-1\r\nrelations:\r\n  superseded_by:\r\n    - X-2\r\n---\r\n"),
    ("---\nid: X-1\nrelations: {}   # none yet\n---\n",
     "---\nid: X-1\nrelations:      # none yet\n  superseded_by:\n    - X-2\n---\n"),
])
def test_an_empty_mapping_written_as_braces_opens_into_the_block_its_first_key_needs(before, after):
    # `relations: {}` held nothing to keep, and `new --relates supersedes=` refused to write into it
    assert edit_front_matter(before, lambda t: add_to_list(t, ("relations", "superseded_by"), "X-2")) == after


def test_crlf_front_matter_stays_crlf():
    before = "---\r\nid: X-1\r\n---\r\n\r\n# T\r\n"
    after = edit_front_matter(before, lambda t: add_to_list(t, ("relations", "traced_by"), "X-2"))
    assert after == "---\r\nid: X-1\r\nrelations:\r\n  traced_by:\r\n    - X-2\r\n---\r\n\r\n# T\r\n"


@pytest.mark.parametrize("before", ["relations:\n  supersedes: X-1\n",
                                    "relations:\n  supersedes:\n    - X-0\n    - X-1\n"])
def test_adding_a_value_a_list_or_scalar_already_holds_leaves_the_text_as_it_was(before):
    assert add_to_list(before, ("relations", "supersedes"), "X-1") == before


def test_each_front_matter_line_keeps_its_own_line_end_where_crlf_and_lf_mix():
    # a hand-edited file: the fence written on one machine, the rest on another. The edit used to end
    # every line of the front matter as the fence is, rewriting lines it never meant to touch
    before = "---\nid: X-1\r\ntitle: T\n---\r\n# T\n"
    after = edit_front_matter(before, lambda t: add_to_list(t, ("relations", "traced_by"), "X-2"))
    assert after == "---\nid: X-1\r\ntitle: T\nrelations:\r\n  traced_by:\r\n    - X-2\r\n---\r\n# T\n"
    assert edit_front_matter("---\r\n---\r\nbody", lambda t: set_scalar(t, ("id",), "X-1")) == (
        "---\r\nid: X-1\r\n---\r\nbody")


def test_a_tab_after_a_value_neither_holds_back_the_edit_nor_leaves_its_line():
    # headwater's reader takes `title: T\t` (YAML allows it); ruamel's scanner refused it, and so the fix
    before = "---\nid: X-1\t\ntitle: T \t# why\t\nrelations:\n  traced_by:\t[X-0]\n---\n"
    after = edit_front_matter(before, lambda t: add_to_list(t, ("relations", "supersedes"), "X-2"))
    assert after == before.removesuffix("---\n") + "  supersedes:\n    - X-2\n---\n"


def test_a_value_holding_a_tab_keeps_it_when_its_scalar_becomes_a_list():
    # the line was refused: ruamel writes the tab back as a space; the value is now kept as written
    before = '---\nrelations:\n  traced_by: "X-0\tdraft"\n---\n'
    after = edit_front_matter(before, lambda t: add_to_list(t, ("relations", "traced_by"), "X-2"))
    assert after == '---\nrelations:\n  traced_by:\n    - "X-0\tdraft"\n    - X-2\n---\n'
    with pytest.raises(UnsafeEdit, match="does not load"):  # a tab that indents is no YAML, and never guessed at
        set_scalar("taxonomy:\n\tpackage: p\n", ("taxonomy", "digest"), "sha256:ab")


@pytest.mark.parametrize(("before", "line", "point"), [
    ('---\nid: X-1\nsummary: "One\u2028two"\n---\n', 3, "2028"),  # pasted from a web page
    ('---\nid: X-1\ntitle: "a\x85b"\n---\n', 3, "0085"),
    ('---\nid: X-1\ntitle: "a\rb"\n---\n', 3, "000D"),
    ("# Title\rDate: 2016-02-12\r\rBody\r", 1, "000D"),  # a file saved with classic Mac OS line ends
])
def test_a_line_end_only_some_readers_see_is_refused_and_named_rather_than_split(before, line, point):
    # the edit split the front matter there and wrote a line feed after it, inside the author's value;
    # a file without front matter whose lines end in a lone CR got front matter ended with CRLF
    with pytest.raises(UnsafeEdit) as refused:
        edit_front_matter(before, lambda t: add_to_list(t, ("relations", "traced_by"), "X-2"))
    assert str(refused.value) == (f"line {line} holds U+{point}, which some readers take for a line end and others "
                                  "do not; replace it with a space, or end the line with LF or CRLF there")


def test_a_line_separator_in_the_body_or_the_first_line_is_no_bar_to_new_front_matter():
    before = "# Title\u2028more\n\nBody\x85text\u2029\n"
    assert edit_front_matter(before, lambda t: set_scalar(t, ("id",), "X-1")) == "---\nid: X-1\n---\n" + before


def test_a_front_matter_closed_by_yaml_s_own_end_marker_is_edited_above_it():
    # Pandoc and Jekyll close a block with `...`; headwater read the file as never closed, so no write could reach it
    before = "---\nid: X-1\n... \n# T\n\n---\n\nA rule above.\n"
    after = edit_front_matter(before, lambda t: add_to_list(t, ("relations", "traced_by"), "X-2"))
    assert after == "---\nid: X-1\nrelations:\n  traced_by:\n    - X-2\n... \n# T\n\n---\n\nA rule above.\n"


@pytest.mark.parametrize(("before", "after"), [
    ("---\n# owner: docs team\n---\n# T\n", "---\n# owner: docs team\nid: X-1\n---\n# T\n"),
    ("---\r\n# kept\r\n\r\n---\r\n", "---\r\n# kept\r\n\r\nid: X-1\r\n---\r\n"),
])
def test_a_front_matter_of_comments_alone_keeps_them_and_gets_its_keys_after_them(before, after):
    # it loads as no mapping, so ruamel's dump held none of the comments, and the edit wrote the keys over them
    assert edit_front_matter(before, lambda t: set_scalar(t, ("id",), "X-1")) == after


def test_a_comment_inside_a_flow_mapping_the_edit_extends_stays_where_it_was():
    # ruamel writes a flow mapping back on one line without the comments inside it; the edit wrote
    # that, then refused it; only the new entry goes in now
    before = "---\nid: X-1\nrelations: {supersedes: [X-0],   # the old one\n  governs: [src/**]}\n---\n"
    after = edit_front_matter(before, lambda t: add_to_list(t, ("relations", "superseded_by"), "X-2"))
    assert after == before.replace("[src/**]}", "[src/**], superseded_by: [X-2]}")


@pytest.mark.parametrize("spelled", ["~", "null", "NULL  # not yet"])
def test_a_null_spelled_out_before_the_insertion_point_stays_as_written_and_the_key_lands(spelled):
    # ruamel writes it back as `title:`, the line no longer matched, and the key after it was refused
    before = f"---\nid: X-1\ntitle: {spelled}\n---\n"
    after = edit_front_matter(before, lambda t: set_scalar(t, ("status",), "draft"))
    assert after == f"---\nid: X-1\ntitle: {spelled}\nstatus: draft\n---\n"


@pytest.mark.parametrize("relations", [
    "relations:\n  traces_to: [ACME-DR-0001,ACME-DR-0002]\n",
    "relations:\n  traces_to: ['ACME-DR-0001',\"ACME-DR-0002\"]  # evidence\n",
    "relations:\n  traces_to: [ACME-DR-0001,\n    ACME-DR-0002]\n# the last line is a comment\n",
    "relations:\n  superseded_by: ACME-DR-0003\n# why: the queue moved\nzeta: [a,b]\n",
])
def test_new_writes_the_far_half_beside_flow_lists_and_comments_keeping_each_line_as_written(hw, quickstart,
                                                                                             relations):
    # the first three were refused (the respelled `[A,B]` was tied to the insertion beside it); in the
    # last, the comment under the scalar moved between `superseded_by:` and its new list
    target = quickstart / "docs/decisions/0009-odd-formatting.md"
    before = TARGETS["no-relations-yet"].replace("# the last line of the front matter is a comment\n", relations)
    target.write_text(before)
    ran = hw("new", "decision", "--title", "Replace the odd one", "--relates", "supersedes=ACME-DR-0009",
             "--root", str(quickstart), "--now", "2026-11-01")
    assert ran.status == 0, ran.err
    assert "edited docs/decisions/0009-odd-formatting.md" in ran.out.splitlines()
    after = target.read_text()
    added = _only_inserted(before.replace(" ACME-DR-0003\n", "\n"), after)
    assert added[-1] == "    - ACME-DR-0010\n"
    if "zeta" in relations:
        assert ("  superseded_by:\n    - ACME-DR-0003\n    - ACME-DR-0010\n# why: the queue moved\nzeta: [a,b]\n"
                in after)
