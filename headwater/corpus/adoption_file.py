"""Adoption tasks as `.headwater/adoption.yml` lists them, read with the snapshot.

What a task holds, and how a held finding is reported, is `headwater.check.adoption_tasks`'s.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

from headwater.announcements import PROBE
from headwater.clock import parse_date
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.yaml.files import load_in_place
from headwater.yaml.nodes import Map, Node, Scalar, Seq

ADOPTION = ".headwater/adoption.yml"


@frozen
class Task:
    """One held finding of `.headwater/adoption.yml`: what is owed, by whom, until when."""

    id: str
    statement: str
    owner: str
    until: dt.date
    line: int
    held: tuple[tuple[tuple[str, str, str], int], ...]  # ((rule, path, subject), how many), sorted

    @property
    def holding(self) -> int:
        """How many findings the task holds, each key counted as often as it was held."""
        return sum(count for _, count in self.held)


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
    counts: dict[tuple[str, str, str], int] = {}
    for entry in held.items if isinstance(held, Seq) else ():
        if isinstance(entry, Map):
            key = (_text(entry, "rule", where), _text(entry, "path", where), _text(entry, "subject", where))
            counts[key] = counts.get(key, 0) + _count(entry, where)
    return Task(_text(item, "id", where), _text(item, "statement", where), _text(item, "owner", where), until,
                item.line, tuple(sorted(counts.items())))


def _count(entry: Map, where: str) -> int:
    """How many findings of one rule, path and subject an entry holds: `count`, 1 when absent."""
    node = entry.get("count")
    if node is None:
        return 1
    text = node.text.strip() if isinstance(node, Scalar) else ""
    if not (text.isascii() and text.isdigit() and int(text) >= 1):
        raise Refusal(f"{where}: `count` is how many findings an entry holds, a whole number from 1")
    return int(text)


def read_tasks(root: Path) -> tuple[Task, ...]:
    """The tasks of `.headwater/adoption.yml`, or none when it is absent; refused when malformed."""
    sys.audit(PROBE, root / ADOPTION)  # what replays a run looks here again (HW-DR-0037)
    if not (root / ADOPTION).is_file():
        return ()
    return tasks_in(load_in_place(root, ADOPTION))


NO_VALUE = ("", "~", "null")  # how YAML writes a key left without a value, unquoted


def tasks_in(top: Node | None) -> tuple[Task, ...]:
    """The tasks of the file's loaded YAML; refused when malformed, or when two share an id (a held
    finding would name either). An empty file (what `touch` leaves) or `tasks:` without a value
    holds no task, as `tasks: []` does."""
    if top is None:
        return ()
    tasks = top.get("tasks") if isinstance(top, Map) else None
    if isinstance(tasks, Scalar) and not tasks.quoted and tasks.text.strip() in NO_VALUE:
        return ()
    if not isinstance(tasks, Seq):
        raise Refusal(f"{ADOPTION} holds a `tasks:` list, and this one does not")
    found = tuple(_task(item, f"{ADOPTION} line {item.line}") for item in tasks.items)
    first: dict[str, int] = {}
    for task in found:
        if first.setdefault(task.id, task.line) != task.line:
            raise Refusal(f"{ADOPTION} line {task.line}: the adoption task id {task.id} is already the id of "
                          f"the task on line {first[task.id]}; give each task its own id")
    return found
