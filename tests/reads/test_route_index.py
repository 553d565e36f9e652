"""Route's tokenizer and index: stop words, stems, and the five fields each document offers."""

import datetime as dt
from collections import Counter

from headwater.reads.route.index import FIELDS, RouteIndex
from headwater.reads.route.tokens import ENGLISH_STOP_WORDS, LONGEST, SHORT, Tokenizer
from headwater.snapshot import load


def test_plurals_and_inflections_share_a_stem():
    tokenizer = Tokenizer(ENGLISH_STOP_WORDS)
    assert tokenizer.stems("retry retries") == [tokenizer.stem("retry")] * 2
    assert tokenizer.stem("deliveries") == tokenizer.stem("delivery")
    assert tokenizer.stem("posts") == tokenizer.stem("post")


def test_a_numeral_is_its_own_stem_as_snowball_gives_it_and_a_long_text_counts_as_a_short_one():
    import Stemmer

    tokenizer = Tokenizer(ENGLISH_STOP_WORDS)
    snowball = Stemmer.Stemmer("english")
    assert [tokenizer.stem(n) for n in ("0042", "7", "2026")] == [snowball.stemWord(n) for n in ("0042", "7", "2026")]
    assert tokenizer.stem("\u0663\u0664") == snowball.stemWord("\u0663\u0664")  # a non-ASCII numeral asks Snowball
    assert "0042" not in tokenizer._stems
    words = "retries queue the retry 0042 queues " * 8
    assert len(words.split()) > SHORT  # counted first, where a short text is not
    assert tokenizer.counts(words) == dict(Counter(tokenizer.stems(words))) == {"retri": 16, "queue": 16, "0042": 8}
    assert list(tokenizer.counts(words)) == list(tokenizer.counts(words.split("the")[0] + "retry 0042"))


def test_a_run_longer_than_any_word_is_its_own_stem_and_never_reaches_snowball(monkeypatch):
    import Stemmer

    handed: list[int] = []
    real = Stemmer.Stemmer("english")

    class Recording:
        def stemWord(self, word: str) -> str:  # noqa: N802 (Snowball's name)
            handed.append(len(word))
            return real.stemWord(word)

    monkeypatch.setattr(Stemmer, "Stemmer", lambda language: Recording())
    tokenizer = Tokenizer(ENGLISH_STOP_WORDS)
    longest = "a" * (LONGEST - 1) + "s"
    assert tokenizer.stem(longest) == real.stemWord(longest) != longest
    enormous = "y" * 100_000
    assert tokenizer.counts(f"retries {enormous} {enormous}") == {"retri": 1, enormous: 2}
    assert tokenizer.task_words((enormous,)) == ((enormous, enormous),)
    assert handed == [LONGEST, len("retries")] and enormous not in tokenizer._stems


def test_the_memo_stops_growing_at_its_bound_and_a_word_past_it_stems_the_same(monkeypatch):
    from headwater.reads.route import tokens as tokens_module

    assert tokens_module.MEMO == 1 << 17  # well above a real corpus's distinct words
    monkeypatch.setattr(tokens_module, "MEMO", 3)
    tokenizer = Tokenizer(ENGLISH_STOP_WORDS)
    assert tokenizer.stems("queues retries deliveries posts payments") == ["queue", "retri", "deliveri", "post",
                                                                           "payment"]
    assert list(tokenizer._stems) == ["queues", "retries", "deliveries"]
    assert tokenizer.stem("payments") == "payment" and len(tokenizer._stems) == 3


def test_the_built_in_stop_list_drops_grammar_but_keeps_question_words():
    tokenizer = Tokenizer(ENGLISH_STOP_WORDS)
    assert tokenizer.stems("add an RSS feed to the site") == ["add", "rss", "feed", "site"]
    assert tokenizer.stems("why how what") == ["whi", "how", "what"]


def test_a_taxonomy_with_function_words_uses_its_own_list(quickstart):
    tax = load(quickstart, dt.date(2026, 11, 1)).taxonomy
    assert Tokenizer.of(tax).stop_words == tax.function_words != ENGLISH_STOP_WORDS


def test_task_words_keep_the_first_word_of_each_stem_in_order():
    tokenizer = Tokenizer(ENGLISH_STOP_WORDS)
    assert tokenizer.task_words(("retries", "the", "retry", "queue")) == (("retries", "retri"), ("queue", "queue"))


def test_the_index_reads_title_summary_headings_outside_fences_path_segments_and_body(quickstart):
    spec = quickstart / "docs/specifications/queue-retries.md"
    spec.write_text(spec.read_text() + "\n```\n# fenced heading zebra\n```\n\n### Jitter\n\nThe jitter is random.\n")
    snapshot = load(quickstart, dt.date(2026, 11, 1))
    index = RouteIndex.of(snapshot.census.documents, snapshot.taxonomy, "docs")
    entry = next(e for e in index.entries if e.document.path == "docs/specifications/queue-retries.md")
    fields = dict(zip(FIELDS, entry.counts, strict=True))
    assert set(fields["title"]) == {"queue", "retri"}
    assert "wait" in fields["summary"]
    assert "jitter" in fields["headings"] and "zebra" not in fields["headings"]
    assert set(fields["path"]) == {"specif", "queue", "retri"}  # no `docs`, no `md`
    assert "random" in fields["body"] and "jitter" in fields["body"] and "behavior" not in fields["body"]


def test_the_key_of_kept_counts_names_the_stemmer_s_release(monkeypatch):
    import Stemmer

    before = Tokenizer(ENGLISH_STOP_WORDS).key
    monkeypatch.setattr(Stemmer, "version", lambda: "9.9.9")  # a release that may stem a word anew
    assert Tokenizer(ENGLISH_STOP_WORDS).key != before
