"""Overlay and bundle operations on dotted addresses, and `$vocabularies` references.

Every precondition failure is an OverlayError naming the source and the address; resolve
collects them all so a user sees every problem at once.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from headwater.frozen import frozen

SEGMENT = re.compile(r"^[A-Za-z0-9_-]+$")
OPERATIONS = ("add", "override", "remove", "add_to", "remove_from")
LABELS = ("taxonomy", "bundle", "extends", "requires")  # read, never compared (as the reference)
REFERENCE_ROOTS = ("vocabularies",)


@frozen
class OverlayError(Exception):
    source: str
    address: str
    problem: str

    def __str__(self) -> str:
        return f"{self.source}: `{self.address}` {self.problem}"


def split_address(address: str, source: str) -> list[str]:
    segments = address.split(".")
    if not all(SEGMENT.match(s) for s in segments):
        raise OverlayError(source, address, "is not an address (segments of A-Z a-z 0-9 _ -)")
    return segments


def _parent(tree: dict, segments: list[str], create: bool, source: str, address: str) -> dict:
    node = tree
    for segment in segments[:-1]:
        if segment not in node and create:
            node[segment] = {}
        child = node.get(segment)
        if not isinstance(child, dict):
            raise OverlayError(source, address, "has no mapping to hold it")
        node = child
    return node


def add(tree: dict, address: str, value: Any, source: str) -> None:
    segments = split_address(address, source)
    parent = _parent(tree, segments, True, source, address)
    if segments[-1] in parent:
        raise OverlayError(source, address, "already exists, so `add` cannot add it (use `override`)")
    parent[segments[-1]] = copy.deepcopy(value)


def override(tree: dict, address: str, value: Any, source: str) -> None:
    segments = split_address(address, source)
    parent = _locate(tree, segments, source, address, "override")
    parent[segments[-1]] = copy.deepcopy(value)


def remove(tree: dict, address: str, source: str) -> None:
    segments = split_address(address, source)
    parent = _locate(tree, segments, source, address, "remove")
    del parent[segments[-1]]


def add_to(tree: dict, address: str, items: Any, source: str) -> None:
    target = _list_at(tree, address, source, "add_to")
    for item in _as_list(items):
        if item in target:
            raise OverlayError(source, address, f"already holds `{item}`, so `add_to` cannot add it")
        target.append(copy.deepcopy(item))


def remove_from(tree: dict, address: str, items: Any, source: str) -> None:
    target = _list_at(tree, address, source, "remove_from")
    for item in _as_list(items):
        if item not in target:
            raise OverlayError(source, address, f"does not hold `{item}`, so `remove_from` cannot remove it")
        target.remove(item)


def _locate(tree: dict, segments: list[str], source: str, address: str, op: str) -> dict:
    try:
        parent = _parent(tree, segments, False, source, address)
    except OverlayError:
        raise OverlayError(source, address, f"does not exist, so `{op}` has nothing to change") from None
    if segments[-1] not in parent:
        raise OverlayError(source, address, f"does not exist, so `{op}` has nothing to change")
    return parent


def _list_at(tree: dict, address: str, source: str, op: str) -> list:
    segments = split_address(address, source)
    parent = _locate(tree, segments, source, address, op)
    target = parent[segments[-1]]
    if not isinstance(target, list):
        raise OverlayError(source, address, f"is not a list, so `{op}` cannot edit it")
    return target


def _as_list(items: Any) -> list:
    return items if isinstance(items, list) else [items]


def apply_overlay(tree: dict, overlay: Any, source: str) -> list[OverlayError]:
    """Apply one overlay document; returns every problem (the tree keeps what applied)."""
    if overlay is None:
        return []
    if not isinstance(overlay, dict):
        return [OverlayError(source, "(top)", "must be a mapping of operations")]
    problems = [
        OverlayError(source, key, f"is not an operation (use {', '.join(OPERATIONS)})")
        for key in overlay
        if key not in OPERATIONS and key not in LABELS
    ]
    for op in OPERATIONS:
        body = overlay.get(op)
        if body is None:
            continue
        problems.extend(_apply_op(tree, op, body, source))
    return problems


def _apply_op(tree: dict, op: str, body: Any, source: str) -> list[OverlayError]:
    problems = []
    if op == "remove":
        if not isinstance(body, list):
            return [OverlayError(source, "remove", "must be a list of addresses")]
        pairs = [(address, None) for address in body]
    elif isinstance(body, dict):
        pairs = list(body.items())
    else:
        return [OverlayError(source, op, "must map addresses to values")]
    for address, value in pairs:
        try:
            if op == "add":
                add(tree, address, value, source)
            elif op == "override":
                override(tree, address, value, source)
            elif op == "remove":
                remove(tree, str(address), source)
            elif op == "add_to":
                add_to(tree, address, value, source)
            else:
                remove_from(tree, address, value, source)
        except OverlayError as error:
            problems.append(error)
    return problems


def expand_references(tree: dict) -> list[str]:
    """Replace every `$vocabularies.<addr>` string with the value there, in place.

    `$$` at the start is a literal `$`. A reference to a reference, or to nothing, is a
    problem. References resolve last, over the merged tree.
    """
    problems: list[str] = []

    def resolve(value: Any, where: str) -> Any:
        if isinstance(value, dict):
            return {k: resolve(v, f"{where}.{k}" if where else k) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v, where) for v in value]
        if not isinstance(value, str) or not value.startswith("$"):
            return value
        if value.startswith("$$"):
            return value[1:]
        return _dereference(tree, value, where, problems)

    expanded = resolve(tree, "")
    tree.clear()
    tree.update(expanded)
    return problems


def _dereference(tree: dict, value: str, where: str, problems: list[str]) -> Any:
    root, _, rest = value[1:].partition(".")
    if root not in REFERENCE_ROOTS or not rest:
        problems.append(f"{where}: `{value}` is not a reference this engine reads (`$vocabularies.<name>`)")
        return value
    node: Any = tree.get(root)
    for segment in rest.split("."):
        node = node.get(segment) if isinstance(node, dict) else None
    if node is None:
        problems.append(f"{where}: `{value}` names nothing")
        return value
    if isinstance(node, str) and node.startswith("$") and not node.startswith("$$"):
        problems.append(f"{where}: `{value}` names another reference, which is not allowed")
        return value
    return copy.deepcopy(node)
