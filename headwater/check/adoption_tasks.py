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
from dataclasses import dataclass, replace
from pathlib import Path

from headwater.check.finding import Escape, Finding, Hidden
from headwater.clock import parse_date
from headwater.errors import Refusal
from headwater.yaml.files import load_file
from headwater.yaml.nodes import Map, Scalar, Seq

ADOPTION = ".headwater/adoption.yml"
HEADER = ("# Findings held while this repository adopts headwater (`headwater adopt --baseline` wrote it).\n"
          "# A held finding never fails `check --strict`; after `until` it is live again. Fix what a task\n"
          "# holds, and delete the entry; never add one by hand to hide a new finding.\n")


@dataclass(frozen=True)
class Task:
    id: str
    statement: str
    owner: str
    until: dt.date
    line: int
    held: frozenset[tuple[str, str, str]]  # (rule, path, subject)

    def holds(self, finding: Finding, today: dt.date) -> bool:
        return today <= self.until and (finding.rule, finding.path, finding.subject) in self.held

    @property
    def hidden(self) -> Hidden:
        return Hidden(ADOPTION, self.line, self.id, self.until.isoformat(), self.owner)


def _text(item: Map, key: str, where: str) -> str:
    node = item.get(key)
    if not isinstance(node, Scalar) or not node.text.strip():
        raise Refusal(f"{where}: an adoption task needs `{key}`")
    return node.text.strip()


def _task(item, where: str) -> Task:
    if not isinstance(item, Map):
        raise Refusal(f"{where}: each adoption task is a mapping")
    until = parse_date(_text(item, "until", where))
    if until is None:
        raise Refusal(f"{where}: `until` is a date written YYYY-MM-DD")
    held = item.get("held")
    pairs = set()
    for entry in held.items if isinstance(held, Seq) else ():
        if isinstance(entry, Map):
            pairs.add((_text(entry, "rule", where), _text(entry, "path", where), _text(entry, "subject", where)))
    return Task(_text(item, "id", where), _text(item, "statement", where), _text(item, "owner", where), until,
                item.line, frozenset(pairs))


def read_tasks(root: Path) -> tuple[Task, ...]:
    """The tasks of `.headwater/adoption.yml`, or none when it is absent; refused when malformed."""
    if not (root / ADOPTION).is_file():
        return ()
    top = load_file(root / ADOPTION, ADOPTION)
    tasks = top.get("tasks") if isinstance(top, Map) else None
    if not isinstance(tasks, Seq):
        raise Refusal(f"{ADOPTION} holds a `tasks:` list, and this one does not")
    return tuple(_task(item, f"{ADOPTION} line {item.line}") for item in tasks.items)


def hold(findings: Iterable[Finding], tasks: tuple[Task, ...], today: dt.date) -> list[Finding]:
    """Mark every finding an unexpired task holds `migration-pending` (it outranks a suppression)."""
    marked = []
    for finding in findings:
        task = next((t for t in tasks if t.holds(finding, today)), None)
        marked.append(finding if task is None else replace(finding, escape=Escape.MIGRATION_PENDING,
                                                           hidden_by=task.hidden))
    return marked


def task_text(task_id: str, statement: str, owner: str, until: dt.date, findings: Iterable[Finding]) -> str:
    """One task as `.headwater/adoption.yml` lists it."""
    from headwater.taxonomy.canonical import scalar

    held = sorted({(f.rule, f.path, f.subject) for f in findings})
    lines = [f"  - id: {scalar(task_id)}", f"    statement: {scalar(statement)}", f"    owner: {scalar(owner)}",
             f"    until: {until.isoformat()}", "    held:" if held else "    held: []"]
    lines += [f"      - {{rule: {scalar(r)}, path: {scalar(p)}, subject: {scalar(s)}}}" for r, p, s in held]
    return "\n".join(lines) + "\n"
