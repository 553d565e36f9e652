"""The body parse skips markdown-it's inline pass over blocks with no `[`, `<` or backtick (no
link and no code span can be written without one) and over headings with no character an inline
rule starts at, tries each block and inline rule only where the character it starts at stands,
reads a paragraph for a setext underline only where a line could be one, and normalizes a link
destination once per process: every body, and every token, comes out as the stock parser's.

Compared over every Markdown file of the fixtures and over samples that put links, autolinks,
images, code spans, emphasis and entities in headings, lists, quotes and plain paragraphs, open
paragraph lines with every character a block rule starts at, and underline them in every way.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it import __version__ as markdown_it_version
from markdown_it.common import normalize_url

from headwater.corpus import body, commonmark
from headwater.corpus.frontmatter import split

FIXTURES = Path(__file__).resolve().parents[2] / "corpus_fixtures"

SAMPLE = """\
# A *heading* with `code` and &amp; an entity

Plain prose with no mark at all, over
two lines.

## Plain heading

- a list item with a [link](docs/a.md#part)
- an item with an autolink <https://example.org/x>
- an item with an image ![alt text](img.png) and *emphasis*

> quoted prose with [a quoted link](q.md)

A paragraph with `a span` and \\[escaped brackets\\] and a [reference][ref].

[ref]: docs/ref.md

Setext heading with **strong**
------------------------------

    an indented code block with [not a link](x.md)

```python
print("[not a link](y.md)")
```
"""


# Paragraph and setext lines opening with each character some block rule starts at, and some
# that only look like one (a digit with no `.`, `-` with no space, `#` with no space, `<` of no tag)
ENDINGS = """\
A paragraph line
- then a bullet that ends it

A paragraph line
1. then an ordered item (a list starting at 1 may end a paragraph)

A paragraph line
2. but one starting at 2 may not
-not a bullet
#not a heading
<not-a-tag but a line
> then a quote
*** then a rule

Setext text
~~~
a tilde fence
~~~
Text before `a fence`
```
code
```
Text before a heading
## Heading *with* `marks` and \\_escapes\\_ and &copy;
Text before html
<div id="x">
</div>
Setext heading
===
+ a plus item
   lazy continuation
 4) four
 _ _ _
"""


# Setext underlines and lines that only look like one: indented four columns (lazy text), under
# a list item's text at and before its indent, after a lazy line, in a quote, an `---` that is a
# rule after a blank line, a `- ` that is a list item, and `=` runs with text after them; one
# indented three columns, the most an underline may be.
SETEXT = """\
Title over
two lines
=========

Title over an underline three columns in
   ---

Not a title
    ===
still text
-

- an item's text
  ---
- another item's text
---

> quoted text
> ===
lazy line
---

Text with no underline

---

Text then a list
- item
= not an underline
==  x

Inline marks: a\\
hard break, a trailing two-space break  \nthen *em* and _em_, **strong**, ~tilde~, \\* an escape,
&amp; &#35; &#x41; &bogus; entities, ![an image](i.png "title"), <b>html</b>, <https://a.example/x>,
<not an autolink, `code ``span`` here`, [a link](<with space.md>), [ref][], [nested [brackets]](n.md)
a line: with - terminators = that # start ! no @ rule $ at % all ^ here { } ] >

[ref]: ref.md "Title"
"""


def _stock() -> MarkdownIt:
    return MarkdownIt("commonmark")


@pytest.fixture(autouse=True)
def _parser_made_for_each_test():
    """Each test reads a parser made while it runs: what a test counts or compares is how the
    parser was made, which a parser an earlier test cached would hide."""
    commonmark.parser.cache_clear()


def _bodies() -> list[tuple[str, str]]:
    found = [("sample", SAMPLE), ("endings", ENDINGS), ("quoted endings", ENDINGS.replace("\n", "\n> ")),
             ("setext", SETEXT), ("quoted setext", SETEXT.replace("\n", "\n> ")),
             ("listed setext", "- " + SETEXT.replace("\n", "\n  "))]
    for path in sorted(FIXTURES.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            found.append((str(path.relative_to(FIXTURES)), split(text).body))
        except Exception:  # noqa: BLE001 — a fixture whose front matter is refused on purpose
            found.append((str(path.relative_to(FIXTURES)), text))
    return found


def test_skipping_the_inline_pass_changes_no_body_the_stock_parser_gives(monkeypatch):
    bodies = _bodies()
    assert len(bodies) > 50, "the fixtures were not found"
    ours = [body.parse(text, 3) for _, text in bodies]
    monkeypatch.setattr(body, "_parser", _stock)
    stock = [body.parse(text, 3) for _, text in bodies]
    for (name, _), mine, theirs in zip(bodies, ours, stock, strict=True):
        assert mine == theirs, name


def _every_token(parser: MarkdownIt, text: str) -> list[dict]:
    """Every token and child of `text`, as the stock parser's core rules leave them."""
    from markdown_it.rules_core.state_core import StateCore
    from markdown_it.rules_core.text_join import text_join

    env: dict = {}
    tokens = parser.parse(text, env)
    for token in tokens:
        if token.type == "inline" and not token.children:  # ours parses blocks only
            token.children = []
            parser.inline.parse(token.content, parser, env, token.children)
            text_join(StateCore("", parser, env, [token]))
    return [token.as_dict() for token in tokens]


def test_trying_each_rule_where_its_character_stands_changes_no_token_the_stock_parser_gives():
    bodies = _bodies()
    stock = _stock()
    for name, text in bodies:
        assert _every_token(commonmark.parser(), text) == _every_token(stock, text), name


def test_under_another_major_release_of_markdown_it_the_stock_chains_run(monkeypatch):
    """The first characters were read off one release's rules; another may start a rule elsewhere."""
    import markdown_it

    monkeypatch.setattr(markdown_it, "__version__", f"{int(commonmark.READ_OFF) + 1}.0.0")
    commonmark.parser.cache_clear()
    try:
        made = commonmark.parser()
        names = [rule.name for rule in made.block.ruler.__rules__ + made.inline.ruler.__rules__]
        assert not [name for name in names if name.startswith("by_")]
        assert made.inline.ruler.getRules("") == _stock().inline.ruler.getRules("")
        assert _every_token(made, SAMPLE) == _every_token(_stock(), SAMPLE)
    finally:
        commonmark.parser.cache_clear()


def test_the_sample_keeps_its_links_spans_and_heading_slugs():
    parsed = body.parse(SAMPLE, 1)
    assert [link.href for link in parsed.links] == [
        "docs/a.md#part", "https://example.org/x", "q.md", "docs/ref.md"]
    assert [code.text for code in parsed.code if code.kind == "span"] == ["code", "a span"]
    assert [heading.slug for heading in parsed.headings] == [
        "a-heading-with-code-and--an-entity", "plain-heading", "setext-heading-with-strong"]


@pytest.mark.parametrize("mark", body.INLINE_MARKS)
def test_a_block_holding_a_mark_is_parsed_inline(mark):
    tokens = body._parser().parse(f"prose {mark}here\n")  # blocks only: each read as `parse` reaches it
    body._read_inline(tokens[1], {}, heading=False)
    assert tokens[1].type == "inline" and tokens[1].children


def test_a_heading_with_no_mark_is_still_parsed_inline_for_its_slug():
    # an entity is read only by the inline pass: skipped, `&amp;` would slug as `amp`
    parsed = body.parse("# Q&amp;A\n\nText.\n\n## Cats &amp; dogs\n", 1)
    assert [(heading.text, heading.slug) for heading in parsed.headings] == [
        ("Q&amp;A", "qa"), ("Cats &amp; dogs", "cats--dogs")]


def _calls(name: str, module: str, run) -> int:
    """How many times markdown-it's function `name` of `module` was called during `run()`."""
    count = 0

    def profile(frame, event, _arg):
        nonlocal count
        if event == "call" and frame.f_code.co_name == name and frame.f_code.co_filename.endswith(module):
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


# the guards are set only under the markdown-it-py release their tables were read off
DISPATCHED = pytest.mark.skipif(markdown_it_version.split(".")[0] != commonmark.READ_OFF,
                                reason="the stock chains run under this markdown-it-py release")


def test_a_heading_with_no_mark_of_an_inline_rule_is_not_parsed_inline():
    parser = body._parser()
    text = "# Plain heading: one, two (three) - four.\n\n## Another plain one!\n"
    assert _calls("parse", "parser_inline.py", lambda: body.parse(text, 1)) == 0
    assert [h.slug for h in body.parse(text, 1).headings] == ["plain-heading-one-two-three---four", "another-plain-one"]
    assert parser is body._parser()


@pytest.mark.parametrize("mark", body.HEADING_MARKS)
def test_a_heading_holding_a_mark_of_an_inline_rule_is_parsed_inline(mark):
    text = "Setext a\nb\n===\n" if mark == "\n" else f"# a {mark}b{mark} c\n"
    assert _calls("parse", "parser_inline.py", lambda: body.parse(text, 1)) == 1


@DISPATCHED
def test_a_long_paragraph_tries_no_block_rule_that_needs_another_first_character():
    text = "".join(f"plain prose line {n}, no mark at its start\n" for n in range(60))
    # neither at its first line, where every block rule was tried, nor at any next one
    for name, module in (("hr", "hr.py"), ("heading", "heading.py"), ("list_block", "list.py"),
                         ("_fence_rule", "fence.py"), ("blockquote", "blockquote.py"),
                         ("reference", "reference.py"), ("html_block", "html_block.py")):
        assert _calls(name, f"rules_block/{module}", lambda: body.parse(text, 1)) == 0, name
    assert _calls("paragraph", "rules_block/paragraph.py", lambda: body.parse(text, 1)) == 1
    assert len(body.parse(text, 1).prose) == 1


@DISPATCHED
def test_a_line_is_tried_by_the_rules_its_first_character_starts():
    text = "prose\n- an item\n\n## a heading\n"
    assert _calls("list_block", "rules_block/list.py", lambda: body.parse(text, 1)) >= 1
    assert _calls("heading", "rules_block/heading.py", lambda: body.parse(text, 1)) == 1
    assert [heading.text for heading in body.parse(text, 1).headings] == ["a heading"]


@DISPATCHED
def test_a_paragraph_with_no_line_that_could_underline_it_is_not_read_as_a_setext_heading():
    text = "".join(f"plain prose line {n}, - = in the middle\n" for n in range(60))
    assert _calls("lheading", "rules_block/lheading.py", lambda: body.parse(text, 1)) == 0
    # an underline indented four columns is lazy text; a rule after a quote is past the quote's end
    for text in ("Not a title\n    ===\n", "> quoted text\n---\n"):
        assert _calls("lheading", "rules_block/lheading.py", lambda text=text: body.parse(text, 1)) == 0, text
    underlined = "A setext title\n---\n"
    assert _calls("lheading", "rules_block/lheading.py", lambda: body.parse(underlined, 1)) == 1
    assert [heading.level for heading in body.parse(underlined, 1).headings] == [2]


@DISPATCHED
def test_an_inline_character_is_tried_only_by_the_rules_that_start_at_it():
    text = "A [link](a.md) - with: terminators = here # and ! there - and - more: [two](b.md)\n"
    assert _calls("entity", "rules_inline/entity.py", lambda: body.parse(text, 1)) == 0
    assert _calls("autolink", "rules_inline/autolink.py", lambda: body.parse(text, 1)) == 0
    assert _calls("newline", "rules_inline/newline.py", lambda: body.parse(text, 1)) == 0
    assert _calls("link", "rules_inline/link.py", lambda: body.parse(text, 1)) == 2
    assert [link.href for link in body.parse(text, 1).links] == ["a.md", "b.md"]


@DISPATCHED
def test_each_chain_is_one_guard_named_for_it_and_every_block_rule_keeps_its_name():
    made = commonmark.parser()
    block = [rule for rule in made.block.ruler.__rules__ if rule.enabled]
    stock = [rule.name for rule in _stock().block.ruler.__rules__ if rule.enabled]
    chains = ("blockquote", "list", "paragraph", "reference")
    assert [rule.name for rule in block] == [
        "by_first_character", *stock, *(f"by_first_character_{chain}" for chain in chains)]
    for chain in chains:
        assert [rule.name for rule in block if chain in rule.alt] == [f"by_first_character_{chain}"]
    assert [rule.name for rule in made.inline.ruler.__rules__ if rule.enabled] == ["by_character"]


@DISPATCHED
@pytest.mark.parametrize("text", ["prose\nno underline under it\n", "    an indented code line\n"])
def test_a_paragraph_not_read_as_a_setext_heading_leaves_the_state_as_markdown_it_s_lheading_leaves_it(text):
    from markdown_it.rules_block.lheading import lheading as stock
    from markdown_it.rules_block.state_block import StateBlock

    guard = next(rule.fn for rule in commonmark.parser().block.ruler.__rules__ if rule.name == "lheading")
    left = []
    for rule in (guard, stock):
        state = StateBlock(text, commonmark.parser(), {}, [])
        left.append((rule(state, 0, state.lineMax, False), state.parentType, state.line, len(state.tokens)))
    assert left[0] == left[1] and left[0][0] is False


def test_a_link_destination_written_twice_is_normalized_once(monkeypatch):
    seen: list[str] = []
    real = normalize_url.normalizeLink
    monkeypatch.setattr(normalize_url, "normalizeLink", lambda url: seen.append(url) or real(url))
    href = "https://example.org/normalized-once-by-this-test"
    parsed = body.parse(f"See [one]({href}) and [two]({href}).\n\nAnd [three]({href}).\n", 1)
    assert [link.href for link in parsed.links] == [href] * 3
    assert seen == [href]
