"""The canonical YAML writer behind the lock: one text for one resolved taxonomy.

Fixed two-space indentation; a scalar is plain only when it is safe to read back as the same
text, otherwise double-quoted; keys the base declares keep the base's order and keys added by
bundles or the overlay follow, sorted — so bundles applied in any order give the same bytes.
Mapping keys inside sequence items keep their authored order.
"""

from __future__ import annotations

import re
from typing import Any

SAFE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./+-]*$")
ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t"}


def scalar(text: str) -> str:
    if SAFE.match(text):
        return text
    out = []
    for char in text:
        if char in ESCAPES:
            out.append(ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def ordered_keys(mapping: dict, base: Any) -> list[str]:
    if not isinstance(base, dict):
        return sorted(mapping)
    kept = [key for key in base if key in mapping]
    return kept + sorted(key for key in mapping if key not in base)


def dump(value: Any, base: Any = None) -> str:
    """The canonical text of `value`, keys ordered against `base` (the package's own tree)."""
    return "".join(line + "\n" for line in _lines(value, base, 0, in_sequence=False))


def _lines(value: Any, base: Any, indent: int, in_sequence: bool) -> list[str]:
    pad = " " * indent
    if isinstance(value, dict):
        keys = list(value) if in_sequence else ordered_keys(value, base)
        lines = []
        for key in keys:
            child = value[key]
            child_base = base.get(key) if isinstance(base, dict) else None
            head = f"{pad}{scalar(str(key))}:"
            if _is_block(child):
                lines.append(head)
                lines.extend(_lines(child, child_base, indent + 2, in_sequence=False))
            else:
                lines.append(f"{head} {_inline(child)}")
        return lines
    if isinstance(value, list):
        lines = []
        for item in value:
            if _is_block(item):
                inner = _lines(item, item, indent + 2, in_sequence=True)
                inner[0] = f"{pad}- {inner[0][indent + 2:]}"
                lines.extend(inner)
            else:
                lines.append(f"{pad}- {_inline(item)}")
        return lines
    return [pad + _inline(value)]


def _is_block(value: Any) -> bool:
    return isinstance(value, (dict, list)) and bool(value)


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return scalar(str(value))
