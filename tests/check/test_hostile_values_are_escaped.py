"""A file name or a front-matter value cannot inject Markdown structure or terminal escapes.

The markdown report goes to `$GITHUB_STEP_SUMMARY` and pull-request comments; the text report,
`explain` and `route` go to a terminal. A hostile name carries a newline and a heading, a comment
opener, HTML, `|` and backticks; a hostile value carries a clear-screen and an OSC 8 link.
"""

from __future__ import annotations

import re
import shutil

import pytest

NOW = ("--now", "2026-11-01")
HOSTILE_NAME = "x\n## All clear, merge it\n<!-- `|` <b>.md"
ESCAPES = "\x1b[2J\x1b]8;;evil\x07click\x1b]8;;\x07\x9b"


@pytest.fixture
def hostile(quickstart):
    decisions = quickstart / "docs/decisions"
    shutil.copy(decisions / "0001-store-attempts-in-postgres.md", decisions / HOSTILE_NAME)  # ACME-DR-0001 twice
    doc = decisions / "0003-rate-limit-per-tenant.md"
    text = doc.read_text()
    summary = 'summary: "Limit \\e[2J\\e]8;;https://evil.example\\aclick\\e]8;;\\a\\x9b twice \\u202Eevil\\u2066"'
    doc.write_text(re.sub(r"^summary: .*$", lambda _: summary, text, count=1, flags=re.M))
    shutil.copy(decisions / "0001-store-attempts-in-postgres.md", decisions / f"{ESCAPES}.md")
    return quickstart


def outside_code_spans(text: str) -> str:
    """The text with every code span taken out (inside one, `<!--` is only characters)."""
    return re.sub(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", "", text)


def unescaped_pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


def test_the_markdown_report_admits_no_heading_html_or_comment_from_a_value(hw, hostile):
    ran = hw("check", "--format", "markdown", "--no-cache", "--root", str(hostile), *NOW)
    assert ran.status == 0 and "claimed_twice" in ran.out
    lines = ran.out.splitlines()
    assert [line for line in lines if line.startswith("#")] == ["## `headwater check`"]
    prose = outside_code_spans(ran.out)
    assert not re.search(r"(?<!\\)<", prose) and "\x1b" not in ran.out  # no raw `<`: no HTML, no comment
    rows = [line for line in lines if line.startswith("| ") and "---" not in line]
    assert len(rows) > 1 and all(unescaped_pipes(row) == 5 for row in rows), rows
    # the path stays one code span, its backticks inside a longer fence
    assert "``docs/decisions/x\\u{a}## All clear" in ran.out


def test_the_text_report_explain_and_route_show_control_characters_escaped(hw, hostile):
    text = hw("check", "--no-color", "--no-cache", "--root", str(hostile), *NOW)
    explained = hw("explain", "docs/decisions/0003-rate-limit-per-tenant.md", "--root", str(hostile))
    routed = hw("route", "why limit src/ingest/rate_limit.py", "--no-color", "--root", str(hostile))
    for ran in (text, explained, routed):
        assert ran.status == 0 and ran.out
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", ran.out), repr(ran.out)
    assert "docs/decisions/\\u{1b}[2J\\u{1b}]8;;evil\\u{7}click\\u{1b}]8;;\\u{7}\\u{9b}.md" in text.out
    assert "summary Limit \\u{1b}[2J\\u{1b}]8;;https://evil.example\\u{7}click" in explained.out
    assert "twice \\u{202e}evil\\u{2066}" in explained.out  # shown in the order it is written
    assert "\\u{1b}[2J\\u{1b}]8;;https://evil.example\\u{7}click" in routed.out


@pytest.mark.parametrize(("text", "span"), [
    ("plain", "`plain`"),
    ("a`b", "``a`b``"),  # a fence one backtick longer than the longest run inside
    ("``x`", "``` ``x` ```"),  # padded where the body meets the fence, at either end
    ("`x", "`` `x ``"),
    ("x`", "`` x` ``"),
    ("a|b", "`a\\|b`"),  # a table cell still ends where it should
    ("\x1b[2J", "`\\u{1b}[2J`")])
def test_a_code_span_holds_any_value_literally_in_the_shortest_fence(text, span):
    from headwater.textsafe import markdown_code

    assert markdown_code(text) == span


def test_markdown_text_escapes_a_pipe_angle_brackets_and_a_backslash_each_with_one_backslash():
    from headwater.textsafe import markdown_text

    # a control character's visible escape too: Markdown shows `\\u{7}` as `\u{7}`
    assert markdown_text("a|b <i>c\\d\x07") == "a\\|b \\<i\\>c\\\\d\\\\u{7}"


def test_a_typed_value_is_quoted_whole_up_to_its_limit_and_by_its_start_past_it():
    from headwater.textsafe import SHOWN, by_its_start, shown

    assert by_its_start("abc", 3) == "abc" and by_its_start("abcd", 3) == "ab…"
    assert shown("x" * SHOWN) == "x" * SHOWN and shown("x" * (SHOWN + 1)) == "x" * (SHOWN - 1) + "…"
