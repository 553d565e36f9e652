"""Route quality, measured: `route` against a plain BM25 ranking of the same summaries.

Run `python tests/benchmarks/route_quality.py` to print the table recorded in BENCHMARKS.md.
Over the labelled set in `corpus_fixtures/routing/labels.yml`:

- hit@budget: the share of on-topic tasks whose every must-offer document is among the
  first `budget` pointers;
- mean rank: the 1-based position of the first must-offer document, a miss counting as
  budget + 1;
- false-pointer rate: the share of off-topic tasks answered with any pointer a task's own
  path did not name (an anchored pointer is identity, not a guess).

BM25 ranks the summaries with `rank-bm25` (Okapi defaults), tokenized as `route` tokenizes,
and offers the top `budget` documents that score above zero.
"""

from __future__ import annotations

import datetime as dt
import sys
from dataclasses import dataclass
from pathlib import Path

from rank_bm25 import BM25Okapi
from ruamel.yaml import YAML

from headwater.reads.route import route
from headwater.reads.terms import tokens
from headwater.snapshot import Snapshot, load

CORPUS = Path(__file__).resolve().parents[2] / "corpus_fixtures" / "routing"
BUDGET = 5
TODAY = dt.date(2026, 11, 1)


@dataclass(frozen=True)
class Offer:
    paths: tuple[str, ...]  # in the order offered
    guessed: tuple[str, ...]  # the ones no path in the task named


@dataclass(frozen=True)
class Score:
    hit: float
    mean_rank: float
    false_pointer_rate: float
    silent_off_topic: int


def labels(corpus: Path = CORPUS) -> dict:
    return YAML(typ="safe").load((corpus / "labels.yml").read_text(encoding="utf-8"))


def route_offer(snapshot: Snapshot, task: str, budget: int) -> Offer:
    answer = route(snapshot, task, budget)
    paths = tuple(o.document.path for o in answer.pointers)
    return Offer(paths, tuple(o.document.path for o in answer.pointers if not o.evidence.anchors))


class Bm25:
    def __init__(self, snapshot: Snapshot) -> None:
        scent = snapshot.taxonomy.facet_for_role("scent")
        documents = snapshot.census.documents
        self.paths = [d.path for d in documents]
        self.index = BM25Okapi([tokens(d.text_of(scent) or "") for d in documents])

    def offer(self, task: str, budget: int) -> Offer:
        scores = self.index.get_scores(tokens(task))
        ranked = sorted((-s, p) for s, p in zip(scores, self.paths, strict=True) if s > 0)
        paths = tuple(p for _, p in ranked[:budget])
        return Offer(paths, paths)


def score(offer_of, labelled: dict, budget: int = BUDGET) -> Score:
    hits, ranks = 0, []
    for case in labelled["on_topic"]:
        offered = offer_of(case["task"], budget).paths[:budget]
        hits += all(p in offered for p in case["offer"])
        positions = [offered.index(p) + 1 for p in case["offer"] if p in offered]
        ranks.append(min(positions) if positions else budget + 1)
    off = labelled["off_topic"]
    guessed = sum(1 for task in off if offer_of(task, budget).guessed)
    return Score(hits / len(labelled["on_topic"]), sum(ranks) / len(ranks), guessed / len(off),
                 len(off) - guessed)


def measure(corpus: Path = CORPUS, budget: int = BUDGET) -> dict[str, Score]:
    snapshot = load(corpus, TODAY)
    labelled = labels(corpus)
    bm25 = Bm25(snapshot)
    return {"route": score(lambda t, b: route_offer(snapshot, t, b), labelled, budget),
            "BM25 (summaries)": score(bm25.offer, labelled, budget)}


def table(results: dict[str, Score], labelled: dict, budget: int = BUDGET) -> str:
    on, off = len(labelled["on_topic"]), len(labelled["off_topic"])
    lines = [f"| ranker | hit@{budget} ({on} on-topic) | mean rank | false-pointer rate ({off} off-topic) |",
             "|---|---|---|---|"]
    for name, s in results.items():
        lines.append(f"| {name} | {s.hit:.2f} | {s.mean_rank:.2f} | {s.false_pointer_rate:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    sys.stdout.write(table(measure(), labels()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
