"""Small helpers every rule family shares: positions, hits, and how values are listed."""

from __future__ import annotations

from headwater import inplace
from headwater.check.finding import Hit
from headwater.corpus.document import Document
from headwater.graph import Problem
from headwater.taxonomy.declaration import LOCK
from headwater.yaml.nodes import Node


def at(node: Node | None) -> tuple[int, int]:
    return (node.line, node.column) if node is not None else (0, 0)


def hit(doc: Document, node: Node | None, message: str, remediation: str, subject: str, **more) -> Hit:
    line, column = at(node)
    return Hit(doc.path, line, column, message, remediation, subject, **more)


def problem_hit(problem: Problem, remediation: str) -> Hit:
    """A graph-building problem, reported where the graph met it."""
    return Hit(problem.path, problem.line, problem.column, problem.message, remediation, problem.subject)


def folded(heading: str) -> str:
    """A heading as sections are compared by name: trimmed, inner spaces as one, case-folded."""
    return " ".join(heading.split()).casefold()


def ticked(values) -> str:
    return ", ".join(f"`{v}`" for v in values)


def lock_position(ctx, *keys: str) -> tuple[int, int]:
    """Where the lock's `resolved:` block writes a declaration (`obligations`, `OB-1`), as
    (line, column); (0, 0) when it is not found. The lock is canonical: two spaces a level."""
    from headwater.taxonomy.canonical import scalar

    try:
        lines = inplace.read(ctx.snapshot.root, LOCK).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return (0, 0)
    depth, start = 1, next((i for i, line in enumerate(lines) if line == "resolved:"), len(lines))
    for key in keys:
        want = "  " * depth + scalar(key) + ":"
        found = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(want)), None)
        if found is None:
            return (0, 0)
        start, depth = found, depth + 1
    return (start + 1, 2 * depth - 1)


def lock_hit(ctx, keys: tuple[str, ...], message: str, remediation: str, subject: str, **more) -> Hit:
    line, column = lock_position(ctx, *keys)
    return Hit(LOCK, line, column, message, remediation, subject, **more)
