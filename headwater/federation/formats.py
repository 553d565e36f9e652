"""The markers, versions and byte form shared by what `export` writes and what a pin reads.

Every scalar is a string (counts included), keys keep the order they are written in, and
nothing carries a timestamp: the same corpus and lock give the same bytes, so a digest pins them.
"""

from __future__ import annotations

import json
from typing import Any

MARKER = "headwater:generated"
EXPORT = "headwater export"
ANCHORS = "headwater export --anchors"
EXPORT_VERSION = "1"
ANCHORS_VERSION = "1"
DESCRIPTOR_VERSION = "1"

EXPORT_PATH = ".headwater/export.json"
DESCRIPTOR_PATH = ".headwater/corpus.json"
ANCHORS_PATH = ".headwater/anchors.json"


def encode(document: dict[str, Any]) -> bytes:
    """The one byte form of every federation file: two-space JSON, UTF-8, one final newline."""
    return (json.dumps(_strings(document), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _strings(value: Any) -> Any:
    """Absent values become absent members; every other scalar becomes its string."""
    if isinstance(value, dict):
        return {k: _strings(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_strings(v) for v in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
