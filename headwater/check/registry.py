"""The registry: every rule this engine carries, in report order (shape, graph, body, change-scoped,
the register, runner)."""

from __future__ import annotations

from headwater.check.rule import Rule
from headwater.check.rules import (
    body,
    change,
    control,
    graph,
    identifier,
    language,
    lifecycle,
    obligation,
    relation,
    runner,
    shape,
    surface,
    warrant,
)

RULES: tuple[Rule, ...] = (
    shape.RULES + graph.RULES + identifier.RULES + relation.RULES + warrant.RULES + lifecycle.RULES
    + body.RULES + language.RULES + surface.RULES + change.RULES + obligation.RULES + control.RULES
    + runner.RULES + language.RUNNER_RULES
)


def rule_ids() -> frozenset[str]:
    return frozenset(r.id for r in RULES)
