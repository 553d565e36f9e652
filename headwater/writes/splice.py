"""Carry a YAML dump's changes into the author's text, token by token, and only inside a zone of lines.

ruamel dumps the whole tree respelled: `[A,B]` as `[A, B]`, a comment at a column of its own, a
flow list written over two lines on one. Both texts are cut into tokens (a quoted scalar, a
comment, a flow indicator, a run of other characters, a line end), with the blanks ahead of each,
and aligned on what each token says. A respelled line then reads as unchanged, an insertion is
never tied to the line beside it, and the blanks between two tokens the author wrote side by side
stay the author's, inside a rewritten line too.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from headwater.frozen import frozen

TOKEN = re.compile(
    r"(?P<gap>[ \t]*)(?:(?P<end>\r?\n)"
    r"|(?P<comment>(?<![^ \t\n])#[^\r\n]*)"  # `#` after a blank, or opening its line
    r"|(?P<text>\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'|[][{},]|(?:[^ \t\r\n\][{},]|\r(?!\n))+))",
    re.DOTALL)
NULL = re.compile("~|null|Null|NULL")
BLOCK_SCALAR = re.compile(r"[|>][1-9+-]{0,2}")  # a header: the lines indented past its line hold the scalar
END = "\n"  # what a line end says opens so, then says what it ends: a blank line, or its last token


def is_end(said: str) -> bool:
    return said.startswith(END)


@frozen(slots=True)
class Cut:
    """A text as tokens: each token's own text, what it says, the blanks ahead of it and its line."""

    texts: tuple[str, ...]
    says: tuple[str, ...]
    gaps: tuple[str, ...]
    lines: tuple[int, ...]
    comments: frozenset[int]  # the tokens that are comments (a `#` inside a block scalar is no comment)
    trailing: str  # blanks after the last token (a last line without a line end)


@frozen(slots=True)
class Spliced:
    """The spliced text, and the first of the author's lines that the dump changed outside the
    zone and the splice kept as it was (None when the dump changed nothing there)."""

    text: str
    held_line: int | None


def cut(text: str) -> Cut:
    """`text` as tokens. Inside a block scalar (`|`, `>-`…) a `#` is the scalar's, not a comment."""
    texts: list[str] = []
    says: list[str] = []
    gaps: list[str] = []
    lines: list[int] = []
    comments: set[int] = set()
    line, at, ends = 0, 0, END  # `ends`: what the line so far ends with, for its line end to say
    indent, last, block = 0, "", -1  # the line's indentation and last token; `block`: the indentation
    for found in TOKEN.finditer(text):  # of the line a block scalar opened on, -1 outside one
        if found.start() != at:  # every character belongs to some token: nothing is skipped
            break
        at = found.end()
        token = found.group("end") or found.group("comment") or found.group("text")
        opens_line = not says or is_end(says[-1])
        if opens_line and not found.group("end"):
            indent = len(found.group("gap"))
            block = block if indent > block else -1
        gaps.append(found.group("gap"))
        texts.append(token)
        lines.append(line)
        if found.group("end"):  # CRLF or LF alike; a blank line's end never pairs with a line's of its own
            says.append(END + ends)
            if block < 0 and BLOCK_SCALAR.fullmatch(last):
                block = indent
            line, ends, last = line + 1, END, ""
            continue
        said = token.replace("\r\n", "\n").replace("\t", " ")  # ruamel read a tab past the indentation as a space
        if found.group("comment"):  # its trailing blanks go; it is one where no block scalar holds it
            said = said.rstrip()
            if block < 0:
                comments.add(len(says))
        else:
            last = said
        if not (NULL.fullmatch(said) and ends.endswith(":")):  # `key: ~` ends as ruamel's `key:` does
            ends = said
        says.append(said)
    return Cut(tuple(texts), tuple(says), tuple(gaps), tuple(lines), frozenset(comments), text[at:])


def splice(before: str, after: str, zone: tuple[int, int]) -> Spliced:
    """`before`, with only the changes `after` makes inside the zone's lines [start, end).

    An insertion lands in the zone where it starts a line at `start` to `end` (ahead of the comment
    lines trailing the entry above), or inside a line of the zone; any other change is not made.
    Comments and line ends the dump dropped on their own, and writes nowhere else, stay.
    """
    import difflib  # here, not at the top: every check imports the writes, few edit a front

    old, new = cut(before), cut(after)
    start, end = zone
    missing = _keepable(old) - _keepable(new)
    kept: list[tuple[int | None, int | None]] = []  # (index in old, index in new) of each token written
    held: int | None = None
    matcher = difflib.SequenceMatcher(None, old.says, new.says, autojunk=False)
    for tag, i1, i2, j1, j2 in _line_starts_first(matcher.get_opcodes(), old, new):
        if tag == "equal":
            kept.extend(zip(range(i1, i2), range(j1, j2), strict=True))
            continue
        if _inside(old, i1, i2, start, end, opens_a_line=j1 < j2 and is_end(new.says[j1])):
            dropped = [_kept_as(old, i) for i in range(i1, i2)]
            if None not in dropped:  # only comments and line ends: the dump's respelling, never the edit
                for i, said in zip(range(i1, i2), dropped, strict=True):
                    if missing[said]:
                        missing[said] -= 1
                        kept.append((i, None))
            added = [(None, j) for j in range(j1, j2)]
            if i1 == i2 and _starts_a_line(old.says[i1 - 1] if i1 else None):
                at = _ahead_of_comment_lines(old, i1, start)
                spot = next((k for k, (i, _) in enumerate(kept) if i == at), len(kept))
                kept[spot:spot] = added
            else:
                kept.extend(added)
        else:
            kept.extend((i, None) for i in range(i1, i2))
            if held is None:
                held = old.lines[i1] if i1 < len(old.lines) else (old.lines[-1] if old.lines else 0)
    return Spliced(_written(old, new, kept), held)


def _ahead_of_comment_lines(old: Cut, at: int, start: int) -> int:
    """Where lines inserted before old token `at` go: ahead of the comment lines of the zone just
    above it (and the blank lines among them), which trail the entry before; ruamel writes a new
    key after them when that entry holds one value, and ahead of them when it holds a flow list."""
    ahead = at
    while at:
        first = at - 1  # the first token of the line above
        while first and not is_end(old.says[first - 1]):
            first -= 1
        if old.lines[first] < start or not (is_end(old.says[first]) or first in old.comments):
            break
        at = first
        ahead = first if first in old.comments else ahead
    return ahead


def _kept_as(text: Cut, token: int) -> str | None:
    """What a token the dump dropped is kept by: a comment by its text, a blank line as a blank line,
    a line end as any line end (the dump may end the line after another token); nothing else is kept."""
    said = text.says[token]
    if is_end(said):
        return said if said == END + END else END
    return said if token in text.comments else None


def _keepable(text: Cut) -> Counter[str]:
    return Counter(said for said in (_kept_as(text, i) for i in range(len(text.says))) if said is not None)


Opcode = tuple[str, int, int, int, int]


def _line_starts_first(opcodes: list[Opcode], old: Cut, new: Cut) -> Iterator[Opcode]:
    """The opcodes, each insertion that opens with a line end moved one token on, past the author's
    line end it stands before: the lines it adds then start a line, and the author's line keeps its
    own end (`a: 1\r\n` stays so; the inserted lines follow it)."""
    shift = 0  # difflib follows every insertion with an equal run, which a move shortens by one token
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            if i1 + shift < i2:
                yield tag, i1 + shift, i2, j1 + shift, j2
            shift = 0
        elif tag == "insert" and i1 < len(old.says) and old.says[i1] == new.says[j1] and is_end(new.says[j1]):
            yield "equal", i1, i1 + 1, j1, j1 + 1
            yield tag, i1 + 1, i1 + 1, j1 + 1, j2 + 1
            shift = 1
        else:
            yield tag, i1, i2, j1, j2


def _inside(old: Cut, i1: int, i2: int, start: int, end: int, *, opens_a_line: bool) -> bool:
    """Whether the change of old tokens [i1, i2) (an insertion where i1 == i2) lies in the zone;
    an insertion that opens with a line end at the end of the text starts the line after it."""
    if i1 < i2:
        return start <= old.lines[i1] and old.lines[i2 - 1] < end
    if i1 == 0 or is_end(old.says[i1 - 1]) or (i1 == len(old.says) and opens_a_line):
        line = old.lines[i1] if i1 < len(old.lines) else old.lines[-1] + 1 if old.lines else 0
        return start <= line <= end
    return start <= old.lines[i1 - 1] < end  # inside a line: a line of the zone


def _starts_a_line(said: str | None) -> bool:
    return said is None or is_end(said)


def _written(old: Cut, new: Cut, kept: list[tuple[int | None, int | None]]) -> str:
    """The tokens, each after the blanks its text had beside the same token before it: the
    author's where the author wrote the two side by side (or both open a line: its indentation, a
    blank line's spaces), or where the edit inserts between two of the author's tokens (the blanks
    go on ahead of the second: `[ A, B ]` grows to `[ A, B, X ]`), else the dump's."""
    out: list[str] = []
    before = None  # what the token written last says
    last_old = -1  # the author's token written last
    for i, j in kept:
        after = old.says[i - 1] if i else None  # what the author wrote before the token
        if i is not None and (after == before or (_starts_a_line(after) and _starts_a_line(before))
                              or last_old == i - 1):
            gap = old.gaps[i]
        elif j is not None:
            gap = new.gaps[j]
        else:
            gap = old.gaps[i]
        out += (gap, old.texts[i] if i is not None else new.texts[j])
        before = old.says[i] if i is not None else new.says[j]
        last_old = i if i is not None else last_old
    last_old, last_new = kept[-1] if kept else (len(old.texts) - 1, None)
    if last_old == len(old.texts) - 1:
        out.append(old.trailing)
    elif last_new == len(new.texts) - 1:
        out.append(new.trailing)
    return "".join(out)
