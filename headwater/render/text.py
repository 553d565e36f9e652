"""The text report: taxonomy, clock, census, graph, checks, findings, then what was not reported.

Lines are laid out plain at the width (80, or COLUMNS clamped 80–120 under `--wide`) and
painted afterwards, so stripping the colour gives the plain bytes exactly.
"""

from __future__ import annotations

import re
import textwrap

from headwater.check.finding import Finding, Severity
from headwater.check.report import Report
from headwater.check.shown import Shown
from headwater.render.common import (
    GLYPHS,
    NOTHING_CHECKED,
    PLAIN,
    escaped,
    live,
    not_reported_line,
    plural,
    severity_counts,
    tally,
)
from headwater.render.palette import Palette
from headwater.textsafe import visible

SPACES = re.compile("( +)")
SEVERITY_ROLE = {Severity.ERROR: "error", Severity.WARN: "warn", Severity.INFO: "info"}


def _fits(text: str, room: int) -> bool:
    """Whether `textwrap.wrap` leaves `text` as it is on one line: it fits, holds no whitespace
    textwrap rewrites (tabs, newlines…), and does not end in whitespace it would drop (textwrap
    splits on ASCII whitespace only, then drops a trailing chunk that `strip()` empties)."""
    return (0 < len(text) <= room and not any(c in text for c in "\t\n\x0b\x0c\r")
            and bool(text.rpartition(" ")[2].strip()))


REWRITTEN = "\t\n\x0b\x0c\r"  # whitespace textwrap rewrites before it wraps


def _wrapped(text: str, width: int, indent: int) -> list[str]:
    """`textwrap.wrap(text, width, initial_indent=indent spaces, subsequent_indent=2 more,
    break_long_words=False, break_on_hyphens=False)` for a text holding no whitespace but spaces
    (`REWRITTEN`), with none of its regular expressions: the findings of a large corpus wrapped
    by textwrap took most of the report's time. Greedy, as textwrap: a line takes chunks (words
    and runs of spaces) while they fit; spaces that open a later line or end any line are
    dropped; a word longer than a line stands alone."""
    if text.isascii() and width - indent > 2:  # room for a character on every line
        return _wrapped_ascii(text, width, indent)
    chunks = [chunk for chunk in SPACES.split(text) if chunk]
    chunks.reverse()
    lines: list[str] = []
    while chunks:
        lead = " " * (indent + 2 if lines else indent)
        room = width - len(lead)
        if lines and not chunks[-1].strip():
            del chunks[-1]
            if not chunks:
                break
        line: list[str] = []
        used = 0
        while chunks and used + len(chunks[-1]) <= room:
            used += len(chunks[-1])
            line.append(chunks.pop())
        if chunks and len(chunks[-1]) > room and not line:
            line.append(chunks.pop())
        if line and not line[-1].strip():
            del line[-1]
        if line:
            lines.append(lead + "".join(line))
    return lines


def _wrapped_ascii(text: str, width: int, indent: int) -> list[str]:
    """`_wrapped` for ASCII text, whose only whitespace is spaces, a line at a time: the longest
    run of whole chunks that fits is found by looking at where the room ends, not by taking
    chunk after chunk (a report of hundreds of findings wraps each)."""
    lines: list[str] = []
    rest = text
    while rest:
        lead = " " * (indent + 2 if lines else indent)
        room = width - len(lead)
        if lines:
            rest = rest.lstrip(" ")  # the spaces that open a later line
            if not rest:
                break
        if len(rest) <= room:
            taken = len(rest)
        else:
            before, after = rest[room - 1] == " ", rest[room] == " "
            if before != after:
                taken = room  # the room ends where a chunk does
            elif before:
                taken = len(rest[:room].rstrip(" "))  # where the run of spaces it ends in begins
            else:
                taken = rest.rfind(" ", 0, room) + 1  # where the word it ends in begins
            if taken == 0:  # the first chunk is longer than the line: it stands alone
                end = len(rest) - len(rest.lstrip(" ")) if rest[0] == " " else rest.find(" ")
                taken = end if end > 0 else len(rest)
        line = rest[:taken].rstrip(" ")  # a line's closing spaces are dropped
        rest = rest[taken:]
        if line:
            lines.append(lead + line)
    return lines


class _Lines:
    def __init__(self, width: int, palette: Palette) -> None:
        self.width = width
        self.palette = palette
        self.out: list[str] = []

    def add(self, text: str, indent: int = 0, lead: tuple[str, str] | None = None) -> None:
        """Wrap `text` (continuations 2 deeper); paint `lead=(role, prefix)` on the first line.
        Control characters in the values it carries are shown escaped, never sent raw."""
        text = visible(text)
        if _fits(text, self.width - indent):  # what textwrap would give, without its cost
            wrapped = [" " * indent + text]
        elif any(c in text for c in REWRITTEN):
            wrapped = textwrap.wrap(text, self.width, initial_indent=" " * indent,
                                    subsequent_indent=" " * (indent + 2), break_long_words=False,
                                    break_on_hyphens=False) or [""]
        else:
            wrapped = _wrapped(text, self.width, indent) or [""]
        if lead is not None:
            role, prefix = lead[0], visible(lead[1])
            first = wrapped[0]
            at = first.find(prefix)
            if at >= 0:
                wrapped[0] = first[:at] + self.palette.paint(role, prefix) + first[at + len(prefix):]
        self.out.extend(wrapped)

    def count(self, number: int, label: str) -> None:
        self.out.append(f"  {number:>7} {label}")

    def blank(self) -> None:
        self.out.append("")

    def block(self, name: str) -> None:
        """A blank line, then a block's painted heading."""
        self.blank()
        self.add(name, lead=("heading", name))


def _header(lines: _Lines, report: Report) -> None:
    lines.add(f"taxonomy {report.package} {report.version}", lead=("heading", "taxonomy"))
    lines.add(f"lock {report.lock}", 2)
    lines.add(f"clock {report.clock.isoformat()}", lead=("heading", "clock"))
    if report.change is not None:
        account = report.change.as_json()
        counts = ", ".join(f"{len(account[k])} {k}" for k in ("added", "changed", "departed", "verified"))
        lines.add(f"change {counts}", lead=("heading", "change"))


def _census(lines: _Lines, shown: Shown, rows: int | None) -> None:
    """Counts by outcome and kind, then each row that is not a typed document (at most `rows`)."""
    lines.block("census")
    lines.add(f"{plural(shown.files, 'file')} under {shown.census_root or '.'}", 2)
    for outcome, count in shown.outcomes:
        lines.count(count, outcome.replace("_", " "))
    for kind, count in shown.kinds:
        lines.count(count, f"typed {kind}")
    for path, label, reason in shown.listed[:rows]:
        lines.add(f"{path} {label.replace('_', ' ')}", 2, lead=("path", path))
        lines.add(reason, 4)
    if rows is not None and len(shown.listed) > rows:
        lines.add(f"{plural(len(shown.listed) - rows, 'more row')} not listed, past the limit", 2)


def _graph(lines: _Lines, shown: Shown) -> None:
    lines.block("graph")
    lines.add(f"{plural(shown.documents, 'document')} and {plural(shown.anchors, 'anchor')}, "
              f"joined by {plural(shown.edges, 'edge')}", 2)
    if shown.unbound:
        lines.add(f"{plural(shown.unbound, 'edge binds', 'edges bind')} to nothing", 2)


def _checks(lines: _Lines, report: Report) -> None:
    cov = report.coverage
    lines.block("checks")
    lines.add(f"{cov.seen} seen, {cov.classified} classified, {cov.checked} checked, "
              f"{plural(cov.instances, 'check instance')}", 2)
    if cov.checked == 0:
        lines.add(NOTHING_CHECKED, 2)
    for skip in cov.skips:
        lines.add(f"{skip.instances} skipped: {skip.reason}", 2)


def _finding(lines: _Lines, finding: Finding) -> None:
    role = SEVERITY_ROLE[finding.severity]
    label = f"{GLYPHS[finding.severity]} {finding.severity.value}"
    lines.blank()
    painted = lines.palette.paint("path", visible(finding.where)) + " " + lines.palette.paint(role, label)
    lines.out.append("  " + painted)
    lines.add(f"{finding.rule}: {finding.message}", 4, lead=("id", finding.rule))
    fix = "fix (mechanical):" if finding.fixable else "fix:"
    lines.add(f"{fix} {finding.remediation}", 4, lead=("dim", fix))


def _findings(lines: _Lines, report: Report) -> None:
    shown = live(report)
    counted = tuple(f for f in report.findings + report.omitted if f.live)  # a limit writes fewer, counts all
    lines.blank()
    lines.add(plural(len(counted), "finding"), 2)
    for severity, number in severity_counts(counted):
        label = f"{GLYPHS[severity]} {severity.value}"
        lines.out.append(f"  {number:>7} " + lines.palette.paint(SEVERITY_ROLE[severity], label))
    for finding in shown:
        _finding(lines, finding)


def _not_reported(lines: _Lines, report: Report) -> None:
    hidden = escaped(report)
    if not hidden:
        return
    lines.block("not reported")
    for finding in hidden:
        _finding(lines, finding)
        lines.add(not_reported_line(finding), 4)


def render_text(report: Report, shown: Shown, *, width: int = 80,
                palette: Palette = PLAIN, rows: int | None = None) -> str:
    lines = _Lines(width, palette)
    _header(lines, report)
    _census(lines, shown, rows)
    _graph(lines, shown)
    _checks(lines, report)
    _findings(lines, report)
    _not_reported(lines, report)
    if report.findings or report.omitted:  # the counts again at the end, where a long report's reader arrives
        lines.blank()
        lines.add(tally(report), 2)
    return "\n".join(lines.out) + "\n"
