"""The ordering `route` applies last: reading precedence, a governing document ahead of the one
it governs. It decides order only, never membership, and is pure over the items it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def by_precedence(items: Sequence[T], governs: Callable[[T, T], bool]) -> list[T]:
    """Move a document ahead of any earlier one it governs (a successor before what it
    superseded); at most one pass per item, so a cycle of governance cannot spin."""
    order = list(items)
    for _ in range(len(order)):
        moved = _move_one(order, governs)
        if not moved:
            break
    return order


def _move_one(order: list[T], governs: Callable[[T, T], bool]) -> bool:
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            if governs(order[j], order[i]):
                order.insert(i, order.pop(j))
                return True
    return False
