"""Link extraction is one pass over a block: 16,000 links on one line cost no more than reading them.

It took 50 s before (every link's target was searched for from the start of its block). The guard
against a hang is a subprocess with a generous limit; the assertions are about where each link is.
"""

from __future__ import annotations

import json
import subprocess
import sys

from headwater.corpus.body import Link, parse

PROGRAM = """
import json, sys
from headwater.corpus.body import Link, parse
count = int(sys.argv[1])
line = " ".join(f"[l{i}](docs/t{i}.md)" for i in range(count))
print(json.dumps([[link.href, link.line, link.column] for link in parse(line + "\\n", 5).links]))
"""


def test_sixteen_thousand_links_on_one_line_are_each_found_where_they_are_written():
    count = 16_000
    ran = subprocess.run([sys.executable, "-c", PROGRAM, str(count)], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    line = " ".join(f"[l{i}](docs/t{i}.md)" for i in range(count))
    expected, at = [], 0
    for i in range(count):
        at = line.index("](", at) + 2
        expected.append([f"docs/t{i}.md", 5, at])
    assert json.loads(ran.stdout) == expected


def test_two_links_to_one_target_each_get_their_own_column():
    body = parse("See [a](x.md) and then [b](x.md), then [c](<x.md>).\n", 1)
    assert [(link.text, link.column) for link in body.links] == [("a", 8), ("b", 27), ("c", 43)]


def test_a_link_is_placed_on_the_line_and_column_where_its_target_is_written():
    body = parse("Some words then [a](x.md)\n[b](y.md)\n", 5)
    assert body.links == (Link("x.md", "a", 5, 20), Link("y.md", "b", 6, 4))


def test_a_link_in_a_later_block_is_not_placed_at_an_earlier_block_with_the_same_target():
    body = parse("[a](x.md)\n\n[b](x.md)\n", 5)
    assert [(link.line, link.column) for link in body.links] == [(5, 4), (7, 4)]


def test_a_link_whose_text_ends_a_line_is_placed_where_its_target_begins_the_next():
    assert parse("[a link\n](docs/a.md)\n", 5).links == (Link("docs/a.md", "a link", 6, 2),)


def test_whitespace_before_a_target_is_skipped_to_find_it():
    assert parse("See [a]( docs/a.md) here\n", 5).links == (Link("docs/a.md", "a", 5, 8),)


def test_a_stray_bracket_paren_before_a_link_is_not_taken_for_its_target():
    assert parse("A stray ](\n[a](x.md)\n", 5).links == (Link("x.md", "a", 6, 4),)
    assert parse("Odd ](<x> then [a](x.md).\n", 5).links == (Link("x.md", "a", 5, 19),)
    body = parse("Odd ]( here: [a](x.md) and [b](y.md).\n", 5)
    assert body.links == (Link("x.md", "a", 5, 17), Link("y.md", "b", 5, 31))


def test_a_reference_link_is_placed_where_its_definition_writes_the_target():
    body = parse("Intro\n[a][ref], [b][] and [ref]\n\n[b]:   <docs/b.md>\n  [ref]: docs/ref.md \"Title\"\n", 5)
    assert body.links == (Link("docs/ref.md", "a", 9, 10), Link("docs/b.md", "b", 8, 9),
                          Link("docs/ref.md", "ref", 9, 10))


def test_a_reference_link_whose_definition_is_not_found_on_its_own_line_stays_at_its_block():
    body = parse("Intro\n[a][ref]\n\n> [ref]: docs/ref.md\n", 5)
    assert body.links == (Link("docs/ref.md", "a", 5, 1),)


def test_a_target_markdown_it_percent_encodes_is_found_as_it_was_written():
    body = parse('Intro\nsee [the table](#params") and [b](docs/été.md), [c][c]\n\n[c]: <docs/c d\u00e9.md>\n', 5)
    assert [(link.href, link.line, link.column) for link in body.links] == [
        ("#params%22", 6, 16), ("docs/%C3%A9t%C3%A9.md", 6, 34), ("docs/c%20d%C3%A9.md", 8, 7)]


def test_a_link_text_is_its_words_without_their_markup():
    assert parse("[a *b* `c`](x.md)\n", 5).links == (Link("x.md", "a b c", 5, 12),)


def test_a_footnote_reference_is_not_read_as_a_link_to_its_definition():
    assert parse("Text[^1] more.\n\n[^1]: https://example.org\n", 5).links == ()


def test_a_link_whose_text_starts_with_a_caret_is_still_a_link():
    assert parse("See [^up](docs/a.md).\n", 5).links == (Link("docs/a.md", "^up", 5, 10),)
    assert parse("[^note\n](docs/a.md)\n", 5).links == (Link("docs/a.md", "^note", 6, 2),)
