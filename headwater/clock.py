"""The run date: read once (`--now YYYY-MM-DD` or the clock) and injected everywhere."""

from __future__ import annotations

import datetime as dt
import re

from headwater.errors import Refusal
from headwater.textsafe import shown

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_date(text: str) -> dt.date | None:
    """A strict `YYYY-MM-DD` calendar date, or None."""
    if not DATE.match(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def run_date(now: str | None) -> dt.date:
    if now is None:
        return dt.date.today()
    if not now.strip():  # quoted, it would read as empty backticks
        raise Refusal("`--now` is empty; it takes a calendar date as YYYY-MM-DD, such as 2026-11-01")
    parsed = parse_date(now)
    if parsed is None:
        raise Refusal(f"`--now` takes a calendar date as YYYY-MM-DD, and `{shown(now)}` is not one")
    return parsed


DURATION = re.compile(r"^(?:(\d+)([dw])|P(\d+)([DW]))$")


def parse_days(text: str) -> int | None:
    """A duration in days: `90d`, `12w`, or the ISO 8601 `P90D` / `P12W`; None otherwise."""
    match = DURATION.match(text.strip())
    if not match:
        return None
    count, unit = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    return int(count) * (7 if unit.lower() == "w" else 1)
