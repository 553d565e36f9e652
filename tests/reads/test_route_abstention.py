"""The abstention rule's edges, one at a time: each bar is inclusive, a task's length scales the
bars only beyond SPAN words, a task with no mass or no word count is judged at full bars, and a
document explains a task by its name's share plus the share of the rest it holds as a subject."""

import pytest

from headwater.reads.route.abstention import (
    BROAD,
    CONFIDENT,
    COVERED,
    EXPLAINED,
    NAMED,
    SPAN,
    Agreement,
    explains,
    trusted,
)

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


def test_a_name_holding_exactly_the_explained_share_of_the_mass_explains_the_task():
    assert explains((("lease", ("title",)),), {"lease": EXPLAINED}, 1.0, {})
    assert not explains((("lease", ("title",)),), {"lease": EXPLAINED - 1e-9}, 1.0, {})


def test_a_body_word_explains_the_rest_by_how_much_the_body_dwells_on_it():
    """Half the mass held only in the body, at a depth that makes exactly EXPLAINED of the rest."""
    held, idf = (("lease", ("body",)),), {"lease": 0.5}
    at_bar = EXPLAINED / 0.5
    assert explains(held, idf, 1.0, {"lease": at_bar})
    assert not explains(held, idf, 1.0, {"lease": at_bar - 1e-9})
    assert explains(held, idf, 1.0, {})  # a word with no depth given (a heading) counts in full


def test_the_rest_is_a_share_of_the_mass_the_name_leaves():
    """The name holds 0.2 of a mass of 1.0; a heading word of 0.096 is 0.12 of the 0.8 left, so
    the two make EXPLAINED exactly (0.2 + 0.12), where over the whole mass they would not."""
    idf = {"lease": 0.2, "renew": 0.096}
    held = (("lease", ("title",)), ("renew", ("headings",)))
    assert explains(held, idf, 1.0, {}) and EXPLAINED > 0.2 + 0.096
    assert not explains(held, {**idf, "renew": 0.095}, 1.0, {})


def test_a_word_in_the_name_is_not_counted_again_in_the_rest():
    assert not explains((("lease", ("title", "body")),), {"lease": 0.2}, 1.0, {})


def test_a_task_its_name_holds_whole_is_explained_and_one_with_no_mass_is_not():
    assert explains((("lease", ("title",)),), {"lease": 2.0}, 2.0, {})  # nothing left for a rest
    assert not explains((), {}, 0.0, {})


@pytest.mark.parametrize("explained", [True, False])
def test_a_task_the_first_document_does_not_explain_is_never_trusted(explained):
    agreement = Agreement.of((("lease", ("title",)),), 1, {"lease": 1.0}, 1.0, 1, explained)
    assert agreement.explained is explained and agreement.corroborated
    assert trusted(1.0, 1.0, CONFIDENT, agreement) is explained
