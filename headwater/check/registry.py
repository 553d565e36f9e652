"""The registry: every rule this engine carries, in report order.

A rule lives in the module of `headwater.check.rules` named for its id's first segment
(`lifecycle.state.not_admitted` in `rules/lifecycle.py`; a Python keyword takes a trailing
underscore: `rules/import_.py`), which lists it in `RULES`; the registry reads every such module,
so a new rule module needs no edit here. Modules without `RULES` hold helpers the rules share.

The report order (rule lists in JSON and SARIF, the rules page, `headwater rule --list`) is
`REPORT_ORDER`, grouped as the engine judges: one document's shape, the graph, the body, the
change, the register, then the runner. A rule it does not name follows every rule it names, in id
order, so adding a rule moves no other rule's position.
"""

from __future__ import annotations

import importlib
import pkgutil

from headwater.check import rules as rules_package
from headwater.check.rule import Rule

REPORT_ORDER = (
    # one document's shape
    "facet.required.missing", "facet.value.not_permitted", "facet.value.blank", "facet.freshness.stale",
    "identifier.pattern.not_met", "identifier.unusable", "shelf.placement_is_primary",
    "warrant.value.not_permitted", "warrant.acceptance.unpaired", "section.required.missing",
    "lifecycle.state.not_admitted", "placeholder.unwritten",
    # the graph
    "relation.declaration.unusable", "identifier.claimed_twice", "identifier.claim.missing",
    "relation.target.unresolved", "relation.target.is_source", "relation.endpoint.not_permitted",
    "relation.reciprocity.missing", "relation.pair.invalid", "relation.target.suspect",
    "lifecycle.dependency.on_terminal", "lifecycle.state.not_set_by_edge", "identifier.claim.stale",
    "relation.participation.overdue", "relation.target.verification.suspect", "warrant.evidence.unsupported",
    "lifecycle.dependency.on_initial", "lifecycle.state.set_twice",
    # the body
    "link.path.unresolved", "link.fragment.unresolved", "link.identifier.mismatch",
    "voice.forbidden_construction", "language.retired_term.used", "language.controlled.not_met",
    "language.source_form.not_met", "surface.local_path.instructed", "surface.command.undeclared",
    # the change
    "lifecycle.transition.not_permitted", "warrant.promoted", "lifecycle.deletion.not_permitted",
    # the register
    "obligation.disposition.not_one", "control.mechanism.unimplemented", "control.observation.invalid",
    # the runner
    "coverage.document_unchecked", "coverage.document_unreadable", "taxonomy.pin.diverged", "harvest.pin.unread",
    "import.pin.unread",
    "suppression.refused", "adoption.task.expired", "language.outside_root.refused",
)


def declared() -> tuple[Rule, ...]:
    """Every rule the modules of `headwater.check.rules` declare, module by module in name order."""
    found: list[Rule] = []
    for module in sorted(info.name for info in pkgutil.iter_modules(rules_package.__path__)):
        found += getattr(importlib.import_module(f"{rules_package.__name__}.{module}"), "RULES", ())
    return tuple(found)


def in_report_order(declared_rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    rank = {rule_id: position for position, rule_id in enumerate(REPORT_ORDER)}
    return tuple(sorted(declared_rules, key=lambda r: (rank.get(r.id, len(rank)), r.id)))


RULES: tuple[Rule, ...] = in_report_order(declared())


def rule_ids() -> frozenset[str]:
    return frozenset(r.id for r in RULES)
