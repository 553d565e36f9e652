"""Route's reader kept between MCP servers (HW-DR-0036): a server, and `route` from a terminal
(HW-DR-0061), reads the reader the last server kept when it is this corpus's, builds it
otherwise, and answers the same bytes either way; a kept file that is tampered with, truncated,
foreign, symlinked, of another key, or that would make anything but route's own classes serves
nothing.

Counts, never seconds: whether a server built its reader is counted on `Reader.over`. The corpus is
the generated 200-document repository of tests/perf/conftest.py, copied per test; the labelled
sets' tasks run over the Relay fixture and the real corpora unpacked once for the module.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import pickle
import secrets
import sys
import threading
from dataclasses import is_dataclass, replace
from pathlib import Path

import pytest

from headwater import cachedir, cachekey, writelock
from headwater.cli.verb_mcp import serve
from headwater.corpus.document import Document
from headwater.mcp.protocol import Server
from headwater.reads.route import kept
from headwater.reads.route.router import Reader, route
from headwater.reads.route.tokens import Tokenizer
from headwater.snapshot import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from real_corpora import REAL, SETS, unpack  # noqa: E402

TODAY = dt.date(2026, 10, 1)
TASKS = ("rate limit for the ingest service", "how do I configure the audit record",
         "why do we retry deliveries with backoff", "what is the weather in paris")
ROUTING = Path(__file__).resolve().parents[2] / "corpus_fixtures" / "routing"


@pytest.fixture
def builds(monkeypatch) -> list[int]:
    """One element per reader a server built (rather than read back)."""
    built: list[int] = []
    original = Reader.over

    def counted(snapshot, folded, tokenizer, **how):
        built.append(1)
        return original(snapshot, folded, tokenizer, **how)

    monkeypatch.setattr(Reader, "over", staticmethod(counted))
    return built


def _served(snapshot, tasks=TASKS) -> list[str]:
    """The MCP route tool's whole response to each task, from one server over `snapshot`
    (served as `headwater mcp` serves its standard input)."""
    server = Server(snapshot, write=False)
    requests = ({"jsonrpc": "2.0", "id": ident, "method": "tools/call",
                 "params": {"name": "route", "arguments": {"task": task}}} for ident, task in enumerate(tasks))
    out = io.BytesIO()
    serve(server, io.BytesIO(b"".join(json.dumps(request).encode() + b"\n" for request in requests)), out)
    return out.getvalue().decode("utf-8").splitlines()


def _kept_file(root: Path) -> Path:
    return root / cachedir.CACHE_DIR / kept.KEPT_FILE


def test_a_second_server_reads_the_reader_the_first_kept_and_answers_the_same_bytes(corpus, builds):
    first = _served(load(corpus, TODAY))
    assert builds == [1] and _kept_file(corpus).is_file()
    assert _served(load(corpus, TODAY)) == first
    assert builds == [1]  # the second server built nothing: the reader was read back


def test_a_server_s_first_answer_makes_only_its_task_s_sums_and_the_rest_are_made_as_the_reader_is_kept(corpus):
    snapshot = load(corpus, TODAY)
    keep = kept.prime(snapshot)
    answered = route(snapshot, TASKS[0])
    reader = snapshot.derived(kept.READER, lambda: None)
    assert answered.pointers and vars(reader.scorer)["_deferred"]  # answered before every sum was made
    assert len(reader.scorer.idf) < 20 and not _kept_file(corpus).exists()
    keep()
    assert not vars(reader.scorer)["_deferred"] and _kept_file(corpus).is_file()
    whole = Reader.of(replace(snapshot, _derived={}))
    assert reader.scorer.idf == whole.scorer.idf and route(snapshot, TASKS[1]) == route(
        replace(snapshot, _derived={}), TASKS[1])


def test_route_from_a_terminal_reads_back_the_reader_a_server_kept_and_writes_none_itself(corpus, builds, hw):
    cache = corpus / cachedir.CACHE_DIR
    task = TASKS[0]
    built = hw("route", "--root", str(corpus), "--json", task)
    assert built.status == 0 and json.loads(built.out)["pointers"]
    assert builds == [1] and not cache.exists()  # a read verb keeps nothing
    _served(load(corpus, TODAY))  # a server keeps the reader it built
    assert builds == [1, 1] and _kept_file(corpus).is_file()
    before = {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in cache.iterdir()}
    again = hw("route", "--root", str(corpus), "--json", task)
    assert builds == [1, 1]  # the terminal's route built nothing: it read the kept reader back
    assert again.status == 0 and again.out == built.out
    assert {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in cache.iterdir()} == before


def test_the_kept_reader_is_the_built_one_field_by_field(corpus, builds):
    snapshot = load(corpus, TODAY)
    built = kept.reader(snapshot)
    read = kept.reader(replace(snapshot, _derived={}))
    assert builds == [1] and read is not built and read == built
    assert vars(read.scorer)["_sums"] == vars(built.scorer)["_sums"]
    assert _every_field(read) == _every_field(built)
    assert [d is e for d, e in zip(read.scorer.documents, snapshot.census.documents, strict=True)] == [True] * len(
        snapshot.census.documents)


def _every_field(value: object) -> object:
    """A reader's fields, and theirs, whatever fields it has, those its classes leave out of `==` too
    (but a document, which is the census's own, and the tokenizer's memo of the stems it made)."""
    if is_dataclass(value) and not isinstance(value, type | Document | Tokenizer):
        return {name: _every_field(field) for name, field in vars(value).items()}
    return value


def _tampered(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x01  # one byte of the pickle changed, the seal left as it was
    path.write_bytes(bytes(data))


def _truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-100])


def _foreign(path: Path) -> None:
    """Resealed under a key that is not this user's (a file copied from another machine)."""
    head, seal, payload = path.read_bytes().split(b"\n", 2)
    path.write_bytes(head + b"\n" + cachekey.seal(secrets.token_bytes(32), kept.KEPT_FILE.encode(), head,
                                                  payload).encode() + b"\n" + payload)


def _symlinked(path: Path) -> None:
    elsewhere = path.parent.parent / "elsewhere"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)


def _stale(path: Path) -> None:
    """The file as it was, but a document edited since: the key the corpus names now is another."""
    root = path.parents[2]
    document = sorted((root / "docs").rglob("*.md"))[3]
    document.write_text(document.read_text(encoding="utf-8") + "\nRetry deliveries to the audit record.\n",
                        encoding="utf-8")


@pytest.mark.parametrize("spoil", [_tampered, _truncated, _foreign, _symlinked, _stale],
                         ids=["tampered", "truncated", "foreign", "symlinked", "stale-key"])
def test_a_spoiled_kept_file_serves_nothing_and_the_answers_stay_the_same(corpus, builds, spoil):
    _served(load(corpus, TODAY))
    spoil(_kept_file(corpus))
    uncached = _served(load(corpus, TODAY), TASKS)  # the reader built afresh, from the corpus as it is now
    assert builds == [1, 1]
    _kept_file(corpus).unlink()
    assert _served(load(corpus, TODAY)) == uncached
    assert builds == [1, 1, 1]


class _Planted:
    """What a forged file would make on loading: a call outside route (here, one that leaves a mark)."""

    def __reduce__(self):
        return (os.mkdir, (str(self.mark),))

    def __init__(self, mark: Path) -> None:
        self.mark = mark


def test_a_file_sealed_with_this_users_key_makes_nothing_but_routes_own_classes(corpus, builds, tmp_path):
    snapshot = load(corpus, TODAY)
    header = kept.headers(snapshot, Tokenizer.of(snapshot.taxonomy))[0]
    mark = tmp_path / "made"
    planted = io.BytesIO()
    pickle.Pickler(planted, protocol=kept.PROTOCOL).dump(_Planted(mark))
    assert cachedir.write(corpus, kept.KEPT_FILE, header, planted.getvalue()) is None
    assert isinstance(kept.reader(snapshot), Reader) and builds == [1]
    assert not mark.exists()


@pytest.mark.parametrize(("module", "name"), [(kept.__name__, "Path"), (kept.__name__, "_Pickler.dump"),
                                              ("os", "system"), ("builtins", "eval")])
def test_the_unpickler_finds_no_class_a_route_module_did_not_define(module, name):
    unpickler = kept._Unpickler(io.BytesIO(b""), (), None)
    assert unpickler.find_class("headwater.reads.route.router", "Reader") is Reader
    with pytest.raises(pickle.UnpicklingError):
        unpickler.find_class(module, name)


def test_the_key_names_the_code_the_tokenizer_and_the_lock_and_the_listing_every_document_path(
        corpus, monkeypatch):
    snapshot = load(corpus, TODAY)
    tokenizer = Tokenizer.of(snapshot.taxonomy)
    first, listed = kept.key(snapshot, tokenizer), kept.listing(snapshot)
    assert kept.key(replace(snapshot, _derived={}), Tokenizer.of(snapshot.taxonomy)) == first
    row = snapshot.census.rows[0]
    moved = replace(snapshot, census=replace(snapshot.census, rows=(
        replace(row, document=replace(row.document, path="docs/moved.md")), *snapshot.census.rows[1:])))
    edited = replace(snapshot, census=replace(snapshot.census, rows=(
        replace(row, document=replace(row.document, digest="sha256:0")), *snapshot.census.rows[1:])))
    assert kept.key(moved, tokenizer) == first  # a row is reused by its (path, digest), under the key
    assert kept.listing(moved) != listed and kept.listing(edited) != listed
    assert kept.key(replace(snapshot, lock=replace(snapshot.lock, digest="sha256:0")), tokenizer) != first
    assert kept.key(snapshot, Tokenizer(frozenset({"the"}))) != first
    monkeypatch.setattr(kept, "code_fingerprint", lambda: "another build of the code")
    assert kept.key(snapshot, tokenizer) != first


def test_a_server_that_cannot_keep_its_reader_still_answers(corpus, builds):
    (corpus / cachedir.CACHE_DIR).mkdir(parents=True, exist_ok=True)
    _kept_file(corpus).mkdir()  # a directory where the file would go: the write fails
    first = _served(load(corpus, TODAY))
    assert _served(load(corpus, TODAY)) == first and builds == [1, 1]



def test_a_server_does_not_wait_for_a_run_holding_the_write_lock_to_keep_its_reader(corpus, builds):
    snapshot = load(corpus, TODAY)
    answered: list[list[str]] = []
    with writelock.held(corpus, sweep=False):  # a long check holds it
        server = threading.Thread(target=lambda: answered.append(_served(snapshot)), daemon=True)
        server.start()
        server.join(timeout=60)
        assert answered, "the server waited for the run holding the write lock"
        assert not _kept_file(corpus).exists()
    assert _served(load(corpus, TODAY)) == answered[0] and builds == [1, 1]
    assert _kept_file(corpus).is_file()  # the next server, the lock free, keeps what it built


@pytest.fixture(scope="module")
def real_roots(tmp_path_factory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("kept-corpora")
    return {c.name: unpack(c, work) for c in REAL if c.archive.is_file()}


def _labelled_tasks(labels: dict) -> list[str]:
    return [case["task"] for case in labels["on_topic"]] + list(labels["off_topic"])


def _alike_built_and_kept(root: Path, tasks: list[str], builds: list[int]) -> None:
    snapshot = load(root, dt.date(2026, 11, 1), spread=True)  # bodies parsed on every core: the same counts
    built = _served(snapshot, tasks)
    assert builds == [1]
    assert _served(replace(snapshot, _derived={}), tasks) == built
    assert builds == [1]


def test_every_task_of_the_relay_labelled_set_is_answered_alike_by_a_built_and_a_kept_reader(
        copy_fixture, builds):
    from ruamel.yaml import YAML

    labels = YAML(typ="safe").load((ROUTING / "labels.yml").read_text(encoding="utf-8"))
    _alike_built_and_kept(copy_fixture("routing"), _labelled_tasks(labels), builds)


@pytest.mark.parametrize("corpus_name", [c.name for c in REAL])
def test_every_task_of_a_real_corpus_s_labelled_sets_is_answered_alike_by_a_built_and_a_kept_reader(
        real_roots, builds, corpus_name):
    if corpus_name not in real_roots:
        pytest.skip(f"../shared/corpora/{corpus_name}.tar.gz is absent, so its labelled sets cannot be run")
    tasks = [task for s in SETS if s.corpus.name == corpus_name for task in _labelled_tasks(s.labels)]
    _alike_built_and_kept(real_roots[corpus_name], tasks, builds)
