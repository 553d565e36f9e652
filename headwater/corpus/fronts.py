"""Every document's front matter as positioned nodes, kept in one file and rebuilt in one pass.

A warm run spent a third of its load rebuilding fronts from the parse cache: a JSON decode per
document, then a Python call and a lookup per node. This file holds the same nodes for every
content digest a writing run saw, in `marshal`'s format (plain tuples, ints and strings: it
cannot name code, so even a file whose seal verified could not run any): first every distinct
scalar once (text, line, column, quoted), then per digest the offset and line where the body
starts and the front's tree, in which a scalar is its index in that table. Rebuilding is one
`marshal.loads`, one object per distinct scalar, and one per mapping or sequence.

Like the parse cache, an entry depends on nothing but the document's bytes, so the content
digest the census computes anyway is the whole key; the header names the parse cache's header
(the parsing code's fingerprint), so a changed parser reads the old file as empty. The file is
sealed and read through `headwater.cachedir`: anything doubtful (foreign, tampered, truncated,
another format, reached through a symlink) reads as empty and the fronts come from the parse
cache or a fresh parse, with the same nodes.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from pathlib import Path

from headwater import cachedir
from headwater.corpus.frontmatter import FrontMatterRefusal, Split
from headwater.yaml.nodes import Map, Node, Scalar, Seq

FRONTS_FILE = "fronts"
FORMAT = 1
SEQ, MAP = 1, 2
MARSHAL_VERSION = 4  # fixed, so the same fronts give the same bytes under any interpreter default
SCALAR_ONLY = {Scalar}
MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError, EOFError)

# What a front is written from and read back as: (body offset, body line, front) or a refusal's sentence.
Kept = tuple[int, int, Map] | str


def header(parsed_header: str) -> str:
    return f"headwater fronts {FORMAT} from {parsed_header}"


@dataclass(frozen=True)
class Fronts:
    """The file's entries by digest, each rebuilt to a split (or refusal) on demand."""

    entries: dict[str, tuple]
    scalars: tuple[Scalar, ...]

    def split(self, digest: str, text: str) -> Split | FrontMatterRefusal | None:
        """The split the file holds for this digest, or None (not held, or malformed)."""
        entry = self.entries.get(digest)
        if entry is None:
            return None
        try:
            if isinstance(entry, str):
                return FrontMatterRefusal(entry)
            offset, body_line, tree = entry
            front = _node(tree, self.scalars)
            if not isinstance(front, Map) or type(offset) is not int or type(body_line) is not int:
                return None
            return Split(front, text[offset:], body_line)
        except MALFORMED:
            return None


EMPTY = Fronts({}, ())


def read(root: Path, parsed_header: str) -> Fronts:
    payload = cachedir.read(root, FRONTS_FILE, header(parsed_header))
    if not payload:
        return EMPTY
    try:
        table, entries = marshal.loads(payload)
        scalars = tuple(Scalar(text, line, column, bool(quoted)) for text, line, column, quoted in table)
    except MALFORMED:
        return EMPTY
    return Fronts(entries, scalars) if isinstance(entries, dict) else EMPTY


def write(root: Path, parsed_header: str, kept: dict[str, Kept]) -> str | None:
    """Write every digest's front (sorted); None, or the one-sentence reason it was not written."""
    table: dict[Scalar, int] = {}
    entries = {}
    for digest in sorted(kept):
        one = kept[digest]
        entries[digest] = one if isinstance(one, str) else (one[0], one[1], _tree(one[2], table))
    scalars = tuple((s.text, s.line, s.column, int(s.quoted)) for s in table)
    payload = marshal.dumps((scalars, entries), MARSHAL_VERSION)
    return cachedir.write(root, FRONTS_FILE, header(parsed_header), payload)


def _tree(node: Node, table: dict[Scalar, int]) -> int | tuple:
    if isinstance(node, Scalar):
        return table.setdefault(node, len(table))
    if isinstance(node, Seq):
        return (SEQ, node.line, node.column, tuple(_tree(item, table) for item in node.items))
    return (MAP, node.line, node.column, tuple(_tree(part, table) for pair in node.entries for part in pair))


def _node(tree: int | tuple, scalars: tuple[Scalar, ...]) -> Node:
    """The node a tree encodes; a scalar child is taken from the table in place, not by a call."""
    if type(tree) is int:
        return scalars[tree]
    tag, line, column, parts = tree
    nodes = [scalars[part] if type(part) is int else _node(part, scalars) for part in parts]
    if tag == SEQ:
        return Seq(tuple(nodes), line, column)
    if tag != MAP:
        raise ValueError(f"unknown node tag {tag!r}")
    keys = nodes[0::2]
    if keys and set(map(type, keys)) != SCALAR_ONLY:  # not a generator: this runs per mapping
        raise ValueError("a mapping key that is not a scalar")
    return Map(tuple(zip(keys, nodes[1::2], strict=True)), line, column)
