"""The one pattern language: shelves, exclusions and `code_path` anchors all match with it.

Segments split on `/`; `**` as a whole segment matches zero or more segments; `*` matches
within one segment; `?` one character; everything else is literal. No braces, no regex, no
implicit descent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

WILDCARDS = "*?"


@dataclass(frozen=True)
class Pattern:
    text: str
    segments: tuple[str, ...]
    regex: re.Pattern[str]

    def matches(self, path: str) -> bool:
        return self.regex.fullmatch("/" + path) is not None

    @property
    def specificity(self) -> tuple[int, int]:
        """(leading literal segments, total literal characters): the higher tuple wins."""
        leading = 0
        for segment in self.segments:
            if is_wild(segment):
                break
            leading += 1
        literal = sum(len(s) - sum(s.count(c) for c in WILDCARDS) for s in self.segments if s != "**")
        return leading, literal

    @property
    def literal_prefix(self) -> str:
        """The leading literal segments joined: where a search for matches can start."""
        prefix: list[str] = []
        for segment in self.segments:
            if is_wild(segment):
                break
            prefix.append(segment)
        return "/".join(prefix)

    @property
    def is_literal(self) -> bool:
        return not any(is_wild(s) for s in self.segments)


def is_wild(segment: str) -> bool:
    return any(c in segment for c in WILDCARDS)


def _segment_regex(segment: str) -> str:
    out = []
    for char in segment:
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(char))
    return "".join(out)


@lru_cache(maxsize=4096)
def compile_pattern(text: str) -> Pattern:
    segments = tuple(s for s in text.split("/") if s)
    parts = ["(?:/[^/]+)*" if s == "**" else "/" + _segment_regex(s) for s in segments]
    return Pattern(text, segments, re.compile("".join(parts)))


def opening_wildcard(text: str) -> bool:
    """A pattern whose first segment is wild bounds no search, so it is refused."""
    segments = [s for s in text.split("/") if s]
    return not segments or is_wild(segments[0])
