"""Prose runs: a document's prose blocks with code, quotations, HTML, links' destinations and
labels, URLs and paths blanked, for the voice and language rules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from headwater.check.context import Context
from headwater.corpus.document import Document

# What is not the author's own running prose: code spans, quoted strings, HTML (comments and
# tags), link destinations, a reference link's label (and a shortcut or collapsed reference's
# text, which is its label), bare URLs and paths. Each is blanked to spaces so every column stays
# where it was: a fix that rewrote any of them would break the link or the path, unreported.
_TOKEN_END = r"[^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"]"  # a URL or path, less the sentence's punctuation
NOT_PROSE = re.compile("|".join((
    r"(`+)[\s\S]*?\1", r'"[^"]*"', r"“[^”]*”", r"<!--[\s\S]*?-->", r"<[^>\n]*>",
    # an inline link's destination, one level of parentheses inside it (`Foo_(bar)`): never a run
    # across another `(`, which made a paragraph of unclosed `[a](` cost the square of its length
    r"(?<=\])\((?:[^()\s]|\([^()\s]*\))*\)",
    r"(?<=\])\[[^\]\n]*\]",  # a full reference's label
    r"\[[^\[\]\n]*\](?=\[\])|\[[^\[\]\n]*\](?![(\[])",  # a collapsed or shortcut reference
    r"\b[A-Za-z][A-Za-z0-9+.-]*://" + _TOKEN_END, r"\bwww\." + _TOKEN_END,
    r"(?<![\w/.~-])(?:\.{1,2}/|~/|/(?=[\w.-]))" + _TOKEN_END,  # a path from here, home or the top
    r"(?<![\w/.~-])[\w.-]+/[^\s<>()\[\]]*\.\w+",  # a path to a file: folders, then a name with an extension
)))


SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


MARKER = re.compile(r"[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+[.)][ \t]+)?")


NOT_NEWLINE = re.compile(r"[^\n]")


@dataclass(frozen=True)
class Run:
    """One prose block joined into one text, with code and quotes blanked."""

    line: int
    text: str  # as written
    masked: str  # same length: what is not prose is spaces

    @cached_property
    def lowered(self) -> str | None:
        """`masked` in lower case, for word tests that skip a pattern; None unless it is ASCII, since
        under `re.I` a pattern's `i` and `s` also match `ı` and `ſ`, which `lower()` leaves alone."""
        return self.masked.lower() if self.masked.isascii() else None

    def may_hold(self, words: tuple[str, ...]) -> bool:
        """False only when no pattern whose every match holds one of `words` (ASCII, lower case)
        can match the run."""
        lowered = self.lowered  # map, not a generator: this runs for every pattern and every run
        return lowered is None or any(map(lowered.__contains__, words))

    def position(self, offset: int) -> tuple[int, int]:
        """The file line and 1-based column (code points) of an offset into the text."""
        before = self.text.rfind("\n", 0, offset)
        return self.line + self.text.count("\n", 0, offset), offset - before

    def sentences(self) -> Iterator[tuple[int, str]]:
        """(offset of the sentence's first word, the sentence) for each sentence of the run."""
        start = 0
        for end in [m.start() for m in SENTENCE_END.finditer(self.masked)] + [len(self.masked)]:
            chunk = self.masked[start:end]
            lead = MARKER.match(chunk).end()
            if chunk[lead:].strip():
                yield start + lead, chunk[lead:]
            start = end


def blank(match: re.Match) -> str:
    text = match.group(0)  # most matches hold no newline: one multiplication, not a substitution
    return " " * len(text) if "\n" not in text else NOT_NEWLINE.sub(" ", text)


def runs(ctx: Context, document: Document) -> list[Run]:
    """The document's prose runs; the voice and language rules judge one document after the
    other, so the latest document's runs are kept for the second of them."""
    path, found = ctx.memo.get("runs", (None, None))
    if path != document.path:
        found = [Run(p.line, "\n".join(p.lines), NOT_PROSE.sub(blank, "\n".join(p.lines)))
                 for p in document.body.prose]
        ctx.memo["runs"] = (document.path, found)
    return found
