"""The ranking module's weighting, pinned: field weights, k1, b, IDF, the confidence and the cuts.

Each test builds a route index by hand (per document, per field, stem → occurrences), so a change
to any constant or to the arithmetic fails a test here before it moves a labelled set.
"""

import math
from collections import Counter

import pytest

from headwater.corpus.document import Document
from headwater.reads.route import abstention
from headwater.reads.route import rank as route_rank
from headwater.reads.route.index import FIELDS, Entry, RouteIndex
from headwater.reads.route.rank import Scorer
from headwater.reads.route.tokens import ENGLISH_STOP_WORDS, Tokenizer
from headwater.yaml.nodes import Map


def _entry(where: str, /, **fields: dict[str, int]) -> Entry:
    document = Document(where, "page", Map((), 1, 1), "", "", 1, where)
    return Entry(document, tuple(Counter(fields.get(name, {})) for name in FIELDS))


def _scorer(*entries: Entry) -> Scorer:
    return Scorer.of(RouteIndex(tuple(entries), Tokenizer(ENGLISH_STOP_WORDS)))


def _ranked(scorer: Scorer, *stems: str) -> list[str]:
    """Every document a stem reaches, best first (no floor)."""
    return [scorer.document(h).path for h in scorer.rank(stems, floor=0.0).hits]


def test_the_weights_k1_b_and_thresholds_are_the_ones_chosen_on_dapr_docs():
    assert route_rank.WEIGHTS == {"title": 3.0, "summary": 2.0, "headings": 0.5, "path": 2.0, "body": 0.1,
                                  "lead": 2.0}
    assert set(route_rank.UNVOUCHED) == {"lead"}
    assert (route_rank.K1, route_rank.B, route_rank.CAPS) == (1.6, 0.75, {"body": 1.0})
    assert (abstention.CONFIDENT, route_rank.FLOOR, route_rank.PRIOR, route_rank.UNSEEN) == (0.27, 0.35, 0.10, 1.0)
    assert (abstention.BROAD, abstention.COVERED) == (0.6, 0.5)
    assert (abstention.CORROBORATED, abstention.NAMED, abstention.SPAN) == (0.7, 0.35, 5)
    assert abstention.EXPLAINED == 0.32


def test_one_occurrence_ranks_title_over_summary_and_path_over_headings_over_body():
    filler = {"x": 1}
    scorer = _scorer(*(_entry(f"{name}.md", **{f: ({"retri": 1} if f == name else filler) for f in FIELDS})
                       for name in FIELDS), _entry("other.md", body={"y": 1}))
    order = _ranked(scorer, "retri")
    assert order[0] == "title.md" and order[-1] == "body.md"
    assert order.index("summary.md") < order.index("headings.md")
    assert order.index("path.md") < order.index("headings.md")


def test_a_lead_ranks_a_document_but_confidence_is_judged_as_if_it_were_not_there():
    def scorer(lead: dict[str, int]) -> Scorer:
        return _scorer(_entry("a.md", title={"queue": 1}, body={"retri": 1}, lead=lead),
                       _entry("b.md", title={"retri": 1}), _entry("c.md", title={"other": 1}))
    with_lead, without = scorer({"retri": 3, "queue": 1}).rank(("retri", "queue")), scorer({}).rank(("retri", "queue"))
    assert [h.position for h in with_lead.hits][:1] == [0] and with_lead.hits[0].score > without.hits[0].score
    assert (with_lead.confidence, with_lead.coverage) == (without.confidence, without.coverage)


def test_a_score_is_idf_times_the_saturated_length_normalised_weighted_frequency():
    scorer = _scorer(_entry("a.md", title={"retri": 2, "queue": 2}), _entry("b.md", title={"other": 4}),
                     _entry("c.md", body={"other": 1}))
    mean_title = (4 + 4 + 0) / 3
    tf = 2 * 3.0 / (1 - 0.75 + 0.75 * 4 / mean_title)
    idf = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))
    hit = scorer.rank(("retri",)).hits[0]
    assert hit.score == pytest.approx(idf * tf / (1.6 + tf))
    assert scorer.fields(hit.position, ("retri", "queue", "zebra")) == (("retri", ("title",)), ("queue", ("title",)))


def test_a_rarer_stem_weighs_more_than_a_common_one():
    scorer = _scorer(_entry("a.md", title={"rare": 1, "x": 1}), _entry("b.md", title={"common": 1, "x": 1}),
                     _entry("c.md", title={"common": 1}), _entry("d.md", title={"common": 1}))
    assert scorer.idf["rare"] > scorer.idf["common"]
    assert _ranked(scorer, "rare", "common")[0] == "a.md"


def test_a_longer_field_dilutes_the_same_occurrence():
    scorer = _scorer(_entry("short.md", title={"retri": 1}),
                     _entry("long.md", title={"retri": 1, "a": 1, "b": 1, "c": 1, "d": 1}),
                     _entry("none.md", body={"z": 1}))
    assert _ranked(scorer, "retri") == ["short.md", "long.md"]


def test_ties_are_broken_by_path_which_is_the_index_order():
    scorer = _scorer(_entry("a.md", title={"retri": 1}), _entry("b.md", title={"x": 1}),
                     _entry("c.md", title={"retri": 1}), _entry("d.md", title={"retri": 1}))
    assert _ranked(scorer, "retri") == ["a.md", "c.md", "d.md"]


def test_confidence_is_the_best_score_over_the_task_mass_an_unseen_stem_counting_at_the_maximum_idf():
    scorer = _scorer(_entry("a.md", title={"retri": 1}), _entry("b.md", title={"x": 1}))
    alone = scorer.rank(("retri",))
    assert alone.confidence == pytest.approx(alone.hits[0].score / scorer.idf["retri"])
    with_unseen = scorer.rank(("retri", "zebra"))
    assert with_unseen.confidence == pytest.approx(alone.hits[0].score / (scorer.idf["retri"] + scorer.max_idf))
    excused = scorer.rank(("retri", "why"), excused=frozenset({"why"}))
    assert excused.confidence == pytest.approx(alone.confidence)
    assert with_unseen.reached == ("retri",)


def test_the_purpose_prior_multiplies_a_favoured_score_and_leaves_confidence_alone():
    scorer = _scorer(_entry("a.md", title={"retri": 1}), _entry("b.md", title={"retri": 1}))
    plain = scorer.rank(("retri",), floor=0.0)
    favoured = scorer.rank(("retri",), favoured=lambda position: position == 1, floor=0.0)
    assert [scorer.document(h).path for h in favoured.hits] == ["b.md", "a.md"]
    assert favoured.hits[0].score == pytest.approx(plain.hits[0].score * 1.10)
    assert favoured.confidence == plain.confidence


def test_nothing_is_offered_below_the_confidence_threshold_and_a_weak_tail_is_cut():
    scorer = _scorer(_entry("strong.md", title={"retri": 1, "queue": 1}), _entry("weak.md", body={"queue": 1}),
                     *(_entry(f"f{i}.md", title={"filler": 1}) for i in range(8)))
    ranking = scorer.rank(("retri", "queue"), confident=abstention.CONFIDENT)
    assert ranking.confidence >= abstention.CONFIDENT
    assert [scorer.document(h).path for h in ranking.hits] == ["strong.md"]
    unsure = scorer.rank(("retri", "zebra", "yak", "gnu", "emu"), confident=abstention.CONFIDENT)
    assert unsure.hits == () and 0 < unsure.confidence < abstention.CONFIDENT


def test_placing_puts_a_live_successor_ahead_of_its_terminal_document_once():
    from headwater.reads.route.state import Place, placed

    successors, terminal = {"old.md": "new.md", "gone.md": "new.md"}, frozenset({"old.md", "gone.md", "dead.md"})
    assert placed(["old.md", "x.md", "new.md", "dead.md", "gone.md"], 5, successors, terminal) == (
        [Place("new.md", succeeds="old.md"), Place("old.md", successor="new.md"), Place("x.md"),
         Place("gone.md", successor="new.md")], 0)
    assert placed(["old.md", "x.md"], 1, successors, terminal) == ([Place("new.md", succeeds="old.md")], 2)
    assert placed(["old.md"], 2, successors, terminal, frozenset({"new.md"})) == (
        [Place("old.md", successor="new.md")], 0)


def test_a_body_that_repeats_a_word_adds_no_more_than_the_cap_to_its_frequency():
    scorer = _scorer(_entry("long.md", body={"page": 400, "x": 1600}), _entry("few.md", body={"page": 40, "x": 160}),
                     _entry("other.md", body={"y": 2000}))
    capped = route_rank.CAPS["body"]
    long, few = (h.score for h in scorer.rank(("page",), floor=0.0).hits)
    assert long == pytest.approx(few) == pytest.approx(scorer.idf["page"] * capped / (1.6 + capped))


def test_a_task_its_best_document_covers_is_answered_under_the_threshold_and_a_one_word_match_is_not():
    """The covering document holds every task stem, in the body, and scores between BROAD of the
    threshold and the threshold; the one-word match scores the same share and covers a third."""
    def ranked(*entries: Entry, stems: tuple[str, ...]) -> route_rank.Ranking:
        fillers = (_entry(f"f{i}.md", title={"filler": 1}, body={"other": 30}) for i in range(30))
        return _scorer(*entries, *fillers).rank(stems, confident=abstention.CONFIDENT)

    covering = ranked(_entry("guide.md", title={"actor": 1, "x": 3}, body={"deadlock": 1, "reentr": 1, "other": 27}),
                      stems=("actor", "deadlock", "reentr"))
    assert covering.coverage == pytest.approx(1.0)
    assert abstention.CONFIDENT * abstention.BROAD <= covering.confidence < abstention.CONFIDENT
    assert [h.position for h in covering.hits] == [0]
    lone = ranked(_entry("page.md", title={"page": 1, "x": 1}, body={"other": 30}), _entry("font.md", body={"font": 1}),
                  _entry("footer.md", body={"footer": 1}), stems=("page", "font", "footer"))
    assert abstention.CONFIDENT * abstention.BROAD <= lone.confidence < abstention.CONFIDENT
    assert lone.coverage < abstention.COVERED and lone.hits == ()


def test_a_broad_match_is_answered_only_when_the_best_documents_name_holds_a_task_word():
    """The same page holds every task stem in its headings and body and scores in the broad band;
    it is answered once its path says `actor`, and silent while only its headings and body do."""
    def ranked(**name: dict[str, int]) -> route_rank.Ranking:
        fillers = (_entry(f"f{i}.md", title={"filler": 1}, headings={"other": 3}, body={"other": 30})
                   for i in range(30))
        page = _entry("guide.md", title={"x": 3}, headings={"actor": 1, "deadlock": 1, "other": 3},
                      body={"actor": 1, "deadlock": 1, "reentr": 1, "other": 27}, **name)
        return _scorer(page, *fillers).rank(("actor", "deadlock", "reentr"), confident=abstention.CONFIDENT)

    for ranking in (ranked(), ranked(path={"actor": 1, "y": 4})):
        assert ranking.coverage == pytest.approx(1.0)
        assert abstention.CONFIDENT * abstention.BROAD <= ranking.confidence < abstention.CONFIDENT
    assert ranked().hits == ()
    assert [h.position for h in ranked(path={"actor": 1, "y": 4}).hits] == [0]


def test_a_match_resting_on_one_word_is_silent_while_two_other_task_words_the_corpus_knows_pass_it_by():
    scorer = _scorer(_entry("gzip.md", title={"compress": 1}),
                     *(_entry(f"a{i}.md", title={"imag": 1}) for i in range(5)),
                     *(_entry(f"b{i}.md", title={"page": 1}) for i in range(5)),
                     *(_entry(f"f{i}.md", title={"filler": 1}, body={"other": 30}) for i in range(30)))
    lone = scorer.rank(("compress", "imag", "page"), confident=abstention.CONFIDENT)
    assert lone.confidence >= abstention.CONFIDENT and lone.hits == ()
    one_other = scorer.rank(("compress", "imag"), confident=abstention.CONFIDENT)
    assert scorer.document(one_other.hits[0]).path == "gzip.md"


def test_a_strong_match_the_rest_of_the_task_does_not_corroborate_is_silent_until_the_page_holds_most_of_it():
    """The page holds `mesh` in its title and `network` in its headings and body: confident, but two
    of five task words, and its name under NAMED of the task's mass. Holding `wifi` too (three of
    five) does not corroborate it; holding `wifi` and `home` (four of five) does."""
    def ranked(**more: int) -> route_rank.Ranking:
        page = _entry("mesh.md", title={"mesh": 1}, headings={"network": 1}, body={"network": 20, "other": 20, **more})
        others = (_entry(f"{word}{i}.md", title={word: 1}) for word in ("wifi", "home", "router") for i in range(6))
        fillers = (_entry(f"f{i}.md", title={"filler": 1}, body={"other": 30}) for i in range(30))
        return _scorer(page, *others, *fillers).rank(("mesh", "wifi", "network", "home", "router"),
                                                     confident=abstention.CONFIDENT)

    alone = ranked()
    assert alone.confidence >= abstention.CONFIDENT and alone.hits == ()
    three = ranked(wifi=20)
    assert three.confidence >= abstention.CONFIDENT and three.hits == ()
    corroborated = ranked(wifi=20, home=20)
    assert corroborated.confidence >= abstention.CONFIDENT and corroborated.hits[0].position == 0


def test_a_long_task_is_judged_as_if_it_were_span_words_long():
    """Ten task words, four of them held by the best document in its body: at a confidence
    between SPAN/10 of the threshold and the threshold it is answered; the same agreement in a task
    of SPAN words is not. Corroboration counts held words against at most SPAN known words."""
    held = tuple((stem, ("body",)) for stem in ("a", "b", "c", "d"))
    idf = dict.fromkeys("abcdefghij", 1.0)
    long = abstention.Agreement.of(held, 10, idf, 10.0, 10)
    short = abstention.Agreement.of(held, 5, idf, 10.0, 5)
    assert long.scale == pytest.approx(abstention.SPAN / 10) and short.scale == 1.0
    assert long.corroborated and short.corroborated  # four held of at most five known
    assert not abstention.Agreement.of(held[:3], 10, idf, 10.0, 10).corroborated  # three of five: too few
    between = abstention.CONFIDENT * 0.75
    assert abstention.trusted(between, 0.4, abstention.CONFIDENT, long)
    assert not abstention.trusted(between, 0.4, abstention.CONFIDENT, short)


def test_a_body_word_counts_toward_explaining_a_task_by_the_square_root_of_its_saturation():
    """Said ten times in a body of average length, a word reaches the body's cap and counts in
    full; said once, the square root of its share of the most a body gives. A lead that holds it
    too (it ranks but does not vouch) adds nothing to how much the body says it."""
    page = _entry("page.md", title={"other": 1}, body={"lease": 10, "renew": 1, "x": 9}, lead={"renew": 2})
    scorer = _scorer(page, _entry("f.md", body={"x": 20}))
    scorer.rank(("lease", "renew"), floor=0.0)  # saturates both stems
    depths = scorer._depths(0, (("lease", ("body",)), ("renew", ("body", "lead")), ("other", ("title",))))
    assert depths["lease"] == pytest.approx(1.0) and "other" not in depths
    once = 0.1 / (1 - route_rank.B + route_rank.B * 20 / 20)  # the body's length is the mean
    assert depths["renew"] == pytest.approx(math.sqrt(once / (route_rank.K1 + once) / route_rank.SATURATED))


def test_a_page_met_on_its_name_in_another_sense_is_silent_until_its_body_dwells_on_the_rest():
    """"use a sentinel node to simplify deleting from a linked list pointer": the page named for
    the task's rarest word holds four of its other words once each in a long body, in passing, as
    any long page may; the same page saying them thirty times explains the task. Both are broad
    matches the other guards trust."""
    words = ("node", "list", "delet", "simplifi")
    task = ("sentinel", *words, "link", "pointer")

    def ranked(times: int) -> tuple[route_rank.Ranking, abstention.Agreement]:
        page = _entry("sentinel.md", title={"sentinel": 1}, body={**dict.fromkeys(words, times), "other": 400})
        others = (_entry(f"{word}{i}.md", title={word: 1}) for word in (*words, "link", "pointer") for i in range(3))
        fillers = (_entry(f"f{i}.md", title={"filler": 1}, body={"other": 40}) for i in range(30))
        scorer = _scorer(page, *others, *fillers)
        ranking = scorer.rank(task, confident=abstention.CONFIDENT)
        mass = sum(scorer.idf[stem] for stem in task)
        return ranking, abstention.Agreement.of(scorer._vouched(0, task), len(task), scorer.idf, mass, len(task))

    (passing, agreed), (dwelt, _) = ranked(1), ranked(30)
    assert abstention.trusted(passing.confidence, passing.coverage, abstention.CONFIDENT, agreed)
    assert passing.hits == ()
    assert dwelt.hits[0].position == 0


def _records(holding: int) -> Scorer:
    """Six records with no summary; the first's lead (its context) says `quokka` and `migrat`
    twice and its body once, as the bodies of `holding - 1` others do."""
    shared = {"quokka": 1, "migrat": 1}
    first = _entry("0001-move.md", title={"move": 1}, body={**shared, "plan": 4}, lead={"quokka": 2, "migrat": 2})
    others = [_entry(f"000{n}-other.md", title={f"t{n}": 1}, body={**(shared if n <= holding else {}), "plan": 4})
              for n in range(2, 7)]
    return _scorer(first, *others)


def test_where_only_the_lead_holds_the_task_the_lead_vouches_unless_chance_explains_it(monkeypatch):
    assert route_rank.CHANCE == 1.0
    task = ("quokka", "migrat")
    rare = _records(1)
    assert rare._expected(0, task) == pytest.approx(6 * (1 / 6) ** 2)
    assert [h.position for h in rare.rank(task, confident=abstention.CONFIDENT).hits][:1] == [0]
    monkeypatch.setattr(route_rank, "CHANCE", 0.0)  # the lead never vouching: the body alone is too thin
    assert _records(1).rank(task, confident=abstention.CONFIDENT).hits == ()


def test_a_lead_holding_words_most_records_prose_holds_does_not_vouch(monkeypatch):
    task = ("quokka", "migrat")
    common = _records(3)
    assert common._expected(0, task) == pytest.approx(6 * (3 / 6) ** 2)
    assert common.rank(task, confident=abstention.CONFIDENT).hits == ()
    monkeypatch.setattr(route_rank, "CHANCE", math.inf)  # without the chance test it would answer
    assert [h.position for h in _records(3).rank(task, confident=abstention.CONFIDENT).hits][:1] == [0]


def test_a_task_word_the_name_holds_is_no_prose_word_and_none_leaves_only_chance():
    scorer = _records(1)
    assert scorer._expected(1, ("t2",)) == 6  # held in a title: nothing of the prose to weigh
    # one prose word of the two the corpus knows: either might have been the one found
    assert scorer._expected(0, ("quokka", "move")) == pytest.approx(2 * 6 * (1 / 6))


def test_the_more_task_words_there_were_to_find_the_likelier_a_chance_meeting():
    scorer = _records(1)
    assert scorer._expected(0, ("quokka", "migrat", "zebra")) == pytest.approx(6 * (1 / 6) ** 2)  # zebra: unknown
    assert scorer._expected(0, ("quokka", "migrat", "t2", "t3")) == pytest.approx(6 * 6 * (1 / 6) ** 2)  # C(4, 2)


def _lead_record(body: dict[str, int], lead: dict[str, int], others: int = 5, plan: int = 4) -> Scorer:
    """A record with no summary (`body`, `lead`) among `others` whose titles and bodies hold none of
    the task's words."""
    first = _entry("0001-move.md", title={"move": 1}, body=body, lead=lead)
    return _scorer(first, *[_entry(f"000{n}-other.md", title={f"t{n}": 1}, body={"plan": plan})
                            for n in range(2, others + 2)])


def test_a_word_only_the_lead_holds_is_held_when_the_lead_vouches():
    scorer = _lead_record({"plan": 4}, {"quokka": 2, "migrat": 2})
    assert [h.position for h in scorer.rank(("quokka", "migrat"), confident=abstention.CONFIDENT).hits] == [0]


def test_when_the_lead_vouches_a_long_body_that_says_the_words_once_does_not_silence_the_task():
    task = ("quokka", "migrat")
    scorer = _lead_record({"quokka": 1, "migrat": 1, "plan": 40}, {"quokka": 2, "migrat": 2})
    held = scorer._vouched(0, task, frozenset())
    assert all(depth < 0.4 for depth in scorer._depths(0, held).values())  # by the body alone: in passing
    assert [h.position for h in scorer.rank(task, confident=abstention.CONFIDENT).hits] == [0]


def _context_record(words: tuple[str, ...]) -> Scorer:
    """Six records with no summary whose leads are alike in length; the first's says `words`
    three times each, and no other record holds any of them."""
    first = _entry("0001-move.md", title={"move": 1}, body={"plan": 4}, lead=dict.fromkeys(words, 3))
    return _scorer(first, *[_entry(f"000{n}-other.md", title={f"t{n}": 1}, body={"plan": 4}, lead={f"l{n}": 12})
                            for n in range(2, 7)])


def test_where_the_lead_vouches_its_chance_stands_in_for_whether_the_first_document_explains_the_task():
    """Four words only one record's context holds, among six words no record holds: the record
    explains too little of the task's mass (the absent words weigh the most), but four such
    words would meet in no record by chance, and its confidence clears a ten-word task's bar."""
    words = ("quokka", "migrat", "lemur", "okapi")
    task = (*words, *(f"u{n}" for n in range(6)))
    scorer = _context_record(words)
    mass = sum(scorer.idf.get(stem, scorer.max_idf) for stem in task)
    assert not abstention.explains(scorer._vouched(0, task, frozenset()), scorer.idf, mass, {})
    assert scorer._expected(0, task) < route_rank.CHANCE
    ranking = scorer.rank(task, confident=abstention.CONFIDENT)
    assert [h.position for h in ranking.hits] == [0]
    assert abstention.CONFIDENT * abstention.SPAN / len(task) <= ranking.confidence < abstention.CONFIDENT


def test_an_expectation_of_exactly_one_document_is_chance_enough_to_stay_silent(monkeypatch):
    scorer = _lead_record({"quokka": 1, "plan": 4}, {"quokka": 2}, others=3)
    assert scorer._expected(0, ("quokka",)) == 1.0  # four records, one holds it
    assert scorer.rank(("quokka",), confident=abstention.CONFIDENT).hits == ()
    monkeypatch.setattr(route_rank, "CHANCE", math.nextafter(1.0, 2.0))
    assert _lead_record({"quokka": 1, "plan": 4}, {"quokka": 2}, others=3).rank(
        ("quokka",), confident=abstention.CONFIDENT).hits


def test_a_task_trusted_without_the_lead_keeps_the_confidence_judged_without_it():
    task = ("move", "quokka", "migrat")
    with_lead = _lead_record({"quokka": 1, "migrat": 1, "plan": 4}, {"quokka": 2, "migrat": 2})
    without = _lead_record({"quokka": 1, "migrat": 1, "plan": 4}, {})
    assert with_lead._expected(0, task) < route_rank.CHANCE  # the lead would vouch, were it asked
    ranked = with_lead.rank(task, confident=abstention.CONFIDENT)
    plain = without.rank(task, confident=abstention.CONFIDENT)
    assert ranked.hits and (ranked.confidence, ranked.coverage) == (plain.confidence, plain.coverage)


def test_a_ten_word_task_is_answered_at_the_bar_of_five_words():
    words = tuple(f"w{n}" for n in range(1, 11))
    best = _entry("a.md", title=dict.fromkeys(words[:4], 1))
    rest = [_entry(f"{n:02d}.md", title={word: 1, f"t{n}": 1}, body={"plan": 4}) for n, word in enumerate(words[4:])]
    ranking = _scorer(best, *rest).rank(words, confident=abstention.CONFIDENT)
    assert ranking.confidence < abstention.CONFIDENT and ranking.coverage < abstention.COVERED
    assert [h.position for h in ranking.hits][:1] == [0]  # judged at SPAN/10 of the bar


def _first_judgement_of_b_behind_a(a: Entry, b: Entry) -> tuple[float, float, bool]:
    """The first judgement of the task `quokka migrat` where `b` is first on every field and `a`
    leads on the fields that vouch, among four records holding neither word."""
    scorer = _scorer(a, b, *[_entry(f"{c}.md", title={f"t{c}": 1}, body={"plan": 4}) for c in "cdef"])
    task = ("quokka", "migrat")
    found = [(stem, scorer.postings(stem)) for stem in task]
    scores = scorer._summed(found)
    judged = scorer._judged([postings for _, postings in found], scores)
    assert (scores.index(max(scores)), judged.index(max(judged))) == (1, 0)
    mass = sum(scorer.idf[stem] for stem in task)
    return scorer._verdict(task, scores, judged, 1, mass, abstention.CONFIDENT, route_rank.UNVOUCHED)


def test_the_page_offered_first_is_the_one_that_must_explain_the_task_even_when_another_leads_without_the_lead():
    """`a` leads on the fields that vouch (a title word); `b` is first on every field (its lead
    says the task twice over) and holds the task only in prose. The first judgement asks `b` to
    explain the task, and it does not: a word its long body says once is said in passing."""
    confidence, coverage, answered = _first_judgement_of_b_behind_a(
        _entry("a.md", title={"quokka": 1}, body={"migrat": 1, "plan": 4}),
        _entry("b.md", title={"other": 1}, body={"quokka": 1, "migrat": 1, "plan": 30},
               lead={"quokka": 3, "migrat": 3}))
    assert confidence >= abstention.CONFIDENT and coverage == 1.0 and not answered


def test_a_page_offered_first_that_names_a_task_word_explains_the_task_another_leads_without_the_lead():
    assert _first_judgement_of_b_behind_a(
        _entry("a.md", title={"quokka": 1, "migrat": 1}, body={"plan": 4}),
        _entry("b.md", title={"quokka": 1}, body={"migrat": 1, "plan": 4}, lead={"quokka": 3, "migrat": 3}))[2]
