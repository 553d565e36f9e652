"""A rule: its contract (id, version, scope, descriptions, help, tags) and its check.

The registry built from these is the single source for every output format: the text and
markdown reports, the JSON `rules` list and the SARIF `tool.driver.rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from headwater.check.finding import Severity


class Scope(Enum):
    DOCUMENT = "document"  # one instance per typed document the rule routes to
    EDGE = "edge"  # one instance per declared relation entry the rule routes to
    CORPUS = "corpus"  # one instance per run, counted against no document
    RUNNER = "runner"  # no instance: judged by the runner after every instance ran


@dataclass(frozen=True)
class Rule:
    id: str
    version: int
    scope: Scope
    severity: Severity  # the usual severity; a finding may carry another
    short: str
    full: str
    help: str  # markdown
    tags: tuple[str, ...]
    check: Callable[..., Any] = field(repr=False, compare=False)
    routes: Callable[..., bool] | None = field(default=None, repr=False, compare=False)
    patch: bool = False  # whether a finding can carry a mechanical patch
    reads_clock: bool = False  # the cache (part two) keys these on the run date
    needs_change: bool = False  # change-scoped: skipped with a stated reason without `--change`

    @property
    def name(self) -> str:
        """`facet.required.missing` → `FacetRequiredMissing`, the SARIF rule name."""
        return "".join(part.capitalize() for word in self.id.split(".") for part in word.split("_"))


def rule(id: str, version: int, scope: Scope, severity: Severity, *, short: str, full: str,
         help: str, tags: tuple[str, ...], routes: Callable[..., bool] | None = None,
         patch: bool = False, reads_clock: bool = False, needs_change: bool = False):
    """Declare a rule around its check function."""

    def declare(check: Callable[..., Any]) -> Rule:
        return Rule(id, version, scope, severity, short, full, help.strip(), tags, check, routes,
                    patch, reads_clock, needs_change)

    return declare
