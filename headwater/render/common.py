"""Words and counts every report format shares, so they cannot drift apart."""

from __future__ import annotations

from headwater.check.finding import Escape, Finding, Hidden, Severity
from headwater.check.report import Report
from headwater.render.palette import Palette
from headwater.words import plural

PLAIN = Palette(False)
GLYPHS = {Severity.ERROR: "✗", Severity.WARN: "▲", Severity.INFO: "·"}
NOTHING_CHECKED = ("nothing was checked: no file under the corpus root has a kind; `headwater adopt` types the records "
                   "already on a shelf, and `headwater taxonomy kinds` names the shelf each kind lives on")


def severity_counts(findings: tuple[Finding, ...]) -> list[tuple[Severity, int]]:
    return [(s, n) for s in Severity if (n := sum(1 for f in findings if f.severity is s))]


def live(report: Report) -> tuple[Finding, ...]:
    return tuple(f for f in report.findings if f.live)


def escaped(report: Report) -> tuple[Finding, ...]:
    return tuple(f for f in report.findings if not f.live)


def held_by(hidden: Hidden) -> str:
    return f"held by the adoption task {hidden.reason}, owned by {hidden.note}, until {hidden.until}"


def not_reported_line(finding: Finding) -> str:
    hidden = finding.hidden_by
    if hidden is None:
        return f"not reported ({finding.escape.value})"
    if finding.escape is Escape.MIGRATION_PENDING:
        return f"not reported ({finding.escape.value}): {held_by(hidden)}"
    note = f" ({hidden.note})" if hidden.note else ""
    return (f"not reported ({finding.escape.value}): suppressed at {hidden.path}:{hidden.line} "
            f"as {hidden.reason}, until {hidden.until}{note}")


def tally(report: Report) -> str:
    """One sentence of counts over every selected finding, shown or left out by a limit."""
    every = report.findings + report.omitted
    shown = [f for f in every if f.live]
    counts = ", ".join(f"{n} {s.value}" for s, n in severity_counts(tuple(shown)))
    text = plural(len(shown), "finding") + (f" ({counts})" if counts else "")
    if report.omitted:
        text += f"; {len(report.omitted)} of {len(every)} not written, past the limit"
    hidden = len(every) - len(shown)
    if hidden:
        text += f"; {hidden} not reported"
    return text
