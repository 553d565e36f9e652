"""What a rule reports: a hit (the rule's own words) and the finding the runner stamps from it."""

from __future__ import annotations

from dataclasses import field
from enum import Enum
from typing import TYPE_CHECKING

from headwater.frozen import frozen

if TYPE_CHECKING:  # a report read back from a replay memo carries no patch, and imports no writer
    from headwater.check.patches import Patch


class Severity(Enum):
    ERROR = "error"
    WARN = "warn"
    INFO = "info"


class Escape(Enum):
    NONE = "none"
    MIGRATION_PENDING = "migration-pending"  # held by an adoption task (`check.adoption`)
    SUPPRESSION = "suppression"


@frozen
class Hidden:
    """What hid a finding: a suppression directive (`reason`, `note`: its reason and note), or an
    adoption task (`reason`: the task id, `note`: its owner), at `path:line`."""

    path: str
    line: int
    reason: str
    until: str
    note: str


@frozen
class Hit:
    """One defect as a rule sees it; the runner adds the rule id and the default severity."""

    path: str
    line: int
    column: int
    message: str
    remediation: str
    subject: str  # the key or target the finding is about: fingerprints read it, never lines
    severity: Severity | None = None
    patch: Patch | None = None  # the mechanical fix, when one rides (then the finding is fixable)
    companion: Patch | None = None  # a second file the same fix writes: the claim of a minted id


@frozen
class Finding:
    rule: str
    severity: Severity
    path: str
    line: int  # 1-based; 0 means the whole file (and then column is 0)
    column: int
    message: str
    remediation: str
    fixable: bool
    subject: str
    escape: Escape = Escape.NONE
    hidden_by: Hidden | None = None
    patch: Patch | None = field(default=None, compare=False, repr=False)  # never serialized
    companion: Patch | None = field(default=None, compare=False, repr=False)  # see `Hit.companion`

    @property
    def live(self) -> bool:
        return self.escape is Escape.NONE

    @property
    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.rule, self.message, self.subject)

    @property
    def where(self) -> str:
        """`path:line:col`, or the bare path for a finding about the whole file."""
        return f"{self.path}:{self.line}:{self.column}" if self.line > 0 else self.path


@frozen
class Skip:
    """An instance that reached no verdict, and why."""

    reason: str
