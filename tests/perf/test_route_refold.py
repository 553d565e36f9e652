"""A reader refolded after edits (HW-DR-0052): the kept file's rows are reused for every document
whose (path, digest) is unchanged, only the others are counted, and the reader is the one a
fresh build makes — the same IDF, the same sums bit for bit, the same answers byte for byte —
over seeded rounds of edits, additions, deletions and renames.

Counts, never seconds: how many documents were counted is counted on `index.entry`. The corpus
is the generated 200-document repository of tests/perf/conftest.py, copied per test.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from array import array
from dataclasses import replace
from pathlib import Path

import pytest

from headwater import cachedir
from headwater.corpus import derived as derived_file
from headwater.corpus import parses
from headwater.mcp.protocol import Server
from headwater.reads.route import index, kept
from headwater.reads.route.refold import Rows
from headwater.reads.route.router import Reader
from headwater.reads.route.tokens import Tokenizer
from headwater.snapshot import load
from tests.perf import test_route_kept as kept_tests
from tests.perf.test_route_kept import _served as served

TODAY = dt.date(2026, 10, 1)
TASKS = ("rate limit for the ingest service", "how do I configure the audit record",
         "why do we retry deliveries with backoff", "what is the weather in paris",
         "quota for a tenant", "zephyrine marmalade")
WORDS = ("zephyrine", "marmalade", "quota", "retry", "backoff", "tenant", "audit", "ingest", "ledger",
         "throttle", "webhook", "rotation")


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    """The path of every document whose counts were made (rather than reused), in order."""
    paths: list[str] = []
    original = index.entry

    def entry(document, *args, **kwargs):
        paths.append(document.path)
        return original(document, *args, **kwargs)

    monkeypatch.setattr(index, "entry", entry)
    return paths


def _served(snapshot) -> list[str]:
    return served(snapshot, TASKS)


def _documents(root: Path) -> list[Path]:
    return sorted((root / "docs").rglob("*.md"))


def _edited(root: Path, rng: random.Random) -> set[str]:
    """One random change to the corpus: a document edited, added, deleted or renamed; the paths
    whose bytes are new or moved."""
    documents = _documents(root)
    document = rng.choice(documents)
    change = rng.choice(("edit", "add", "delete", "rename"))
    words = " ".join(rng.sample(WORDS, 3))
    if change == "edit":
        document.write_text(document.read_text(encoding="utf-8") + f"\n## {words.title()}\n\nOn {words}.\n",
                            encoding="utf-8")
        return {document.relative_to(root).as_posix()}
    if change == "delete":
        document.unlink()
        return set()
    target = document.with_name(f"{rng.choice(WORDS)}-{rng.randrange(10_000)}-{document.name}")
    if change == "add":
        target.write_text(document.read_text(encoding="utf-8").replace("ingest", words), encoding="utf-8")
    else:
        document.rename(target)
    return {target.relative_to(root).as_posix()}


def _kept_rows(snapshot) -> Rows | None:
    tokenizer = Tokenizer.of(snapshot.taxonomy)
    return kept._read_rows(snapshot, kept.headers(snapshot, tokenizer)[1], tokenizer)


def _fresh(root: Path) -> Reader:
    return Reader.of(load(root, TODAY))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_reader_refolded_over_random_edits_is_the_one_a_fresh_build_makes(corpus, counted, seed):
    rng = random.Random(seed)
    kept.reader(load(corpus, TODAY))  # the first server keeps its reader, and the rows
    for _ in range(6):
        changed = set().union(*(_edited(corpus, rng) for _ in range(rng.randint(1, 3))))
        counted.clear()
        refolded = kept.reader(load(corpus, TODAY))
        assert set(counted) == changed  # only the new or moved documents were counted
        fresh = _fresh(corpus)
        assert refolded.scorer.idf == fresh.scorer.idf
        assert vars(refolded.scorer)["_sums"] == vars(fresh.scorer)["_sums"]
        assert [d.path for d in refolded.scorer.documents] == [d.path for d in fresh.scorer.documents]
        assert (refolded.served, refolded.successors, refolded.terminal) == (
            fresh.served, fresh.successors, fresh.terminal)


def test_a_refolded_server_answers_the_bytes_of_a_fresh_one_and_keeps_its_reader(corpus, counted):
    _served(load(corpus, TODAY))
    rng = random.Random(11)
    for _ in range(4):
        _edited(corpus, rng)
    counted.clear()
    refolded = _served(load(corpus, TODAY))
    assert 0 < len(counted) <= 4
    counted.clear()
    assert _served(load(corpus, TODAY)) == refolded and counted == []  # the refolded reader was kept
    (corpus / cachedir.CACHE_DIR / kept.KEPT_FILE).unlink()
    _rows_file(corpus).unlink()  # nothing kept: every document counted
    snapshot = load(corpus, TODAY)
    assert _served(snapshot) == refolded and len(counted) == len(snapshot.census.documents)


@pytest.mark.parametrize("spare_per", [1, 10**9])
def test_a_document_edited_since_the_last_check_is_counted_from_its_body_unless_the_edits_outweigh_the_derived_file(
        hw, corpus, counted, monkeypatch, spare_per):
    assert hw("check", "--now", "2026-10-01", "--root", str(corpus)).status in (0, 1)  # keeps derived values
    kept.reader(load(corpus, TODAY))  # the first server keeps its reader, and the rows
    edited = _documents(corpus)[len(_documents(corpus)) // 2]
    edited.write_text(edited.read_text(encoding="utf-8") + "\nA zephyrine marmalade quota.\n", encoding="utf-8")
    reads = []
    read = derived_file.read
    monkeypatch.setattr(derived_file, "read", lambda *args: reads.append(args) or read(*args))
    monkeypatch.setattr(parses, "SPARE_PER", spare_per)
    counted.clear()
    refolded = kept.reader(load(corpus, TODAY))
    assert counted == [edited.relative_to(corpus).as_posix()]
    # the check kept no value for the edited bytes: the file is read only once the edits outweigh it
    assert len(reads) == (0 if spare_per == 1 else 1)
    fresh = _fresh(corpus)
    assert refolded.scorer.idf == fresh.scorer.idf
    assert vars(refolded.scorer)["_sums"] == vars(fresh.scorer)["_sums"]


def test_a_stem_no_document_holds_any_more_reaches_neither_the_idf_nor_the_kept_rows(corpus):
    document = _documents(corpus)[5]
    original = document.read_text(encoding="utf-8")
    document.write_text(original + "\nA zephyrine marmalade.\n", encoding="utf-8")
    assert "zephyrin" in kept.reader(load(corpus, TODAY)).scorer.idf
    document.write_text(original, encoding="utf-8")
    snapshot = load(corpus, TODAY)
    refolded = kept.reader(snapshot)
    assert "zephyrin" not in refolded.scorer.idf and refolded.scorer.idf == _fresh(corpus).scorer.idf
    rows = _kept_rows(snapshot)
    assert isinstance(rows, Rows) and rows.whole()
    assert "zephyrin" not in rows.stems and sorted(rows.stems) == sorted(refolded.scorer.idf)


def _rows_file(root: Path) -> Path:
    return root / cachedir.CACHE_DIR / kept.ROWS_FILE


def _reshaped(rows: Rows) -> list[Rows]:
    """Rows a file sealed with this user's key could hold that `refolded` must not read."""
    return [replace(rows, keys=rows.keys[1:]), replace(rows, stems=rows.stems[:-1]),
            replace(rows, counts=rows.counts[:-1]), replace(rows, lengths=rows.lengths[1:]),
            replace(rows, sizes=list(rows.sizes))]


def test_rows_of_another_shape_are_never_refolded_and_the_reader_is_built_whole(corpus, counted):
    kept.reader(load(corpus, TODAY))
    snapshot = load(corpus, TODAY)
    rows = _kept_rows(snapshot)
    assert rows is not None and rows.whole()
    header = kept.headers(snapshot, Tokenizer.of(snapshot.taxonomy))[1]
    fresh = _fresh(corpus)
    for reshaped in _reshaped(rows):
        kept._keep_rows(snapshot, header, reshaped)
        (corpus / cachedir.CACHE_DIR / kept.KEPT_FILE).unlink(missing_ok=True)
        counted.clear()
        built = kept.reader(load(corpus, TODAY))
        assert len(counted) == len(snapshot.census.documents)  # every document counted afresh
        assert vars(built.scorer)["_sums"] == vars(fresh.scorer)["_sums"]


def test_rows_holding_an_id_that_names_no_stem_are_not_whole(corpus):
    kept.reader(load(corpus, TODAY))
    rows = _kept_rows(load(corpus, TODAY))
    assert rows is not None and rows.whole()
    for wrong in (-1, -2**31, len(rows.stems), 2**31 - 1):
        ids = array("i", rows.ids)
        ids[len(ids) // 2] = wrong
        assert not replace(rows, ids=ids).whole(), wrong


@pytest.mark.parametrize("spoil", ["tampered", "truncated", "foreign", "symlinked"])
def test_a_spoiled_rows_file_serves_nothing_and_every_document_is_counted(corpus, counted, spoil):
    kept.reader(load(corpus, TODAY))
    getattr(kept_tests, f"_{spoil}")(_rows_file(corpus))
    document = _documents(corpus)[7]
    document.write_text(document.read_text(encoding="utf-8") + "\nOn quota.\n", encoding="utf-8")
    counted.clear()
    snapshot = load(corpus, TODAY)
    built = kept.reader(snapshot)
    assert len(counted) == len(snapshot.census.documents)
    assert vars(built.scorer)["_sums"] == vars(_fresh(corpus).scorer)["_sums"]


def test_a_server_keeps_its_reader_and_rows_only_once_its_first_answer_is_written(corpus):
    server = Server(load(corpus, TODAY), write=False)
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "route", "arguments": {"task": TASKS[0]}}}
    assert '"result"' in server.handle_line(json.dumps(request).encode())
    assert not (corpus / cachedir.CACHE_DIR / kept.KEPT_FILE).exists() and not _rows_file(corpus).exists()
    assert len(server.pending) == 1
    server.settle()
    assert (corpus / cachedir.CACHE_DIR / kept.KEPT_FILE).is_file() and _rows_file(corpus).is_file()
    server.handle_line(json.dumps(request).encode())
    assert server.pending == []  # the reader is built once, and kept once
