"""Small helpers every rule family shares: positions, hits, and how values are listed."""

from __future__ import annotations

from headwater.check.finding import Hit
from headwater.corpus.document import Document
from headwater.graph import Problem
from headwater.yaml.nodes import Node


def at(node: Node | None) -> tuple[int, int]:
    return (node.line, node.column) if node is not None else (0, 0)


def hit(doc: Document, node: Node | None, message: str, remediation: str, subject: str, **more) -> Hit:
    line, column = at(node)
    return Hit(doc.path, line, column, message, remediation, subject, **more)


def problem_hit(problem: Problem, remediation: str) -> Hit:
    """A graph-building problem, reported where the graph met it."""
    return Hit(problem.path, problem.line, problem.column, problem.message, remediation, problem.subject)


def ticked(values) -> str:
    return ", ".join(f"`{v}`" for v in values)
