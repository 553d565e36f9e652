"""A deferring scorer (HW-DR-0053) makes each stem's sums when a task first asks for it: the same
postings, IDF and ranking as the whole build, and, completed, the whole build's tables in its order.

The vocabulary runs past 256 stems, so stem ids take more than one byte and one id's bytes can
straddle two others in the ids' bytes the gathering searches: such a match must not count."""

from array import array

from hypothesis import given, settings
from hypothesis import strategies as st

from headwater.corpus.document import Document
from headwater.reads.route.index import FIELDS, Entry
from headwater.reads.route.rank import Folded, Scorer
from headwater.reads.route.tokens import ENGLISH_STOP_WORDS, Tokenizer
from headwater.yaml.nodes import Map

VOCABULARY = tuple(f"s{n}" for n in range(700))
TOKENIZER = Tokenizer(ENGLISH_STOP_WORDS)

ROWS = st.lists(st.tuples(*(st.dictionaries(st.sampled_from(VOCABULARY), st.integers(1, 40), max_size=12)
                            for _ in FIELDS)), min_size=1, max_size=25)


def folded(rows: list[tuple[dict[str, int], ...]]) -> Folded:
    return Folded.of(Entry(Document(f"d{n}.md", "page", Map((), 1, 1), "", 0, 1, f"d{n}"), counts)
                     for n, counts in enumerate(rows))


@settings(max_examples=300, deadline=None)
@given(ROWS, st.lists(st.sampled_from(VOCABULARY), max_size=8))
def test_a_deferring_scorer_gathers_the_postings_and_idf_the_whole_build_makes(rows, task):
    whole, deferring = Scorer.over(folded(rows), TOKENIZER), Scorer.deferring(folded(rows), TOKENIZER)
    stems = tuple(dict.fromkeys(task))
    assert deferring.rank(stems) == whole.rank(stems)
    for stem in (*stems, *VOCABULARY[::7]):
        assert deferring.postings(stem) == whole.postings(stem)
        assert deferring.idf.get(stem) == whole.idf.get(stem)


@settings(max_examples=150, deadline=None)
@given(ROWS, st.lists(st.sampled_from(VOCABULARY), max_size=8))
def test_a_completed_scorer_holds_the_whole_build_s_tables_in_its_order(rows, task):
    whole, deferring = Scorer.over(folded(rows), TOKENIZER), Scorer.deferring(folded(rows), TOKENIZER)
    for stem in task:  # both saturate the task's stems, as a first answer does
        whole.postings(stem)
        deferring.postings(stem)
    deferring.complete()
    assert list(deferring.idf.items()) == list(whole.idf.items())
    assert list(vars(deferring)["_sums"].items()) == list(vars(whole)["_sums"].items())
    assert vars(deferring)["_deferred"] == []  # nothing of the counts is kept with the reader
    deferring.complete()  # completing twice changes nothing
    assert list(deferring.idf.items()) == list(whole.idf.items())


def test_an_id_whose_bytes_straddle_two_others_is_not_an_occurrence():
    # The first document's summary gives VOCABULARY[n] the id n; the second's title holds ids 0x1b0
    # and 0x200, side by side in the ids' bytes as b0 01 00 00 | 00 02 00 00, where id 1's bytes
    # (01 00 00 00) open at an odd offset. Only the first and third documents hold stem 1.
    def row(field: int, stems) -> tuple[dict[str, int], ...]:
        return tuple(dict.fromkeys(stems, 1) if f == field else {} for f, _ in enumerate(FIELDS))

    built = folded([row(1, VOCABULARY[:0x201]), row(0, (VOCABULARY[0x1b0], VOCABULARY[0x200])),
                    row(0, (VOCABULARY[1],))])
    raw, needle, size = built.ids.tobytes(), array(built.ids.typecode, (1,)).tobytes(), built.ids.itemsize
    assert [at for at in range(len(raw)) if raw.startswith(needle, at) and at % size]  # the straddle is there
    deferring = Scorer.deferring(built, TOKENIZER)
    assert list(deferring.postings(VOCABULARY[1]).positions) == [0, 2]
    assert deferring.postings(VOCABULARY[1]) == Scorer.over(built, TOKENIZER).postings(VOCABULARY[1])
