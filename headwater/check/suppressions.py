"""Suppression directives in a document's body, read and judged.

`<!-- headwater allow=<rule> scope=block|file until=YYYY-MM-DD reason=<reason> note=<text> -->`

Directives are read and judged here (`suppression.refused` reports the refused ones) and
applied by `apply` to the finished findings, after the rules ran, so the cache keeps raw
verdicts. A directive that reads hides the findings of its rule in its own document until its
`until` date (inclusive): `scope=file` the whole document, front matter and line 0 included;
`scope=block` its own line and the block that follows it (the next run of non-blank lines).
An expired or refused directive hides nothing. A hidden finding stays in the report, marked.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from headwater.check.finding import Escape, Finding, Hidden
from headwater.clock import parse_date
from headwater.corpus.body import parser_lines
from headwater.corpus.document import Document
from headwater.frozen import frozen

DIRECTIVE = re.compile(r"<!--\s*headwater\s+(?P<body>.*?)\s*-->")
FIELD = re.compile(r"(?P<key>[a-z_]+)=(?P<value>\S*)")
SCOPES = ("block", "file")
REASONS = ("false_positive", "accepted_deviation")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")


@frozen
class Directive:
    path: str
    line: int
    column: int
    rule: str
    scope: str
    until: dt.date | None
    reason: str
    note: str
    problem: str | None  # why the directive is refused, or None when it reads
    last: int  # the last line `scope=block` covers

    def hides(self, finding: Finding, today: dt.date) -> bool:
        if self.problem or self.until < today or finding.rule != self.rule or finding.path != self.path:
            return False
        return self.scope == "file" or self.line <= finding.line <= self.last

    @property
    def hidden(self) -> Hidden:
        return Hidden(self.path, self.line, self.reason, self.until.isoformat(), self.note)


def _fields(body: str) -> tuple[dict[str, str], str]:
    head, _, note = body.partition("note=")
    return {m.group("key"): m.group("value") for m in FIELD.finditer(head)}, note.strip()


def _problem(fields: dict[str, str], known_rules: frozenset[str]) -> str | None:
    rule = fields.get("allow", "")
    if rule not in known_rules:
        return f"suppresses nothing: no rule of this engine is named `{rule}`"
    if fields.get("reason") not in REASONS:
        return f"suppresses nothing: `reason={fields.get('reason', '')}` is not one of {', '.join(REASONS)}"
    if fields.get("scope") not in SCOPES:
        return f"suppresses nothing: `scope={fields.get('scope', '')}` is not one of {', '.join(SCOPES)}"
    if parse_date(fields.get("until", "")) is None:
        return f"suppresses nothing: `until={fields.get('until', '')}` is not a date written YYYY-MM-DD"
    return None


def _block_end(lines: list[str], offset: int) -> int:
    """The offset of the last line of the block after `offset`: blank lines skipped, then one run."""
    cursor = offset + 1
    while cursor < len(lines) and not lines[cursor].strip():
        cursor += 1
    while cursor < len(lines) and lines[cursor].strip():
        cursor += 1
    return max(offset, cursor - 1)


def directives(document: Document, known_rules: frozenset[str]) -> list[Directive]:
    """Every directive in the body outside fenced code, in line order."""
    text, body = document.text, document.body_offset  # searched in place: every run asks of every body
    # most bodies hold no `<` at all, which one character's search (memchr) finds ten times faster
    # than a word's, and a comment opens with one
    if text.find("<", body) < 0 or text.find("<!--", body) < 0 or text.find("headwater", body) < 0:
        return []  # most bodies: no comment naming headwater, so no directive
    found, fenced = [], False
    lines = parser_lines(document.body_text)  # counted as the finding lines are, never at a U+2028
    for offset, text in enumerate(lines):
        if FENCE.match(text):
            fenced = not fenced
            continue
        if fenced:
            continue
        for match in DIRECTIVE.finditer(text):
            fields, note = _fields(match.group("body"))
            found.append(Directive(document.path, document.body_line + offset, match.start() + 1,
                                   fields.get("allow", ""), fields.get("scope", ""),
                                   parse_date(fields.get("until", "")), fields.get("reason", ""), note,
                                   _problem(fields, known_rules), document.body_line + _block_end(lines, offset)))
    return found


def apply(findings: Iterable[Finding], documents: Mapping[str, Document], known_rules: frozenset[str],
          today: dt.date) -> list[Finding]:
    """The findings with every one a live directive covers marked `escape: suppression`."""
    read: dict[str, list[Directive]] = {}
    marked = []
    for finding in findings:
        document = documents.get(finding.path)
        if document is not None and finding.path not in read:
            read[finding.path] = directives(document, known_rules)
        by = next((d for d in read.get(finding.path, ()) if d.hides(finding, today)), None)
        marked.append(finding if by is None else replace(finding, escape=Escape.SUPPRESSION, hidden_by=by.hidden))
    return marked
