"""The task `route` reads, refused the same way on the command line and over MCP. A module of
its own, light enough for the verb table to import for its help line."""

from __future__ import annotations

from headwater.errors import ArgumentRefused

TASK_MOST = 10_000  # characters: a page of prose, far past a task in words, and an answer
# (which quotes the task and its terms) stays small and quick


def checked_task(task: str, field: str) -> str:
    """The task as given, refused when it is blank or longer than `TASK_MOST` characters; `field`
    names the input as the caller does."""
    if not task.strip():
        raise ArgumentRefused(field, f"`route` takes a task description, and `{field}` is empty: give the task in "
                                     "your own words, such as \"add rate limiting to the ingest API\"")
    if len(task) > TASK_MOST:
        raise ArgumentRefused(field, f"`route` reads a task of at most {TASK_MOST:,} characters, and this one has "
                                     f"{len(task):,}: give it in fewer words")
    return task
