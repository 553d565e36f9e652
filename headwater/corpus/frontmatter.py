"""Splitting a Markdown file into its front matter (strict YAML) and its body."""

from __future__ import annotations

import re

from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.yaml.nodes import Map, Scalar
from headwater.yaml.strict import YamlRefusal, load

# After each line end a Markdown reader and an editor see (LF, CRLF, a lone CR), never U+2028's or a
# form feed's, which `str.splitlines` splits at too: the body's first line is counted as they count it.
LINE = re.compile(r"(?<=\n)|(?<=\r)(?!\n)")
LONE_CR = re.compile(r"\r(?!\n)")


class FrontMatterRefusal(Refusal):
    """The file opens a front-matter block that cannot be read: unterminated, or refused. The census
    makes it a row of the file; the sentence names no file, so a caller that refuses with it says which."""


@frozen
class Split:
    """A file split into its front matter (positioned nodes) and its body."""

    front: Map | None  # None: the file has no front matter at all
    body: str
    body_line: int  # 1-based line of the file where the body starts


def is_fence(line: str, closing: bool = False) -> bool:
    """`---` alone on its line: spaces or tabs after it too, as Jekyll and Hugo read a fence, so a
    site's front matter opened by `--- ` is read as one (and never gets a second above it). A block
    may close with `...` too, YAML's own end of a document, as Jekyll and Pandoc close one."""
    return line.rstrip("\r\n").rstrip(" \t") in (("---", "...") if closing else ("---",))


def split(text: str, scalars: dict[tuple, Scalar] | None = None) -> Split:
    """`text` is decoded, BOM already stripped. CRLF is tolerated. `scalars`: as `strict.load`'s."""
    end = text.find("\n")
    if not is_fence(text[:end] if end >= 0 else text):
        return Split(None, text, 1)
    if "\r" in text and LONE_CR.search(text):  # an old Mac file's lone CRs end lines too
        return _split_lines(LINE.split(text), scalars)
    # the front matter's lines alone, one search each: every document of every cold run comes here
    index, opened = 1, end + 1
    while end >= 0:
        start, end = end + 1, text.find("\n", end + 1)
        if is_fence(text[start:] if end < 0 else text[start:end], closing=True):
            block = text[opened:start].replace("\r\n", "\n")
            return Split(_mapping(block, scalars), text[end + 1:] if end >= 0 else "", index + 2)
        index += 1
    raise _unclosed()


def _split_lines(lines: list[str], scalars: dict[tuple, Scalar] | None) -> Split:
    for index in range(1, len(lines)):
        if is_fence(lines[index], closing=True):
            block = "".join(line.rstrip("\r\n") + "\n" for line in lines[1:index])
            return Split(_mapping(block, scalars), "".join(lines[index + 1 :]), index + 2)
    raise _unclosed()


def _unclosed() -> FrontMatterRefusal:
    return FrontMatterRefusal("front matter opens with `---` on line 1 and is never closed")


def _first_line(text: str) -> str:
    end = text.find("\n")
    return text if end < 0 else text[:end]


def foreign(text: str) -> str | None:
    """The language of a front matter headwater does not read, when the file opens with one: TOML
    between `+++` lines or a JSON object, as Hugo and Zola write them; None otherwise."""
    first = _first_line(text).rstrip("\r")
    if first.rstrip(" \t") == "+++":
        return "TOML (between `+++` lines)"
    return "JSON (an object opening on line 1)" if first.strip() == "{" else None


def _mapping(block: str, scalars: dict[tuple, Scalar] | None) -> Map:
    try:
        node = load(block, line_offset=1, scalars=scalars)
    except YamlRefusal as refusal:
        raise FrontMatterRefusal(f"front matter {refusal}") from None
    if node is None:
        return Map((), 2, 1)
    if not isinstance(node, Map):
        raise FrontMatterRefusal(f"front matter on line {node.line} is not a mapping")
    return node
