"""The line formats: one line per live finding, for CI logs, problem matchers and editors.

- `github`: GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`),
  escaped as the runner unescapes them, so each becomes an annotation on the diff.
- `concise`: `path:line:col: severity rule message`, the shape ruff's and compilers' problem
  matchers read. A finding about a whole file stands at `1:1`, the file's first character.

Escaped findings are not reported, so neither format writes them; both end with the counts.
Control characters in values are shown escaped (`headwater.textsafe`), never sent raw to a log.
"""

from __future__ import annotations

from collections.abc import Callable

from headwater.check.finding import Finding, Severity
from headwater.check.report import Report
from headwater.render.common import live, tally
from headwater.textsafe import visible
from headwater.workflow import workflow_command

COMMANDS = {Severity.ERROR: "error", Severity.WARN: "warning", Severity.INFO: "notice"}


def one_line(text: str) -> str:
    """Every run of whitespace (newlines and tabs among it) as one space, other controls shown escaped."""
    return visible(" ".join(text.split()))


def github_command(finding: Finding, place: str = "") -> str:
    properties = [("file", visible(place + finding.path))]
    if finding.line > 0:
        properties += [("line", str(finding.line))] + ([("col", str(finding.column))] if finding.column > 0 else [])
    properties.append(("title", finding.rule))
    fix = "fix (mechanical)" if finding.fixable else "fix"
    return workflow_command(COMMANDS[finding.severity], tuple(properties),
                            f"{visible(finding.message)}\n{fix}: {visible(finding.remediation)}")


def concise_line(finding: Finding) -> str:
    line, column = (finding.line, max(finding.column, 1)) if finding.line > 0 else (1, 1)
    where = f"{visible(finding.path)}:{line}:{column}"  # a path's own whitespace is part of its name
    return f"{where}: {finding.severity.value} {finding.rule} {one_line(finding.message)}"


def _lines(report: Report, line: Callable[[Finding], str]) -> str:
    return "".join(line(f) + "\n" for f in live(report)) + tally(report) + "\n"


def render_github(report: Report, place: str = "") -> str:
    """`place`: the root's folder in its git work tree, which GitHub reads `file` from."""
    return _lines(report, lambda finding: github_command(finding, place))


def render_concise(report: Report) -> str:
    return _lines(report, concise_line)
