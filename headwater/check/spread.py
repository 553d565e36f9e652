"""Judging documents on every core when a run has no cached verdicts for them.

A document's sections read only the loaded snapshot, so a worker forked after the load judges
every `workers`-th document exactly as the parent would, and sends its verdicts back in the
verdict cache's encoding, which decodes to what was judged (cached and uncached runs print the
same bytes, and the tests hold that). The runner then takes each verdict instead of judging.
"""

from __future__ import annotations

from headwater import forked
from headwater.check import cache as verdict_cache
from headwater.check.context import Context
from headwater.check.instances import Judged, Section, judge
from headwater.corpus.document import Document

WORTH_IT = 200  # documents per process before a fork pays for itself


def judge_all(ctx: Context, sections: tuple[Section, ...], documents: list[Document]) -> dict[tuple[int, int], Judged]:
    """Every section's verdicts on every document, by (section identity, document identity),
    judged across the cores; empty when that does not pay (the runner judges as it goes)."""
    workers = forked.workers_for(len(documents), WORTH_IT)
    if workers < 2:
        return {}

    def share(first: int, step: int) -> list[tuple[int, int, Judged]]:
        # document by document, as the runner goes (rules share what they derive from the latest one)
        return [(at, index, judge(ctx, section, documents[index]))
                for index in range(first, len(documents), step) for at, section in enumerate(sections)]

    def pack(verdicts: list[tuple[int, int, Judged]]) -> list[tuple[int, int, str]]:
        return [(at, index, verdict_cache.encode(one.verdicts)) for at, index, one in verdicts]

    mine, theirs = forked.in_shares(share, workers, pack)
    judged = {(id(sections[at]), id(documents[index])): one for at, index, one in mine}
    decoded: dict[str, Judged | None] = {}
    for verdicts in theirs:
        for at, index, raw in verdicts:
            one = decoded[raw] if raw in decoded else decoded.setdefault(raw, verdict_cache.decode(raw))
            if one is not None:  # one that does not decode is judged again by the runner
                judged[(id(sections[at]), id(documents[index]))] = one
    return judged
