"""Adoption tasks: the findings a team holds while it adopts headwater on a legacy corpus.

`.headwater/adoption.yml` (committed) names each task — an id, a statement, an owner and an
`until` date — and the findings it holds, each by rule, path and subject (what fingerprints
read), so a new finding is never held: it differs in one of the three. A held finding keeps its
severity, is reported as `not reported (migration-pending)` in every format and never fails
`--strict`; once `until` has passed, the task holds nothing and `adoption.task.expired` says so.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import replace

from headwater.check.finding import Escape, Finding, Hidden
from headwater.corpus.adoption_file import ADOPTION, Task

HEADER = ("# Findings held while this repository adopts headwater (`headwater adopt --baseline` wrote it).\n"
          "# A held finding never fails `check --strict`; after `until` it is live again. Fix what a task\n"
          "# holds, and delete the entry; never add one by hand to hide a new finding.\n")


def _holds(task: Task, finding: Finding, today: dt.date) -> bool:
    return today <= task.until and (finding.rule, finding.path, finding.subject) in task.held


def _hidden(task: Task) -> Hidden:
    return Hidden(ADOPTION, task.line, task.id, task.until.isoformat(), task.owner)


def hold(findings: Iterable[Finding], tasks: tuple[Task, ...], today: dt.date) -> list[Finding]:
    """Mark every finding an unexpired task holds `migration-pending` (it outranks a suppression)."""
    marked = []
    for finding in findings:
        task = next((t for t in tasks if _holds(t, finding, today)), None)
        marked.append(finding if task is None else replace(finding, escape=Escape.MIGRATION_PENDING,
                                                           hidden_by=_hidden(task)))
    return marked


def task_text(task_id: str, statement: str, owner: str, until: dt.date, findings: Iterable[Finding]) -> str:
    """One task as `.headwater/adoption.yml` lists it."""
    from headwater.taxonomy.canonical import scalar

    held = sorted({(f.rule, f.path, f.subject) for f in findings})
    lines = [f"  - id: {scalar(task_id)}", f"    statement: {scalar(statement)}", f"    owner: {scalar(owner)}",
             f"    until: {until.isoformat()}", "    held:" if held else "    held: []"]
    lines += [f"      - {{rule: {scalar(r)}, path: {scalar(p)}, subject: {scalar(s)}}}" for r, p, s in held]
    return "\n".join(lines) + "\n"
