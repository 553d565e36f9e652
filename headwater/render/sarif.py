"""SARIF 2.1.0 for GitHub code scanning, built with `sarif-om` (imported only when asked for).

Every rule carries full metadata and help; every result one physical location relative to
`%SRCROOT%` and a fingerprint from `headwater.check.fingerprint`. Serialized with sorted keys
and no nulls, so the bytes are deterministic.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from urllib.parse import quote

from headwater import REPOSITORY, __version__
from headwater.check.finding import Escape, Finding, Severity
from headwater.check.fingerprint import primary_hashes
from headwater.check.reference import help_uri
from headwater.check.report import Report
from headwater.check.rule import Rule
from headwater.check.selection import bounded
from headwater.check.shown import Shown
from headwater.render.common import held_by
from headwater.render.json import SHAPE_VERSION

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARN: "warning", Severity.INFO: "note"}
ROOT = "%SRCROOT%"
KEEP_DEFAULTS = ("level",)  # written even when equal to sarif-om's default
# GitHub code scanning rejects a run holding more results than this, and with it every alert:
# past it, the findings a bound keeps first (`selection.first_kept`) are written, and a
# notification says how many were not
MOST_RESULTS = 25_000


def _plain(markdown: str) -> str:
    return re.sub(r"`([^`]*)`", r"\1", " ".join(markdown.split()))


def _rule(sarif_om, rule: Rule):
    return sarif_om.ReportingDescriptor(
        id=rule.id,
        name=rule.name,
        short_description=sarif_om.MultiformatMessageString(text=rule.short),
        full_description=sarif_om.MultiformatMessageString(text=rule.full),
        help=sarif_om.MultiformatMessageString(text=_plain(rule.help), markdown=rule.help),
        help_uri=help_uri(rule),
        default_configuration=sarif_om.ReportingConfiguration(level=LEVELS[rule.severity]),
        properties={"tags": list(rule.tags), "precision": rule.precision.value,
                    "headwater": {"scope": rule.scope.value, "version": rule.version,
                                  "patch": rule.patch}},
    )


def _suppressions(sarif_om, finding: Finding):
    if finding.live:
        return None
    hidden = finding.hidden_by
    if finding.escape is Escape.MIGRATION_PENDING and hidden is not None:
        return [sarif_om.Suppression(kind="external", justification=held_by(hidden))]
    justification = f"{hidden.reason}, until {hidden.until}: {hidden.note}" if hidden else finding.escape.value
    return [sarif_om.Suppression(kind="inSource", justification=justification)]


def _location(sarif_om, finding: Finding, place: str):
    region = None
    if finding.line > 0:
        region = sarif_om.Region(start_line=finding.line,
                                 start_column=finding.column if finding.column > 0 else None)
    artifact = sarif_om.ArtifactLocation(uri=quote(place + finding.path, safe="/"), uri_base_id=ROOT)
    return sarif_om.Location(physical_location=sarif_om.PhysicalLocation(artifact_location=artifact,
                                                                          region=region))


def _result(sarif_om, finding: Finding, index: int, fingerprint: str, place: str):
    fix = "**Fix (mechanical):**" if finding.fixable else "**Fix:**"
    return sarif_om.Result(
        rule_id=finding.rule,
        rule_index=index,
        level=LEVELS[finding.severity],
        message=sarif_om.Message(text=finding.message,
                                 markdown=f"{finding.message}\n\n{fix} {finding.remediation}"),
        locations=[_location(sarif_om, finding, place)],
        partial_fingerprints={"primaryLocationLineHash": fingerprint},
        suppressions=_suppressions(sarif_om, finding),
        properties={"headwater": {"severity": finding.severity.value, "fixable": finding.fixable,
                                  "remediation": finding.remediation, "escape": finding.escape.value}},
    )


def _within_upload_limits(report: Report) -> Report:
    if len(report.findings) <= MOST_RESULTS:
        return report
    capped = bounded(report, MOST_RESULTS)
    return replace(capped, omitted=capped.omitted + report.omitted)


def _invocation(sarif_om, report: Report, left: int):
    """The run's one invocation; a notification when GitHub's limit left findings out."""
    if not left:
        return sarif_om.Invocation(execution_successful=True)
    text = (f"{left} of {len(report.findings) + len(report.omitted)} findings are not in this log: "
            f"GitHub code scanning takes at most {MOST_RESULTS} results a run; the rest are in "
            "`headwater check --format json`")
    return sarif_om.Invocation(execution_successful=True, tool_execution_notifications=[
        sarif_om.Notification(level="warning", message=sarif_om.Message(text=text))])


def sarif_log(report: Report, shown: Shown, place: str = ""):
    import sarif_om

    capped = _within_upload_limits(report)
    left = len(capped.omitted) - len(report.omitted)
    report = capped
    index = {rule.id: n for n, rule in enumerate(report.rules)}
    hashes = primary_hashes(report.findings, dict(shown.identity))
    driver = sarif_om.ToolComponent(
        name="headwater", version=__version__, semantic_version=__version__,
        information_uri=REPOSITORY, rules=[_rule(sarif_om, r) for r in report.rules])
    run = sarif_om.Run(
        tool=sarif_om.Tool(driver=driver),
        original_uri_base_ids={ROOT: sarif_om.ArtifactLocation(
            description=sarif_om.Message(text="the root of the repository headwater checked"))},
        column_kind="unicodeCodePoints",
        invocations=[_invocation(sarif_om, report, left)],
        results=[_result(sarif_om, f, index[f.rule], h, place) for f, h in zip(report.findings, hashes, strict=True)],
        properties={"headwater": {
            "shape": SHAPE_VERSION,
            "taxonomy": {"package": report.package, "version": report.version, "lock": report.lock},
            "clock": report.clock.isoformat(),
            "coverage": report.coverage.as_json(),
            "omitted": len(report.omitted) or None}},
    )
    return sarif_om.SarifLog(version="2.1.0", schema_uri=SCHEMA, runs=[run])


def to_plain(value):
    """attrs objects → dicts under their SARIF names; None and unasked-for defaults dropped."""
    import attr

    if attr.has(type(value)):
        out = {}
        for field in attr.fields(type(value)):
            item = getattr(value, field.name)
            default = field.default if not isinstance(field.default, attr.Factory) else field.default.factory()
            if item is None or (item == default and field.name not in KEEP_DEFAULTS):
                continue
            out[field.metadata["schema_property_name"]] = to_plain(item)
        return out
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return value


def render_sarif(report: Report, shown: Shown, place: str = "") -> str:
    """`place`: the root's folder in its git work tree, where GitHub reads each location from."""
    return json.dumps(to_plain(sarif_log(report, shown, place)), indent=2, sort_keys=True,
                      ensure_ascii=False) + "\n"
