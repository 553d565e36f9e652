"""The body parse skips markdown-it's inline pass over blocks with no `[`, `<` or backtick (no
link and no code span can be written without one): every body comes out as the stock parser's.

Compared over every Markdown file of the fixtures and over a sample that puts links, autolinks,
images, code spans, emphasis and entities in headings, lists, quotes and plain paragraphs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from headwater.corpus import body
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


def _stock() -> MarkdownIt:
    return MarkdownIt("commonmark")


def _bodies() -> list[tuple[str, str]]:
    found = [("sample", SAMPLE)]
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
