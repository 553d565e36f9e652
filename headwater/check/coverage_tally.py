"""Coverage: what the run saw, classified and checked, and why instances reached no verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

from headwater.frozen import frozen

if TYPE_CHECKING:  # a replayed report's coverage is unpickled without the census
    from headwater.corpus.census import Census


@frozen
class SkipCount:
    reason: str
    instances: int


@frozen
class Coverage:
    seen: int
    classified: int
    checked: int
    instances: int
    skipped: int
    skips: tuple[SkipCount, ...]  # in first-seen order

    def as_json(self) -> dict:
        return {"seen": self.seen, "classified": self.classified, "checked": self.checked,
                "instances": self.instances, "skipped": self.skipped,
                "skips": [{"reason": s.reason, "instances": s.instances} for s in self.skips]}


class Tally:
    """What coverage reads of a run's instances: how many, how many of each document's were
    skipped, and why, in the order the instance list (rules in registry order, then subjects)
    first meets each reason."""

    def __init__(self) -> None:
        self.instances = 0
        self.documents: dict[str, list[int]] = {}  # path → [instances, skipped]
        self.reasons: dict[str, list] = {}  # reason → [instances, (rule position, subject index)]

    def add(self, document: str | None, reached: int, skips: tuple[tuple[str, int], ...] = (), index: int = 0) -> None:
        """`reached` instances of one subject, the `index`-th of its kind, counted against
        `document`; `skips` are those skipped, each as (reason, its rule's registry position)."""
        self.instances += reached
        if document is not None and reached:
            counts = self.documents.get(document)
            if counts is None:
                self.documents[document] = [reached, len(skips)]
            else:
                counts[0] += reached
                counts[1] += len(skips)
        reasons = self.reasons
        for reason, position in skips:
            entry = reasons.get(reason)
            if entry is None:
                reasons[reason] = [1, (position, index)]
            else:
                entry[0] += 1
                if position < entry[1][0]:  # a rule judges one kind, whose subjects come in index order
                    entry[1] = (position, index)

    def absorb(self, other: Tally) -> None:
        """Another tally's instances, of other subjects, taken into this one: what one tally of
        them all would hold. A reason's first instance is the least (rule position, subject index)
        of either, as a rule judges one kind, whose subjects each tally took in index order."""
        self.instances += other.instances
        if not self.documents:
            self.documents = other.documents  # taken whole: the other is not kept
        else:
            for document, (reached, skipped) in other.documents.items():
                counts = self.documents.setdefault(document, [0, 0])
                counts[0] += reached
                counts[1] += skipped
        for reason, (instances, first) in other.reasons.items():
            entry = self.reasons.setdefault(reason, [0, first])
            entry[0] += instances
            entry[1] = min(entry[1], first)

    def skips(self) -> tuple[SkipCount, ...]:
        return tuple(SkipCount(reason, n) for reason, (n, _) in sorted(self.reasons.items(), key=lambda i: i[1][1]))


def compute(census: Census, tally: Tally) -> Coverage:
    typed = {doc.path for doc in census.documents}
    checked = {path for path, (reached, skipped) in tally.documents.items() if reached > skipped}
    skips = tally.skips()
    return Coverage(
        seen=len(census.rows),
        classified=len(typed),
        checked=len(checked & typed),
        instances=tally.instances,
        skipped=sum(s.instances for s in skips),
        skips=skips,
    )
