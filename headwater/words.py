"""Counts with their noun, worded once for every report and answer."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"
