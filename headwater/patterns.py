"""The one pattern language: shelves, exclusions and `code_path` anchors all match with it.

Segments split on `/`; `**` as a whole segment matches zero or more segments; `*` matches
within one segment; `?` one character; everything else is literal. No braces, no regex, no
implicit descent.

Matching walks the segments as a set of positions in the pattern (an automaton, never a
backtracking regex), and each segment's `*`s as a greedy scan that only ever resumes at the
last star: time grows with the pattern's length times the path's, whatever either holds.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from headwater.frozen import frozen

WILDCARDS = "*?"


@frozen
class Pattern:
    text: str
    segments: tuple[str, ...]

    def matches(self, path: str) -> bool:
        """`**` stands for zero or more non-empty segments; any other segment for exactly one."""
        prefix = self.literal_prefix  # a literal segment matches only itself: most paths end here
        if prefix and path != prefix and not path.startswith(self._below):
            return False
        if self.is_literal and self.segments:
            return path == prefix
        return self.accepts(self.after(path.split("/")))

    def after(self, names: list[str], positions: frozenset[int] | None = None) -> frozenset[int]:
        """The automaton's positions once `names` are read (from the start, or from `positions`):
        empty when no path that opens with them can match. Paths in one directory share theirs."""
        current = _closure(self.segments, {0}) if positions is None else set(positions)
        for name in names:
            if not current:
                break
            advanced = set()
            for at in current:
                if at < len(self.segments):
                    segment = self.segments[at]
                    if segment == "**":
                        if name:
                            advanced.add(at)
                    elif segment_matches(segment, name):
                        advanced.add(at + 1)
            current = _closure(self.segments, advanced)
        return frozenset(current)

    def accepts(self, positions: frozenset[int]) -> bool:
        return len(self.segments) in positions

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

    @cached_property
    def literal_prefix(self) -> str:
        """The leading literal segments joined: where a search for matches can start."""
        prefix: list[str] = []
        for segment in self.segments:
            if is_wild(segment):
                break
            prefix.append(segment)
        return "/".join(prefix)

    @cached_property
    def is_literal(self) -> bool:
        return not any(is_wild(s) for s in self.segments)

    @cached_property
    def _below(self) -> str:
        return self.literal_prefix + "/"


def is_wild(segment: str) -> bool:
    return any(c in segment for c in WILDCARDS)


def _closure(segments: tuple[str, ...], positions: set[int]) -> set[int]:
    """The positions plus every one reached by letting a `**` there match nothing."""
    out = set(positions)
    for at in sorted(positions):
        while at < len(segments) and segments[at] == "**":
            at += 1
            out.add(at)
    return out


def segment_matches(segment: str, name: str) -> bool:
    """`*` any run of characters, `?` one, the rest literal: a greedy scan that backs up only to
    the last `*` seen, so it never retries an earlier one. A segment of one `*` and no `?`
    (`*.md`, `ADR-*`), the shape most shelves and anchors write, is a prefix and a suffix."""
    if "?" not in segment and segment.count("*") == 1:
        head, _, tail = segment.partition("*")
        return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)
    return scanned(segment, name)


def scanned(segment: str, name: str) -> bool:
    """`segment_matches` the long way, for any segment."""
    s = n = 0
    star, resume = -1, 0
    while n < len(name):
        if s < len(segment) and segment[s] == "*":
            star, resume = s, n
            s += 1
        elif s < len(segment) and (segment[s] == "?" or segment[s] == name[n]):
            s += 1
            n += 1
        elif star >= 0:
            resume += 1
            s, n = star + 1, resume
        else:
            return False
    return all(char == "*" for char in segment[s:])


@lru_cache(maxsize=4096)
def compile_pattern(text: str) -> Pattern:
    return Pattern(text, tuple(s for s in text.split("/") if s))


def opening_wildcard(text: str) -> bool:
    """A pattern whose first segment is wild bounds no search, so it is refused."""
    segments = [s for s in text.split("/") if s]
    return not segments or is_wild(segments[0])
