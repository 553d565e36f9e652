"""How a read takes words apart: the terms of a text, and the paths a task's words may name.

One tokenizer for every surface, so `holds` means the same thing for a task, a purpose and a
document: a whole-token match (`api` is not in `rapid`). No stop-word list.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from headwater.paths import OutsidePath, normalize

MIN_LENGTH = 2
ALNUM_RUN = re.compile(r"[^\W_]+")  # a run of characters for which str.isalnum() holds
POSSESSIVES = ("'s", "\u2019s")
# a line an editor, a compiler or GitHub names in a file (`x.py:12`, `x.py:12:3`, `x.py#L12-L20`):
# what governs the file governs each of its lines, and `x.py:12` is no path an anchor names
LOCATION = re.compile(r"(?::\d+){1,2}$|#L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$")
STRETCH = 1 << 16  # characters of text `counted` reads at a time, at least


def terms(text: str) -> tuple[str, ...]:
    """Pieces between non-alphanumeric characters, ≥ 2 characters, lowercased, first-seen order."""
    return tuple(dict.fromkeys(tokens(text)))


def tokens(text: str) -> list[str]:
    """Every piece, repeats kept (what a frequency-counting ranker such as BM25 needs)."""
    return [piece.lower() for piece in ALNUM_RUN.findall(text) if len(piece) >= MIN_LENGTH]


def counted(text: str) -> Counter[str]:
    """`Counter(tokens(text))`, a line-bounded stretch at a time (no piece crosses a line): a long
    body's pieces are never all held at once (two lists of them were 200 MB for 10 MB of prose)."""
    found: Counter[str] = Counter()
    start = 0
    while start < len(text):
        end = text.find("\n", start + STRETCH)
        end = len(text) if end < 0 else end
        found.update(tokens(text[start:end]))
        start = end + 1
    return found


def holds(text: str, term: str) -> bool:
    return term in terms(text)


def _written(word: str) -> str:
    """The word without the punctuation that wraps it; `/` and `.` belong to paths, so stay."""
    def keep(char: str) -> bool:
        return char.isalnum() or char in "/."

    start, end = 0, len(word)
    while start < end and not keep(word[start]):
        start += 1
    while end > start and not keep(word[end - 1]):
        end -= 1
    return word[start:end]


def _strip_possessive(text: str) -> str:
    for possessive in POSSESSIVES:
        if text.endswith(possessive):
            return text[: -len(possessive)]
    return text


def readings(word: str, normal: Callable[[str], str] = normalize) -> tuple[str, ...]:
    """The paths a word could be, longest first: as written, then with a trailing full stop,
    a possessive, a line (`:12`, `#L12`) and anything after a colon taken off in turn. A URL is
    no path. `normal` makes a shape repository-relative, raising OutsidePath for one that names
    nothing inside (lexically by default; a read over a root passes the path verbs' reading,
    `paths.relative_to_root`)."""
    written = _written(word)
    if "://" in written:
        return ()
    shapes = [written]
    shapes.append(shapes[-1].rstrip("."))
    shapes.append(_strip_possessive(shapes[-1]))
    shapes.append(LOCATION.sub("", shapes[-1]))
    shapes.append(shapes[-1].split(":", 1)[0])
    shapes.append(shapes[-1].rstrip("."))
    found: list[str] = []
    for shape in dict.fromkeys(shapes):  # most words lose nothing: one shape, looked up once
        try:
            path = normal(shape) if shape else ""
        except OutsidePath:
            continue
        if path and path not in found:
            found.append(path)
    return tuple(found)


def read_path(word: str, *known: Callable[[str], bool],
              read: Callable[[str], tuple[str, ...]] = readings) -> str | None:
    """The first reading the first test accepts, trying the tests from the surest down (an
    entry that exists before a wildcard that would take junk such as `x.py:12`); or the one
    reading when nothing had to come off, which is how a task names a file not yet written.
    `read` gives a word's readings (`readings`, or a route's one reading of each word)."""
    shapes = read(word)
    for test in known:
        for shape in shapes:
            if test(shape):
                return shape
    return shapes[0] if len(shapes) == 1 else None
