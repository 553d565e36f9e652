"""The parse cache: reused parses print the same bytes, and only changed files are parsed again.

Counts, never seconds: the snapshot's parse account says what was parsed and what was reused.
The corpus is a generated 200-document repository (corpus_fixtures/generate.py), written once
per session into a temporary directory and copied per test.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

import pytest

from headwater import cachekey
from headwater.cachedir import CACHE_DIR
from headwater.corpus.fronts import FRONTS_FILE
from headwater.corpus.parses import CACHE_FILE, SPARE_PER, CacheUse, ParseAccount
from headwater.snapshot import load
from tests.perf.conftest import DOCS, generator

REPO = Path(__file__).resolve().parents[2]
TODAY = dt.date(2026, 10, 1)


def _warm(root: Path) -> None:
    """What a writing verb leaves behind: every front and body parsed, the cache saved."""
    snapshot = load(root, TODAY, CacheUse.WRITE)
    for document in snapshot.census.parsed:
        document.body  # noqa: B018 — parse it, so the cache holds it
    assert snapshot.save_parses() == []


def _read_all(root: Path, use: CacheUse):
    snapshot = load(root, TODAY, use)
    bodies = [(d.path, d.body) for d in snapshot.census.parsed]
    return snapshot, bodies


def _reads(hw, root: Path) -> list[str]:
    """The read verbs' stdout over the corpus (and check's, once its verb exists)."""
    outputs = []
    for args in (["route", "rate limit for the ingest service", "--json"],
                 ["route", "how do I configure the audit record"],
                 ["explain", "GEN-DR-0002"], ["explain", "GEN-SPEC-0003"]):
        ran = hw(*args, "--root", str(root))
        assert ran.status == 0, ran.err
        outputs.append(ran.out)
    return outputs


def test_a_generated_corpus_is_the_same_bytes_for_the_same_seed(tmp_path):
    generate = generator()
    generate.generate(60, 3, tmp_path / "a")
    generate.generate(60, 3, tmp_path / "b")
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert files_a == files_b
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files_a)


def test_a_generated_corpus_plants_every_defect_family(generated):
    import json

    manifest = json.loads((generated / "generator.json").read_text())
    planted = {d["defect"] for d in manifest["defects"]}
    assert planted == set(generator().DEFECTS)
    assert len(load(generated, TODAY, CacheUse.OFF).census.documents) == DOCS


def test_reused_parses_rebuild_exactly_what_a_fresh_parse_gives(corpus):
    fresh, fresh_bodies = _read_all(corpus, CacheUse.OFF)
    _warm(corpus)
    warm, warm_bodies = _read_all(corpus, CacheUse.READ)
    assert warm.parse_account.fronts_parsed == 0 and warm.parse_account.bodies_parsed == 0
    assert [d.front for d in warm.census.parsed] == [d.front for d in fresh.census.parsed]
    assert [(d.body_text, d.body_line) for d in warm.census.parsed] == [
        (d.body_text, d.body_line) for d in fresh.census.parsed]
    assert warm_bodies == fresh_bodies
    assert warm.census.rows == fresh.census.rows
    assert warm.graph.edges == fresh.graph.edges


def test_cold_warm_and_uncached_reads_print_the_same_bytes(corpus, hw):
    cold = _reads(hw, corpus)
    assert not (corpus / CACHE_DIR).exists(), "a read verb wrote the cache"
    _warm(corpus)
    assert _reads(hw, corpus) == cold


def test_cold_warm_and_no_cache_checks_print_the_same_bytes(corpus, hw):
    if not (REPO / "headwater" / "cli" / "verb_check.py").exists():
        pytest.skip("check is not built yet")
    uncached = hw("check", "--no-cache", "--now", "2026-10-01", "--root", str(corpus))
    cold = hw("check", "--now", "2026-10-01", "--root", str(corpus))
    _warm(corpus)
    warm = hw("check", "--now", "2026-10-01", "--root", str(corpus))
    assert uncached.out == cold.out == warm.out
    assert uncached.status == cold.status == warm.status


def _edit(corpus: Path, which: int = 5) -> Path:
    edited = corpus / load(corpus, TODAY, CacheUse.OFF).census.documents[which].path
    edited.write_text(edited.read_text() + "\nOne more sentence, added by the test.\n")
    return edited


def test_a_warm_run_with_one_edited_document_parses_that_front_and_body_without_reading_the_parse_cache(corpus):
    _warm(corpus)
    edited = _edit(corpus)
    snapshot = load(corpus, TODAY, CacheUse.READ)
    parsed = len(snapshot.census.parsed)
    snapshot.census.by_path[str(edited.relative_to(corpus))].document.body  # noqa: B018
    assert snapshot.parse_account == ParseAccount(parsed - 1, 1, 0, 1)
    assert not snapshot.parses.stored.fronts_open and not snapshot.parses.stored.bodies_open
    fresh, fresh_bodies = _read_all(corpus, CacheUse.OFF)
    assert [d.front for d in snapshot.census.parsed] == [d.front for d in fresh.census.parsed]
    assert [(d.path, d.body) for d in snapshot.census.parsed] == fresh_bodies


def test_a_front_edited_into_a_refusal_is_refused_as_a_fresh_load_refuses_it_without_reading_the_parse_cache(corpus):
    _warm(corpus)
    edited = _edit(corpus, 9)
    edited.write_text(edited.read_text().replace("---\n", "---\nid: [unclosed\n", 1))
    warm = load(corpus, TODAY, CacheUse.READ)
    fresh = load(corpus, TODAY, CacheUse.OFF)
    row = warm.census.by_path[str(edited.relative_to(corpus))]
    assert row.outcome.value == "unreadable" and row == fresh.census.by_path[row.path]
    assert warm.census.rows == fresh.census.rows
    assert warm.parse_account.fronts_parsed == 1 and not warm.parses.stored.fronts_open


def test_past_its_share_of_the_parse_cache_s_size_an_edited_run_reads_the_cache_for_every_other_body(corpus):
    _warm(corpus)
    _edit(corpus)
    snapshot, bodies = _read_all(corpus, CacheUse.READ)
    account = snapshot.parse_account
    parsed = len(snapshot.census.parsed)
    assert (account.fronts_parsed, account.fronts_reused) == (1, parsed - 1)
    assert snapshot.parses.stored.bodies_open and not snapshot.parses.stored.fronts_open
    spare = (corpus / CACHE_DIR / CACHE_FILE).stat().st_size // SPARE_PER
    assert 1 < account.bodies_parsed < parsed // 4 and account.bodies_parsed + account.bodies_reused == parsed
    assert snapshot.parses.spared >= spare
    assert bodies == _read_all(corpus, CacheUse.OFF)[1]


def test_reads_reuse_the_cache_and_never_write_it(corpus):
    _warm(corpus)
    before = (corpus / CACHE_DIR / CACHE_FILE).read_bytes()
    edited = corpus / load(corpus, TODAY, CacheUse.OFF).census.documents[0].path
    edited.write_text(edited.read_text() + "\nEdited.\n")
    snapshot, _ = _read_all(corpus, CacheUse.READ)
    assert snapshot.save_parses() == []
    assert (corpus / CACHE_DIR / CACHE_FILE).read_bytes() == before


def test_no_cache_neither_reads_nor_writes(corpus):
    _warm(corpus)
    snapshot, _ = _read_all(corpus, CacheUse.OFF)
    assert snapshot.parse_account.fronts_reused == 0 and snapshot.parse_account.bodies_reused == 0
    (corpus / CACHE_DIR / CACHE_FILE).unlink()
    assert snapshot.save_parses() == []
    assert not (corpus / CACHE_DIR / CACHE_FILE).exists()


@pytest.mark.parametrize("garbage", [b"", b"not a header\n{}", b"\xff\xfe\x00", None])
def test_a_foreign_or_corrupt_cache_reads_as_empty(corpus, garbage):
    fresh, fresh_bodies = _read_all(corpus, CacheUse.OFF)
    _warm(corpus)
    cache = corpus / CACHE_DIR / CACHE_FILE
    header = cache.read_bytes().partition(b"\n")[0]
    # None: the right header over a payload whose entries are the wrong shape
    # (sealed with this machine's key, so it is the shape, not the seal, that makes it a miss)
    shaped = b'{"sha256:x": [1], "' + fresh.census.parsed[0].digest.encode() + b'": {"f": [9, 1], "b": 3}}'
    seal = cachekey.seal(cachekey.key(create=False), CACHE_FILE.encode(), header, shaped).encode()
    cache.write_bytes(garbage if garbage is not None else header + b"\n" + seal + b"\n" + shaped)
    (corpus / CACHE_DIR / FRONTS_FILE).unlink()  # the fronts file would serve every front (its own tests)
    snapshot, bodies = _read_all(corpus, CacheUse.READ)
    assert snapshot.parse_account.fronts_reused == 0
    assert bodies == fresh_bodies
    assert snapshot.census.rows == fresh.census.rows


def test_the_cache_directory_ignores_itself(corpus):
    _warm(corpus)
    assert (corpus / CACHE_DIR / ".gitignore").read_bytes() == b"*\n"


def test_a_failed_cache_write_is_one_stderr_line_and_nothing_else(corpus):
    (corpus / CACHE_DIR).parent.mkdir(parents=True, exist_ok=True)
    (corpus / CACHE_DIR).write_bytes(b"a file where the cache directory belongs")
    snapshot, _ = _read_all(corpus, CacheUse.WRITE)
    lines = snapshot.save_parses()
    assert len(lines) == 1 and lines[0].startswith("headwater: the cache was not written")
    assert (corpus / CACHE_DIR).read_bytes() == b"a file where the cache directory belongs"


@pytest.mark.parametrize("verb", [["route", "rate limit for the ingest service"], ["explain", "GEN-DR-0002"]])
def test_reads_do_not_import_what_they_do_not_use(corpus, verb):
    """A real process, since the point is which modules a fresh interpreter loads. Route reads
    headings and prose, which a warm parse cache holds, so after a writing verb it parses none."""
    _warm(corpus)
    script = (
        "import io, sys, contextlib\n"
        "from headwater.cli.main import run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    status = run(sys.argv[1:])\n"
        "heavy = ('networkx', 'markdown_it', 'sarif_om', 'mcp')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)), status)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, *verb, "--root", str(corpus)],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[] 0"


def test_a_route_after_a_writing_verb_reuses_every_body_and_parses_none(corpus):
    from headwater.reads.route.router import route

    _warm(corpus)
    snapshot = load(corpus, TODAY, CacheUse.READ)
    assert route(snapshot, "rate limit for the ingest service").pointers
    account = snapshot.parse_account
    assert account.bodies_parsed == 0 and account.bodies_reused == len(snapshot.census.documents)
