"""A Markdown file with front matter: its facets, identifier, relations and (lazily) body."""

from __future__ import annotations

from dataclasses import field
from functools import cached_property
from typing import TYPE_CHECKING

from headwater.corpus.body import Body, parse
from headwater.frozen import frozen
from headwater.yaml.nodes import Map, Node, scalar_text

if TYPE_CHECKING:
    from headwater.corpus.parses import ParseStore


@frozen
class Document:
    """A file whose front matter loaded: its kind (None: untyped), front and lazily its body."""

    path: str
    kind: str | None
    front: Map
    text: str
    body_offset: int  # where the body starts in `text` (kept as an offset: a copy of every body
    # beside every text doubled what a loaded corpus holds)
    body_line: int
    digest: str
    parses: ParseStore | None = field(default=None, compare=False, repr=False)  # reuses a cached body
    id_key: str = "id"  # the front-matter key its kind carries the identifier under

    @property
    def body_text(self) -> str:
        return self.text[self.body_offset:]

    def value(self, facet: str | None) -> Node | None:
        return self.front.get(facet) if facet else None

    def text_of(self, facet: str | None) -> str | None:
        """A facet's scalar text, or None when absent, blank or not a scalar."""
        return front_text(self.front, facet)

    @cached_property
    def id(self) -> str | None:  # kept: the graph, the runner and the rules ask for it again and again
        return self.text_of(self.id_key)

    @property
    def id_node(self) -> Node | None:
        return self.front.get(self.id_key)

    @property
    def warrant(self) -> str | None:
        return self.provenance("warrant")

    def provenance(self, member: str) -> str | None:
        """A member of the engine-owned `provenance:` block (`warrant`, `evidence_basis`, …)."""
        block = self.front.get("provenance")
        if isinstance(block, Map):
            return scalar_text(block.get(member))
        return None

    @property
    def relations(self) -> Node | None:
        return self.front.get("relations")

    @cached_property
    def body(self) -> Body:
        return self.read_body()

    @property
    def slugs(self) -> frozenset[str]:
        """Its headings' slugs; read, when the body is not decoded yet, without keeping a body on
        the document (a link's target is asked for no more, and its body is ten times its line)."""
        found = self.parses.slugs(self.digest) if self.parses is not None and "body" not in self.__dict__ else None
        return found if found is not None else self.body.slugs

    def read_body(self) -> Body:
        """The body, parsed or from the parse cache, without keeping it on the document."""
        if self.parses is not None:
            return self.parses.body(self.digest, self.body_text, self.body_line, self.front)
        return parse(self.body_text, self.body_line)


def front_text(front: Map, facet: str | None) -> str | None:
    """A facet's scalar text in this front matter, or None when absent, blank or not a scalar
    (what a reader deriving from the bytes alone, before a `Document` exists, reads too)."""
    value = scalar_text(front.get(facet)) if facet else None
    return value.strip() if value and value.strip() else None
