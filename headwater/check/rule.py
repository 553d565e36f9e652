"""A rule: its contract (id, version, scope, descriptions, help, tags) and its check.

The registry built from these is the single source for every output format: the text and
markdown reports, the JSON `rules` list and the SARIF `tool.driver.rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import field
from enum import Enum

from headwater.check.finding import Hit, Severity, Skip
from headwater.frozen import frozen


class Scope(Enum):
    DOCUMENT = "document"  # one instance per typed document the rule routes to
    EDGE = "edge"  # one instance per declared relation entry the rule routes to
    CORPUS = "corpus"  # one instance per run, counted against no document
    RUNNER = "runner"  # no instance: judged by the runner after every instance ran


class Reads(Enum):
    """What a rule's verdict depends on beyond the lock and its own version: the cache's key."""

    SUBJECT = "subject"  # the document; an edge's two ends and what its target binds; every census row
    IDS = "ids"  # which document carries each identifier
    CLAIMS = "claims"  # the claim store under `.headwater/ids/`
    ANCHOR = "anchor"  # the content revision of what an edge's anchor matches
    CHANGE = "change"  # the `--change` manifest
    STATES = "states"  # the state and its day at both ends of every relation that sets its target's state
    LINKS = "links"  # per document: what stands at each path its links reach, and who carries each
    # identifier its link texts name (a rule judged `by_document`)
    UNSTATED = "unstated"  # inputs that cannot be stated cheaply: never cached


class Precision(Enum):
    """How often a finding of the rule is a true problem: SARIF's `precision`, which code scanning sorts by."""

    VERY_HIGH = "very-high"  # decided by the bytes and the lock alone
    HIGH = "high"  # true unless the world moved in a way the rule cannot see
    MEDIUM = "medium"  # a pattern over prose: a quotation or an example can match


def default_reads(scope: Scope) -> tuple[Reads, ...]:
    """A document or an edge reads its subject; a corpus rule states what it reads, or is uncached."""
    return (Reads.SUBJECT,) if scope in (Scope.DOCUMENT, Scope.EDGE) else (Reads.UNSTATED,)


@frozen
class Rule:
    id: str
    version: int
    scope: Scope
    severity: Severity  # the usual severity; a finding may carry another
    short: str
    full: str
    help: str  # markdown
    tags: tuple[str, ...]
    check: Callable[..., Iterable[Hit] | Skip] = field(repr=False, compare=False)
    routes: Callable[..., bool] | None = field(default=None, repr=False, compare=False)
    patch: bool = False  # whether a finding can carry a mechanical patch
    reads_clock: bool = False  # the verdict cache keys these on the run date
    needs_change: bool = False  # change-scoped: skipped with a stated reason without `--change`
    reads: tuple[Reads, ...] = (Reads.UNSTATED,)  # see `Reads`; the clock is `reads_clock`
    by_document: bool = False  # a corpus rule judged one document at a time: `check(ctx, document)`,
    # its verdict every document's hits in census order, its cache one part per document
    precision: Precision = Precision.VERY_HIGH

    @property
    def name(self) -> str:
        """`facet.required.missing` → `FacetRequiredMissing`, the SARIF rule name."""
        return "".join(part.capitalize() for word in self.id.split(".") for part in word.split("_"))


def rule(id: str, version: int, scope: Scope, severity: Severity, *, short: str, full: str,
         help: str, tags: tuple[str, ...], routes: Callable[..., bool] | None = None,
         patch: bool = False, reads_clock: bool = False, needs_change: bool = False,
         reads: tuple[Reads, ...] | None = None, by_document: bool = False,
         precision: Precision = Precision.VERY_HIGH):
    """Declare a rule around its check function; `reads` defaults to its scope's `default_reads`."""

    def declare(check: Callable[..., Iterable[Hit] | Skip]) -> Rule:
        return Rule(id, version, scope, severity, short, full, help.strip(), tags, check, routes,
                    patch, reads_clock, needs_change, reads or default_reads(scope), by_document, precision)

    return declare
