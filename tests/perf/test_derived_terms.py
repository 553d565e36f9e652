"""Route's stem counts kept beside the parse cache: a route after `check` neither parses nor
tokenizes a body, and answers the same bytes with the counts kept, without them, and with a kept
file that is tampered, foreign or of another tokenizer.

Counts, never seconds: the parse account says whether bodies were read. The corpus is the
generated 200-document repository of tests/perf/conftest.py, copied per test.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets

import pytest

from headwater import cachekey
from headwater.cachedir import CACHE_DIR
from headwater.corpus import derived as derived_file
from headwater.corpus.derived import DERIVED_FILE
from headwater.corpus.parses import CacheUse
from headwater.corpus.parses import header as parse_header
from headwater.mcp.protocol import Server
from headwater.reads.route import tokens as route_tokens
from headwater.reads.route.index import FIELDS, RouteIndex, body_terms
from headwater.snapshot import load
from headwater.taxonomy.model import Taxonomy

TODAY = dt.date(2026, 10, 1)
TASKS = ("rate limit for the ingest service", "how do I configure the audit record",
         "why do we retry deliveries with backoff", "what is the weather in paris")


def _check(hw, root) -> None:
    ran = hw("check", "--now", TODAY.isoformat(), "--root", str(root))
    assert ran.status == 0, ran.err
    assert (root / CACHE_DIR / DERIVED_FILE).exists()


def _answers(hw, root) -> list[str]:
    """route --json and route's text from the CLI, and the MCP route tool's whole response."""
    outputs = []
    for task in TASKS:
        for extra in (["--json"], []):
            ran = hw("route", task, *extra, "--root", str(root))
            assert ran.status == 0, ran.err
            outputs.append(ran.out)
    server = Server(load(root, TODAY), write=False)
    for ident, task in enumerate(TASKS):
        request = {"jsonrpc": "2.0", "id": ident, "method": "tools/call",
                   "params": {"name": "route", "arguments": {"task": task}}}
        outputs.append(server.handle_line(json.dumps(request).encode()))
    return outputs


def _counts(root) -> list:
    snapshot = load(root, TODAY, CacheUse.READ)
    index = RouteIndex.of(snapshot.census.documents, snapshot.taxonomy, snapshot.declaration.corpus_root)
    return [[list(counts.items()) for counts in entry.counts] for entry in index.entries]


def test_a_route_after_check_neither_parses_nor_reads_a_body(corpus, hw):
    from headwater.reads.route.router import route

    _check(hw, corpus)
    snapshot = load(corpus, TODAY, CacheUse.READ)
    assert route(snapshot, TASKS[0]).pointers
    account = snapshot.parse_account
    assert (account.bodies_parsed, account.bodies_reused) == (0, 0)


def test_kept_counts_are_the_counts_a_body_gives_in_the_same_order(corpus, hw):
    uncached = _counts(corpus)
    _check(hw, corpus)
    assert _counts(corpus) == uncached


def _tampered(path) -> None:
    data = bytearray(path.read_bytes())
    at = data.index(b'":1', data.index(b"\n", data.index(b"\n") + 1))
    data[at + 2] = ord("7")  # one count changed, the seal left as it was
    path.write_bytes(bytes(data))


def _foreign(path) -> None:
    """Resealed under a key that is not this user's (a file copied from another machine)."""
    data = path.read_bytes()
    head, _, rest = data.partition(b"\n")
    payload = rest.partition(b"\n")[2].replace(b'":1,', b'":9,')
    seal = cachekey.seal(secrets.token_bytes(32), DERIVED_FILE.encode(), head, payload).encode()
    path.write_bytes(head + b"\n" + seal + b"\n" + payload)


@pytest.mark.parametrize("spoil", [_tampered, _foreign], ids=["tampered", "foreign"])
def test_route_and_mcp_answer_alike_uncached_cached_and_with_a_spoiled_file(corpus, hw, spoil):
    uncached = _answers(hw, corpus)
    _check(hw, corpus)
    assert _answers(hw, corpus) == uncached
    spoil(corpus / CACHE_DIR / DERIVED_FILE)
    snapshot = load(corpus, TODAY, CacheUse.READ)
    assert _kept(snapshot) == [None] * len(snapshot.census.documents)
    assert _answers(hw, corpus) == uncached


def _kept(snapshot) -> list:
    """What the parse store hands route of every document's body under route's key."""
    key = body_terms(snapshot.taxonomy).key
    return list(snapshot.parses.derived([d.digest for d in snapshot.census.documents], key))


def test_another_tokenizer_version_reads_the_kept_counts_as_absent_and_check_rewrites_them(
        corpus, hw, monkeypatch):
    _check(hw, corpus)
    kept = _answers(hw, corpus)
    before = (corpus / CACHE_DIR / DERIVED_FILE).read_bytes()
    monkeypatch.setattr(route_tokens, "VERSION", route_tokens.VERSION + 1)
    snapshot = load(corpus, TODAY, CacheUse.READ)
    assert _kept(snapshot) == [None] * len(snapshot.census.documents)
    assert _answers(hw, corpus) == kept
    _check(hw, corpus)
    after = (corpus / CACHE_DIR / DERIVED_FILE).read_bytes()
    assert after.partition(b"\n")[0] != before.partition(b"\n")[0]
    snapshot = load(corpus, TODAY, CacheUse.READ)
    assert None not in _kept(snapshot)


def test_a_warm_check_neither_reads_bodies_nor_rewrites_the_kept_counts(corpus, hw):
    _check(hw, corpus)
    before = (corpus / CACHE_DIR / DERIVED_FILE).read_bytes()
    snapshot = load(corpus, TODAY, CacheUse.WRITE, derive=_derivation)
    assert snapshot.save_parses() == []
    assert snapshot.parse_account.bodies_reused == 0
    assert (corpus / CACHE_DIR / DERIVED_FILE).read_bytes() == before


def test_a_check_puts_back_a_kept_counts_file_that_went_missing(corpus, hw):
    _check(hw, corpus)
    before = (corpus / CACHE_DIR / DERIVED_FILE).read_bytes()
    (corpus / CACHE_DIR / DERIVED_FILE).unlink()
    _check(hw, corpus)
    assert (corpus / CACHE_DIR / DERIVED_FILE).read_bytes() == before


def _derivation(tax):
    from headwater.reads.route.index import body_terms

    return body_terms(tax)


def test_reads_and_no_cache_checks_never_write_the_kept_counts(corpus, hw):
    hw("route", TASKS[0], "--root", str(corpus))
    assert hw("check", "--no-cache", "--now", TODAY.isoformat(), "--root", str(corpus)).status == 0
    assert not (corpus / CACHE_DIR / DERIVED_FILE).exists()


def test_a_kept_value_of_the_old_shape_under_this_key_is_recounted_to_the_same_answers(corpus, hw):
    """A value without the title and summary counts (a body's five parts, as kept before them),
    even sealed under this run's key, reads as a miss: the document is counted afresh."""
    uncached = _answers(hw, corpus)
    _check(hw, corpus)
    snapshot = load(corpus, TODAY, CacheUse.READ)
    key = body_terms(snapshot.taxonomy).key
    old = {d.digest: json.dumps(["", *value[2:]]).encode() for d, value
           in zip(snapshot.census.documents, _kept(snapshot), strict=True)}
    assert derived_file.write(corpus, parse_header(), key, old) is None
    assert all(len(value) == 5 for value in _kept(load(corpus, TODAY, CacheUse.READ)))
    assert _answers(hw, corpus) == uncached
    snapshot = load(corpus, TODAY, CacheUse.READ)
    list(RouteIndex.of(snapshot.census.documents, snapshot.taxonomy, snapshot.declaration.corpus_root).entries)
    assert snapshot.parse_account.bodies_reused == len(snapshot.census.documents)


def test_the_kept_counts_are_keyed_by_the_facets_route_reads_as_title_and_summary(corpus, monkeypatch):
    tax = load(corpus, TODAY, CacheUse.READ).taxonomy
    before = body_terms(tax).key
    role_of = Taxonomy.facet_for_role
    monkeypatch.setattr(Taxonomy, "facet_for_role",
                        lambda self, role: "headline" if role == "name" else role_of(self, role))
    assert body_terms(tax).key != before


def test_a_document_renamed_with_the_same_bytes_routes_by_its_new_path(corpus, hw):
    _check(hw, corpus)
    moved = load(corpus, TODAY, CacheUse.READ).census.documents[0]
    target = (corpus / moved.path).with_name("zanzibar-quokka.md")
    (corpus / moved.path).rename(target)
    kept = _counts(corpus)
    (corpus / CACHE_DIR / DERIVED_FILE).unlink()
    assert _counts(corpus) == kept  # the kept value served the renamed bytes; the path is this run's
    snapshot = load(corpus, TODAY, CacheUse.READ)
    index = RouteIndex.of(snapshot.census.documents, snapshot.taxonomy, snapshot.declaration.corpus_root)
    paths = {e.document.path: set(e.counts[FIELDS.index("path")]) for e in index.entries}
    renamed = target.relative_to(corpus).as_posix()
    assert {"zanzibar", "quokka"} <= paths[renamed]
    ran = hw("route", "zanzibar quokka", "--json", "--root", str(corpus))
    assert ran.status == 0, ran.err
    assert json.loads(ran.out)["pointers"][0]["path"] == renamed


def _edited(root, how_many: int) -> None:
    for path in sorted((root / "docs").rglob("*.md"))[:how_many]:
        path.write_text(path.read_text(encoding="utf-8") + "\nOne more line about the ingest service.\n",
                        encoding="utf-8")


def test_a_check_with_a_handful_of_edits_counts_no_stems_and_one_with_many_keeps_the_counts_a_body_gives(
        corpus, hw, monkeypatch):
    from headwater.corpus import parses
    from headwater.reads.route import index as route_index

    _check(hw, corpus)
    before = (corpus / CACHE_DIR / DERIVED_FILE).read_bytes()
    counted, calls = route_index.counted, []

    def counting(*args):
        calls.append(args)
        return counted(*args)

    monkeypatch.setattr(route_index, "counted", counting)
    _edited(corpus, 3)
    _check(hw, corpus)
    assert calls == [] and (corpus / CACHE_DIR / DERIVED_FILE).read_bytes() == before
    _edited(corpus, parses.REWRITE_AFTER)
    uncached = _counts(corpus)
    _check(hw, corpus)
    assert len(calls) >= parses.REWRITE_AFTER
    assert (corpus / CACHE_DIR / DERIVED_FILE).read_bytes() != before
    assert None not in _kept(load(corpus, TODAY, CacheUse.READ)) and _counts(corpus) == uncached
