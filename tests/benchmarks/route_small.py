"""Route on a small folder of decision records: two levers measured over every seen real set.

On the three ADR repositories (9 to 19 records, bound by `init` and `adopt`) route is silent on
most tasks it should answer, while its ranking alone puts the right record first on most of them:
the loss is the abstention rule's. HW-DR-0057 measured four levers here; two became route in
HW-DR-0059 (`init` reads the records' context as their summary, and the lead vouches where the
words it holds would meet by no chance). The other two are measured as route whole, in hits at
five, hits at one and traps answered, over every seen set of each corpus, the ADR sets beside
dapr-docs and kubernetes-enhancements (where the bars were set), against route as it is:

- `rarest`: a word the corpus lacks weighs as a word one document holds (`rank.UNSEEN` set to
  the IDF at one document over the IDF at none, the corpus's own ratio), not at the maximum IDF;
- `background`: a word the corpus lacks weighs by how rare it is in English (its Zipf frequency,
  from the `wordfreq` package, 6 or more counting nothing and 4 or less in full); measured only
  where `wordfreq` is importable: headwater depends on no such list.

Run it as `python tests/benchmarks/route_small.py` (about ten minutes); it does not change route.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import route_weights as weights  # noqa: E402
from real_corpora import ADOPTED, ADOPTED_SETS, REAL, SETS, RealCorpus, unpack  # noqa: E402
from route_quality import TODAY  # noqa: E402

from headwater.reads.route import rank  # noqa: E402
from headwater.reads.terms import terms  # noqa: E402
from headwater.snapshot import load  # noqa: E402

COMMON, RARE = 6.0, 4.0  # Zipf frequencies: a word this common counts nothing, this rare in full


class Weighed(dict):
    """A scorer's IDF table whose missing words weigh `absent(stem)` of the maximum IDF."""

    def __init__(self, idf: dict[str, float], absent: Callable[[str], float]) -> None:
        super().__init__(idf)
        self.absent = absent

    def get(self, stem, default=None):
        if stem in self or not default:  # an excused stem's default is 0.0
            return super().get(stem, default)
        return default * self.absent(stem)


def background() -> Callable[[str], float] | None:
    """A word's weight by its English frequency, or None without `wordfreq`."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        return None
    return lambda word: min(1.0, max(0.0, (COMMON - zipf_frequency(word, "en")) / (COMMON - RARE)))


def weighed(corpus: weights.Corpus, by_word: Callable[[str], float]) -> tuple[int, int, int]:
    """Route whole with each missing task word weighed by `by_word` (its stem's heaviest word)."""
    words = {stem: word for task, _ in corpus.cases
             for word, stem in corpus.tokenizer.task_words(terms(task))}
    over = rank.Scorer.over

    def weighing(folded, tokenizer):
        scorer = over(folded, tokenizer)
        object.__setattr__(scorer, "idf", Weighed(scorer.idf, lambda stem: by_word(words.get(stem, stem))))
        return scorer

    rank.Scorer.over = staticmethod(weighing)
    try:
        return corpus.routed(weights.AS_IT_IS)
    finally:
        rank.Scorer.over = staticmethod(over)


def cases_of(corpus: RealCorpus) -> list[weights.Case]:
    found: list[weights.Case] = []
    for labelled in (s for s in (*SETS, *ADOPTED_SETS) if s.corpus is corpus and s.standing != "held out"):
        found += [(case["task"], tuple(case["offer"])) for case in labelled.labels["on_topic"]]
        found += [(task, None) for task in labelled.labels["off_topic"]]
    return found


def measured(name: str, measuring: weights.Corpus, by_word: Callable[[str], float] | None) -> list[str]:
    """As it is, an absent word as the rarest held one, and an absent word by English frequency."""
    total = len(measuring.snapshot.census.documents)
    row = [name, str(total), str(measuring.routed(weights.AS_IT_IS))]
    rank.UNSEEN = rank._idf(total, 1) / rank._idf(total, 0)
    try:
        row.append(f"{measuring.routed(weights.AS_IT_IS)} at {rank.UNSEEN:.2f}")
    finally:
        rank.UNSEEN = 1.0
    row.append(str(weighed(measuring, by_word)) if by_word else "not measured")
    return row


def main() -> int:
    by_word = background()
    lines = ["route whole: (hits at five, hits at one, traps answered) over every seen set", "",
             "| corpus | documents | as it is | rarest | background |", "|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as work:
        for corpus in (c for c in (*REAL, *ADOPTED) if c.archive.is_file()):
            measuring = weights.Corpus(load(unpack(corpus, Path(work)), TODAY), cases_of(corpus))
            lines.append("| " + " | ".join(measured(corpus.name, measuring, by_word)) + " |")
            print(lines[-1], flush=True)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
