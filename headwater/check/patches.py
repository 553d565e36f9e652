"""Mechanical patches: what a finding's fix writes, stated so `--fix` can apply every one alike.

A patch names one repository-relative file, the digest of the bytes it was computed against
(`None`: the file must not exist yet) and its edits, from a closed set:
- `AddToList` / `SetScalar`: a front-matter key, edited round-trip (comments, quoting and key
  order survive, or the edit is refused);
- `ReplaceSpan`: the exact text at a 1-based line and column (code points) of the file as the
  snapshot read it, BOM stripped, replaced by other text;
- `Create`: the whole text of a file created exclusively (a claim).

Patches are internal: no report serializes them; only the cache stores them (`as_data`).
Applying is pure text in, text out; `headwater.check.fix` does the reading and writing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import astuple

from headwater.frozen import frozen
from headwater.writes.roundtrip import UnsafeEdit, add_to_list, edit_front_matter, set_scalar


@frozen
class AddToList:
    address: tuple[str, ...]
    value: str


@frozen
class SetScalar:
    address: tuple[str, ...]
    value: str


@frozen
class ReplaceSpan:
    line: int
    column: int
    old: str
    new: str


@frozen
class Create:
    text: str


Edit = AddToList | SetScalar | ReplaceSpan | Create
KINDS: dict[str, type] = {"add": AddToList, "set": SetScalar, "replace": ReplaceSpan, "create": Create}


@frozen
class Patch:
    path: str
    expects: str | None  # `sha256:<hex>` of the bytes the patch was made against; None: absent
    edits: tuple[Edit, ...]

    @property
    def creates(self) -> bool:
        return self.expects is None

    def as_data(self) -> list:
        """A JSON-ready form for the cache, read back by `from_data`."""
        kinds = {cls: name for name, cls in KINDS.items()}
        return [self.path, self.expects, [[kinds[type(e)], *_fields(e)] for e in self.edits]]

    @classmethod
    def from_data(cls, data: list) -> Patch:
        path, expects, edits = data
        return cls(path, expects, tuple(_edit_from(e) for e in edits))


def _fields(edit: Edit) -> list:
    return [list(v) if isinstance(v, tuple) else v for v in astuple(edit)]


def _edit_from(data: list) -> Edit:
    kind, *values = data
    return KINDS[kind](*(tuple(v) if isinstance(v, list) else v for v in values))


def replace_value(text: str, line: int, column: int, old: str, new: str) -> ReplaceSpan | None:
    """A span edit of one scalar value, found where its node starts (past an opening quote), so the
    bytes around it (a comment beside the key, the author's quoting) stay; None when it is not there."""
    lines = text.split("\n")
    start = lines[line - 1].find(old, column - 1) if 1 <= line <= len(lines) and old else -1
    return ReplaceSpan(line, start + 1, old, new) if start >= 0 else None


def apply(patches: Sequence[Patch], text: str | None) -> str:
    """The text after every patch of one file, in order; `text` is None for a file to create.

    Span replacements are addressed against the text the snapshot read, so they go first (from
    the end of the file back, so no earlier one moves a later one); front-matter edits, which
    address keys rather than positions, follow in the order the patches came.
    Raises UnsafeEdit when a patch does not fit the text.
    """
    edits = [e for p in patches for e in p.edits]
    creates = [e for e in edits if isinstance(e, Create)]
    if creates:
        if text is not None or len(edits) > 1:
            raise UnsafeEdit("a created file takes exactly one patch, and only where nothing is")
        return creates[0].text
    if text is None:
        raise UnsafeEdit("the file to edit does not exist")
    spans = sorted((e for e in edits if isinstance(e, ReplaceSpan)),
                   key=lambda e: (e.line, e.column), reverse=True)
    for span in spans:
        text = _replace(text, span)
    for edit in edits:
        if isinstance(edit, AddToList):
            text = edit_front_matter(text, lambda t, e=edit: add_to_list(t, e.address, e.value))
        elif isinstance(edit, SetScalar):
            text = edit_front_matter(text, lambda t, e=edit: set_scalar(t, e.address, e.value))
    return text


def _replace(text: str, span: ReplaceSpan) -> str:
    lines = text.split("\n")
    if not 1 <= span.line <= len(lines) or span.column < 1:
        raise UnsafeEdit(f"line {span.line} column {span.column} is not in the file")
    start = sum(len(line) + 1 for line in lines[: span.line - 1]) + span.column - 1
    if text[start:start + len(span.old)] != span.old:
        raise UnsafeEdit(f"line {span.line} column {span.column} no longer reads `{span.old}`")
    return text[:start] + span.new + text[start + len(span.old):]
