"""Loaded YAML as positioned nodes: every scalar stays text and keeps its line and column."""

from __future__ import annotations

from dataclasses import field

from headwater.frozen import frozen


@frozen(slots=True)
class Scalar:
    text: str
    line: int  # 1-based, in the file the text came from
    column: int  # 1-based, in code points
    quoted: bool = False


@frozen(slots=True)
class Seq:
    items: tuple[Node, ...]
    line: int
    column: int


@frozen(slots=True)
class Map:
    entries: tuple[tuple[Scalar, Node], ...]
    line: int
    column: int
    # each key's first position, made on the first look-up: a warm run rebuilds tens of thousands
    # of mappings from the fronts file, and nobody looks a key up in most of those nested in a front
    _index: dict[str, int] | None = field(default=None, compare=False, repr=False)

    def get(self, key: str) -> Node | None:
        position = (self._index if self._index is not None else self._indexed()).get(key)
        return None if position is None else self.entries[position][1]

    def key(self, key: str) -> Scalar | None:
        position = (self._index if self._index is not None else self._indexed()).get(key)
        return None if position is None else self.entries[position][0]

    def __contains__(self, key: str) -> bool:
        return key in (self._index if self._index is not None else self._indexed())

    def _indexed(self) -> dict[str, int]:
        index: dict[str, int] = {}
        for position, (key, _) in enumerate(self.entries):
            index.setdefault(key.text, position)
        object.__setattr__(self, "_index", index)  # a cache of `entries`, which stay as they are
        return index

    def keys(self) -> list[str]:
        return [key.text for key, _ in self.entries]


Node = Scalar | Seq | Map
Plain = str | list["Plain"] | dict[str, "Plain"]


def to_plain(node: Node) -> Plain:
    """Drop positions: mappings become dicts (order kept), sequences lists, scalars str."""
    if isinstance(node, Scalar):
        return node.text
    if isinstance(node, Seq):
        return [to_plain(item) for item in node.items]
    return {key.text: to_plain(value) for key, value in node.entries}


def scalar_text(node: Node | None) -> str | None:
    """The text of a scalar node, or None for anything else (absent, list, mapping)."""
    return node.text if isinstance(node, Scalar) else None
