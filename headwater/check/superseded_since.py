"""The date a record entered the state its successor set on it (`superseded`): one answer for
`adopt`, which reads it off the records' bodies, and for `check --fix`, which reads it off the
successor's front matter, so the two verbs never write two dates for one fact.
"""

from __future__ import annotations

from collections.abc import Iterable


def superseded_since(successors: Iterable[str], own: str | None) -> str | None:
    """The earliest of the successors' dates (YYYY-MM-DD) no earlier than the record's `own` (it
    cannot leave a state before it entered it), else `own` where every successor's is earlier; None
    where no successor has a date: the day is then unknown, and neither verb writes one nobody
    recorded (the run date says only when someone looked)."""
    dated = sorted(date for date in successors if date)
    if not dated:
        return None
    return next((date for date in dated if own is None or date >= own), own)
