"""Route quality, measured: `route` against plain BM25 over title + summary + path, on twenty-six
labelled sets — the Relay fixture (corpus_fixtures/routing), thirteen over two real documentation
snapshots unpacked at run time (tests/route_sets: dapr-docs labels.yml, tuned on, held-out.yml,
third.yml, fourth.yml, fifth.yml and sixth.yml, seen; kubernetes-enhancements labels.yml,
held-out.yml, third.yml, fourth.yml, fifth.yml, sixth.yml and seventh.yml, seen) and four over each
of three ADR repositories, bound as a team adopting headwater binds them, by `init` and `adopt`
(tests/route_sets: madr, adr-tools and log4brains labels.yml, second.yml and third.yml, seen;
fourth.yml, written blind and run once, untouched, on HW-DR-0060, held out).

Run `python tests/benchmarks/route_quality.py` to print the tables recorded in BENCHMARKS.md.
Per set, at budget 5:

- hit@1, hit@5: the share of on-topic tasks whose every must-offer document is among the first
  1 (5) pointers;
- mean rank: the 1-based position of the first must-offer document, a miss counting as 6;
- on-topic silence: the share of on-topic tasks answered with no guessed pointer;
- false-pointer rate: the share of off-topic tasks answered with any pointer a task's own path
  or identifier did not name (an anchored or named pointer is identity, not a guess).

BM25 is `rank-bm25` (Okapi defaults) over each document's name and scent facets and path,
tokenized as route tokenizes (stop words out, stems), offering the top 5 documents above zero.
"""

from __future__ import annotations

import datetime as dt
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rank_bm25 import BM25Okapi
from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_corpora import ADOPTED, ADOPTED_SETS, REAL, SETS, LabelledSet, unpack  # noqa: E402

from headwater.reads.route.router import route  # noqa: E402
from headwater.reads.route.tokens import Tokenizer  # noqa: E402
from headwater.snapshot import Snapshot, load  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ROUTING = REPO / "corpus_fixtures" / "routing"
BUDGET = 5
TODAY = dt.date(2026, 11, 1)
ROUTE, BM25 = "route", "BM25 (title + summary + path)"
FIXTURE_TITLE = "`corpus_fixtures/routing` (Relay)"


@dataclass(frozen=True)
class Offer:
    paths: tuple[str, ...]  # in the order offered
    guessed: tuple[str, ...]  # the ones no path in the task named


@dataclass(frozen=True)
class Score:
    hit1: float
    hit: float
    mean_rank: float
    on_topic_silence: float
    false_pointer_rate: float


def fixture_labels() -> dict:
    return YAML(typ="safe").load((ROUTING / "labels.yml").read_text(encoding="utf-8"))


def route_offer(snapshot: Snapshot, task: str, budget: int) -> Offer:
    answer = route(snapshot, task, budget)
    paths = tuple(o.document.path for o in answer.pointers)
    guessed = (o.document.path for o in answer.pointers if not (o.evidence.anchors or o.evidence.named))
    return Offer(paths, tuple(guessed))


class Bm25:
    def __init__(self, snapshot: Snapshot) -> None:
        tax = snapshot.taxonomy
        name, scent = tax.facet_for_role("name"), tax.facet_for_role("scent")
        self.tokenizer = Tokenizer.of(tax)
        documents = snapshot.census.documents
        self.paths = [d.path for d in documents]
        self.index = BM25Okapi([self.tokenizer.stems(" ".join(
            (d.text_of(name) or "", d.text_of(scent) or "", d.path))) or ["\0"] for d in documents])

    def offer(self, task: str, budget: int) -> Offer:
        scores = self.index.get_scores(self.tokenizer.stems(task))
        ranked = sorted((-s, p) for s, p in zip(scores, self.paths, strict=True) if s > 0)
        paths = tuple(p for _, p in ranked[:budget])
        return Offer(paths, paths)


def score(offer_of, labelled: dict, budget: int = BUDGET) -> Score:
    hits1 = hits = silent = 0
    ranks = []
    for case in labelled["on_topic"]:
        offer = offer_of(case["task"], budget)
        offered = offer.paths[:budget]
        hits += all(p in offered for p in case["offer"])
        hits1 += all(p in offered[:1] for p in case["offer"])
        silent += not offer.guessed
        positions = [offered.index(p) + 1 for p in case["offer"] if p in offered]
        ranks.append(min(positions) if positions else budget + 1)
    on, off = len(labelled["on_topic"]), labelled["off_topic"]
    guessed = sum(1 for task in off if offer_of(task, budget).guessed)
    return Score(hits1 / on, hits / on, sum(ranks) / on, silent / on, guessed / len(off))


class Rankers:
    """Route and the BM25 baseline over one snapshot, each built once for every set scored on it
    (route's index over the KEPs' bodies takes seconds to build, and reads never change it)."""

    def __init__(self, root: Path) -> None:
        self.snapshot = load(root, TODAY)
        self.bm25 = Bm25(self.snapshot)

    def measure(self, labelled: dict, budget: int = BUDGET) -> dict[str, Score]:
        return {ROUTE: score(lambda t, b: route_offer(self.snapshot, t, b), labelled, budget),
                BM25: score(self.bm25.offer, labelled, budget)}


def measure_at(root: Path, labelled: dict, budget: int = BUDGET) -> dict[str, Score]:
    return Rankers(root).measure(labelled, budget)


def measure_real(work: Path, budget: int = BUDGET) -> dict[str, tuple[str, dict[str, Score], dict]]:
    """Per labelled set whose archive is present: (title, results, labels); each corpus unpacked
    and loaded once under `work`."""
    rankers = {c.name: Rankers(unpack(c, work)) for c in (*REAL, *ADOPTED) if c.archive.is_file()}
    return {s.key: (titled(s), rankers[s.corpus.name].measure(s.labels, budget), s.labels)
            for s in (*SETS, *ADOPTED_SETS) if s.corpus.name in rankers}


def table(title: str, results: dict[str, Score], labelled: dict, budget: int = BUDGET) -> str:
    on, off = len(labelled["on_topic"]), len(labelled["off_topic"])
    lines = [f"{title}: {on} on-topic and {off} off-topic tasks", "",
             f"| ranker | hit@1 | hit@{budget} | mean rank | on-topic silence | false-pointer rate |",
             "|---|---|---|---|---|---|"]
    for name, s in results.items():
        lines.append(f"| {name} | {s.hit1:.2f} | {s.hit:.2f} | {s.mean_rank:.2f} | "
                     f"{s.on_topic_silence:.2f} | {s.false_pointer_rate:.2f} |")
    return "\n".join(lines) + "\n"


def titled(labelled: LabelledSet) -> str:
    labels = labelled.labels
    return (f"`{labels['archive']}` ({labelled.corpus.name} at `{labels['commit']}`), "
            f"`{labelled.file}`, {labelled.standing}")


def main() -> int:
    out = [table(FIXTURE_TITLE, measure_at(ROUTING, fixture_labels()), fixture_labels())]
    with tempfile.TemporaryDirectory() as work:
        out += [table(*found) for found in measure_real(Path(work)).values()]
    sys.stdout.write("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
