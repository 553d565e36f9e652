"""Every document's front matter as positioned nodes, kept in one file and rebuilt in one pass.

A warm run spent a third of its load rebuilding fronts from the parse cache: a JSON decode per
document, then a Python call and a lookup per node. This file holds the same nodes for every
content digest a writing run saw, in `marshal`'s format (plain tuples, ints and strings: it
cannot name code, so even a file whose seal verified could not run any): every distinct scalar
once (text, line, column, quoted), then every distinct mapping and sequence once, each after
the nodes it holds and naming them by their place in that order (the scalars first), then per
digest the offset and line where the body starts and its front's place. Rebuilding is one
`marshal.loads` and one loop that builds each distinct node once, with no call per node; equal
fronts and equal parts of fronts (the same block at the same place) share one immutable node.

Like the parse cache, an entry depends on nothing but the document's bytes, so the content
digest the census computes anyway is the whole key; the header names the parse cache's header
(the parsing code's fingerprint), so a changed parser reads the old file as empty. The file is
sealed and read through `headwater.cachedir`: anything doubtful (foreign, tampered, truncated,
another format, reached through a symlink, a node naming one not built before it) reads as
empty and the fronts come from the parse cache or a fresh parse, with the same nodes.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from pathlib import Path

from headwater import cachedir
from headwater.corpus.frontmatter import FrontMatterRefusal, Split
from headwater.yaml.nodes import Map, Node, Scalar, Seq

FRONTS_FILE = "fronts"
FORMAT = 2
SEQ, MAP = 1, 2
MARSHAL_VERSION = 4  # fixed, so the same fronts give the same bytes under any interpreter default
MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError, EOFError)

# What a front is written from and read back as: (body offset, body line, front) or a refusal's sentence.
Kept = tuple[int, int, Map] | str


def header(parsed_header: str) -> str:
    return f"headwater fronts {FORMAT} from {parsed_header}"


@dataclass(frozen=True)
class Fronts:
    """The file's entries by digest, over every node it holds built once (scalars first)."""

    entries: dict[str, tuple | str]
    nodes: list[Node]

    def split(self, digest: str, text: str) -> Split | FrontMatterRefusal | None:
        """The split the file holds for this digest, or None (not held, or malformed)."""
        entry = self.entries.get(digest)
        if entry is None:
            return None
        if isinstance(entry, str):
            return FrontMatterRefusal(entry)
        try:
            offset, body_line, place = entry
        except MALFORMED:
            return None
        if type(offset) is not int or type(body_line) is not int or type(place) is not int or place < 0:
            return None
        front = self.nodes[place] if place < len(self.nodes) else None
        return Split(front, text[offset:], body_line) if isinstance(front, Map) else None


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
    """Every node, in the file's order; a child must be built before the node holding it, and a
    mapping's keys must be scalars (ValueError otherwise)."""
    nodes: list[Node] = [Scalar(text, line, column, bool(quoted)) for text, line, column, quoted in table]
    scalars = len(nodes)
    for tag, line, column, children in shapes:
        if children and (min(children) < 0 or max(children) >= len(nodes)):
            raise ValueError("a node holding one not built before it")
        parts = [nodes[child] for child in children]
        if tag == SEQ:
            nodes.append(Seq(tuple(parts), line, column))
        elif tag == MAP and (not children or max(children[0::2]) < scalars):
            nodes.append(Map(tuple(zip(parts[0::2], parts[1::2], strict=True)), line, column))
        else:
            raise ValueError(f"a node of tag {tag!r}, or a mapping key that is not a scalar")
    return nodes


def write(root: Path, parsed_header: str, kept: dict[str, Kept]) -> str | None:
    """Write every digest's front (sorted); None, or the one-sentence reason it was not written."""
    scalars: dict[Scalar, int] = {}
    shapes: dict[tuple, int] = {}
    entries = {}
    for digest in sorted(kept):
        one = kept[digest]
        entries[digest] = one if isinstance(one, str) else (one[0], one[1], _place(one[2], scalars, shapes))
    table = tuple((s.text, s.line, s.column, int(s.quoted)) for s in scalars)
    # a shape's place counts from the scalars: rebase each now that their number is known
    rebased = {place: len(table) + index for index, place in enumerate(shapes.values())}
    ordered = tuple((tag, line, column, tuple(child if child >= 0 else rebased[child] for child in children))
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
