"""The registry: every rule this engine carries, in report order (shape, graph, body, change-scoped, runner)."""

from __future__ import annotations

from headwater.check.rule import Rule
from headwater.check.rules import body, change, graph, placeholder, runner, shape

RULES: tuple[Rule, ...] = shape.RULES + placeholder.RULES + graph.RULES + body.RULES + change.RULES + runner.RULES


def rule_ids() -> frozenset[str]:
    return frozenset(r.id for r in RULES)
