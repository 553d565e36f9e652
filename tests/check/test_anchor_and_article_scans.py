"""The body's explicit anchors and a retired term's article are read in time linear in the text.

A heading's `{#id}`, an HTML `id` or `name` and the article before a retired term were each one
regex that read on from every place one could start (every `{#`, every `<`, the start of the run
for every term found), so a long heading, HTML block or paragraph of them cost the square of its
length. Each is held to the regex it was, and a subprocess with a generous limit guards the time.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from headwater.check.rules.language import ARTICLE, _article
from headwater.corpus.body import _heading_ids, _html_anchors

# What each must keep: the regex it was (fine on short inputs).
HTML_ANCHOR = re.compile(r"""<(?:[A-Za-z][^>]*?\sid|a\s(?:[^>]*?\s)?name)\s*=\s*["']([^"'\s]+)["']""")
HEADING_ID = re.compile(r"\{#([^\s}]+)\}\s*$")


def texts(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces), max_size=40).map("".join)


@settings(max_examples=2000, deadline=None)
@given(texts(["<", ">", "a", "b", "A", " ", "\n", "\t", "id", "name", "=", '"', "'", "x", "<a ", " id=",
              " name=", '"v"', "<!"]))
def test_html_anchors_are_exactly_what_the_one_regex_found(text):
    assert _html_anchors(text) == HTML_ANCHOR.findall(text)


@settings(max_examples=2000, deadline=None)
@given(texts(["{#", "{", "#", "}", " ", "\n", "\t", "a", "b", "é"]))
def test_a_heading_id_is_exactly_what_the_one_regex_found(text):
    assert _heading_ids(text) == HEADING_ID.findall(text)


@settings(max_examples=1000, deadline=None)
@given(texts(["a", "an", "An", " ", "\t", "\n", "x", "-", "_", "term", "é"]))
def test_the_article_before_a_term_is_exactly_what_the_search_from_the_start_found(text):
    for at in range(len(text) + 1):
        found, before = _article(text, at), ARTICLE.search(text, 0, at)
        assert (found and (found.span(), found.group(1))) == (before and (before.span(), before.group(1)))


SIZE = 500_000  # 80,000 characters took half a minute: this size, most of an hour
PROGRAM = f"""import json, re
from headwater.check.rules.language import _article
from headwater.corpus.body import _heading_ids, _html_anchors
terms = "an term " * {SIZE // 8}
print(json.dumps({{
    "a heading of {{#": _heading_ids("{{#" * {SIZE // 2}),
    "an HTML block of < with no >, then an anchor": _html_anchors("<b " * {SIZE // 3} + '<a id="x">'),
    "a paragraph of retired terms, each after an article":
        sum(_article(terms, m.start()) is not None for m in re.finditer("term", terms)),
}}))"""


def test_a_long_heading_html_block_or_paragraph_of_terms_is_read_in_linear_time():
    ran = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {"a heading of {#": [], "an HTML block of < with no >, then an anchor": ["x"],
                                      "a paragraph of retired terms, each after an article": SIZE // 8}
