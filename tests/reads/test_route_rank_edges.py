"""Route ranking at its edges: a task nothing reaches, and the weight of a stem nobody holds."""

import math
from collections import Counter

from headwater.corpus.document import Document
from headwater.reads.route.index import FIELDS, Entry, RouteIndex
from headwater.reads.route.rank import Ranking, Scorer
from headwater.reads.route.tokens import ENGLISH_STOP_WORDS, Tokenizer
from headwater.yaml.nodes import Map


def scorer(*titles: str) -> Scorer:
    entries = tuple(Entry(Document(f"{t}.md", "page", Map((), 1, 1), "", 0, 1, t),
                          tuple(Counter({t: 1} if name == "title" else {}) for name in FIELDS)) for t in titles)
    return Scorer.of(RouteIndex(entries, Tokenizer(ENGLISH_STOP_WORDS)))


def test_a_task_no_document_reaches_ranks_nothing_with_no_confidence_coverage_or_reached_stem():
    assert scorer("retri", "queue").rank(("zebra", "yak")) == Ranking((), 0.0, 0.0, ())
    assert scorer("retri").rank(()) == Ranking((), 0.0, 0.0, ())


def test_the_weight_of_a_stem_nobody_holds_is_the_idf_of_a_stem_in_no_document():
    built = scorer("retri", "queue", "tenant")
    assert built.max_idf == math.log(1 + (3 + 0.5) / 0.5)
    assert built.idf["retri"] == math.log(1 + (3 - 1 + 0.5) / 1.5) < built.max_idf
