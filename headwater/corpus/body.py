"""The CommonMark body through markdown-it-py: headings (with GitHub slugs), links and prose.

Parsed lazily, once per document, only when a consumer asks for it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache
from urllib.parse import unquote

from headwater.corpus.commonmark import parser as _parser
from headwater.frozen import frozen


@frozen
class Heading:
    """A Markdown heading: its text, level, line and anchor slug."""

    text: str
    level: int
    line: int
    slug: str


@frozen
class Link:
    """A Markdown link in a body (images are not read): where it points, its text and position."""

    href: str
    text: str
    line: int
    column: int


@frozen
class Prose:
    """A paragraph or heading outside code and block quotes, as its source lines are written."""

    line: int  # the file line of its first source line
    lines: tuple[str, ...]


@frozen
class Code:
    """A code block (`fence` with its info string, or an indented `block`) or an inline `span`."""

    kind: str
    info: str
    line: int  # the file line of its first line of code
    text: str


@frozen
class Body:
    """A document's body as the rules read it: headings, links, prose runs, code and the anchors
    its author named explicitly (an HTML `id` or `name`, a heading's `{#id}`)."""

    headings: tuple[Heading, ...]
    links: tuple[Link, ...]
    prose: tuple[Prose, ...] = ()
    code: tuple[Code, ...] = ()
    anchors: tuple[str, ...] = ()

    @property
    def slugs(self) -> frozenset[str]:
        """Every fragment a link may land on: the headings' GitHub slugs and the named anchors."""
        return frozenset(h.slug for h in self.headings).union(self.anchors)


# `parse` reads a block's inline children for its links and code spans, and a heading's for its
# slug. A link is written with `[` (or `<` when automatic) and a code span with a backtick, so a
# block holding none of them has neither: its inline parse, most of markdown-it's time, is skipped.
INLINE_MARKS = ("[", "<", "`")
# A heading's slug reads its text as the inline parse leaves it. Only these characters start an
# inline rule of the parser (a line break, an escape, emphasis, an entity, besides the marks
# above); a heading holding none is one text child equal to its content, which `_plain_text`
# reads when there are no children, so its inline parse is skipped too.
HEADING_MARKS = (*INLINE_MARKS, "\\", "*", "_", "&", "\n")


def _read_inline(token, env: dict, heading: bool) -> None:
    """markdown-it's core `inline` and `text_join` rules over one block whose children `parse`
    reads (a block holding a mark of a link or a code span, or a heading holding a mark of any
    inline rule) and that has none yet."""
    if token.children or not any(mark in token.content for mark in (HEADING_MARKS if heading else INLINE_MARKS)):
        return
    from markdown_it.rules_core.state_core import StateCore
    from markdown_it.rules_core.text_join import text_join

    parser = _parser()
    token.children = []
    parser.inline.parse(token.content, parser, env, token.children)
    text_join(StateCore("", parser, env, [token]))


# `<a id="x">`, `<a name="x">`: an element a link's fragment lands on, as a browser reads it (any
# element's `id`, an `a` element's `name`), what `<(?:[A-Za-z][^>]*?\sid|a\s(?:[^>]*?\s)?name)\s*=
# \s*["']([^"'\s]+)["']` finds. As that one regex every `<` read on to the next `>`, so a block of
# `<` with no `>` cost the square of its length; `_html_anchors` seeks each part forward once.
_ID = re.compile(r"""\sid\s*=\s*["']([^"'\s]+)["']""")
_NAME = re.compile(r"""(?<=\s)name\s*=\s*["']([^"'\s]+)["']""")
_TAG_END = re.compile(">")
_ELEMENT, _A_ELEMENT = re.compile("[A-Za-z]"), re.compile(r"a\s")
# `## Title {#x}`: the heading attribute Hugo, kramdown and Pandoc read as the heading's own id,
# what `\{#([^\s}]+)\}\s*$` finds: from the first `{#` in the run that a final `}` closes. That
# regex read the run from every `{#` in it, so a heading of `{#` cost the square of its length.
_HEADING_ID_RUN = re.compile(r"(?<![^\s}])([^\s}]*)\}\s*$")
# `[label]: target` or `[label]: <target>`, a link reference definition (up to three spaces in)
_DEFINITION = re.compile(r" {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*(?:<([^>\n]*)>|(\S+))")


def _heading_ids(text: str) -> list[str]:
    run = _HEADING_ID_RUN.search(text)
    if run is None:
        return []
    start, end = run.span(1)
    at = text.find("{#", start, end)
    return [text[at + 2:end]] if 0 <= at < end - 2 else []


def _html_anchors(html: str) -> list[str]:
    ids, names, tag_end = _searcher(_ID, html), _searcher(_NAME, html), _searcher(_TAG_END, html)
    found: list[str] = []
    pos = 0
    while (at := html.find("<", pos)) >= 0:
        pos, anchor = at + 1, None
        if _ELEMENT.match(html, at + 1):  # any element: its first `id` before its `>`
            anchor = _before(ids(at + 2), tag_end(at + 2))
        if anchor is None and _A_ELEMENT.match(html, at + 1):
            # an `a`: its first `name` after a later space before its `>`, else one right after `a `
            anchor = _before(names(at + 4), tag_end(at + 3)) or _NAME.match(html, at + 3)
        if anchor is not None:
            found.append(anchor.group(1))
            pos = anchor.end()
    return found


def _before(found: re.Match[str] | None, end: re.Match[str] | None) -> re.Match[str] | None:
    return found if found is not None and (end is None or found.start() < end.start()) else None


def _searcher(pattern: re.Pattern[str], text: str) -> Callable[[int], re.Match[str] | None]:
    """The first match at or after a position, for positions that never go back: the last answer
    holds until the position passes it, so no stretch of the text is searched twice."""
    found: re.Match[str] | None = None
    searched = False

    def first(pos: int) -> re.Match[str] | None:
        nonlocal found, searched
        if not searched or (found is not None and found.start() < pos):
            found, searched = pattern.search(text, pos), True
        return found
    return first


# What a slug drops of an ASCII heading: all but lowercase letters, digits (each of category L or
# N, as no ASCII character is M), spaces, `-` and `_`; one substitution, where asking
# `unicodedata` for each character cost 3% of a KEP body's parse.
_ASCII_DROPPED = re.compile("[^a-z0-9 _-]")


def github_slug(text: str) -> str:
    """GitHub's anchor: lowercase, drop punctuation but `-` and `_`, spaces to `-`."""
    lowered = text.strip().lower()
    if lowered.isascii():
        kept = _ASCII_DROPPED.sub("", lowered)
    else:
        kept = "".join(c for c in lowered if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


# The line ends CommonMark (and so markdown-it) knows; `str.splitlines` knows U+2028, U+0085 and a
# form feed too, and a body holding one had its lines read one off from where the parser put them.
LINE_END = re.compile(r"\r\n?|\n")


def parser_lines(text: str) -> list[str]:
    """`text`'s lines as CommonMark counts them, the last one's end ending no further line (as
    `str.splitlines` would give them, but for the line ends only it knows)."""
    lines = LINE_END.split(text) if "\r" in text else text.split("\n")  # the second, four times faster
    return lines[:-1] if lines[-1] == "" else lines


def parse(body: str, first_line: int) -> Body:
    env: dict = {}  # the block parse's link reference definitions, which each inline parse reads
    tokens = _parser().parse(body, env)
    headings: list[Heading] = []
    links: list[Link] = []
    prose: list[Prose] = []
    code: list[Code] = []
    anchors: list[str] = []
    seen: dict[str, int] = {}
    lines = parser_lines(body)  # the lines markdown-it's `map` counts, never U+2028's
    defined = cache(lambda: _definitions(lines))  # read only if a reference link is found
    quoted = 0  # block-quote depth: quoted prose is someone else's words
    for index, token in enumerate(tokens):
        kind = token.type  # one test a token for the commonest kinds: most are read for nothing
        if kind == "inline":
            _read_inline(token, env, heading=False)  # a heading's were read at its opening
            if token.children and token.map:
                links.extend(_links(token, first_line, lines, defined))
                code.extend(_spans(token, first_line, lines))
                anchors.extend(_html_anchors("".join(
                    child.content for child in token.children if child.type == "html_inline")))
            token.children = None  # read: let go
        elif kind == "paragraph_open" or kind == "heading_open":
            if not token.map:
                continue
            start, end = token.map
            if not quoted:
                prose.append(Prose(first_line + start, tuple(lines[start:end])))
            if kind == "heading_open":
                _read_inline(tokens[index + 1], env, heading=True)
                text = tokens[index + 1].content.strip()
                base = github_slug(_plain_text(tokens[index + 1]))
                count = seen.get(base, 0)
                seen[base] = count + 1
                slug = base if count == 0 else f"{base}-{count}"
                headings.append(Heading(text, int(token.tag[1:]), first_line + start, slug))
                anchors.extend(_heading_ids(text))
        elif kind == "blockquote_open" or kind == "blockquote_close":
            quoted += 1 if kind == "blockquote_open" else -1
        elif kind == "html_block":
            anchors.extend(_html_anchors(token.content))
        elif (kind == "fence" or kind == "code_block") and token.map:
            fenced = kind == "fence"
            code.append(Code("fence" if fenced else "block", token.info.strip(),
                             first_line + token.map[0] + fenced, token.content))
    return Body(tuple(headings), tuple(links), tuple(prose), tuple(code), tuple(anchors))


def _spans(inline, first_line: int, source_lines: list[str]) -> list[Code]:
    """Inline code spans, each at the first line holding its text from where the block's previous
    span was found on (spans come in source order): one pass over the block, however many spans.
    A span broken over lines holds no line's text, and stands at the block's first line."""
    found = []
    start, end = inline.map
    cursor = (start, 0)
    for child in inline.children:
        if child.type == "code_inline":
            located = _after(child.content, cursor, end, source_lines)
            cursor = located or cursor
            found.append(Code("span", "", first_line + (located[0] if located else start), child.content))
    return found


def _after(text: str, cursor: tuple[int, int], end: int, source_lines: list[str]) -> tuple[int, int] | None:
    """The line offset and column where `text` is next written from the cursor on, within its block."""
    line, at = cursor
    for offset in range(line, min(end, len(source_lines))):
        column = source_lines[offset].find(text, at if offset == line else 0)
        if column >= 0:
            return offset, column + 1
    return None


def _plain_text(inline) -> str:
    if not inline.children:
        return inline.content
    return "".join(child.content for child in inline.children if child.type in ("text", "code_inline"))


def _links(inline, first_line: int, source_lines: list[str],
           defined: Callable[[], dict[str, tuple[int, int]]]) -> list[Link]:
    """Each link with its text and where its target is written: inline, in the block (links come
    in source order, so each search resumes where the last one matched: one pass over the block,
    however many links); for a reference link, where its definition writes it."""
    found = []
    children = inline.children
    start, end = inline.map
    cursor = (start, 0)
    text_parts: list[str] | None = None
    href = ""
    for child in children:
        if child.type == "link_open":
            href, text_parts = str(child.attrs.get("href", "")), []
        elif child.type == "link_close" and text_parts is not None:
            located = _locate(href, cursor, end, source_lines)
            cursor = located or cursor
            # `[^1]` written with no target of its own is a footnote reference (GFM), even where
            # CommonMark reads a definition for it
            if located or not text_parts[:1] or not text_parts[0].startswith("^"):
                line, column = located or _written(href, defined()) or (start, 1)
                found.append(Link(href, "".join(text_parts), first_line + line, column))
            text_parts = None
        elif text_parts is not None:
            text_parts.append(child.content)
    return found


def _locate(href: str, cursor: tuple[int, int], end: int, source_lines: list[str]) -> tuple[int, int] | None:
    """markdown-it maps blocks to lines only; the line and column where an inline link's target
    is written, from the cursor on within its block, or None (a reference link).

    The first `](`, optional whitespace and `<`, then the href as markdown-it gives it or as it
    was written before markdown-it percent-encoded it: a plain string scan, since a regex
    compiled per distinct href would cost more than the parse.
    """
    line, at = cursor
    spellings = _spellings(href)
    for offset in range(line, min(end, len(source_lines))):
        for spelling in spellings:
            column = _target_column(source_lines[offset], spelling, at if offset == line else 0)
            if column:
                return offset, column
    return None


def _spellings(href: str) -> tuple[str, ...]:
    written = unquote(href)
    return (href,) if written == href else (href, written)


def _definitions(source_lines: list[str]) -> dict[str, tuple[int, int]]:
    """Where each link reference definition writes its target (line offset, 1-based column), the
    first definition of a target where several write it."""
    found: dict[str, tuple[int, int]] = {}
    for offset, line in enumerate(source_lines):
        match = _DEFINITION.match(line) if "]:" in line else None
        if match:
            group = 1 if match.group(1) is not None else 2
            found.setdefault(match.group(group), (offset, match.start(group) + 1))
    return found


def _written(href: str, definitions: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
    return next((definitions[s] for s in _spellings(href) if s in definitions), None)


def _target_column(line: str, href: str, begin: int) -> int:
    """The 1-based column just inside the first `](` from `begin` where `href` is written, or 0."""
    opening = line.find("](", begin)
    while opening >= 0:
        cursor = opening + 2
        while cursor < len(line) and line[cursor].isspace():
            cursor += 1
        if line.startswith(href, cursor) or (line.startswith("<", cursor) and line.startswith(href, cursor + 1)):
            return opening + 2
        opening = line.find("](", opening + 1)
    return 0
