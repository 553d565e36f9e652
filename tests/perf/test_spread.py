"""Work across the cores: a check parsed and judged in forked workers prints the bytes of one that
did all of it in one process, and a worker that fails costs a rerun of its share, never an answer.

The thresholds that decide when forking pays are lowered so the 200-document generated corpus
spreads; `forked.cores` is pinned to 1 for the one-process runs.
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import time

import pytest

from headwater import forked
from headwater import snapshot as snapshot_module
from headwater.check import cache as cache_module
from headwater.check import runner as runner_module
from headwater.check import spread
from headwater.check.cache import Verdicts
from headwater.check.context import Context
from headwater.check.instances import judge, subjects
from headwater.check.registry import rule_ids
from headwater.check.rule import Scope
from headwater.check.runner import SECTIONS
from headwater.check.runner import run as run_checks
from headwater.corpus import body as body_module
from headwater.corpus import census as census_module
from headwater.corpus import parses
from headwater.corpus.claims import CLAIMS
from headwater.corpus.parses import CacheUse
from headwater.snapshot import load
from tests.conftest import copy_tree

TODAY = dt.date(2026, 10, 1)
CHECK = ("check", "--now", "2026-10-01")


@pytest.fixture
def spreading(monkeypatch):
    """Two workers for a small corpus (on a machine with one core too)."""
    monkeypatch.setattr(parses, "WORTH_IT", 20)
    monkeypatch.setattr(spread, "WORTH_IT", 20)
    monkeypatch.setattr(spread, "WARM_WORTH_IT", 20)
    monkeypatch.setattr(spread, "PIECE", 16)
    monkeypatch.setattr(parses, "FRONTS_WORTH_IT", 1)
    monkeypatch.setattr(forked, "cores", lambda: 2)


def _outputs(hw, root, fmt: str) -> list[tuple[int, str]]:
    """--no-cache, a first run writing the caches, a warm run: (status, stdout) of each."""
    runs = [hw(*CHECK, "--format", fmt, "--no-cache", "--root", str(root)),
            hw(*CHECK, "--format", fmt, "--root", str(root)),
            hw(*CHECK, "--format", fmt, "--root", str(root))]
    return [(ran.status, ran.out) for ran in runs]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_check_spread_over_the_cores_prints_the_bytes_of_one_run_in_one_process(
        hw, corpus, tmp_path, monkeypatch, spreading, fmt):
    spread_out = _outputs(hw, corpus, fmt)
    for cache in (corpus / ".headwater" / "cache").iterdir():
        cache.unlink()
    monkeypatch.setattr(forked, "cores", lambda: 1)
    alone = _outputs(hw, corpus, fmt)
    assert spread_out == alone
    assert len({out for _, out in alone}) == 1 and alone[0][1]


def test_a_spread_load_parses_every_front_and_body_once_and_the_next_run_reuses_them_all(corpus, spreading):
    snapshot = load(corpus, TODAY, CacheUse.WRITE, spread=True)
    assert snapshot.parses.lines, "no body was parsed ahead: the load did not spread"
    documents = snapshot.census.parsed
    bodies = [document.body for document in documents]
    account = snapshot.parse_account
    assert account.fronts_parsed == len({d.digest for d in documents}) and account.fronts_reused == 0
    assert account.bodies_parsed == len(documents) and account.bodies_reused == 0
    assert snapshot.save_parses() == []
    again = load(corpus, TODAY, CacheUse.READ)
    assert [document.body for document in again.census.parsed] == bodies
    assert (again.parse_account.fronts_parsed, again.parse_account.bodies_parsed) == (0, 0)


def test_a_spread_load_without_a_cache_parses_every_body_ahead_so_none_is_parsed_again(
        corpus, spreading, monkeypatch):
    snapshot = load(corpus, TODAY, CacheUse.OFF, spread=True)
    documents = snapshot.census.parsed
    assert {d.digest for d in documents} <= set(snapshot.parses.lines)
    expected = [body_module.parse(d.body_text, d.body_line) for d in documents]

    def parsed_again(text: str, first_line: int):
        raise AssertionError("a body parsed again after the load parsed it ahead")

    monkeypatch.setattr(parses, "parse", parsed_again)
    assert [document.body for document in documents] == expected
    assert not snapshot.parses.lines, "a body's line was kept after its document decoded it"


def _slowed_here(monkeypatch, module, name: str, seconds: float) -> None:
    """`module.name` made slower in this process only, so its forked worker outpaces it."""
    parent, real = os.getpid(), getattr(module, name)

    def slowed(*args):
        if os.getpid() == parent:
            time.sleep(seconds)
        return real(*args)

    monkeypatch.setattr(module, name, slowed)


def _shares_kept(monkeypatch) -> list:
    """What each share of the next `forked.in_shares` handed back, this process's first."""
    shares: list = []
    in_shares = forked.in_shares

    def kept(*args, **kwargs):
        mine, theirs = in_shares(*args, **kwargs)
        shares.extend([mine, *theirs])
        return mine, theirs

    monkeypatch.setattr(forked, "in_shares", kept)
    return shares


def test_a_cold_load_s_shares_take_the_longest_documents_first_each_the_next_as_it_becomes_free(
        corpus, spreading, monkeypatch):
    _slowed_here(monkeypatch, parses, "_parsed", 0.01)
    shares = _shares_kept(monkeypatch)
    snapshot = load(corpus, TODAY, CacheUse.OFF, spread=True)
    here, worker = shares
    texts = {d.digest: d.text for d in snapshot.census.parsed}
    assert {digest for digest, _ in [*here, *worker]} >= set(texts) and len(here) + len(worker) == len(texts)
    assert 0 < len(here) < len(worker)  # the slowed share took fewer, not every other document
    for share in (here, worker):
        lengths = [len(texts[digest]) for digest, _ in share]
        assert lengths == sorted(lengths, reverse=True)


def _walked_by(monkeypatch, record) -> None:
    """Each process that walks the corpus writes its id to `record`."""
    walk = census_module.walk

    def walked(*args):
        with record.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return walk(*args)

    monkeypatch.setattr(census_module, "walk", walked)


def _reader_dies(monkeypatch, worker_dies: str) -> None:
    """The census's forked reader dies `never`, `at once`, `part way` (after two pieces), or
    `after the corpus` (its last piece sent, before what it reads beside the corpus)."""
    monkeypatch.setattr(census_module, "PIECE", 16)  # pieces enough for a worker to die between
    produced = forked._producer
    if worker_dies == "at once":
        monkeypatch.setattr(forked, "_producer", lambda *args: os._exit(1))
    elif worker_dies in ("part way", "after the corpus"):

        def dying_reader(produce, spool, send):
            def dying(after):
                for number, piece in enumerate(produce(after)):
                    if number == 2 if worker_dies == "part way" else type(piece[0]) is not bytes:  # not a piece
                        os._exit(1)
                    yield piece

            produced(dying, spool, send)

        monkeypatch.setattr(forked, "_producer", dying_reader)


@pytest.mark.parametrize("worker_dies", ["never", "at once", "part way"])
def test_a_recorded_warm_load_notes_every_file_the_census_opened_whoever_read_it(
        hw, corpus, monkeypatch, spreading, worker_dies):
    """The census opens each file by its name in its folder, which the recorder hears from no one,
    and announces the files of each piece it takes (HW-DR-0045): every one is noted however the
    forked reader fared, so a replay looks at each of them again."""
    from headwater import cachedir, observed

    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)  # writes the fronts file
    _reader_dies(monkeypatch, worker_dies)
    time.sleep(0.06)  # past the coarse clock's tick a recording waits out
    root = os.path.abspath(corpus)
    with observed.Recorder(observed.Scope((os.path.join(root, cachedir.CACHE_DIR),))) as recorder:
        census = load(corpus, TODAY, CacheUse.WRITE, spread=True).census
    observations = recorder.observations({})
    assert observations is not None
    opened = {path for what, path, _ in observations if what == observed.OPENED}
    read = {os.path.join(root, row.path) for row in census.rows
            if row.outcome in (census_module.Outcome.TYPED, census_module.Outcome.UNTYPED)}
    assert len(read) > 100 and read <= opened


@pytest.mark.parametrize("worker_dies", ["never", "at once", "part way", "after the corpus"])
def test_a_warm_load_reads_the_files_beside_the_fronts_rebuild_and_takes_the_census_of_one_process(
        hw, corpus, tmp_path, monkeypatch, spreading, worker_dies):
    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)  # writes the fronts file
    alone = _in_one_process(monkeypatch, lambda: load(corpus, TODAY, CacheUse.READ))
    record = tmp_path / "walked"
    _walked_by(monkeypatch, record)
    _reader_dies(monkeypatch, worker_dies)
    beside = load(corpus, TODAY, CacheUse.WRITE, spread=True)
    walkers = [int(pid) for pid in record.read_text().split()]
    if worker_dies == "at once":  # the reading is done here instead
        assert walkers == [os.getpid()]
    elif worker_dies == "after the corpus":  # the corpus came whole: nothing more is walked here
        assert len(walkers) == 1 and os.getpid() not in walkers
    elif worker_dies == "part way":  # the worker's first pieces are kept, the rest read here
        assert len(walkers) == 2 and walkers[1] == os.getpid() != walkers[0]
    else:
        assert len(walkers) == 1 and os.getpid() not in walkers
    assert beside.census == alone.census and beside.graph.edges == alone.graph.edges
    assert beside.parses.table_hits == len(alone.census.parsed) > 0


@pytest.mark.parametrize("worker_dies", ["never", "part way"])
def test_a_servers_load_reads_the_corpus_beside_the_fronts_rebuild_and_leaves_every_claim_to_be_read_when_asked(
        hw, corpus, tmp_path, monkeypatch, spreading, worker_dies):
    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)  # writes the fronts file
    alone = _in_one_process(monkeypatch, lambda: load(corpus, TODAY))
    record = tmp_path / "walked"
    _walked_by(monkeypatch, record)
    _reader_dies(monkeypatch, worker_dies)
    served = load(corpus, TODAY)  # as `headwater mcp`, `route` and `explain` load
    walkers = [int(pid) for pid in record.read_text().split()]
    assert walkers[0] != os.getpid() and walkers[1:] == ([os.getpid()] if worker_dies == "part way" else [])
    assert served.census == alone.census and served.graph.edges == alone.graph.edges
    assert served.parses.table_hits == len(alone.census.parsed) > 0
    # a server's snapshot outlives its claims: nothing read beside the corpus is kept for later
    assert served.claims_read == {} and served.read_beside is None
    scheme = sorted(served.taxonomy.schemes)[0]
    assert served.claims(scheme) == snapshot_module.read_claims(corpus, scheme)


def _in_one_process(monkeypatch, make):
    """`make()` with one core: a load that reads the corpus itself."""
    with monkeypatch.context() as alone:
        alone.setattr(forked, "cores", lambda: 1)
        return make()


@pytest.mark.parametrize("worker_dies", ["never", "at once", "part way", "after the corpus"])
def test_a_warm_load_s_forked_reader_reads_every_claim_store_and_the_rules_read_what_each_holds(
        hw, corpus, tmp_path, monkeypatch, spreading, worker_dies):
    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)  # writes the fronts file
    record = tmp_path / "claims read"
    read_claims = snapshot_module.read_claims

    def recorded(root, scheme):
        with record.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return read_claims(root, scheme)

    monkeypatch.setattr(snapshot_module, "read_claims", recorded)
    _reader_dies(monkeypatch, worker_dies)
    snapshot = load(corpus, TODAY, CacheUse.WRITE, spread=True)
    schemes = sorted(snapshot.taxonomy.schemes)
    readers = set(record.read_text().split()) if record.exists() else set()
    assert str(os.getpid()) not in readers  # never read by the load here: a rule asks when it needs them
    if worker_dies == "never":  # read beside the corpus, by the reader
        assert set(snapshot.claims_read) == set(schemes) and readers
    else:  # what a reader that died read is not taken
        assert snapshot.claims_read == {}
    held = {scheme: read_claims(corpus, scheme) for scheme in schemes}
    assert sum(map(len, held.values())) > 100
    assert {scheme: snapshot.claims(scheme) for scheme in schemes} == held


@pytest.mark.parametrize("worker_dies", ["never", "at once", "after the corpus"])
def test_a_warm_load_s_forked_reader_reads_what_its_caller_reads_next_and_nothing_is_read_here_twice(
        hw, corpus, tmp_path, monkeypatch, spreading, worker_dies):
    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)  # writes the fronts file and the verdicts
    record = tmp_path / "verdicts read"

    def verdicts() -> tuple:
        with record.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return Verdicts.read(corpus)

    _reader_dies(monkeypatch, worker_dies)
    snapshot = load(corpus, TODAY, CacheUse.WRITE, spread=True, beside=verdicts)
    readers = record.read_text().split() if record.exists() else []
    if worker_dies == "never":  # read beside the corpus, by the reader, and sent here whole
        assert readers and str(os.getpid()) not in readers
        assert snapshot.read_beside == Verdicts.read(corpus) and snapshot.read_beside[0] != {}
    else:  # what a reader that died read is not taken, and the load never reads it here
        assert snapshot.read_beside is None and str(os.getpid()) not in readers


def test_a_recorded_warm_load_observes_each_claim_its_forked_reader_read_by_the_digest_of_its_bytes(
        hw, corpus, spreading):
    from headwater import cachedir, observed

    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)  # writes the fronts file
    time.sleep(0.06)  # past the coarse clock's tick a recording waits out
    root = os.path.abspath(corpus)
    with observed.Recorder(observed.Scope((os.path.join(root, cachedir.CACHE_DIR),))) as recorder:
        snapshot = load(corpus, TODAY, CacheUse.WRITE, spread=True)
    assert snapshot.claims_read, "the forked reader read no claim"
    observations = recorder.observations({})
    assert observations is not None
    seen = {(what, path): state for what, path, state in observations}
    store = os.path.join(root, CLAIMS)
    for scheme in snapshot.taxonomy.schemes:
        folder = os.path.join(store, scheme)
        assert seen[(observed.LISTED, folder)] == observed.state(observed.LISTED, folder)
        for name, _ in snapshot.claims(scheme):
            claim = os.path.join(folder, name)
            assert seen[(observed.OPENED, claim)] == observed.state(observed.OPENED, claim)


def test_a_claim_rewritten_between_warm_runs_is_judged_by_what_it_holds_now(hw, corpus, spreading):
    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)  # writes the fronts file
    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)  # and keeps a run to replay
    claim = sorted((corpus / CLAIMS / "decision_id").iterdir())[0]
    claim.write_text("docs/nowhere.md\n", encoding="utf-8")
    warm = hw(*CHECK, "--format", "json", "--root", str(corpus))
    uncached = hw(*CHECK, "--format", "json", "--no-cache", "--root", str(corpus))
    assert (warm.status, warm.out) == (uncached.status, uncached.out)
    assert f"the claim of `{claim.name}` names `docs/nowhere.md`" in warm.out


def test_what_a_save_reads_of_the_parse_cache_is_read_by_the_forked_reader_and_not_again(
        hw, corpus, tmp_path, monkeypatch, spreading):
    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)  # writes the caches
    record = tmp_path / "first lines read"
    first_line = parses._first_line

    def recorded(root, alone=False):
        with record.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return first_line(root, alone)

    monkeypatch.setattr(parses, "_first_line", recorded)
    snapshot = load(corpus, TODAY, CacheUse.WRITE, spread=True)
    assert snapshot.save_parses() == []
    readers = record.read_text().split()
    assert len(readers) == 1 and readers[0] != str(os.getpid())
    assert snapshot.parses.stored.first == first_line(corpus) != b""


def test_two_files_of_the_same_bytes_both_get_their_front_when_parsed_ahead(corpus, spreading):
    first = sorted((corpus / "docs").rglob("*.md"))[0]
    twin = first.with_name("twin-" + first.name)
    twin.write_bytes(first.read_bytes())
    snapshot = load(corpus, TODAY, CacheUse.OFF, spread=True)
    rows = snapshot.census.by_path
    one, two = (rows[str(p.relative_to(corpus))] for p in (first, twin))
    assert one.document is not None and two.document is not None
    assert two.document.front == one.document.front and two.document.body == one.document.body


def test_a_warm_check_served_from_its_verdicts_decodes_no_body(hw, corpus):
    assert hw(*CHECK, "--root", str(corpus)).status == 0
    snapshot = load(corpus, TODAY, CacheUse.WRITE)
    cache = Verdicts.load(corpus)
    run_checks(snapshot, None, cache)
    assert cache.misses == 0 and cache.hits > 0
    assert (snapshot.parse_account.bodies_reused, snapshot.parse_account.bodies_parsed) == (0, 0)


def test_a_worker_that_fails_costs_its_share_done_again_here_not_an_answer():
    parent = os.getpid()

    def work(share: int, workers: int) -> list[int]:
        if os.getpid() != parent:
            raise RuntimeError("a worker that fails")
        return list(range(share, 10, workers))

    mine, theirs = forked.in_shares(work, 3, pack=lambda found: [n * 10 for n in found])
    assert mine == [0, 3, 6, 9]
    assert theirs == [[10, 40, 70], [20, 50, 80]]  # done here, then packed as a worker packs


def test_shares_from_workers_come_back_packed_and_in_order():
    mine, theirs = forked.in_shares(lambda share, workers: (share, workers, os.getpid()), 3,
                                    pack=lambda found: found[:2])
    assert mine == (0, 3, os.getpid())
    assert theirs == [(1, 3), (2, 3)]


def test_one_core_does_all_the_work_here():
    assert forked.in_shares(lambda share, workers: (share, workers), 1) == ((0, 1), [])


def test_a_check_whose_workers_all_die_prints_the_bytes_of_one_whose_workers_answered(
        hw, corpus, monkeypatch, spreading):
    spread_out = hw(*CHECK, "--format", "json", "--no-cache", "--root", str(corpus))

    def dies(*args) -> None:
        os._exit(1)

    monkeypatch.setattr(forked, "_worker", dies)  # the forked child runs this and leaves mid-share
    again = hw(*CHECK, "--format", "json", "--no-cache", "--root", str(corpus))
    assert (again.status, again.out) == (spread_out.status, spread_out.out)
    assert '"rule": "identifier.claimed_twice"' in again.out  # a corpus section's finding, judged here


def test_judging_all_hands_over_each_corpus_and_edge_verdict_once_as_judged_here(corpus, spreading):
    snapshot = load(corpus, TODAY, CacheUse.OFF, spread=True)
    ctx = Context(snapshot, rule_ids(), None)
    ahead = spread.judge_all(ctx, SECTIONS)
    edges = [edge for edge, _ in subjects(ctx, Scope.EDGE)]
    assert edges and ahead is not None
    for section in SECTIONS[Scope.CORPUS]:
        assert ahead.pop((id(section), id(None))) is not None
        assert ahead.pop((id(section), id(None))) is None, "a verdict handed over twice"
    judged = [ahead.pop((id(section), id(edge))) for edge in edges for section in SECTIONS[Scope.EDGE]]
    assert all(one is not None for one in judged)
    assert judged == [judge(ctx, section, edge) for edge in edges for section in SECTIONS[Scope.EDGE]]


def test_judging_all_each_share_takes_the_next_piece_of_subjects_as_it_becomes_free(corpus, spreading, monkeypatch):
    snapshot = load(corpus, TODAY, CacheUse.OFF, spread=True)
    ctx = Context(snapshot, rule_ids(), None)
    _slowed_here(monkeypatch, spread, "judge", 0.001)
    shares = _shares_kept(monkeypatch)
    monkeypatch.setattr(spread, "JUDGED_PIECE", 8)
    ahead = spread.judge_all(ctx, SECTIONS)
    here, worker = shares
    units = len(snapshot.census.parsed) + len(list(subjects(ctx, Scope.EDGE))) + 1
    assert ahead is not None and sorted(index for index, _ in [*here, *worker]) == list(range(units))
    assert 0 < 2 * len(here) < len(worker)  # the slowed share took far fewer, not every other subject


def test_a_link_target_answers_its_slugs_without_keeping_a_body(corpus, spreading):
    snapshot = load(corpus, TODAY, CacheUse.OFF, spread=True)
    target = snapshot.census.parsed[0]
    slugs = target.slugs
    assert "body" not in target.__dict__ and target.digest in snapshot.parses.lines
    assert slugs == body_module.parse(target.body_text, target.body_line).slugs == target.body.slugs
    assert target.digest not in snapshot.parses.lines  # the body, asked for, takes its line


def test_a_link_target_parsed_ahead_answers_the_anchors_its_author_named(corpus, spreading):
    first = load(corpus, TODAY, CacheUse.OFF, spread=True).census.parsed[0].path
    with (corpus / first).open("a", encoding="utf-8") as text:
        text.write('\n<a name="kept-place"></a>\n')
    target = load(corpus, TODAY, CacheUse.OFF, spread=True).census.parsed[0]
    assert target.path == first and "kept-place" in target.slugs
    assert "body" not in target.__dict__  # answered from the line parsed ahead, not a decoded body


def test_the_runner_judges_with_the_collector_paused_and_leaves_it_running(corpus, monkeypatch):
    seen: set[bool] = set()
    judged = cache_module.judge

    def judging(*args):
        seen.add(gc.isenabled())
        return judged(*args)

    monkeypatch.setattr(cache_module, "judge", judging)
    snapshot = load(corpus, TODAY, CacheUse.OFF)
    assert gc.isenabled()
    run_checks(snapshot)
    assert seen == {False} and gc.isenabled()


def _warm(corpus, edit: bool = False) -> tuple[object, Verdicts]:
    """A run served from the verdicts a first run wrote (with one document's body edited first)."""
    run_checks(load(corpus, TODAY, CacheUse.WRITE), None, cache := Verdicts.load(corpus))
    assert cache.save() == []
    if edit:
        first = sorted((corpus / "docs").rglob("*.md"))[0]
        first.write_text(first.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    cache = Verdicts.load(corpus)
    return run_checks(load(corpus, TODAY, CacheUse.WRITE), None, cache, spread=True), cache


@pytest.mark.parametrize("edit", [False, True])
def test_a_warm_check_served_across_the_cores_gives_the_report_and_cache_of_one_served_here(
        corpus, tmp_path, monkeypatch, spreading, edit):
    alone_root = copy_tree(corpus, tmp_path / "alone")
    spread_report, spread_cache = _warm(corpus, edit)
    monkeypatch.setattr(forked, "cores", lambda: 1)
    alone_report, alone_cache = _warm(alone_root, edit)
    assert spread_report == alone_report and spread_report.findings
    assert spread_cache.kept == alone_cache.kept and spread_cache.changed == alone_cache.changed == edit
    assert (spread_cache.hits, spread_cache.misses) == (alone_cache.hits, alone_cache.misses)
    assert spread_cache.hits > 0 and (spread_cache.misses > 0) == edit


@pytest.mark.parametrize("edit", [False, True])
def test_a_warm_run_readies_the_body_parser_before_it_forks_only_when_a_front_was_parsed_afresh(
        corpus, spreading, monkeypatch, edit):
    for _ in range(2):  # the second run reads the fronts the first kept
        snapshot = load(corpus, TODAY, CacheUse.WRITE, spread=True)
        run_checks(snapshot, None, cache := Verdicts.load(corpus), spread=True)
        assert [*snapshot.save_parses(), *cache.save()] == []
    if edit:
        first = sorted((corpus / "docs").rglob("*.md"))[0]
        first.write_text(first.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    body_module._parser.cache_clear()
    ready = []
    in_shares = forked.in_shares

    def forking(*args, **kwargs):
        ready.append(body_module._parser.cache_info().currsize)  # built before the fork, or not
        return in_shares(*args, **kwargs)

    monkeypatch.setattr(forked, "in_shares", forking)
    snapshot = load(corpus, TODAY, CacheUse.WRITE, spread=True)
    assert (snapshot.parses.fronts_parsed > 0) == edit
    run_checks(snapshot, None, Verdicts.load(corpus), spread=True)
    assert ready == [1 if edit else 0]


def _served_slowly_here(monkeypatch) -> None:
    """The parent serves each piece slowly, so a worker surely takes some of them."""
    parent, each = os.getpid(), cache_module.Records.each

    def slowed(twin, kind, share=slice(None)):
        if os.getpid() == parent:
            time.sleep(0.01)
        yield from each(twin, kind, share)

    monkeypatch.setattr(cache_module.Records, "each", slowed)


def test_a_warm_check_serves_each_subject_once_in_pieces_taken_by_whichever_share_is_free(
        corpus, spreading, monkeypatch):
    _warm(corpus)
    snapshot = load(corpus, TODAY, CacheUse.READ)
    records = cache_module.Records(Context(snapshot, rule_ids(), None), Verdicts.load(corpus), SECTIONS)
    shares = _shares_kept(monkeypatch)
    _served_slowly_here(monkeypatch)
    served = spread.serve_all(records)
    assert served is not None and len(shares) == 2
    pieces = spread._pieces(records)
    here, there = ([piece for account in share for piece in account[1]] for share in shares)  # the pieces each took
    assert sorted(here + there) == list(range(len(pieces)))
    assert pieces[0][0] is Scope.CORPUS and 0 in here  # the corpus's piece (its claims read) is served here
    for kind in SECTIONS:
        covered = [index for of, part in pieces if of is kind
                   for index in range(len(subjects(records.ctx, kind)))[part]]
        assert covered == list(range(len(subjects(records.ctx, kind))))
    assert any(pieces[ticket][0] is Scope.DOCUMENT for ticket in there), "the worker took no piece"
    assert records.cache.misses == 0 and records.cache.hits > 0


def test_the_tallies_of_the_shares_add_up_to_the_tally_of_every_subject_served_here(corpus, spreading, monkeypatch):
    _warm(corpus, edit=True)
    snapshot = load(corpus, TODAY, CacheUse.READ)
    alone = cache_module.Records(Context(snapshot, rule_ids(), None), Verdicts.load(corpus), SECTIONS)
    found: dict = {}
    tally = runner_module._tallied(alone, found)
    _served_slowly_here(monkeypatch)
    records = cache_module.Records(Context(snapshot, rule_ids(), None), Verdicts.load(corpus), SECTIONS)
    served = spread.serve_all(records)
    assert served is not None and tally.reasons and served.tally.documents
    assert (served.tally.instances, served.tally.documents) == (tally.instances, tally.documents)
    assert served.tally.reasons == tally.reasons  # each reason's count and first instance
    by_kind = {kind: [(index, summary.found) for index, _, summary in alone.each(kind) if summary.found]
               for kind in SECTIONS}
    assert served.found == by_kind and any(by_kind.values())


def test_each_ticket_is_handed_out_once_across_the_processes():
    with forked.Tickets(500) as tickets:
        mine, theirs = forked.in_shares(lambda share, workers: list(tickets), 3)
    taken = [*mine, *(number for part in theirs for number in part)]
    assert sorted(taken) == list(range(500))
    with pytest.raises(ValueError, match="do not fit"):
        forked.Tickets(forked.Tickets.MOST + 1)


def test_judging_all_cuts_any_number_of_subjects_into_pieces_the_tickets_can_hand_out_corpus_first():
    for units in (2, 33, 100, 40_000_000):
        pieces = spread._judged_pieces(units)
        assert pieces[0] == range(units - 1, units) and len(pieces) <= forked.Tickets.MOST
        assert [index for piece in pieces[1:] for index in piece] == list(range(units - 1))
        size = forked.piece_size(units - 1, spread.JUDGED_PIECE, forked.Tickets.MOST - 1)
        assert all(len(piece) == size for piece in pieces[1:-1]) and 0 < len(pieces[-1]) <= size
    assert forked.piece_size(10, 32) == 32 and forked.piece_size(3 * forked.Tickets.MOST + 1) == 4


def test_pieces_a_worker_took_and_never_answered_for_are_served_here(corpus, tmp_path, monkeypatch, spreading):
    dying_root = copy_tree(corpus, tmp_path / "dying")
    answered, answered_cache = _warm(corpus, edit=True)
    parent, served = os.getpid(), spread._served

    died = tmp_path / "died"

    def dies_after_its_pieces(records, pieces):
        account = served(records, pieces)
        if os.getpid() != parent and account[1]:
            died.write_text("after taking pieces")
            os._exit(1)
        return account

    monkeypatch.setattr(spread, "_served", dies_after_its_pieces)
    _served_slowly_here(monkeypatch)
    again, again_cache = _warm(dying_root, edit=True)
    assert died.is_file(), "the worker took no piece"
    assert again == answered and again.findings
    assert again_cache.kept == answered_cache.kept
    assert (again_cache.hits, again_cache.misses) == (answered_cache.hits, answered_cache.misses)


def test_a_warm_check_whose_worker_dies_gives_the_report_and_cache_of_one_whose_worker_answered(
        corpus, tmp_path, monkeypatch, spreading):
    dying_root = copy_tree(corpus, tmp_path / "dying")
    answered, answered_cache = _warm(corpus, edit=True)

    def dies(*args) -> None:
        os._exit(1)

    monkeypatch.setattr(forked, "_worker", dies)
    again, again_cache = _warm(dying_root, edit=True)
    assert again == answered and again.findings
    assert again_cache.kept == answered_cache.kept
    assert (again_cache.hits, again_cache.misses) == (answered_cache.hits, answered_cache.misses)


def test_a_fork_the_system_refuses_costs_the_share_done_here(monkeypatch):
    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    mine, theirs = forked.in_shares(lambda share, workers: list(range(share, 10, workers)), 3,
                                    pack=lambda found: [n * 10 for n in found])
    assert mine == [0, 3, 6, 9]
    assert theirs == [[10, 40, 70], [20, 50, 80]]


def _numbers(after: tuple[int, int] | None):
    """(number, the process that made it) for 0 … 9, from the one after `after`."""
    for number in range(0 if after is None else after[0] + 1, 10):
        yield number, os.getpid()


@pytest.mark.parametrize("dies_after", [None, 0, 4])
def test_streamed_items_come_from_the_worker_and_one_that_dies_costs_the_rest_made_here(monkeypatch, dies_after):
    parent, meanwhile = os.getpid(), []
    if dies_after is not None:
        produced = forked._producer

        def dying(produce, spool, send):
            def until(after):
                for item in produce(after):
                    if item[0] == dies_after:
                        os._exit(1)
                    yield item

            produced(until, spool, send)

        monkeypatch.setattr(forked, "_producer", dying)
    items = list(forked.streamed(_numbers, lambda: meanwhile.append(os.getpid())))
    assert [number for number, _ in items] == list(range(10)) and meanwhile == [parent]
    made_there = dies_after if dies_after is not None else 10
    assert all(pid != parent for _, pid in items[:made_there])
    assert all(pid == parent for _, pid in items[made_there:])


def test_a_stream_whose_fork_the_system_refuses_is_made_here(monkeypatch):
    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    items = list(forked.streamed(_numbers, lambda: None))
    assert items == [(number, os.getpid()) for number in range(10)]


def test_judging_every_document_compiles_the_shelves_patterns_once(corpus, monkeypatch):
    snapshot = load(corpus, TODAY, CacheUse.OFF)
    ctx = Context(snapshot, rule_ids(), None)
    made, init = [], census_module.Classifier.__init__

    def counted(self, *args, **kwargs):
        made.append(self)
        init(self, *args, **kwargs)

    monkeypatch.setattr(census_module.Classifier, "__init__", counted)
    found = [judge(ctx, section, document) for document in snapshot.census.parsed
             for section in SECTIONS[Scope.DOCUMENT]
             if any(rule.id == "shelf.placement_is_primary" for rule in section.rules)]
    assert found and any(one.reached for one in found)  # the rule asked, for some documents
    assert len(made) == 1
