"""Every document's front matter as positioned nodes, kept in one file and rebuilt in one pass.

A warm run spent a third of its load rebuilding fronts from the parse cache: a JSON decode per
document, then a Python call and a lookup per node. This file holds the same nodes for every
content digest a writing run saw, in `marshal`'s format (plain tuples, ints, strings and bytes:
it cannot name code, so even a file whose seal verified could not run any): every distinct
scalar once (text, line, column, quoted), then every distinct mapping and sequence once, each
after the nodes it holds, then per digest the offset and line where the body starts and its
front's place. A sequence names its items, and a mapping its values, by their place in that
order (the scalars first); a mapping names its keys by their place among the scalars alone, so
a key is a scalar by construction. Places are unsigned 32-bit integers packed in bytes, so none
is negative by construction either, and a place not yet built is out of range: rebuilding is one
`marshal.loads` and one loop whose every step is a few calls in C, with no Python per child.
Equal fronts and equal parts of fronts (the same block at the same place) share one node.

Like the parse cache, an entry depends on nothing but the document's bytes, so the content
digest the census computes anyway is the whole key; the header names the parse cache's header
(the parsing code's fingerprint), so a changed parser reads the old file as empty. The file is
sealed and read through `headwater.cachedir`: anything doubtful (foreign, tampered, truncated,
another format, reached through a symlink, a node naming one not built before it) reads as
empty and the fronts come from the parse cache or a fresh parse, with the same nodes.
"""

from __future__ import annotations

import marshal
from array import array
from itertools import starmap
from pathlib import Path

from headwater import cachedir
from headwater.corpus.frontmatter import FrontMatterRefusal
from headwater.frozen import frozen
from headwater.yaml.nodes import Map, Node, Scalar, Seq

FRONTS_FILE = "fronts"
FORMAT = 3
SEQ, MAP = 1, 2
PLACE = "I"  # an unsigned 32-bit place, as `array` and `memoryview.cast` pack it
MARSHAL_VERSION = 4  # fixed, so the same fronts give the same bytes under any interpreter default
MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError, EOFError)

# What a front is written from: (body offset, body line, front) or a refusal's sentence.
Kept = tuple[int, int, Map] | str
# What a digest's front is read back as: the front, where the body starts, and the body's line.
Opened = tuple[Map, int, int]


def header(parsed_header: str) -> str:
    return f"headwater fronts {FORMAT} from {parsed_header}"


@frozen
class Fronts:
    """The file's entries by digest, over every node it holds built once (scalars first)."""

    entries: dict[str, tuple | str]
    nodes: list[Node]

    def opened(self, digest: str, length: int) -> Opened | FrontMatterRefusal | None:
        """The front the file holds for this digest of a text of `length` characters, where the
        body starts and its line; or the refusal; or None (not held, or malformed)."""
        entry = self.entries.get(digest)
        if entry is None:
            return None
        if type(entry) is str:
            return FrontMatterRefusal(entry)
        try:
            offset, body_line, place = entry
        except MALFORMED:
            return None
        if type(offset) is not int or type(body_line) is not int or type(place) is not int or place < 0:
            return None
        front = self.nodes[place] if place < len(self.nodes) else None
        return (front, offset, body_line) if type(front) is Map and 0 <= offset <= length else None


EMPTY = Fronts({}, [])


def read(root: Path, parsed_header: str) -> Fronts:
    payload = cachedir.read(root, FRONTS_FILE, header(parsed_header))
    if not payload:
        return EMPTY
    try:
        table, shapes, entries = marshal.loads(payload)
        nodes = _built(table, shapes)
    except MALFORMED:
        return EMPTY
    return Fronts(entries, nodes) if isinstance(entries, dict) else EMPTY


def _built(table: tuple, shapes: tuple) -> list[Node]:
    """Every node, in the file's order: a sequence is (line, column, items), a mapping (line,
    column, keys, values), each a run of places (IndexError for one not built before it)."""
    scalars: list[Node] = list(starmap(Scalar, table))
    nodes = scalars.copy()
    key, built, append = scalars.__getitem__, nodes.__getitem__, nodes.append
    for shape in shapes:
        if len(shape) == 3:
            line, column, items = shape
            append(Seq(tuple(map(built, _places(items))), line, column))
        else:
            line, column, keys, values = shape
            append(Map(tuple(zip(map(key, _places(keys)), map(built, _places(values)), strict=True)), line, column))
    return nodes


def _places(packed: bytes) -> memoryview:
    return memoryview(packed).cast(PLACE)


def write(root: Path, parsed_header: str, kept: dict[str, Kept]) -> str | None:
    """Write every digest's front (sorted); None, or the one-sentence reason it was not written."""
    scalars: dict[Scalar, int] = {}
    shapes: dict[tuple, int] = {}
    entries = {}
    for digest in sorted(kept):
        one = kept[digest]
        entries[digest] = one if isinstance(one, str) else (one[0], one[1], _place(one[2], scalars, shapes))
    table = tuple((s.text, s.line, s.column, bool(s.quoted)) for s in scalars)
    # a shape's place counts from the scalars: rebase each now that their number is known
    rebased = {place: len(table) + index for index, place in enumerate(shapes.values())}

    def packed(places: tuple[int, ...]) -> bytes:
        return array(PLACE, [place if place >= 0 else rebased[place] for place in places]).tobytes()

    ordered = tuple((line, column, packed(children)) if tag == SEQ
                    else (line, column, packed(children[0::2]), packed(children[1::2]))
                    for tag, line, column, children in shapes)
    entries = {digest: one if isinstance(one, str) else (one[0], one[1], rebased[one[2]])
               for digest, one in entries.items()}
    payload = marshal.dumps((table, ordered, entries), MARSHAL_VERSION)
    return cachedir.write(root, FRONTS_FILE, header(parsed_header), payload)


def _place(node: Node, scalars: dict[Scalar, int], shapes: dict[tuple, int]) -> int:
    """A node's place: a scalar's in the table (0, 1, …), a mapping's or sequence's provisionally
    negative (-1, -2, …, in the order built) until the scalars are counted."""
    if isinstance(node, Scalar):
        return scalars.setdefault(node, len(scalars))
    if isinstance(node, Seq):
        shape = (SEQ, node.line, node.column, tuple(_place(item, scalars, shapes) for item in node.items))
    else:
        shape = (MAP, node.line, node.column,
                 tuple(_place(part, scalars, shapes) for pair in node.entries for part in pair))
    return shapes.setdefault(shape, -1 - len(shapes))
