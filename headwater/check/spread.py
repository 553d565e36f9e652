"""Judging every subject on every core when a run has no cached verdicts for them.

A subject's sections read only the loaded snapshot, so a worker forked after the load judges
every `workers`-th document and edge exactly as the parent would, and sends its verdicts back
in the verdict cache's encoding, which decodes to what was judged (cached and uncached runs
print the same bytes, and the tests hold that). The corpus's own sections, one subject judged
once, go to the last share, a worker's: the parent has the merge to do after its share. The
runner then takes each verdict instead of judging.
"""

from __future__ import annotations

from headwater import forked
from headwater.check import cache as verdict_cache
from headwater.check.context import Context
from headwater.check.instances import Judged, Section, Subject, judge, subjects
from headwater.check.rule import Scope

WORTH_IT = 200  # documents per process before a fork pays for itself

Unit = tuple[tuple[Section, ...], Subject]  # a subject with the sections judged of it


class Ahead:
    """Verdicts judged ahead, handed to the runner as it asks for each (`pop`, by section and
    subject identity): held per subject in section order, each distinct verdict once, for a
    dict entry per verdict cost more memory than the verdicts (about 20 MB at 10,000 documents)."""

    def __init__(self, units: list[Unit]) -> None:
        self.unit = {id(subject): index for index, (_, subject) in enumerate(units)}
        self.at = {id(section): at for sections, _ in units for at, section in enumerate(sections)}
        self.rows: list[list[Judged | None] | None] = [None] * len(units)

    def pop(self, key: tuple[int, int], default: Judged | None = None, /) -> Judged | None:
        section, subject = key
        index, at = self.unit.get(subject), self.at.get(section)
        row = self.rows[index] if index is not None and at is not None else None
        if row is None or row[at] is None:
            return default
        one, row[at] = row[at], None
        return one


def judge_all(ctx: Context, layout: dict[Scope, tuple[Section, ...]]) -> Ahead | None:
    """Every section's verdicts on every subject, judged across the cores; None when the
    documents are too few for that to pay (the runner then judges as it goes)."""
    documents = [(layout.get(Scope.DOCUMENT, ()), subject) for subject, _ in subjects(ctx, Scope.DOCUMENT)]
    workers = forked.workers_for(len(documents), WORTH_IT)
    if workers < 2:
        return None
    units: list[Unit] = [*documents, *((layout.get(Scope.EDGE, ()), edge) for edge, _ in subjects(ctx, Scope.EDGE)),
                         (layout.get(Scope.CORPUS, ()), None)]
    last = len(units) - 1

    def share(first: int, step: int) -> list[tuple[int, list[Judged]]]:
        # subject by subject, as the runner goes (rules share what they derive from the latest one)
        mine = [*range(first, last, step), *([last] if first == step - 1 else [])]
        alike: dict[tuple, Judged] = {}  # most verdicts find nothing, and are equal: one object each
        return [(index, [_one(judge(ctx, section, units[index][1]), alike) for section in units[index][0]])
                for index in mine]

    def pack(judged: list[tuple[int, list[Judged]]]) -> list[tuple[int, list[str]]]:
        encoded: dict[int, str] = {}  # each distinct verdict encoded once, and pickled once
        return [(index, [encoded[id(one)] if id(one) in encoded else
                         encoded.setdefault(id(one), verdict_cache.encode(one.verdicts)) for one in row])
                for index, row in judged]

    mine, theirs = forked.in_shares(share, workers, pack)
    ahead = Ahead(units)
    for index, row in mine:
        ahead.rows[index] = list(row)
    decoded: dict[str, Judged | None] = {}
    for part in theirs:
        for index, raws in part:  # a verdict that does not decode is judged again by the runner
            ahead.rows[index] = [decoded[raw] if raw in decoded else decoded.setdefault(raw, verdict_cache.decode(raw))
                                 for raw in raws]
    return ahead


def _one(judged: Judged, alike: dict[tuple, Judged]) -> Judged:
    return alike.setdefault(judged.verdicts, judged) if not judged.found else judged
