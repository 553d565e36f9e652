"""The runner: instantiate every routed rule, record each outcome, judge the runner rules.

The seams part two fills, in the order a run takes them:
- `evaluate` is where the cache answers (keyed by the instance's input digests, the lock
  digest, the rule version, and the run date for rules that read the clock);
- change-scoped rules are skipped here with a stated reason when the run has no change;
- suppressions apply to the finished list in `run`, after the rules, so cached verdicts stay raw;
- `--fix` reads the patches that ride on findings, after the report is built.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from headwater.check import coverage as coverage_module
from headwater.check import suppressions
from headwater.check.cache import Keys, Verdicts
from headwater.check.context import Context
from headwater.check.coverage import Coverage
from headwater.check.finding import Finding, Hit, Severity, Skip
from headwater.check.instances import Instance, generate
from headwater.check.registry import RULES, rule_ids
from headwater.check.rule import Rule, Scope
from headwater.snapshot import Snapshot

NO_CHANGE = ("change-scoped: the prior version is read only from a `--change` manifest, "
             "and this run carries none")


@dataclass(frozen=True)
class Outcome:
    instance: Instance
    findings: tuple[Finding, ...]
    skip: str | None  # the reason, when the instance reached no verdict


@dataclass(frozen=True)
class Report:
    package: str
    version: str
    lock: str  # the bare hex of the lock digest
    clock: dt.date
    coverage: Coverage
    rules: tuple[Rule, ...]
    findings: tuple[Finding, ...]  # live and escaped together, sorted
    change: Any = None

    @property
    def live_errors(self) -> int:
        return sum(1 for f in self.findings if f.live and f.severity is Severity.ERROR)


def stamp(rule: Rule, hit: Hit) -> Finding:
    return Finding(rule.id, hit.severity or rule.severity, hit.path, hit.line,
                   hit.column if hit.line > 0 else 0, hit.message, hit.remediation,
                   hit.patch is not None, hit.subject, patch=hit.patch)


def evaluate(ctx: Context, instance: Instance, cache: Verdicts | None = None,
             keys: Keys | None = None) -> Outcome:
    rule = instance.rule
    if rule.needs_change and ctx.change is None:
        return Outcome(instance, (), NO_CHANGE)
    key = keys.key(instance) if keys is not None else None
    cached = cache.recall(key) if key is not None else None
    if cached is not None:
        return Outcome(instance, cached, None)
    verdict = rule.check(ctx, instance.subject)
    if isinstance(verdict, Skip):
        return Outcome(instance, (), verdict.reason)  # skips are never cached
    findings = tuple(stamp(rule, hit) for hit in verdict)
    if key is not None:
        cache.remember(key, findings)
    return Outcome(instance, findings, None)


def run(snapshot: Snapshot, change: Any = None, cache: Verdicts | None = None) -> Report:
    ctx = Context(snapshot, rule_ids(), change)
    keys = Keys(ctx) if cache is not None else None
    outcomes = [evaluate(ctx, instance, cache, keys) for instance in generate(ctx, RULES)]
    findings = [f for outcome in outcomes for f in outcome.findings]
    for rule in RULES:
        if rule.scope is Scope.RUNNER:
            findings += [stamp(rule, hit) for hit in rule.check(ctx, outcomes)]
    findings = suppressions.apply(findings, snapshot.graph.documents, ctx.rule_ids, snapshot.today)
    lock = snapshot.lock
    return Report(
        package=lock.package,
        version=lock.version,
        lock=lock.digest.removeprefix("sha256:"),
        clock=snapshot.today,
        coverage=coverage_module.compute(snapshot.census, outcomes),
        rules=RULES,
        findings=tuple(sorted(findings, key=lambda f: f.sort_key)),
        change=change,
    )

