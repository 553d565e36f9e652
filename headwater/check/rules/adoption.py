"""Adoption: a task of the adoption overlay held past its date, judged by the runner."""

from __future__ import annotations

from headwater.check.adoption_tasks import ADOPTION
from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule


@rule("adoption.task.expired", 1, Scope.RUNNER, Severity.WARN,
      short="An adoption task is past its `until`; the findings it held are live again.",
      full="A task in `.headwater/adoption.yml` held findings until a date that has passed, so it "
           "holds nothing now and each of its findings is reported live.",
      help="""
An adoption task gives a team time to fix what a legacy corpus held when headwater came in.
Once its `until` passes, its findings count again. Fix them and delete the task, or, when the
work is under way, move `until` with the owner's agreement.
""",
      tags=("adoption",))
def adoption_task_expired(ctx: Context, _tally) -> list[Hit]:
    return [Hit(ADOPTION, task.line, 1, f"the adoption task {task.id} (owned by {task.owner}) ended on "
                f"{task.until.isoformat()}, so " + ("the finding it held is live again" if task.holding == 1
                                                    else f"the {task.holding} findings it held are live again"),
                "fix the findings and delete the task, or move `until` with its owner's agreement", task.id)
            for task in ctx.snapshot.adoption if task.until < ctx.today]


RULES = (adoption_task_expired,)
