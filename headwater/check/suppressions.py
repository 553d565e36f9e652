"""Suppression directives in a document's body, read and judged.

`<!-- headwater allow=<rule> scope=block|file until=YYYY-MM-DD reason=<reason> note=<text> -->`

Part one reads directives and judges them (`suppression.refused`); applying them to findings
after the rules ran (so the cache keeps raw verdicts) plugs in beside `directives` here.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from headwater.clock import parse_date
from headwater.corpus.document import Document

DIRECTIVE = re.compile(r"<!--\s*headwater\s+(?P<body>.*?)\s*-->")
FIELD = re.compile(r"(?P<key>[a-z_]+)=(?P<value>\S*)")
SCOPES = ("block", "file")
REASONS = ("false_positive", "accepted_deviation")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")


@dataclass(frozen=True)
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


def directives(document: Document, known_rules: frozenset[str]) -> list[Directive]:
    """Every directive in the body outside fenced code, in line order."""
    found, fenced = [], False
    for offset, text in enumerate(document.body_text.splitlines()):
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
                                   _problem(fields, known_rules)))
    return found
