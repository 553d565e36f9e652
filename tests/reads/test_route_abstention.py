"""The abstention rule's edges, one at a time: each bar is inclusive, a task's length scales the
bars only beyond SPAN words, and a task with no mass or no word count is judged at full bars."""

from headwater.reads.route.abstention import BROAD, CONFIDENT, COVERED, NAMED, SPAN, Agreement, trusted

AGREED = Agreement(named=True, one_word=False, corroborated=True)


def _one_title_word(idf: float, mass: float, words: int = 0) -> Agreement:
    """The best document holds one task word, in its title, of five the corpus knows: too few to
    corroborate by count, so only the name's share of the mass can."""
    return Agreement.of((("lease", ("title",)),), 5, {"lease": idf}, mass, words)


def test_a_confidence_exactly_at_the_bar_is_trusted():
    assert trusted(CONFIDENT, 0.0, CONFIDENT, AGREED)
    assert not trusted(CONFIDENT - 1e-9, 0.0, CONFIDENT, AGREED)


def test_a_broad_match_exactly_at_both_of_its_bars_is_trusted():
    at_broad = CONFIDENT * AGREED.scale * BROAD  # computed as the rule computes it
    assert trusted(at_broad, COVERED, CONFIDENT, AGREED)
    assert not trusted(at_broad, COVERED - 1e-9, CONFIDENT, AGREED)
    assert not trusted(at_broad - 1e-9, COVERED, CONFIDENT, AGREED)


def test_a_name_holding_exactly_the_named_share_of_the_mass_corroborates():
    assert _one_title_word(NAMED, 1.0).corroborated
    assert not _one_title_word(NAMED - 1e-9, 1.0).corroborated


def test_a_long_task_needs_its_name_to_hold_only_span_words_worth_of_the_share():
    words = 2 * SPAN  # the bars are halved
    share = NAMED * 0.6  # under the full bar, over the halved one
    assert _one_title_word(share, 1.0, words).scale == 0.5
    assert _one_title_word(share, 1.0, words).corroborated
    assert not _one_title_word(share, 1.0, SPAN).corroborated


def test_a_task_of_no_counted_words_is_judged_at_full_bars():
    assert _one_title_word(NAMED, 1.0, 0).scale == 1.0
    assert _one_title_word(NAMED, 1.0, SPAN).scale == 1.0


def test_a_task_with_no_mass_is_not_corroborated_by_the_name():
    assert not _one_title_word(NAMED, 0.0).corroborated
