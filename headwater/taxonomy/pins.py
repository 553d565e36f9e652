"""The `harvests` and `imports` blocks of `.headwater/taxonomy.yml`: which pinned files to read.

A pin names a file in this repository (`at`) and the digest it must hash to. Reading the
block is part of reading the declaration, so a malformed entry, an `at` that leaves the root
or one reached through a symlink stops every verb (the MCP server included) before anything
else loads. Whether the named file then binds anything is decided later, and is a finding.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum
from pathlib import Path

from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.paths import inside, symlink_on_the_way
from headwater.yaml.nodes import Map, Node, Scalar

IMPORTS_DIRECTORY = ".headwater/imports"
Where = Callable[[Node | None], str]  # a node's place in the declaration, for a refusal
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class Family(Enum):
    HARVEST = "harvests"  # another corpus's export: its documents, edges and anchors
    IMPORT = "imports"  # another repository's anchors (file paths and their revisions)


@frozen
class Pin:
    """Another corpus this repository reads, pinned by path and digest."""

    family: Family
    name: str  # the corpus name this repository gives it: targets read `<name>:<id or path>`
    at: str  # repository-relative
    digest: str | None
    here: str | None  # harvests only: the name the exporting corpus gives this repository
    line: int
    column: int

    @property
    def address(self) -> str:
        return f"{self.family.value}.{self.name}"


def read_pins(top: Map, root: Path, where: Where) -> tuple[Pin, ...]:
    """Every pin of both blocks, in declaration order; refuses a block that cannot be read."""
    pins = [pin for family in Family for pin in _family(top.get(family.value), family, root, where)]
    seen: dict[str, Pin] = {}
    for pin in pins:
        if pin.name in seen:
            first = seen[pin.name]
            lines = " and ".join(str(n) for n in sorted({first.line, pin.line}))
            raise Refusal(f"{where(None)} lines {lines}: `{first.address}` and `{pin.address}` both name the "
                          f"corpus `{pin.name}`, and each pinned file is read on its own under its name; give "
                          f"one of them another name (its targets then read `<that name>:<path>`)")
        seen[pin.name] = pin
    return tuple(pins)


def _family(node: Node | None, family: Family, root: Path, where: Where) -> list[Pin]:
    if node is None:
        return []
    if not isinstance(node, Map):
        raise Refusal(f"{where(node)}: `{family.value}` must map a corpus name to {{at, digest}}")
    return [_pin(key, value, family, root, where) for key, value in node.entries]


def _pin(key: Scalar, value: Node, family: Family, root: Path, where: Where) -> Pin:
    address = f"{family.value}.{key.text}"
    if not NAME.fullmatch(key.text):
        raise Refusal(f"{where(key)}: `{address}` is not a corpus name (letters, digits, `_`, `.`, `-`)")
    if not isinstance(value, Map):
        raise Refusal(f"{where(value)}: `{address}` must be a mapping with `at` and `digest`")
    allowed = {"at", "digest"} | ({"here"} if family is Family.HARVEST else set())
    unknown = [key.text for key, _ in value.entries if key.text not in allowed]
    if unknown:
        raise Refusal(f"{where(value)}: `{address}` has the unknown key `{unknown[0]}`; "
                      f"it takes {', '.join(f'`{k}`' for k in sorted(allowed))}")
    at = _scalar(value, "at", address, where)
    if at is None and family is Family.HARVEST:
        raise Refusal(f"{where(value)}: `{address}.at` must name the pinned export in this repository")
    here = _scalar(value, "here", address, where)
    if here is not None and not NAME.fullmatch(here):
        raise Refusal(f"{where(value.get('here'))}: `{address}.here` must be the corpus name the export "
                      "gives this repository")
    return Pin(family, key.text, _confined(at or f"{IMPORTS_DIRECTORY}/{key.text}.json", address, value, root, where),
               _scalar(value, "digest", address, where), here, key.line, key.column)


def _scalar(parent: Map, key: str, address: str, where: Where) -> str | None:
    node = parent.get(key)
    if node is None:
        return None
    if not isinstance(node, Scalar):
        raise Refusal(f"{where(node)}: `{address}.{key}` must be a single value")
    return node.text.strip() or None


def _confined(at: str, address: str, node: Node, root: Path, where: Where) -> str:
    relative = inside(at)
    if not relative:
        raise Refusal(f"{where(node)}: `{address}.at` ({at}) is outside this repository")
    link = symlink_on_the_way(relative, root)
    if link:
        raise Refusal(f"{where(node)}: `{address}.at` ({at}) goes through the symlink `{link}`, "
                      "which headwater does not follow")
    return relative
