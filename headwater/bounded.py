"""Fitting a report with a table under a byte bound: as many rows as fit, and the rest counted."""

from __future__ import annotations

from collections.abc import Callable


def fitted(compose: Callable[[int], str], rows: int, max_bytes: int) -> str:
    """`compose(k)` renders the first `k` rows (and says how many it left out); the whole text
    when it fits, else the most rows that fit, found by bisection since size grows with `k`."""
    whole = compose(rows)
    if len(whole.encode()) <= max_bytes:
        return whole
    low, high = 0, rows - 1
    while low < high:
        middle = (low + high + 1) // 2
        if len(compose(middle).encode()) <= max_bytes:
            low = middle
        else:
            high = middle - 1
    return compose(low)
