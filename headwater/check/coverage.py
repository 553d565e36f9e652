"""Coverage: what the run saw, classified and checked, and why instances reached no verdict."""

from __future__ import annotations

from dataclasses import dataclass

from headwater.corpus.census import Census


@dataclass(frozen=True)
class SkipCount:
    reason: str
    instances: int


@dataclass(frozen=True)
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


def compute(census: Census, outcomes) -> Coverage:
    reasons: dict[str, int] = {}
    checked: set[str] = set()
    for outcome in outcomes:
        if outcome.skip is not None:
            reasons[outcome.skip] = reasons.get(outcome.skip, 0) + 1
        elif outcome.instance.document is not None:
            checked.add(outcome.instance.document)
    typed = {doc.path for doc in census.documents}
    return Coverage(
        seen=len(census.rows),
        classified=len(typed),
        checked=len(checked & typed),
        instances=len(outcomes),
        skipped=sum(reasons.values()),
        skips=tuple(SkipCount(r, n) for r, n in reasons.items()),
    )
