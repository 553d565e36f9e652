"""Adoption tasks held in `.headwater/adoption.yml`: how many findings each entry holds, until when,
and how the file writes them."""

from __future__ import annotations

import datetime as dt

from headwater.check.adoption_tasks import ADOPTION, hold, task_text
from headwater.check.finding import Escape, Finding, Hidden, Severity
from headwater.corpus.adoption_file import Task

UNTIL = dt.date(2027, 3, 31)


def _finding(line: int, subject: str = "0099-missing.md") -> Finding:
    return Finding("link.path.unresolved", Severity.ERROR, "doc/adr/0002.md", line, 1, "m", "r", False, subject)


def _task(count: int = 1, line: int = 7) -> Task:
    return Task("AD-1", "s", "@docs", UNTIL, line, ((("link.path.unresolved", "doc/adr/0002.md", "0099-missing.md"),
                                                    count),))


def test_a_task_holds_as_many_findings_of_a_key_as_it_counts_the_first_in_report_order():
    marked = hold([_finding(30), _finding(10), _finding(20)], (_task(2),), UNTIL)
    assert [(f.line, f.escape) for f in marked] == [(10, Escape.MIGRATION_PENDING), (20, Escape.MIGRATION_PENDING),
                                                   (30, Escape.NONE)]
    assert marked[0].hidden_by == Hidden(ADOPTION, 7, "AD-1", "2027-03-31", "@docs")


def test_a_task_holds_on_its_until_day_and_not_the_day_after():
    assert hold([_finding(10)], (_task(),), UNTIL)[0].escape is Escape.MIGRATION_PENDING
    assert hold([_finding(10)], (_task(),), UNTIL + dt.timedelta(days=1))[0].escape is Escape.NONE


def test_a_finding_of_another_subject_is_never_held():
    assert hold([_finding(10, "0098-gone.md")], (_task(5),), UNTIL)[0].escape is Escape.NONE


def test_a_second_task_holds_what_the_first_has_no_room_for():
    second = Task("AD-2", "s", "@web", UNTIL, 12, _task().held)
    marked = hold([_finding(10), _finding(20)], (_task(), second), UNTIL)
    assert [f.hidden_by.reason for f in marked] == ["AD-1", "AD-2"]


def test_the_file_writes_a_count_only_where_more_than_one_finding_shares_a_key():
    text = task_text("AD-1", "s", "@docs", UNTIL, [_finding(1), _finding(2), _finding(3, "0098-gone.md")])
    assert text.splitlines()[4:] == [
        "    held:",
        "      - {rule: link.path.unresolved, path: doc/adr/0002.md, subject: 0098-gone.md}",
        "      - {rule: link.path.unresolved, path: doc/adr/0002.md, subject: 0099-missing.md, count: 2}"]
    assert task_text("AD-1", "s", "@docs", UNTIL, []).splitlines()[4] == "    held: []"
