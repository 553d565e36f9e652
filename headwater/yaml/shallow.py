"""The common shape of front matter read without libyaml's events, or declined.

Most front matter is a block mapping of plain keys whose values are plain or quoted scalars on one
line, one-line flow collections of such scalars, and block sequences and mappings of those. For
that shape `load` returns exactly the nodes `strict.load_events` builds (text, line, column,
quoted), at a fraction of the cost of a Python object per event; for anything else it returns
None and the event path reads the text, so every refusal and its line stays the event path's.
It declines rather than judge: any `#`, tab, control or line-break character YAML treats apart,
any indicator that starts a scalar (`&`, `*`, `!`, `|`, `>`, `%`, `@`, `` ` ``, `?`, `-`, `:`), a
key that is not a short plain word, a duplicate key, an escape or a quote inside a quoted scalar,
a nested or quoted item in a flow collection, and any line it cannot place by its indentation.
"""

from __future__ import annotations

import re

from headwater.yaml.nodes import Map, Node, Scalar, Seq

# Characters libyaml reads as a control, a line break or not printable, the tab, and `#` (no
# comments here): a text holding one is declined whole, before any line is looked at. (Named by
# what is refused: a class of what is allowed, up to U+10FFFF, takes milliseconds to compile.)
_DECLINED = re.compile("[\x00-\x09\x0b-\x1f#\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_./-]{0,200}):(?: +|$)")
_INDICATORS = "-?:,[]{}#&*!|>'\"%@`"  # none starts a value read here
# a scalar inside a one-line flow collection: no indicator first, no flow indicator, colon or quote
_FLOW_WORD = "([^ " + re.escape(_INDICATORS) + "][^" + re.escape(",[]{}:'\"") + "]*?)"
_FLOW_SCALAR = re.compile(" *" + _FLOW_WORD + " *")
_FLOW_PAIR = re.compile(" *" + _FLOW_WORD + "(?<! ): +" + _FLOW_WORD + " *")  # `a : b`'s key is not `a `
_MAX_DEPTH = 16  # deeper is declined: the event path refuses past its own limit

Row = tuple[int, int, str]  # the line's number in the file, its indentation, the line (right-stripped)


class _Declined(Exception):
    """The text is not of the shape read here."""


def load(text: str, line_offset: int, scalars: dict[tuple, Scalar]) -> Map | None:
    """The nodes of a front matter of the common shape (a block mapping at column 1), as
    `strict.load_events` returns them; None to decline."""
    if _DECLINED.search(text):
        return None
    rows = [(number + line_offset, len(row) - len(row.lstrip(" ")), row)
            for number, line in enumerate(text.split("\n"), start=1) if (row := line.rstrip(" "))]
    if not rows or rows[0][1] != 0:
        return None
    try:
        found, end = _Reader(rows, scalars).mapping(0, 0, 1)
    except _Declined:
        return None
    return found if end == len(rows) else None


class _Reader:
    __slots__ = ("rows", "scalars")

    def __init__(self, rows: list[Row], scalars: dict[tuple, Scalar]) -> None:
        self.rows = rows
        self.scalars = scalars

    def scalar(self, text: str, line: int, column: int, quoted: bool) -> Scalar:
        key = (text, line, column, quoted)
        return self.scalars.get(key) or self.scalars.setdefault(key, Scalar(text, line, column, quoted))

    def block(self, at: int, depth: int) -> tuple[Node, int]:
        """The block collection whose first row is `at`, indented as that row."""
        if depth > _MAX_DEPTH:
            raise _Declined
        _, indent, line = self.rows[at]
        if line.startswith("- ", indent):  # (a lone `-` is no key either: the mapping declines it)
            return self.sequence(at, indent, depth)
        return self.mapping(at, indent, depth)

    def mapping(self, at: int, indent: int, depth: int) -> tuple[Map, int]:
        """Entries while rows stand at `indent` and open with a key; the row after them."""
        rows, count = self.rows, len(self.rows)
        entries: list[tuple[Scalar, Node]] = []
        seen: set[str] = set()
        first = rows[at][0]
        while at < count:
            number, row_indent, line = rows[at]
            if row_indent != indent:
                break
            match = _KEY.match(line, indent)
            if match is None:
                break
            key = match[1]
            if key in seen:
                raise _Declined
            seen.add(key)
            start = match.end()
            if start < len(line):
                value: Node = self.inline(line, start, number)
                at += 1
            elif at + 1 < count and rows[at + 1][1] > indent:
                value, at = self.block(at + 1, depth + 1)
            elif at + 1 < count and rows[at + 1][1] == indent and rows[at + 1][2].startswith("-", indent):
                value, at = self.sequence(at + 1, indent, depth + 1)  # YAML's indentless sequence
            else:  # nothing: libyaml's empty scalar, just after the colon
                value = self.scalar("", number, match.end(1) + 2, False)
                at += 1
            if at < count and rows[at][1] > indent:
                raise _Declined  # a continued scalar, or a line at no level of its own
            entries.append((self.scalar(key, number, indent + 1, False), value))
        return Map(tuple(entries), first, indent + 1), at

    def sequence(self, at: int, indent: int, depth: int) -> tuple[Seq, int]:
        """Items while rows stand at `indent` and open with `- `; the row after them."""
        if depth > _MAX_DEPTH:
            raise _Declined
        rows, count = self.rows, len(self.rows)
        items: list[Node] = []
        first = rows[at][0]
        while at < count:
            number, row_indent, line = rows[at]
            if row_indent != indent or not line.startswith("- ", indent):
                break
            start = indent + 2
            while line[start] == " ":  # a right-stripped row holds something after `- `
                start += 1
            if _KEY.match(line, start):  # an item that is a mapping, its first key on the dash's row
                rows[at] = (number, start, line)
                item, at = self.mapping(at, start, depth + 1)
            else:
                item = self.inline(line, start, number)
                at += 1
            if at < count and rows[at][1] > indent:
                raise _Declined
            items.append(item)
        if not items:
            raise _Declined  # a lone `-`, or a row that only looked like an item
        return Seq(tuple(items), first, indent + 1), at

    def inline(self, line: str, start: int, number: int) -> Node:
        """The value that fills the rest of a row from `start`."""
        opening = line[start]
        if opening == '"' or opening == "'":
            end = line.find(opening, start + 1)
            if end != len(line) - 1 or (opening == '"' and "\\" in line):
                raise _Declined  # unclosed, escaped, or text after the closing quote
            return self.scalar(line[start + 1:end], number, start + 1, True)
        if opening == "[" or opening == "{":
            return self.flow(line, start, number)
        if opening in _INDICATORS or ": " in line[start:] or line.endswith(":"):
            raise _Declined
        return self.scalar(line[start:], number, start + 1, False)

    def flow(self, line: str, start: int, number: int) -> Node:
        """A one-line flow sequence or mapping of plain scalars that closes the row."""
        is_map = line[start] == "{"
        if line[-1] != ("}" if is_map else "]"):
            raise _Declined
        inner = start + 1
        if not line[inner:-1].strip(" "):
            return Map((), number, start + 1) if is_map else Seq((), number, start + 1)
        parts: list[Node] = []
        seen: set[str] = set()
        end = len(line) - 1
        while True:
            comma = line.find(",", inner, end)
            stop = end if comma < 0 else comma
            match = (_FLOW_PAIR if is_map else _FLOW_SCALAR).fullmatch(line, inner, stop)
            if match is None:
                raise _Declined
            if is_map:
                if match[1] in seen:
                    raise _Declined
                seen.add(match[1])
                parts.append(self.scalar(match[1], number, match.start(1) + 1, False))
                parts.append(self.scalar(match[2], number, match.start(2) + 1, False))
            else:
                parts.append(self.scalar(match[1], number, match.start(1) + 1, False))
            if comma < 0:
                break
            inner = comma + 1
        if is_map:
            keys = parts[0::2]
            return Map(tuple(zip(keys, parts[1::2], strict=True)), number, start + 1)  # type: ignore[arg-type]
        return Seq(tuple(parts), number, start + 1)
