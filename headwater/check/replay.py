"""A check's last full run, kept to be replayed: what it observed and the report it gave (HW-DR-0037).

A full `check` (not `--fix`, not `--no-cache`, not `--change`) records what it read
(`headwater.observed`) and keeps it with its report and what the report shows of the snapshot, in
one sealed cache file (`.headwater/cache/replay`). The file's header names a key over all the run
read that is not a file: the program (code, interpreter, distributions), the root, the date it
judged on and the variables that place the cache key. The next `check` under that key makes
every observation again, reading every file again, and only when each finds what it found
renders the kept report; any change, and any file that is missing, symlinked, foreign, tampered
with, truncated, of another key or that does not decode, serves nothing: the run is made in full
and kept anew. The report is read back by an unpickler that makes only the report's own classes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import hashlib
import io
import marshal
import os
import pickle
from pathlib import Path

from headwater import cachedir, observed
from headwater.atomic import Unconfined
from headwater.check.report import Report
from headwater.check.shown import Shown
from headwater.codeprint import program_fingerprint
from headwater.frozen import frozen

MEMO = "replay"
FORMAT = 1
PROTOCOL = 5
PLACED_BY = ("HEADWATER_KEY_HOME", "XDG_CACHE_HOME", "HOME")  # where the cache key lives
MADE = frozenset({
    ("headwater.check.report", "Report"), ("headwater.check.shown", "Shown"),
    ("headwater.check.coverage_tally", "Coverage"), ("headwater.check.coverage_tally", "SkipCount"),
    ("headwater.check.finding", "Finding"), ("headwater.check.finding", "Hidden"),
    ("headwater.check.finding", "Severity"), ("headwater.check.finding", "Escape"),
    ("headwater.check.rule", "Rule"), ("headwater.check.rule", "Scope"), ("headwater.check.rule", "Reads"),
    ("headwater.check.rule", "Precision"), ("datetime", "date"),
})


@frozen
class Replayed:
    """The kept report, what it shows of its snapshot, and how many observations held."""

    report: Report
    shown: Shown
    observations: int


def key(root: Path, today: dt.date) -> str:
    """A digest of everything the run read that is not a file (the module's docstring says what)."""
    parts = (program_fingerprint(), os.path.abspath(root), today.isoformat(),
             *(f"{name}={os.environ.get(name, '')}" for name in PLACED_BY))
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _header(run_key: str) -> str:
    return f"headwater check replay {FORMAT} {run_key}"


def recall(root: Path, run_key: str) -> Replayed | None:
    """The last run's report when every input it observed is as it was, else None."""
    payload = cachedir.read(root, MEMO, _header(run_key))
    if payload is None:
        return None
    try:
        since, observations, kept = marshal.loads(payload)
        held = observed.unchanged(observations, since)
    except Exception:  # a sealed payload of another shape serves nothing  # noqa: BLE001
        return None
    if not held:
        return None
    try:
        report, shown = _Unpickler(io.BytesIO(kept)).load()
    except Exception:  # whatever fails to decode serves nothing: the run is made in full  # noqa: BLE001
        return None
    if not isinstance(report, Report) or not isinstance(shown, Shown):
        return None
    return Replayed(report, shown, len(observations))


def keep(root: Path, run_key: str, observations: tuple[observed.Observation, ...], since: int, report: Report,
         shown: Shown) -> list[str]:
    """Keep the run (which began at `since`, in ns) for the next check: nothing, or the one stderr
    line of a failed write. The rules keep their contract without their code, and findings
    without the patches `--fix` reads."""
    bare = dataclasses.replace(
        report, rules=tuple(dataclasses.replace(r, check=None, routes=None) for r in report.rules),
        findings=tuple(f if f.patch is None and f.companion is None
                       else dataclasses.replace(f, patch=None, companion=None) for f in report.findings))
    payload = marshal.dumps((since, observations, pickle.dumps((bare, shown), protocol=PROTOCOL)))
    with contextlib.suppress(Unconfined):  # the file, or a folder on its way, is a symlink: nothing kept
        failure = cachedir.write(root, MEMO, _header(run_key), payload)
        return [failure] if failure else []
    return []


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        """The report's own classes and a date, nothing else: even a file sealed with this user's
        key makes nothing more."""
        if (module, name) in MADE:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a report")
