"""The body's blocks as the rules read them: headings (level, line, slug), prose runs outside
block quotes, code blocks and code spans, each at the file line a finding names."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from headwater.corpus import body
from headwater.corpus.body import Code, Heading, Prose, github_slug, parse, parser_lines
from headwater.corpus.frontmatter import LINE, FrontMatterRefusal, _split_lines, split


def test_each_heading_keeps_its_level_and_file_line():
    parsed = parse("Intro.\n\n## Install\n\nSteps.\n\nUsage\n=====\n", 5)
    assert parsed.headings == (Heading("Install", 2, 7, "install"), Heading("Usage", 1, 11, "usage"))


def test_repeated_headings_get_numbered_slugs_as_github_gives_them():
    parsed = parse("# Setup\n\n## Setup\n\n### Setup\n\n## Other\n", 1)
    assert [heading.slug for heading in parsed.headings] == ["setup", "setup-1", "setup-2", "other"]


def _slug_by_character(text: str) -> str:
    """GitHub's slug kept by each character's Unicode category, as `github_slug` keeps any text."""
    lowered = text.strip().lower()
    return "".join(c for c in lowered if c in " -_" or unicodedata.category(c)[0] in "LNM").replace(" ", "-")


def test_an_ascii_heading_slugs_as_each_character_s_unicode_category_keeps_it():
    every = "".join(map(chr, range(128)))
    for text in (every, f" Tab\tand {every[32:]} end ", "Release 1.2: API_v3 (beta) - notes!"):
        assert github_slug(text) == _slug_by_character(text)
    assert github_slug("Ünïcode Ωmega — done") == _slug_by_character("Ünïcode Ωmega — done") == "ünïcode-ωmega--done"


def test_an_ascii_heading_is_slugged_without_asking_each_character_s_category(monkeypatch):
    asked: list[str] = []

    class Counting:
        @staticmethod
        def category(character: str) -> str:
            asked.append(character)
            return unicodedata.category(character)

    monkeypatch.setattr(body, "unicodedata", Counting)
    assert github_slug("Graduation Criteria: Alpha -> Beta") == "graduation-criteria-alpha---beta"
    assert asked == []
    assert github_slug("Café") == "café" and asked


def test_prose_resumes_after_a_block_quote_and_includes_headings():
    parsed = parse("# Title\n\n> quoted words\n> and more\n\nAfter the quote.\n", 5)
    assert parsed.prose == (Prose(5, ("# Title",)), Prose(10, ("After the quote.",)))


def test_a_fenced_block_starts_below_its_fence_and_an_indented_block_on_its_first_line():
    parsed = parse("Text.\n\n```python  \nprint(1)\n```\n\n    indented\n", 5)
    assert parsed.code == (Code("fence", "python", 8, "print(1)\n"), Code("block", "", 11, "indented\n"))


def test_a_code_span_is_at_the_line_of_its_block_that_holds_it():
    parsed = parse("`x` first\n\nIntro line\nwith `x` here\n", 5)
    assert parsed.code == (Code("span", "", 5, "x"), Code("span", "", 8, "x"))


def test_a_line_separator_or_form_feed_inside_a_line_leaves_every_block_on_its_own_lines():
    # the lines were split where Python splits them, U+2028 and U+000C too, so each block after one read
    # its neighbour's text: the retired term below went unseen, and `--fix` left it
    parsed = parse("## Context\u2028\n\nA\x0cB.\n\nPass the whitelist.\r\nAnd\rmore.\n", 5)
    assert parsed.prose == (Prose(5, ("## Context\u2028",)), Prose(7, ("A\x0cB.",)),
                            Prose(9, ("Pass the whitelist.", "And", "more.")))


def test_a_line_separator_inside_the_front_matter_leaves_the_body_on_the_line_an_editor_shows():
    # the split counted U+2028 as a line end, so every finding in such a body was a line below its place
    parts = split('---\nsummary: "One\u2028two"\nnote: "a\x85b"\n---\n# T\n')
    assert (parts.body_line, parts.body, parts.front.get("summary").text) == (5, "# T\n", "One\u2028two")


PIECES = st.sampled_from(["---", "...", "--- ", "a: 1", "b: x", "# c", "\n", "\r\n", "\r", "\u2028", " ", "\t"])


def _either(read):
    try:
        return read()
    except FrontMatterRefusal as refusal:
        return str(refusal)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=14).map("".join))
def test_the_front_matter_found_one_line_search_at_a_time_is_the_one_every_line_split_finds(text):
    """`split` reads only the front matter's lines (every cold run splits every document); the
    reading of every line it stands for must give the same block, body and body line."""
    opens = text.split("\n", 1)[0].rstrip("\r\n").rstrip(" \t") == "---"
    fast = _either(lambda: split(text))
    slow = _either(lambda: _split_lines(LINE.split(text), None)) if opens else None
    if opens:
        assert (fast if isinstance(fast, str) else (fast.front, fast.body, fast.body_line)) == \
               (slow if isinstance(slow, str) else (slow.front, slow.body, slow.body_line))
    else:
        assert (fast.front, fast.body, fast.body_line) == (None, text, 1)


@given(st.lists(PIECES, max_size=14).map("".join))
def test_the_body_s_lines_are_split_at_lf_crlf_and_a_lone_cr_alone(text):
    import re

    expected = re.split(r"\r\n?|\n", text)
    assert parser_lines(text) == (expected[:-1] if expected[-1] == "" else expected)


def test_a_code_span_over_two_lines_is_at_its_block_s_first_line():
    parsed = parse("Before.\n\nText `one\ntwo` end\n", 5)
    assert parsed.code == (Code("span", "", 7, "one two"),)


def test_a_code_span_is_looked_for_from_where_its_block_s_previous_span_was_found():
    parsed = parse("b first, `a`\nthen `b`\n", 5)
    assert parsed.code == (Code("span", "", 5, "a"), Code("span", "", 6, "b"))


# one paragraph of 60,000 lines, a span on each: every span was searched for from its block's first
# line, 1.8 billion line probes (minutes); the guard is a subprocess with a generous limit
PROGRAM = """
import json
from headwater.corpus.body import parse
print(json.dumps([span.line for span in parse("".join(f"`s{i}`\\n" for i in range(60_000)), 5).code]))
"""


def test_a_paragraph_of_sixty_thousand_spans_places_each_in_one_pass_over_its_lines():
    ran = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == list(range(5, 60_005))


def test_a_long_page_s_inline_tokens_are_let_go_block_by_block_as_they_are_read():
    import tracemalloc

    para = "We keep the queue in `redis`, see [the guide](../guides/x.md) and the \"quoted\" words.\n\n"
    text = "# Big\n\n" + para * 5000
    parse("warm `x` [a](b)\n", 1)  # markdown-it's imports and tables, outside the measure
    tracemalloc.start()
    try:
        parse(text, 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # every block's inline tokens held until the end came to 49 bytes per byte of text; read and
    # let go one block at a time, 23
    assert peak < 35 * len(text)
