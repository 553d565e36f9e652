"""A run's report: what every renderer turns into bytes, from a run or replayed from its memo."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from headwater.check.finding import Finding, Severity
from headwater.frozen import frozen

if TYPE_CHECKING:  # a replayed report is unpickled without importing the runner's world
    from headwater.check.change_manifest import Change
    from headwater.check.coverage_tally import Coverage
    from headwater.check.rule import Rule


@frozen
class Report:
    package: str
    version: str
    lock: str  # the bare hex of the lock digest
    clock: dt.date
    coverage: Coverage
    rules: tuple[Rule, ...]
    findings: tuple[Finding, ...]  # live and escaped together, sorted
    change: Change | None = None  # the `--change` manifest the run read, if any
    omitted: tuple[Finding, ...] = ()  # what a limit left out of what is written (`selection.bounded`)

    @property
    def live_errors(self) -> int:
        return sum(1 for f in self.findings if f.live and f.severity is Severity.ERROR)
