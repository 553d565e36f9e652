"""The runner: judge every subject's sections, tally the instances, judge the runner rules.

In the order a run takes them:
- each subject's record answers from the cache where its inputs did not move (`cache.Records`);
- change-scoped rules are skipped with a stated reason when the run has no change (`instances`);
- suppressions apply to the finished list, after the rules, so cached verdicts stay raw;
- `--fix` reads the patches that ride on findings, after the report is built.
"""

from __future__ import annotations

from collections.abc import Callable

from headwater.check import adoption_tasks, coverage_tally, suppressions
from headwater.check.cache import Records, Verdicts
from headwater.check.change_manifest import Change
from headwater.check.context import Context
from headwater.check.coverage_tally import Tally
from headwater.check.finding import Finding
from headwater.check.instances import sections, stamp
from headwater.check.registry import RULES, rule_ids
from headwater.check.report import Report
from headwater.check.rule import Scope
from headwater.check.spread import Found, judge_all, serve_all
from headwater.snapshot import Snapshot, collector_paused

SECTIONS = sections(RULES)


def run(snapshot: Snapshot, change: Change | None = None, cache: Verdicts | None = None,
        spread: bool = False, meanwhile: Callable[[], object] | None = None) -> Report:
    """`spread`: judge documents on every core when the cache holds nothing for them, and serve
    them from it on every core when it holds them and they are many (`spread.serve_all`), this
    process calling `meanwhile` first (work of the caller's that needs no verdict) while a
    forked worker starts serving.

    The verdicts, and the bodies they decode, live as long as the report and hold no cycles: the
    collector pauses while they are made, in the workers too (forked paused), for with it running
    judging 100,000 documents made 14 full collections in each process."""
    with collector_paused():
        return _run(snapshot, change, cache, spread, meanwhile)


def _run(snapshot: Snapshot, change: Change | None, cache: Verdicts | None, spread: bool,
         meanwhile: Callable[[], object] | None) -> Report:
    ctx = Context(snapshot, rule_ids(), change)
    records = Records(ctx, cache, SECTIONS)
    served = None
    if spread and (cache is None or not cache.stored):
        ahead = judge_all(ctx, SECTIONS)
        if ahead is not None:
            records.ahead = ahead
    elif spread:
        served = serve_all(records, meanwhile)
    found: dict[int, list[Finding]] = {}  # by rule position: rules in registry order, then subjects
    if served is None:
        tally = _tallied(records, found)
    else:  # tallied in the shares
        tally = served.tally
        for kind in SECTIONS:
            for _, of_subject in served.found[kind]:
                _found(found, of_subject)
    tally.add(None, sum(1 for rule in RULES if rule.by_document))
    findings = [f for position in sorted(found) for f in found[position]]
    for rule in RULES:
        if rule.scope is Scope.RUNNER:
            findings += [stamp(rule, hit) for hit in rule.check(ctx, tally)]
    findings = suppressions.apply(findings, snapshot.graph.documents, ctx.rule_ids, snapshot.today)
    findings = adoption_tasks.hold(findings, snapshot.adoption, snapshot.today)
    lock = snapshot.lock
    return Report(
        package=lock.package,
        version=lock.version,
        lock=lock.digest.removeprefix("sha256:"),
        clock=snapshot.today,
        coverage=coverage_tally.compute(snapshot.census, tally),
        rules=RULES,
        findings=tuple(sorted(findings, key=lambda f: f.sort_key)),
        change=change,
    )


def _tallied(records: Records, found: dict[int, list[Finding]]) -> Tally:
    """Every subject served or judged here, tallied, its findings added to `found`."""
    tally = Tally()
    add = tally.add
    for kind in SECTIONS:
        for index, document, summary in records.each(kind):
            if summary.found:
                _found(found, summary.found)
            add(document, summary.reached, summary.skips, index)
    return tally


def _found(found: dict[int, list[Finding]], of_subject: Found) -> None:
    for position, findings in of_subject:
        found.setdefault(position, []).extend(findings)
