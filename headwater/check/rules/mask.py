"""The prose mask: what is not the author's own running prose, blanked to spaces, in time linear in
the text however its quotes, comments and tags are left open."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

# What is not the author's own running prose: code spans, quoted strings, HTML (comments and
# tags), link destinations, a reference link's label (and a shortcut or collapsed reference's
# text, which is its label), bare URLs and paths. Each is blanked to spaces so every column stays
# where it was: a fix that rewrote any of them would break the link or the path, unreported.
_TOKEN_END = r"[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"]"  # a URL or path, less the sentence's punctuation
_SPANS = re.compile("|".join((
    r"(`+)[\s\S]*?\1", r'"[^"]*"',
    # an inline link's destination, one level of parentheses inside it (`Foo_(bar)`): never a run
    # across another `(`, which made a paragraph of unclosed `[a](` cost the square of its length
    r"(?<=\])\((?:[^()\s]|\([^()\s]*\))*\)",
    r"(?<=\])\[[^\]\n]*\]",  # a full reference's label
    r"\[[^\[\]\n]*\](?=\[\])|\[[^\[\]\n]*\](?![(\[])",  # a collapsed or shortcut reference
    r"\b[A-Za-z][A-Za-z0-9+.-]*://" + _TOKEN_END, r"\bwww\." + _TOKEN_END,
    r"(?<![\w/.~-])(?:\.{1,2}/|~/|/(?=[\w.-]))" + _TOKEN_END,  # a path from here, home or the top
    r"(?<![\w/.~-])[\w.-]+/[^\s<>()\[\]]*\.\w+",  # a path to a file: folders, then a name with an extension
)))

# A curly quotation (`“` to the next `”`), an HTML comment (`<!--` to the next `-->`) and a tag (`<`
# to the next `>` on its line) are found by string search, not as alternatives of `_SPANS`: there
# each opener with no closer after it read on to the end, so a paragraph of them cost the square
# of its length. No alternative of `_SPANS` starts at `“` or `<`, so merging the two by position
# gives the one regex's leftmost-first answer.
_OPENER = re.compile(r"[“<]")

_NOT_NEWLINE = re.compile(r"[^\n]")


def mask(text: str) -> str:
    """`text` with what is not prose blanked to spaces (newlines kept): every column stays put."""
    kept, at = [], 0
    for start, end in spans(text):
        kept += (text[at:start], _blank(text[start:end]))
        at = end
    kept.append(text[at:])
    return "".join(kept)


def spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each stretch that is not prose, in order. Every search runs forward from
    where the last one stopped, so each stretch of text is read a bounded number of times."""
    opened = _opened(text)
    pos, regular, quoted = 0, _SPANS.search(text), opened(0)
    while regular or quoted:
        span = quoted if quoted and (regular is None or quoted[0] < regular.start()) else regular.span()
        yield span
        pos = span[1]
        # a found span that starts at or after `pos` is still the first from `pos`: kept, not sought again
        if regular is not None and regular.start() < pos:
            regular = _SPANS.search(text, pos)
        if quoted is not None and quoted[0] < pos:
            quoted = opened(pos)


def _opened(text: str) -> Callable[[int], tuple[int, int] | None]:
    """The first curly quotation, comment or tag that starts at or after a position (which never
    goes back), or None."""
    quote_close, comment_close = _next(text, "”"), _next(text, "-->")
    tag_close, line_end = _next(text, ">"), _next(text, "\n")

    def first(pos: int) -> tuple[int, int] | None:
        for found in _OPENER.finditer(text, pos):
            at = found.start()
            if found.group() == "“":
                if (close := quote_close(at + 1)) < len(text):
                    return at, close + 1
                continue
            if text.startswith("<!--", at) and (close := comment_close(at + 4)) < len(text):
                return at, close + 3
            if (close := tag_close(at + 1)) < line_end(at + 1):
                return at, close + 1
        return None
    return first


def _next(text: str, needle: str) -> Callable[[int], int]:
    """Where `needle` first stands at or after a position (`len(text)` if nowhere), for positions
    that never go back: the last answer holds until the position passes it, so no stretch of the
    text is searched twice."""
    found = -1

    def at_or_after(pos: int) -> int:
        nonlocal found
        if found < pos:
            found = text.find(needle, pos)
            found = len(text) if found < 0 else found
        return found
    return at_or_after


def _blank(text: str) -> str:
    # most spans hold no newline: one multiplication, not a substitution
    return " " * len(text) if "\n" not in text else _NOT_NEWLINE.sub(" ", text)
