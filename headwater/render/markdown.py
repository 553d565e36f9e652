"""The markdown report: fit for a pull-request comment or `$GITHUB_STEP_SUMMARY`."""

from __future__ import annotations

from headwater.bounded import fitted
from headwater.check.finding import Escape, Finding, Severity
from headwater.check.report import Report
from headwater.check.selection import first_kept
from headwater.render.common import NOTHING_CHECKED, escaped, held_by, live, plural
from headwater.textsafe import markdown_code, markdown_text


def _where(finding: Finding) -> str:
    return markdown_code(f"{finding.path}:{finding.line}" if finding.line > 0 else finding.path)


def _summary(report: Report) -> str:
    shown = tuple(f for f in report.findings + report.omitted if f.live)
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


def _row(finding: Finding) -> str:
    lead = finding.severity.value if finding.live else finding.escape.value
    if finding.escape is Escape.MIGRATION_PENDING and finding.hidden_by is not None:
        lead = f"{lead}: {markdown_text(held_by(finding.hidden_by))}"
    return f"| {lead} | {_where(finding)} | {markdown_code(finding.rule)} | {markdown_text(finding.message)} |"


def _table(findings: tuple[Finding, ...], first: str) -> list[str]:
    return [f"| {first} | Where | Rule | Finding |", "|---|---|---|---|", *(_row(f) for f in findings)]


def _compose(report: Report, keep: int, max_bytes: int) -> str:
    """The report with `keep` table rows (the most severe live ones first) and a note for the rest."""
    shown, hidden = live(report), escaped(report)
    rows = first_kept(report.findings, keep)
    lines = ["## `headwater check`", "", _summary(report), "", *_coverage(report)]
    if live_rows := tuple(f for f in rows if f.live):
        lines += ["", *_table(live_rows, "Severity")]
    if kept := tuple(f for f in rows if not f.live):
        lines += ["", f"<details><summary>{len(hidden)} not reported</summary>", "",
                  *_table(kept, "Held by"), "", "</details>"]
    left_out = len(shown) + len(hidden) - keep + len(report.omitted)
    if keep < len(shown) + len(hidden):
        lines += ["", f"_{plural(left_out, 'finding is', 'findings are')} not in this report, which stops "
                      f"short of {max_bytes:,} bytes; `headwater check` lists every one._"]
    elif report.omitted:
        lines += ["", f"_{plural(left_out, 'finding is', 'findings are')} not in this report, past the limit; "
                      "`headwater check` lists every one._"]
    return "\n".join(lines) + "\n"


def render_markdown(report: Report, *, max_bytes: int) -> str:
    """The whole report when it fits in `max_bytes`, else as many rows as fit and a count of the rest."""
    return fitted(lambda keep: _compose(report, keep, max_bytes), len(report.findings), max_bytes)
