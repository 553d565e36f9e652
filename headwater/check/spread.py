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


def judge_all(ctx: Context, layout: dict[Scope, tuple[Section, ...]]) -> dict[tuple[int, int], Judged]:
    """Every section's verdicts on every subject, by (section identity, subject identity), judged
    across the cores; empty when the documents are too few for that to pay (the runner judges)."""
    documents = [(layout.get(Scope.DOCUMENT, ()), subject) for subject, _ in subjects(ctx, Scope.DOCUMENT)]
    workers = forked.workers_for(len(documents), WORTH_IT)
    if workers < 2:
        return {}
    units: list[Unit] = documents + [(layout.get(Scope.EDGE, ()), edge) for edge, _ in subjects(ctx, Scope.EDGE)]
    corpus: Unit = (layout.get(Scope.CORPUS, ()), None)

    def share(first: int, step: int) -> list[tuple[int, int, Judged]]:
        # subject by subject, as the runner goes (rules share what they derive from the latest one)
        mine = [(index, units[index]) for index in range(first, len(units), step)]
        if first == step - 1:
            mine.append((len(units), corpus))
        return [(at, index, judge(ctx, section, subject))
                for index, (sections, subject) in mine for at, section in enumerate(sections)]

    def pack(verdicts: list[tuple[int, int, Judged]]) -> list[tuple[int, int, str]]:
        return [(at, index, verdict_cache.encode(one.verdicts)) for at, index, one in verdicts]

    everything = [*units, corpus]

    def key(at: int, index: int) -> tuple[int, int]:
        sections, subject = everything[index]
        return id(sections[at]), id(subject)

    mine, theirs = forked.in_shares(share, workers, pack)
    alike: dict[tuple, Judged] = {}  # most verdicts find nothing, and are equal: one object each
    judged = {key(at, index): one if one.found else alike.setdefault(one.verdicts, one) for at, index, one in mine}
    decoded: dict[str, Judged | None] = {}
    for verdicts in theirs:
        for at, index, raw in verdicts:
            one = decoded[raw] if raw in decoded else decoded.setdefault(raw, verdict_cache.decode(raw))
            if one is not None:  # one that does not decode is judged again by the runner
                judged[key(at, index)] = one
    return judged
