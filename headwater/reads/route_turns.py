"""Two orderings `route` applies after ranking: turn-taking, then reading precedence.

Both decide order only, never membership, and both are pure over the items they are given.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")


def interleave(queues: Sequence[Sequence[T]]) -> list[T]:
    """Round-robin: each turn takes the front of every non-empty queue, in queue order."""
    out: list[T] = []
    depth = max((len(q) for q in queues), default=0)
    for turn in range(depth):
        out.extend(q[turn] for q in queues if turn < len(q))
    return out


def _grouped(items: Sequence[T], key: Callable[[T], Hashable]) -> list[list[T]]:
    """Groups in the order of each group's first item; each group keeps the items' order."""
    groups: dict[Hashable, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return list(groups.values())


def in_turns(ranked: Sequence[T], purposes: Sequence[str], purpose: Callable[[T], str],
             kind: Callable[[T], str]) -> list[T]:
    """Purposes (in matched order) take turns, and inside a purpose its kinds take turns,
    kinds ordered by their best item. `ranked` is in the total order."""
    per_purpose = []
    for name in purposes:
        mine = [item for item in ranked if purpose(item) == name]
        per_purpose.append(interleave(_grouped(mine, kind)))
    return interleave(per_purpose)


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
