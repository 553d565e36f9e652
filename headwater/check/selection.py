"""Which findings a report shows: the filters `check` and the MCP `check` tool share.

Filters (paths, rules, a least severity) narrow the report before anything reads it, so
`--strict` judges only what was selected, as `ruff --select` does. A limit only bounds what is
written, most severe first: the report keeps what it left out, and every format states the count.
Coverage is never narrowed: the census stays the denominator.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from headwater.announcements import PROBE
from headwater.check.finding import Finding, Severity
from headwater.errors import ArgumentRefused
from headwater.frozen import frozen
from headwater.paths import OutsidePath, inside, normalize, quoted
from headwater.patterns import compile_pattern
from headwater.textsafe import shown

RANK = {Severity.ERROR: 0, Severity.WARN: 1, Severity.INFO: 2}
SEVERITIES = tuple(s.value for s in Severity)


@frozen
class Selection:
    paths: tuple[str, ...] = ()  # repository-relative files, directories or patterns
    rules: tuple[str, ...] = ()  # rule ids, or a dotted family such as `facet` or `facet.required`
    min_severity: Severity = Severity.INFO
    limit: int | None = None  # at most this many findings written; None: every one

    def admits(self, finding: Finding) -> bool:
        return (RANK[finding.severity] <= RANK[self.min_severity]
                and (not self.rules or any(_rule_matches(r, finding.rule) for r in self.rules))
                and (not self.paths or any(_path_matches(p, finding.path) for p in self.paths)))


def _rule_matches(selector: str, rule: str) -> bool:
    return rule == selector or rule.startswith(selector.rstrip(".") + ".")


def _path_matches(selector: str, path: str) -> bool:
    return not selector or compile_pattern(selector).matches(path) or compile_pattern(selector + "/**").matches(path)


def selection(paths: Iterable[str], rules: Iterable[str], min_severity: str | None, limit: str | int | None,
              known: frozenset[str], flags: dict[str, str]) -> Selection:
    """Read the filters as typed, refusing each bad one with a sentence; `flags` names each
    filter as the caller spells it (`--rule` or `rules`)."""
    return Selection(tuple(_path(p, flags["paths"]) for p in paths),
                     tuple(_rule(r, known, flags["rules"]) for r in rules),
                     _severity(min_severity, flags["min_severity"]),
                     _limit(limit, flags["limit"]))


def _path(text: str, flag: str) -> str:
    try:
        return normalize(text)
    except OutsidePath:
        raise ArgumentRefused(flag, f"`{flag}` takes a path inside the repository, "
                                  f"and `{quoted(text)}` is not one") from None


def refuse_naming_nothing(paths: Iterable[str], root: Path, flag: str) -> None:
    """A path filter with no wildcard that names nothing in the repository would select no finding
    and let a strict run pass over a typo: it is refused (a path outside is `selection`'s to refuse)."""
    for typed in paths:
        text = inside(typed)
        if not text or not compile_pattern(text).is_literal:
            continue
        sys.audit(PROBE, root / text)  # a look a replay makes again (HW-DR-0037)
        if not os.path.lexists(root / text):
            raise ArgumentRefused(flag, f"`{flag}` names `{quoted(typed)}`, which is no file or folder of the "
                                      "repository, so it would select nothing")


def _rule(text: str, known: frozenset[str], flag: str) -> str:
    if not any(_rule_matches(text, rule) for rule in known):
        raise ArgumentRefused(flag, f"`{flag}` names `{shown(text)}`, which is no rule and no family of rules "
                                    "this engine carries. `headwater rule --list` lists them")
    return text


def _severity(text: str | None, flag: str) -> Severity:
    if text is None:
        return Severity.INFO
    if text not in SEVERITIES:
        raise ArgumentRefused(flag, f"`{flag}` takes {', '.join(SEVERITIES)}, and `{shown(text)}` is not one of them")
    return Severity(text)


def _limit(value: str | int | None, flag: str) -> int | None:
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        number = -1
    if isinstance(value, bool) or number < 0:
        raise ArgumentRefused(flag, f"`{flag}` takes a whole number of findings, 0 or more, "
                                    f"and `{shown(str(value))}` is not one")
    return number


def narrowed(report, chosen: Selection):
    """The report with only the findings the filters admit (the limit is `bounded`'s job)."""
    return dataclasses.replace(report, findings=tuple(f for f in report.findings if chosen.admits(f)))


def first_kept(findings: tuple[Finding, ...], keep: int) -> tuple[Finding, ...]:
    """The `keep` findings a bound keeps: live before escaped, errors before warnings before
    notes, then report order; returned in report order."""
    ranked = sorted(range(len(findings)), key=lambda n: (not findings[n].live, RANK[findings[n].severity], n))
    return tuple(findings[n] for n in sorted(ranked[:max(0, keep)]))


def bounded(report, limit: int | None):
    """At most `limit` findings (`first_kept`); the rest kept aside as omitted, so counts stay whole."""
    if limit is None or len(report.findings) <= limit:
        return report
    kept = first_kept(report.findings, limit)
    chosen = {id(f) for f in kept}
    return dataclasses.replace(report, findings=kept,
                               omitted=tuple(f for f in report.findings if id(f) not in chosen))
