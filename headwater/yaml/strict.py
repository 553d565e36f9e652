"""A strict YAML loader over libyaml's event stream.

Refused, each with its line: duplicate keys, anchors, aliases, merge keys, explicit tags,
non-scalar keys, a second document, nesting deeper than MAX_DEPTH. Nothing is typed: every
scalar stays the text the author wrote, because types come from the taxonomy, not from YAML.
Building from events (not ruamel's composer) keeps the C parser's speed and gives us positions
without a second pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from headwater.yaml.nodes import Map, Node, Scalar, Seq

MAX_DEPTH = 64


@dataclass(frozen=True)
class YamlRefusal(Exception):
    """The text is not strict YAML: `line` is 1-based in the file the text came from."""

    line: int
    column: int
    problem: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.problem}"


def _parser() -> YAML:
    return YAML(typ="safe", pure=False)


class _Builder:
    """Turns events into nodes; a stack of open collections, so depth costs no recursion."""

    def __init__(self, line_offset: int) -> None:
        self.offset = line_offset
        self.stack: list[tuple[str, list, int, int, set[str]]] = []
        self.root: Node | None = None

    def pos(self, event) -> tuple[int, int]:
        mark = event.start_mark
        return mark.line + 1 + self.offset, mark.column + 1

    def refuse(self, event, problem: str) -> YamlRefusal:
        line, column = self.pos(event)
        return YamlRefusal(line, column, problem)

    def open(self, event, kind: str) -> None:
        if len(self.stack) >= MAX_DEPTH:
            raise self.refuse(event, f"nests deeper than {MAX_DEPTH} levels")
        self._check_decorations(event)
        line, column = self.pos(event)
        self.stack.append((kind, [], line, column, set()))

    def close(self) -> None:
        kind, items, line, column, _ = self.stack.pop()
        if kind == "map":
            pairs = tuple(zip(items[0::2], items[1::2], strict=True))
            self.attach(Map(pairs, line, column))
        else:
            self.attach(Seq(tuple(items), line, column))

    def scalar(self, event: ScalarEvent) -> None:
        self._check_decorations(event)
        line, column = self.pos(event)
        quoted = bool(event.style) and event.style in "'\""
        node = Scalar(event.value, line, column, quoted)
        if self.stack and self.stack[-1][0] == "map" and len(self.stack[-1][1]) % 2 == 0:
            seen = self.stack[-1][4]
            if node.text == "<<" and not quoted:
                raise YamlRefusal(line, column, "a merge key (`<<`) is not accepted")
            if node.text in seen:
                raise YamlRefusal(line, column, f"the key `{node.text}` appears twice")
            seen.add(node.text)
        self.attach(node)

    def attach(self, node: Node) -> None:
        if not self.stack:
            self.root = node
            return
        kind, items, *_ = self.stack[-1]
        if kind == "map" and len(items) % 2 == 0 and not isinstance(node, Scalar):
            raise YamlRefusal(node.line, node.column, "a key must be a plain value")
        items.append(node)

    def _check_decorations(self, event) -> None:
        if getattr(event, "anchor", None):
            raise self.refuse(event, f"an anchor (`&{event.anchor}`) is not accepted")
        tag = getattr(event, "tag", None)
        if tag is not None and tag != "!":  # "!" marks a quoted scalar's non-specific tag
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise self.refuse(event, f"an explicit tag (`{shown}`) is not accepted")


def load(text: str, *, line_offset: int = 0) -> Node | None:
    """Load one document of strict YAML; None when the text holds no document (empty).

    `line_offset` shifts reported lines, so front matter reports lines of its whole file.
    """
    builder = _Builder(line_offset)
    documents = 0
    try:
        for event in _parser().parse(text):
            if isinstance(event, ScalarEvent):
                builder.scalar(event)
            elif isinstance(event, MappingStartEvent):
                builder.open(event, "map")
            elif isinstance(event, SequenceStartEvent):
                builder.open(event, "seq")
            elif isinstance(event, (MappingEndEvent, SequenceEndEvent)):
                builder.close()
            elif isinstance(event, AliasEvent):
                raise builder.refuse(event, f"an alias (`*{event.anchor}`) is not accepted")
            elif isinstance(event, DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise builder.refuse(event, "a second document is not accepted")
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = (mark.line + 1 + line_offset) if mark else 1 + line_offset
        column = (mark.column + 1) if mark else 1
        problem = error.problem or error.context or "is not valid YAML"
        raise YamlRefusal(line, column, problem) from None
    except YAMLError as error:
        raise YamlRefusal(1 + line_offset, 1, str(error).splitlines()[0]) from None
    return builder.root
