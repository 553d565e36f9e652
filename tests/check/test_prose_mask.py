"""The prose mask keeps the one regex's answer and costs the length of a paragraph, not its square.

As alternatives of one regex, an unclosed curly quote, HTML comment or tag read on to the end of the
paragraph from each opener, so a paragraph of them took minutes. The guard against a hang is a
subprocess with a generous limit; the assertions are about answers.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from headwater.check.rules.mask import mask

# The mask's semantics, as the single regex it was (fine on short inputs): what it must keep.
_TOKEN_END = r"[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"]"
REFERENCE = re.compile("|".join((
    r"(`+)[\s\S]*?\1", r'"[^"]*"', r"“[^”]*”", r"<!--[\s\S]*?-->", r"<[^>\n]*>",
    r"(?<=\])\((?:[^()\s]|\([^()\s]*\))*\)",
    r"(?<=\])\[[^\]\n]*\]",
    r"\[[^\[\]\n]*\](?=\[\])|\[[^\[\]\n]*\](?![(\[])",
    r"\b[A-Za-z][A-Za-z0-9+.-]*://" + _TOKEN_END, r"\bwww\." + _TOKEN_END,
    r"(?<![\w/.~-])(?:\.{1,2}/|~/|/(?=[\w.-]))" + _TOKEN_END,
    r"(?<![\w/.~-])[\w.-]+/[^\s<>()\[\]]*\.\w+",
)))


def reference(text: str) -> str:
    return REFERENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


PIECES = ["`", "``", '"', "“", "”", "<!--", "-->", "<", ">", "<b>", "[", "]", "(", ")", "](", "][",
          "\n", " ", ".", "/", "~/", "./", "a", "word", "x.md", "http://", "www.", "-", "!", "é"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_the_mask_blanks_exactly_what_the_one_regex_blanked(text):
    assert mask(text) == reference(text)


# Runs with no space in them, where a URL, a path or a code span may start at many places.
TOKEN_CHARACTERS = "aw.:/`,-+_1é\"“”()[]<>~ "


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from([*TOKEN_CHARACTERS, "://", "www.", "./", ".md", "``", "a/b,"]),
                max_size=40).map("".join))
def test_runs_of_url_path_and_backtick_characters_are_blanked_exactly_as_by_the_one_regex(text):
    assert mask(text) == reference(text)


def test_quotes_comments_and_tags_closed_far_off_or_inside_other_spans_are_blanked_as_before():
    text = ("“far\nquote” `code “x` a <!-- c\n--> <b>tag</b> “ [a](<u>) “open <!-- open <i and\n"
            "a > line” <!-- -->")
    assert mask(text) == reference(text)


HOSTILE = {  # two megabytes each: linear takes a moment, the square took hours
    "unclosed curly quotes": "„Wort“ " * 300_000,
    "unclosed comments": "a <!-- b " * 240_000,
    "unclosed tags on one line": "a < b " * 360_000,
    "spans, then one unclosed backtick": "word `code` " * 180_000 + "`",
}
MASKED = ("import json, sys\nfrom headwater.check.rules.mask import mask\n"
          "print(json.dumps({k: mask(t) == m for k, (t, m) in json.load(sys.stdin).items()}))")


def _masked_in_a_minute(cases: dict[str, tuple[str, str]]) -> dict[str, bool]:
    """Per case, whether `mask(text)` is the expected mask, computed in a fresh process that a
    minute's timeout stops: the square of these sizes would take hours."""
    ran = subprocess.run([sys.executable, "-c", MASKED], input=json.dumps(cases),
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def test_a_paragraph_of_unclosed_quotes_comments_or_tags_is_masked_in_linear_time():
    cases = {name: (text, text.replace("`code`", "      ")) for name, text in HOSTILE.items()}
    assert _masked_in_a_minute(cases) == dict.fromkeys(HOSTILE, True)


TOKEN_SIZE = 500_000  # an 80,000-character run took half a minute: this size, most of an hour
HOSTILE_TOKENS = {  # (text, its mask)
    "a run of dots between letters, no scheme": ("a." * (TOKEN_SIZE // 2), "a." * (TOKEN_SIZE // 2)),
    "a scheme at the end of a long run, nothing after it": ("a." * (TOKEN_SIZE // 2) + "a:// x",) * 2,
    "folders with no file extension": ("a/b," * (TOKEN_SIZE // 4),) * 2,
    "a run of backticks": ("`" * TOKEN_SIZE, " " * TOKEN_SIZE),
    "a run of backticks, then text": ("`" * TOKEN_SIZE + "x" * TOKEN_SIZE, " " * TOKEN_SIZE + "x" * TOKEN_SIZE),
    "URLs in curly quotations": ("“www.a”" * (TOKEN_SIZE // 7), " " * (TOKEN_SIZE // 7 * 7)),
    "paths in curly quotations": ("“a/”" * (TOKEN_SIZE // 4) + "x.md", " " * (TOKEN_SIZE // 4 * 4) + "x.md"),
}


def test_a_long_run_with_no_space_is_masked_in_linear_time_whatever_could_start_in_it():
    assert _masked_in_a_minute(HOSTILE_TOKENS) == dict.fromkeys(HOSTILE_TOKENS, True)
