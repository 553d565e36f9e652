"""Obligations, controls and the consumer surface: the declarations the register rules read.

An obligation is an invariant the corpus owes; a control names the mechanism that discharges
it (`check:<rule id>` or `phase:<engine phase>`); the surface names the pages an adopter reads
and what they may be told to run. All three are keyed data in the lock, never code.
"""

from __future__ import annotations

from typing import Any

from headwater.frozen import frozen

DISPOSITIONS = ("gap", "unverifiable")
# The phases of this engine a `phase:` mechanism may name: each runs on every `check`.
PHASES = ("census.classification", "runner.coverage_report")


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return (str(value),) if value is not None else ()


@frozen
class Obligation:
    """An assurance obligation the taxonomy declares, and the dispositions it writes."""

    id: str
    statement: str
    written: tuple[str, ...]  # the dispositions the entry writes (`gap`, `unverifiable`)

    @staticmethod
    def of(key: str, raw: dict) -> Obligation:
        disposition = raw.get("disposition")
        written = tuple(k for k in disposition if k in DISPOSITIONS) if isinstance(disposition, dict) else ()
        return Obligation(key, str(raw.get("statement", "")), written)


@frozen
class Control:
    """A control the taxonomy declares: its mechanism and the obligations it discharges."""

    id: str
    mechanism: str
    discharges: tuple[str, ...]

    @property
    def prefix(self) -> str:
        return self.mechanism.partition(":")[0] if ":" in self.mechanism else ""

    @property
    def named(self) -> str:
        return self.mechanism.partition(":")[2]

    @staticmethod
    def of(key: str, raw: dict) -> Control:
        return Control(key, str(raw.get("mechanism", "")), _strings(raw.get("discharges")))


@frozen
class Surface:
    """What an adopter-facing page may name: its documents, local roots and commands."""

    adopter_documents: tuple[str, ...]  # patterns over repository paths
    local_roots: tuple[str, ...]  # path prefixes local to this repository
    commands: tuple[str, ...]  # the first words an adopter page may tell a reader to run

    @staticmethod
    def of(raw: Any) -> Surface:
        raw = raw if isinstance(raw, dict) else {}
        return Surface(_strings(raw.get("adopter_documents")), _strings(raw.get("local_roots")),
                       _strings(raw.get("commands")))
