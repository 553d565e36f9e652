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
PROGRAM = ("import json, sys\nfrom headwater.check.rules.mask import mask\n"
           "print(json.dumps({k: mask(t) == t.replace('`code`', '      ') for k, t in json.load(sys.stdin).items()}))")


def test_a_paragraph_of_unclosed_quotes_comments_or_tags_is_masked_in_linear_time():
    ran = subprocess.run([sys.executable, "-c", PROGRAM], input=json.dumps(HOSTILE),
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == dict.fromkeys(HOSTILE, True)
