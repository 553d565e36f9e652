"""`splice.py` on its own: the token cut, the opcode shift, the zone test and the bytes written.

`test_roundtrip.py` reaches the splice through ruamel's dumps; these give it the texts and zones
those dumps seldom make (a blank line the insertion matches, a text without a line end, an empty text).
"""

from __future__ import annotations

import difflib

import pytest

from headwater.writes.splice import Spliced, _ahead_of_comment_lines, _inside, _kept_as, _line_starts_first, cut, splice


@pytest.mark.parametrize(("text", "comments"), [
    ("  # c\n", {0}),  # an indented comment opening the text
    ("a: |\n  x\n# c\n", {5}),  # the scalar ends where a line is indented no further than its header
    ("a: |\n  x\nb:\n  # c\n", {7}),  # and a key after it opens no scalar: its indented comment is one
    ("a: |\n  x |\n  # c\n", set()),  # a `|` inside the scalar opens nothing: the `#` stays the scalar's
    ("a:   |\n  # x\n", set()),  # the scalar's lines are those indented past its line, not past the `|`
])
def test_a_hash_is_a_comment_only_where_no_block_scalar_holds_it(text, comments):
    assert cut(text).comments == frozenset(comments)


def test_a_cut_says_each_token_as_ruamel_reads_it_and_keeps_its_own_bytes():
    text = 'a: ~\nb: "p\r\n  q"  # c  \r\nd:\tx  '
    assert cut(text) == cut(text)  # a cut is a value
    made = cut(text)
    assert made.texts == ("a:", "~", "\n", "b:", '"p\r\n  q"', "# c  ", "\r\n", "d:", "x")
    assert made.says == ("a:", "~", "\na:", "b:", '"p\n  q"', "# c", "\n# c", "d:", "x")
    assert made.gaps == ("", " ", "", "", " ", "  ", "", "", "\t")
    assert made.lines == (0, 0, 0, 1, 1, 1, 1, 2, 2)
    assert made.comments == frozenset({5})
    assert made.trailing == "  "


def test_a_dropped_token_is_kept_as_a_blank_line_a_line_end_or_its_comment_and_nothing_else():
    made = cut("a: 1  # c\n\nb: 2\n")
    assert [_kept_as(made, i) for i in range(len(made.says))] == [None, None, "# c", "\n", "\n\n", None, None, "\n"]


def test_an_insertion_that_opens_with_the_author_s_line_end_is_moved_past_it():
    old, new = cut("a: 1\r\n  \r\nb: 2\r\nd: 4\r\n"), cut("a: 1\n\nc: 3\n\nb: 2\nd: 4\n")
    opcodes = difflib.SequenceMatcher(None, old.says, new.says, autojunk=False).get_opcodes()
    assert opcodes == [("equal", 0, 3, 0, 3), ("insert", 3, 3, 3, 7), ("equal", 3, 10, 7, 14)]
    assert list(_line_starts_first(opcodes, old, new)) == [
        ("equal", 0, 3, 0, 3), ("equal", 3, 4, 3, 4), ("insert", 4, 4, 4, 8), ("equal", 4, 10, 8, 14)]
    # the author's blank line keeps its spaces and CRLF; the lines added follow it
    assert splice("a: 1\r\n  \r\nb: 2\r\nd: 4\r\n", "a: 1\n\nc: 3\n\nb: 2\nd: 4\n", (2, 2)).text == (
        "a: 1\r\n  \r\nc: 3\n\nb: 2\r\nd: 4\r\n")


def test_opcodes_with_no_insertion_at_a_line_end_pass_unchanged():
    old, new = cut("a: 1\nb: 2\n"), cut("a: 1\nc: 3\nb: 2\n")
    opcodes = [("equal", 0, 3, 0, 3), ("insert", 3, 3, 3, 6), ("equal", 3, 6, 6, 9)]
    assert list(_line_starts_first(opcodes, old, new)) == opcodes


@pytest.mark.parametrize(("text", "i1", "i2", "zone", "opens_a_line", "inside"), [
    ("a: 1", 0, 0, (0, 0), False, True),  # ahead of the first token: the line it opens, the zone's end included
    ("a: 1", 1, 1, (0, 0), False, False),  # inside a line: only a line of the zone
    ("a: 1", 1, 1, (0, 1), False, True),
    ("a: 1", 2, 2, (1, 2), False, False),  # after a last line with no end, and not opening a line
    ("a: 1", 2, 2, (0, 1), False, True),
    ("a: 1\n", 1, 1, (0, 0), True, False),  # a line end inserted inside a line does not open one there
    ("a: 1\n\n", 4, 4, (2, 3), True, True),  # past the end: the line after the last
    ("a: 1\nb\n", 2, 2, (0, 1), False, True),  # ahead of the line's own end: its line
    ("", 0, 0, (0, 0), True, True),  # an empty text: its line 0
    ("", 0, 0, (1, 1), True, False),
    ("a: 1\nb: 2\n", 3, 6, (1, 2), False, True),  # a change of tokens: each of its lines in the zone
    ("a: 1\nb: 2\n", 0, 6, (1, 2), False, False),
    ("a: 1\nb: 2\n", 0, 4, (0, 1), False, False),  # its last token on the line past the zone
    ("a: 1\nb: 2\n", 0, 3, (0, 0), False, False),  # an empty zone holds no change of tokens
])
def test_a_change_is_inside_the_zone_by_the_line_it_touches(text, i1, i2, zone, opens_a_line, inside):
    assert _inside(cut(text), i1, i2, *zone, opens_a_line=opens_a_line) is inside


@pytest.mark.parametrize(("text", "at", "start", "ahead"), [
    ("a: 1\n# x\n# y\nb: 2\n", 7, 0, 3),  # ahead of every comment line above, not only the nearest
    ("a: 1\n# x\n\nb: 2\n", 6, 0, 3),  # a blank line among them goes with them
    ("# x\nb: 2\n", 2, 1, 2),  # a comment line above the zone stays above the insertion
    ("a: 1\nb: 2\n", 3, 0, 3),  # no comment line above: where it was asked
])
def test_lines_inserted_go_ahead_of_the_comment_lines_of_the_zone_above_them(text, at, start, ahead):
    assert _ahead_of_comment_lines(cut(text), at, start) == ahead


@pytest.mark.parametrize(("before", "after", "zone", "text", "held"), [
    ("a: 1\n\n", "a: 1\n\nc: 3\n", (0, 0), "a: 1\n\n", 1),  # held at the last line the author wrote
    ("", "a: 1\n", (1, 1), "", 0),
    ("", "a: 1\n", (0, 1), "a: 1\n", None),
    ("k: [ A, B ]\n", "k: [A, B, X]\n", (0, 1), "k: [ A, B, X ]\n", None),
    ("k: [ A, B ]  ", "k: [A, B, X]\n", (0, 1), "k: [ A, B, X ]\n", None),  # the dump's last line end
    ("k: 1  ", "k: 2  ", (0, 1), "k: 2  ", None),
    ("a: 1  # c\n\n# d\nb: 2\n", "a: 1\nb: 2\n", (0, 4), "a: 1  # c\n\n# d\nb: 2\n", None),  # dropped alone: kept
    ("a: 1\n# x\n# y\nb: 2\n", "a: 1\nz: 0\n# x\n# y\nb: 2\n", (1, 1), "a: 1\nz: 0\n# x\n# y\nb: 2\n", None),
    ("a:   1\nb:\t2\n", "a: 1\nb: 3\n", (1, 2), "a:   1\nb: 3\n", None),
    ("a: 1\nb:  2\n", "a: 1\n\nb: 2\n", (1, 2), "a: 1\n\nb:  2\n", None),
    ("a: 1\nb: 2\n", "a: 1\n", (1, 2), "a: 1\n", None),  # a deletion at the dump's end
    ("a:\n    b: 2\n    c: 3\n", "a:\n  c: 3\n", (1, 2), "a:\n    c: 3\n", None),  # the author's indentation
    ("a: 1\n    # c\nb: 2\n", "# c\nb: 2\n", (0, 1), "    # c\nb: 2\n", None),  # also on the first line written
    ("a: [A, X,\n    B]\n", "a: [A, B]\n", (0, 2), "a: [A, B]\n", None),  # a line joined: the dump's blank
    ("a: x  # c\nb: 1\n", "a: y\n# c\nb: 1\n", (0, 1), "a: y\n# c\nb: 1\n", None),
    ("a: 1    # c\n", "b: 2  # c\n", (0, 1), "b: 2  # c\n", None),  # after the dump's tokens, the dump's blanks
    ("a: 1\n# x\nb: 2\n", "a: 1\n# x\nc: 3\n", (1, 3), "a: 1\n# x\nc: 3\n", None),  # a replaced line stays below
    ("", "", (0, 0), "", None),
    ("  ", "", (0, 1), "  ", None),  # blanks alone stay
    ("a: 1  \nb: 2  ", "a: 9  \nb: 2  ", (0, 2), "a: 9  \nb: 2  ", None),  # the author's trailing blanks
    ("a: 1  \nb: 2  ", "a: 1  \nb: 7  ", (0, 0), "a: 1  \nb: 2  ", 1),
    ("a: 1  \nb: 2  ", "a: 1  \nb: 7  ", (0, 2), "a: 1  \nb: 7  ", None),  # the dump's, after its last token
    ("a: 1\nb: 2  ", "a: 1\nb: 2\nn: 0\n", (2, 2), "a: 1\nb: 2\nn: 0\n", None),
])
def test_a_splice_writes_the_author_s_bytes_and_only_the_zone_s_changes(before, after, zone, text, held):
    assert splice(before, after, zone) == Spliced(text, held)
