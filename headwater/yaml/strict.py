"""A strict YAML loader over libyaml's event stream.

Refused, each with its line: duplicate keys, anchors, aliases, merge keys, explicit tags,
non-scalar keys, a second document, nesting deeper than MAX_DEPTH. Nothing is typed: every
scalar stays the text the author wrote, because types come from the taxonomy, not from YAML.
Building from libyaml's events (not ruamel's composer, nor a YAML() object per call) keeps the
C parser's speed and gives us positions without a second pass.
"""

from __future__ import annotations

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

from headwater.errors import Refusal
from headwater.yaml import shallow
from headwater.yaml.nodes import Map, Node, Scalar, Seq

MAX_DEPTH = 64


class YamlRefusal(Refusal):
    """The text is not strict YAML: `line` is 1-based in the file the text came from. The sentence
    names no file; a caller that knows it says so (`yaml.files`)."""

    def __init__(self, line: int, column: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line, self.column, self.problem = line, column, problem


try:  # libyaml through ruamel's compiled clib: a declared dependency, about 5x the pure parser
    from _ruamel_yaml import CParser
except ImportError:  # an interpreter without a clib wheel: ruamel's pure parser, same events
    CParser = None


def _events(text: str):
    """libyaml's event stream, straight from the C parser (no YAML() object per call)."""
    if CParser is None:
        from ruamel.yaml import YAML

        yield from YAML(typ="safe", pure=True).parse(text)
        return
    parser = CParser(text)
    try:
        while parser.check_event():
            yield parser.get_event()
    finally:
        parser.dispose()


class _Frame:
    """An open collection: its items so far and, for a mapping, the keys already seen."""

    __slots__ = ("is_map", "items", "line", "column", "seen")

    def __init__(self, is_map: bool, line: int, column: int) -> None:
        self.is_map = is_map
        self.items: list[Node] = []
        self.line = line
        self.column = column
        self.seen: set[str] = set()


def _refuse(event, offset: int, problem: str) -> YamlRefusal:
    mark = event.start_mark
    return YamlRefusal(mark.line + 1 + offset, mark.column + 1, problem)


def _check_decorations(event, offset: int) -> None:
    anchor = getattr(event, "anchor", None)
    if anchor:
        raise _refuse(event, offset, f"an anchor (`&{anchor}`) is not accepted")
    tag = getattr(event, "tag", None)
    if tag is not None and tag != "!":  # "!" marks a quoted scalar's non-specific tag
        shown = tag.replace("tag:yaml.org,2002:", "!!")
        raise _refuse(event, offset, f"an explicit tag (`{shown}`) is not accepted")


def _attach(stack: list[_Frame], node: Node) -> None:
    frame = stack[-1]
    if frame.is_map and not len(frame.items) % 2 and not isinstance(node, Scalar):
        raise YamlRefusal(node.line, node.column, "a key must be a plain value")
    frame.items.append(node)


def _build(events, offset: int, scalars: dict[tuple, Scalar]) -> Node | None:
    """Events to nodes with a stack of open collections, so depth costs no recursion.

    One flat loop over about 35 events a document: this runs once per file in the corpus.
    """
    stack: list[_Frame] = []
    root: Node | None = None
    documents = 0
    for event in events:
        cls = event.__class__
        if cls is ScalarEvent:
            if event.anchor or event.tag is not None:
                _check_decorations(event, offset)
            mark = event.start_mark
            style = event.style
            key = (event.value, mark.line + 1 + offset, mark.column + 1, bool(style) and style in "'\"")
            node = scalars.get(key) or scalars.setdefault(key, Scalar(*key))
            if not stack:
                root = node
                continue
            frame = stack[-1]
            if frame.is_map and not len(frame.items) % 2:
                if node.text == "<<" and not node.quoted:
                    raise YamlRefusal(node.line, node.column, "a merge key (`<<`) is not accepted")
                if node.text in frame.seen:
                    raise YamlRefusal(node.line, node.column, f"the key `{node.text}` appears twice")
                frame.seen.add(node.text)
            frame.items.append(node)
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if len(stack) >= MAX_DEPTH:
                raise _refuse(event, offset, f"nests deeper than {MAX_DEPTH} levels")
            _check_decorations(event, offset)
            mark = event.start_mark
            stack.append(_Frame(cls is MappingStartEvent, mark.line + 1 + offset, mark.column + 1))
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            frame = stack.pop()
            items = frame.items
            if frame.is_map:
                closed: Node = Map(tuple(zip(items[0::2], items[1::2], strict=True)), frame.line, frame.column)
            else:
                closed = Seq(tuple(items), frame.line, frame.column)
            if stack:
                _attach(stack, closed)
            else:
                root = closed
        elif cls is AliasEvent:
            raise _refuse(event, offset, f"an alias (`*{event.anchor}`) is not accepted")
        elif cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _refuse(event, offset, "a second document is not accepted")
    return root


def load(text: str, *, line_offset: int = 0, scalars: dict[tuple, Scalar] | None = None) -> Node | None:
    """Load one document of strict YAML; None when the text holds no document (empty).

    `line_offset` shifts reported lines, so front matter reports lines of its whole file.
    `scalars`: equal scalars already built (immutable, so shared), kept across the loads of a
    corpus, where the same key on the same line and column recurs in most files. The common shape
    of front matter is read without libyaml (`shallow`), which returns the same nodes or declines.
    """
    scalars = {} if scalars is None else scalars
    found = shallow.load(text, line_offset, scalars)
    return found if found is not None else load_events(text, line_offset, scalars)


def load_events(text: str, line_offset: int, scalars: dict[tuple, Scalar]) -> Node | None:
    """`load` through libyaml's events alone: any text, every refusal."""
    try:
        return _build(_events(text), line_offset, scalars)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = (mark.line + 1 + line_offset) if mark else 1 + line_offset
        column = (mark.column + 1) if mark else 1
        problem = error.problem or error.context or "is not valid YAML"
        raise YamlRefusal(line, column, problem) from None
    except YAMLError as error:
        raise YamlRefusal(1 + line_offset, 1, str(error).splitlines()[0]) from None
