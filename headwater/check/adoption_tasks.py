"""Adoption tasks: the findings a team holds while it adopts headwater on a legacy corpus.

`.headwater/adoption.yml` (committed) names each task — an id, a statement, an owner and an
`until` date — and the findings it holds, each by rule, path and subject (what fingerprints
read) and how many of them (`count`, written where more than one), so a new finding is never
held: it differs in one of the three, or it outnumbers the findings held under them (a second
broken link to the same missing heading, say; the first ones in the report are the held ones,
and the count the report shows live is exact). A held finding keeps its
severity, is reported as `not reported (migration-pending)` in every format and never fails
`--strict`; once `until` has passed, the task holds nothing and `adoption.task.expired` says so.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from headwater.check.finding import Escape, Finding, Hidden
from headwater.corpus.adoption_file import ADOPTION, Task

HEADER = ("# Findings held while this repository adopts headwater (`headwater adopt --baseline` wrote it).\n"
          "# A held finding never fails `check --strict`; after `until` it is live again. Fix what a task\n"
          "# holds, and delete the entry; never add one by hand to hide a new finding.\n")


def _hidden(task: Task) -> Hidden:
    return Hidden(ADOPTION, task.line, task.id, task.until.isoformat(), task.owner)


def hold(findings: Iterable[Finding], tasks: tuple[Task, ...], today: dt.date) -> list[Finding]:
    """Mark `migration-pending` each finding an unexpired task still has room to hold under its
    rule, path and subject (it outranks a suppression), in report order; sorted as reported."""
    left = {(n, key): count for n, task in enumerate(tasks) if today <= task.until for key, count in task.held}
    marked = []
    for finding in sorted(findings, key=lambda f: f.sort_key):
        key = (finding.rule, finding.path, finding.subject)
        n = next((n for n in range(len(tasks)) if left.get((n, key))), None)
        if n is None:
            marked.append(finding)
            continue
        left[n, key] -= 1
        marked.append(replace(finding, escape=Escape.MIGRATION_PENDING, hidden_by=_hidden(tasks[n])))
    return marked


def task_text(task_id: str, statement: str, owner: str, until: dt.date, findings: Iterable[Finding]) -> str:
    """One task as `.headwater/adoption.yml` lists it."""
    from headwater.taxonomy.canonical import scalar

    held = sorted(Counter((f.rule, f.path, f.subject) for f in findings).items())
    lines = [f"  - id: {scalar(task_id)}", f"    statement: {scalar(statement)}", f"    owner: {scalar(owner)}",
             f"    until: {until.isoformat()}", "    held:" if held else "    held: []"]
    lines += [f"      - {{rule: {scalar(r)}, path: {scalar(p)}, subject: {scalar(s)}"
              + (f", count: {count}}}" if count > 1 else "}") for (r, p, s), count in held]
    return "\n".join(lines) + "\n"
