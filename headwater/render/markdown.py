"""The markdown report: fit for a pull-request comment or `$GITHUB_STEP_SUMMARY`."""

from __future__ import annotations

from headwater.check.finding import Escape, Finding, Severity
from headwater.check.runner import Report
from headwater.render.common import NOTHING_CHECKED, escaped, held_by, live, plural
from headwater.snapshot import Snapshot
from headwater.textsafe import markdown_code, markdown_text


def _where(finding: Finding) -> str:
    return markdown_code(f"{finding.path}:{finding.line}" if finding.line > 0 else finding.path)


def _summary(report: Report) -> str:
    shown = live(report)
    errors = sum(1 for f in shown if f.severity is Severity.ERROR)
    touched = len({f.path for f in shown})
    against = (f"against {markdown_code(report.package)} {markdown_text(report.version)} at "
               f"{markdown_code(report.lock[:12])}, "
               f"evaluated at {report.clock.isoformat()}.")
    if not shown:
        return f"No findings in {plural(report.coverage.classified, 'document')}, {against}"
    return (f"{plural(len(shown), 'finding')}, {errors} of them {'error' if errors == 1 else 'errors'}, "
            f"in {plural(touched, 'file')} of a corpus of {plural(report.coverage.classified, 'document')}, "
            f"{against}")


def _coverage(report: Report) -> list[str]:
    cov = report.coverage
    text = (f"**Coverage.** This run saw {plural(cov.seen, 'file')} and classified {cov.classified} "
            f"of them. It created {plural(cov.instances, 'check instance')}, and {cov.skipped} of them "
            f"reached no verdict.")
    if cov.checked == 0:
        text += f" Nothing was checked: {NOTHING_CHECKED.split(': ', 1)[1]}."
    lines = [text]
    if cov.skips:
        lines.append("")
        lines += [f"- {s.instances} — {markdown_text(s.reason)}" for s in cov.skips]
    return lines


def _table(findings: tuple[Finding, ...], first: str) -> list[str]:
    lines = [f"| {first} | Where | Rule | Finding |", "|---|---|---|---|"]
    for finding in findings:
        lead = finding.severity.value if first == "Severity" else finding.escape.value
        if finding.escape is Escape.MIGRATION_PENDING and finding.hidden_by is not None:
            lead = f"{lead}: {markdown_text(held_by(finding.hidden_by))}"
        lines.append(f"| {lead} | {_where(finding)} | {markdown_code(finding.rule)} | "
                     f"{markdown_text(finding.message)} |")
    return lines


def render_markdown(report: Report, snapshot: Snapshot) -> str:
    lines = ["## `headwater check`", "", _summary(report), "", *_coverage(report)]
    shown, hidden = live(report), escaped(report)
    if shown:
        lines += ["", *_table(shown, "Severity")]
    if hidden:
        lines += ["", f"<details><summary>{len(hidden)} not reported</summary>", "",
                  *_table(hidden, "Held by"), "", "</details>"]
    return "\n".join(lines) + "\n"
