"""The JSON report: one ordered object, no nulls. `version` is the shape version."""

from __future__ import annotations

from headwater.check.finding import Finding
from headwater.check.report import Report
from headwater.jsonout import dumps

SHAPE_VERSION = "1.1"  # 1.1: `omitted`, the count a limit left out, when it left any


def finding_json(finding: Finding) -> dict:
    hidden = finding.hidden_by
    return {
        "rule": finding.rule,
        "severity": finding.severity.value,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "message": finding.message,
        "remediation": finding.remediation,
        "fixable": finding.fixable,
        "escape": finding.escape.value,
        "hidden_by": None if hidden is None else {
            "path": hidden.path, "line": hidden.line, "reason": hidden.reason,
            "until": hidden.until, "note": hidden.note},
    }


def report_json(report: Report) -> dict:
    return {
        "version": SHAPE_VERSION,
        "tool": "headwater",
        "taxonomy": {"package": report.package, "version": report.version, "lock": report.lock},
        "clock": report.clock.isoformat(),
        "change": report.change.as_json() if report.change is not None else None,
        "coverage": report.coverage.as_json(),
        "rules": [{"rule": r.id, "scope": r.scope.value, "version": r.version} for r in report.rules],
        "findings": [finding_json(f) for f in report.findings],
        "omitted": len(report.omitted) or None,  # absent unless a limit left findings out
    }


def render_json(report: Report) -> str:
    return dumps(report_json(report))
