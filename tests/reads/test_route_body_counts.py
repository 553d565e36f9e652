"""A body's words are counted as they are read: route's body index never holds a list of every word
of a long page (two of them were 200 MB for 10 MB of prose), and counts as it did."""

from __future__ import annotations

import tracemalloc
from collections import Counter

from headwater.reads.route.tokens import ENGLISH_STOP_WORDS, Tokenizer
from headwater.reads.terms import counted, tokens

PROSE = "We decided to keep the queue in redis because it is fast, see the guide and the quoted words.\n"


def test_a_long_text_is_counted_as_the_whole_list_of_its_pieces_would_be():
    text = PROSE * 2000 + "Ünïcode wörds İstanbul ſtraße\n" * 3000 + "x" * 70_000 + "\nab ab"
    assert list(counted(text).items()) == list(Counter(tokens(text)).items())


def test_a_long_body_s_words_are_counted_without_holding_a_list_of_them_all():
    tokenizer, text = Tokenizer(ENGLISH_STOP_WORDS), PROSE * 20_000  # 1.9 MB, 360,000 pieces
    tokenizer.counts(PROSE)  # the stemmer loaded and its words memoized, outside the measure
    tracemalloc.start()
    try:
        counts = tokenizer.counts(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert counts["queue"] == 20_000
    assert peak < len(text)  # the two lists came to 25 bytes a character; a stretch at a time, a few KB
