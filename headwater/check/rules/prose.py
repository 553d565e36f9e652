"""Prose runs: a document's prose blocks with code, quotations, HTML, links' destinations and
labels, URLs and paths blanked, for the voice and language rules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property

from headwater.check.context import Context
from headwater.check.rules.mask import mask
from headwater.corpus.document import Document
from headwater.frozen import frozen

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


MARKER = re.compile(r"[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+[.)][ \t]+)?")


@frozen
class Run:
    """One prose block joined into one text, with code and quotes blanked."""

    line: int
    text: str  # as written

    @cached_property
    def masked(self) -> str:
        """The text, the same length, with what is not prose blanked to spaces: made only for a
        run some rule reads past `may_hold`, since most runs hold none of a rule's words."""
        return mask(self.text)

    @cached_property
    def lowered(self) -> str | None:
        """`masked` in lower case, for word tests that skip a pattern; None unless it is ASCII, since
        under `re.I` a pattern's `i` and `s` also match `ı` and `ſ`, which `lower()` leaves alone."""
        return self.masked.lower() if self.masked.isascii() else None

    @cached_property
    def lowered_text(self) -> str | None:
        """`text` in lower case where it is ASCII, else None (as `lowered`)."""
        return self.text.lower() if self.text.isascii() else None

    def may_hold(self, words: tuple[str, ...]) -> bool:
        """False only when no pattern whose every match holds one of `words` (ASCII, lower case,
        no blank in any) can match the run. The text is asked first: masking only turns characters
        into blanks, so a word the text lacks the masked text lacks too."""
        plain = self.lowered_text  # map, not a generator: this runs for every pattern and every run
        if plain is not None and not any(map(plain.__contains__, words)):
            return False
        lowered = self.lowered
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


def runs(ctx: Context, document: Document) -> list[Run]:
    """The document's prose runs; the voice and language rules judge one document after the
    other, so the latest document's runs are kept for the second of them."""
    path, found = ctx.memo.get("runs", (None, None))
    if path != document.path:
        found = [Run(p.line, "\n".join(p.lines)) for p in document.body.prose]
        ctx.memo["runs"] = (document.path, found)
    return found
