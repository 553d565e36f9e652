"""The one JSON writer for every document headwater prints: pretty, ordered, no nulls."""

from __future__ import annotations

import json
from typing import Any


def prune(value: Any) -> Any:
    """Drop members whose value is None: an absent value is an absent member."""
    if isinstance(value, dict):
        return {k: prune(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [prune(v) for v in value]
    return value


def dumps(value: Any) -> str:
    return json.dumps(prune(value), indent=2, ensure_ascii=False) + "\n"

