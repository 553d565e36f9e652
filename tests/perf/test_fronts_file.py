"""The fronts file: every front rebuilt from it equals a fresh parse, and anything doubtful is rebuilt.

Counts, never seconds: `table_hits` says how many fronts came from the file. The corpus is the
generated 200-document repository the speed tests share, copied per test.
"""

from __future__ import annotations

import datetime as dt
import marshal
import os
import shutil
from array import array
from pathlib import Path

import pytest

from headwater import cachekey
from headwater.cachedir import CACHE_DIR
from headwater.corpus import fronts
from headwater.corpus.parses import CacheUse, header
from headwater.snapshot import load

TODAY = dt.date(2026, 10, 1)
CHECK = ("check", "--now", "2026-10-01")


def _warm(root: Path) -> None:
    snapshot = load(root, TODAY, CacheUse.WRITE)
    for document in snapshot.census.parsed:
        document.body  # noqa: B018 — parse it, so the caches hold it
    assert snapshot.save_parses() == []


def _same_load(warm, fresh) -> None:
    assert [d.front for d in warm.census.parsed] == [d.front for d in fresh.census.parsed]
    assert [(d.body_text, d.body_line) for d in warm.census.parsed] == [
        (d.body_text, d.body_line) for d in fresh.census.parsed]
    assert warm.census.rows == fresh.census.rows
    assert warm.graph.edges == fresh.graph.edges and warm.graph.problems == fresh.graph.problems


def _reseal(path: Path, head: bytes, payload: bytes) -> None:
    seal = cachekey.seal(cachekey.key(create=False), fronts.FRONTS_FILE.encode(), head, payload).encode()
    path.write_bytes(head + b"\n" + seal + b"\n" + payload)


def test_every_front_of_a_warm_load_comes_from_the_fronts_file_and_equals_a_fresh_parse(corpus):
    fresh = load(corpus, TODAY, CacheUse.OFF)
    _warm(corpus)
    assert (corpus / CACHE_DIR / fronts.FRONTS_FILE).is_file()
    warm = load(corpus, TODAY, CacheUse.READ)
    with_front = sum(1 for d in fresh.census.parsed)
    assert warm.parses.table_hits >= with_front > 0
    assert warm.parse_account.fronts_parsed == 0
    _same_load(warm, fresh)


def _tampered(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x01
    path.write_bytes(bytes(data))


def _truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _other_format(path: Path) -> None:
    head, _, rest = path.read_bytes().partition(b"\n")
    _reseal(path, head.replace(f"fronts {fronts.FORMAT} ".encode(), b"fronts 0 "), rest.partition(b"\n")[2])


def _other_parser(path: Path) -> None:
    head, _, rest = path.read_bytes().partition(b"\n")
    _reseal(path, fronts.header("headwater parsed documents 3 0000000000000000").encode(), rest.partition(b"\n")[2])


def _sealed_garbage(path: Path) -> None:
    _reseal(path, fronts.header(header()).encode(), b"\x00not marshal at all")


def _sealed_wrong_shapes(path: Path) -> None:
    table, shapes, entries = marshal.loads(path.read_bytes().split(b"\n", 2)[2])
    spoilt = {digest: (1, 2, (9, 1, 1, ())) if index % 4 == 0 else (1,) if index % 4 == 1
              else (-1, "x", 5) if index % 4 == 2 else (0, 1, -1) for index, digest in enumerate(entries)}
    _reseal(path, fronts.header(header()).encode(), marshal.dumps((table, shapes, spoilt)))


def _sealed_node_before_its_child(path: Path) -> None:
    """Well-formed entries over a node list where a mapping names a node built after it."""
    table, shapes, entries = marshal.loads(path.read_bytes().split(b"\n", 2)[2])
    first = next(index for index, shape in enumerate(shapes) if len(shape) == 4)
    line, column, keys, values = shapes[first]
    later = array(fronts.PLACE, [len(table) + len(shapes) - 1]).tobytes()
    shapes = (*shapes[:first], (line, column, keys, values[:-len(later)] + later), *shapes[first + 1:])
    _reseal(path, fronts.header(header()).encode(), marshal.dumps((table, shapes, entries)))


def _sealed_mapping_keyed_by_a_mapping(path: Path) -> None:
    table, shapes, entries = marshal.loads(path.read_bytes().split(b"\n", 2)[2])
    last = len(table) + len(shapes) - 1
    shapes = (*shapes, (1, 1, array(fronts.PLACE, [last]).tobytes(), array(fronts.PLACE, [0]).tobytes()))
    entries = {digest: (one[0], one[1], last + 1) if isinstance(one, tuple) else one for digest, one in entries.items()}
    _reseal(path, fronts.header(header()).encode(), marshal.dumps((table, shapes, entries)))


def _sealed_places_cut_short(path: Path) -> None:
    """A run of places whose length is no whole number of places."""
    table, shapes, entries = marshal.loads(path.read_bytes().split(b"\n", 2)[2])
    line, column, items = next(shape for shape in shapes if len(shape) == 3)
    shapes = (*shapes, (line, column, items[:-1]))
    _reseal(path, fronts.header(header()).encode(), marshal.dumps((table, shapes, entries)))


def _sealed_offsets_outside_the_text(path: Path) -> None:
    """Every body said to start before the text or after its end."""
    table, shapes, entries = marshal.loads(path.read_bytes().split(b"\n", 2)[2])
    entries = {digest: (-1 if index % 2 else 1 << 30, one[1], one[2]) if isinstance(one, tuple) else one
               for index, (digest, one) in enumerate(entries.items())}
    _reseal(path, fronts.header(header()).encode(), marshal.dumps((table, shapes, entries)))


def _sealed_mapping_with_a_value_too_many(path: Path) -> None:
    table, shapes, entries = marshal.loads(path.read_bytes().split(b"\n", 2)[2])
    first = next(index for index, shape in enumerate(shapes) if len(shape) == 4 and shape[2])
    line, column, keys, values = shapes[first]
    shapes = (*shapes[:first], (line, column, keys, values + values[:4]), *shapes[first + 1:])
    _reseal(path, fronts.header(header()).encode(), marshal.dumps((table, shapes, entries)))


def _sealed_entries_not_a_mapping(path: Path) -> None:
    table, shapes, entries = marshal.loads(path.read_bytes().split(b"\n", 2)[2])
    _reseal(path, fronts.header(header()).encode(), marshal.dumps((table, shapes, list(entries.items()))))


def _symlinked(path: Path) -> None:
    """A sealed file of this user's, but reached through a symlink (a symlinked cache folder is a
    refusal of every verb: tests/reliability/test_symlinked_state.py)."""
    elsewhere = path.parent.parent.parent.parent / "fronts-elsewhere"
    shutil.move(path, elsewhere)
    os.symlink(elsewhere, path)


@pytest.mark.parametrize("spoil", [_tampered, _truncated, _other_format, _other_parser, _sealed_garbage,
                                   _sealed_wrong_shapes, _sealed_node_before_its_child,
                                   _sealed_mapping_keyed_by_a_mapping, _sealed_places_cut_short,
                                   _sealed_offsets_outside_the_text, _sealed_mapping_with_a_value_too_many,
                                   _sealed_entries_not_a_mapping, _symlinked])
def test_a_doubtful_fronts_file_serves_nothing_and_the_load_is_the_same(corpus, spoil):
    fresh = load(corpus, TODAY, CacheUse.OFF)
    _warm(corpus)
    (corpus / CACHE_DIR / "parsed").unlink()  # so every front is parsed again, not read elsewhere
    spoil(corpus / CACHE_DIR / fronts.FRONTS_FILE)
    warm = load(corpus, TODAY, CacheUse.READ)
    assert warm.parses.table_hits == 0
    assert warm.parse_account.fronts_parsed == len(fresh.census.parsed)
    _same_load(warm, fresh)


def test_an_edited_front_is_parsed_again_and_check_prints_what_no_cache_prints(corpus, hw):
    assert hw(*CHECK, "--root", str(corpus)).status in (0, 1)
    edited = corpus / load(corpus, TODAY, CacheUse.OFF).census.documents[3].path
    lines = edited.read_text().split("\n")
    lines = [("title: Renamed by the test" if line.startswith("title:") else line) for line in lines]
    edited.write_text("\n".join(line for line in lines if not line.startswith("summary:")))
    warm = load(corpus, TODAY, CacheUse.READ)
    assert warm.parse_account.fronts_parsed == 1
    assert hw(*CHECK, "--root", str(corpus)).out == hw(*CHECK, "--no-cache", "--root", str(corpus)).out


def test_a_few_edits_leave_the_fronts_file_alone_and_many_rewrite_it(corpus):
    _warm(corpus)
    path = corpus / CACHE_DIR / fronts.FRONTS_FILE
    before = path.read_bytes()
    documents = load(corpus, TODAY, CacheUse.OFF).census.documents
    (corpus / documents[0].path).write_text((corpus / documents[0].path).read_text() + "\nEdited.\n")
    _warm(corpus)
    assert path.read_bytes() == before
    for document in documents[1:80]:
        (corpus / document.path).write_text((corpus / document.path).read_text() + "\nEdited.\n")
    _warm(corpus)
    assert path.read_bytes() != before
    assert load(corpus, TODAY, CacheUse.READ).parse_account.fronts_parsed == 0


def test_reads_never_write_the_fronts_file_and_no_cache_never_reads_it(corpus):
    load(corpus, TODAY, CacheUse.READ).save_parses()
    assert not (corpus / CACHE_DIR / fronts.FRONTS_FILE).exists()
    _warm(corpus)
    assert load(corpus, TODAY, CacheUse.OFF).parses.table_hits == 0


@pytest.mark.parametrize("spoil", ["none", "a byte deep in the payload", "another header", "a symlink"])
def test_the_parse_cache_s_first_line_is_read_only_from_a_file_whose_whole_seal_verifies(corpus, spoil):
    from headwater import cachedir

    _warm(corpus)
    path = corpus / CACHE_DIR / "parsed"
    whole = cachedir.read(corpus, "parsed", header())
    if spoil == "a byte deep in the payload":
        data = bytearray(path.read_bytes())
        data[-3] ^= 0x01
        path.write_bytes(bytes(data))
    elif spoil == "another header":
        head, _, rest = path.read_bytes().partition(b"\n")
        path.write_bytes(head + b"x\n" + rest)
    elif spoil == "a symlink":
        shutil.move(path, corpus.parent / "parsed-elsewhere")
        os.symlink(corpus.parent / "parsed-elsewhere", path)
    found = cachedir.first_line(corpus, "parsed", header())
    assert found == (whole.partition(b"\n")[0] if spoil == "none" else None)


def _overlay(root: Path) -> None:
    overlay = root / ".headwater" / "overlay.yml"
    overlay.write_text(overlay.read_text().replace("decision_id.namespace: GEN", "decision_id.namespace: GEX"))


def _exclusions(root: Path) -> None:
    declaration = root / ".headwater" / "taxonomy.yml"
    declaration.write_text(declaration.read_text().replace('docs/archive/**', 'docs/guides/**'))


def _moved(root: Path) -> None:
    document = load(root, TODAY, CacheUse.OFF).census.documents[7]
    target = root / "docs" / "elsewhere" / Path(document.path).name
    target.parent.mkdir(parents=True)
    (root / document.path).rename(target)


def _edited(root: Path) -> None:
    document = root / load(root, TODAY, CacheUse.OFF).census.documents[11].path
    lines = document.read_text().split("\n")
    document.write_text("\n".join("status: bogus" if line.startswith("status:") else line for line in lines))


@pytest.mark.parametrize("change", [_overlay, _exclusions, _moved, _edited])
def test_after_any_input_changes_a_warm_check_prints_what_a_no_cache_check_prints(corpus, hw, change):
    """The fronts are keyed by content alone; whatever else changed (the taxonomy's overlay and
    lock, the declaration's exclusions, where a file lives, a file's bytes) is read afresh."""
    root = ("--root", str(corpus))
    before = hw(*CHECK, *root).out
    change(corpus)
    assert hw("taxonomy", "resolve", *root).status == 0
    warm, uncached = hw(*CHECK, *root), hw(*CHECK, "--no-cache", *root)
    assert warm.err == uncached.err == ""
    assert (warm.status, warm.out) == (uncached.status, uncached.out)
    assert warm.out != before  # the change shows, so a stale cache could not have passed
    for when in ("2026-12-24", "2027-06-01"):  # the run date: fronts hold none, the runner reads it
        assert hw("check", "--now", when, *root).out == hw("check", "--now", when, "--no-cache", *root).out


def test_a_front_refused_is_kept_as_its_refusal_and_served_as_the_same_row(corpus):
    refused = corpus / "docs" / "never-closed.md"
    refused.write_text("---\ntitle: x\nbody with no closing fence\n", encoding="utf-8")
    fresh = load(corpus, TODAY, CacheUse.OFF)
    _warm(corpus)
    (corpus / CACHE_DIR / "parsed").unlink()  # so the refusal can come from the fronts file alone
    warm = load(corpus, TODAY, CacheUse.READ)
    row = warm.census.by_path["docs/never-closed.md"]
    assert row == fresh.census.by_path["docs/never-closed.md"] and "never closed" in row.reason
    assert warm.parse_account.fronts_parsed == 0 and warm.parses.table_hits == len(fresh.census.parsed) + 1
    _same_load(warm, fresh)


@pytest.mark.parametrize("spoil", ["cut inside its header", "cut inside its seal", "a folder", "a fifo"])
def test_a_cache_file_cut_short_or_no_file_at_all_reads_as_empty_and_never_waits(corpus, spoil):
    from headwater import cachedir

    _warm(corpus)
    path = corpus / CACHE_DIR / "parsed"
    assert cachedir.read(corpus, "parsed", header())
    data = path.read_bytes()
    path.unlink()
    if spoil == "cut inside its header":
        path.write_bytes(data[:10])
    elif spoil == "cut inside its seal":
        path.write_bytes(data[:data.index(b"\n") + 20])
    elif spoil == "a folder":
        path.mkdir()
    else:
        os.mkfifo(path)
    assert cachedir.read(corpus, "parsed", header()) is None


def test_an_entry_is_served_only_at_places_and_offsets_inside_what_the_file_holds():
    from headwater.yaml.nodes import Map, Scalar

    front = Map((), 1, 1)
    held = fronts.Fronts({"first": (0, 1, 0), "whole": (12, 3, 0), "past": (0, 1, 2), "scalar": (0, 1, 1),
                          "beyond": (13, 3, 0), "before": (-1, 1, 0), "typed": ("0", 1, 0),
                          "line": (0, "1", 0), "negative": (0, 1, -1)},
                         [front, Scalar("x", 1, 1)])
    assert held.opened("first", 12) == (front, 0, 1)  # the first node, a body from the first character
    assert held.opened("whole", 12) == (front, 12, 3)  # a file that is all front matter: an empty body
    assert [held.opened(name, 12) for name in ("past", "scalar", "beyond", "before", "typed", "line", "negative",
                                               "absent")] == [None] * 8
