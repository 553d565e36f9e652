"""Instances: one per (rule, subject) the taxonomy and the snapshot route a rule to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from headwater.check.context import Context
from headwater.check.rule import Rule, Scope


@dataclass(frozen=True)
class Instance:
    rule: Rule
    subject: Any  # a Document, an Edge, or None for a corpus-scoped rule
    document: str | None  # the path the instance counts against for coverage


def _subjects(ctx: Context, scope: Scope) -> list[tuple[Any, str | None]]:
    if scope is Scope.DOCUMENT:
        return [(doc, doc.path) for doc in ctx.graph.census.documents]
    if scope is Scope.EDGE:
        return [(edge, edge.source) for edge in ctx.graph.edges]
    if scope is Scope.CORPUS:
        return [(None, None)]
    return []  # runner rules have no instance


def generate(ctx: Context, rules: tuple[Rule, ...]) -> list[Instance]:
    """In registry order, then subject order (documents by path, edges as declared)."""
    return [Instance(rule, subject, document)
            for rule in rules for subject, document in _subjects(ctx, rule.scope)
            if rule.routes is None or rule.routes(ctx, subject)]
