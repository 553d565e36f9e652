"""The verdict cache: it may save a rerun, and it never changes a byte of the report."""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from pathlib import Path

import pytest

from headwater import cachekey
from headwater.check.cache import FIELD, HEADER, PART, Verdicts, decode, encode
from headwater.check.context import Context
from headwater.check.instances import NO_CHANGE, judge, subjects
from headwater.check.links import reaches
from headwater.check.registry import rule_ids
from headwater.check.rule import Reads, Scope
from headwater.check.runner import SECTIONS
from headwater.snapshot import load
from tests.check.test_fix import tree

FIXTURES = Path(__file__).resolve().parents[2] / "corpus_fixtures"
EVERY = ["quickstart", "check-all",
         *sorted(p.relative_to(FIXTURES).as_posix() for p in FIXTURES.glob("rules/*/*") if p.is_dir())]
FORMATS = ("text", "json", "sarif", "markdown")
NOW = ("--now", "2026-11-01")
ACCOUNT = re.compile(r"^headwater: cache: (\d+) hits, (\d+) misses\n$")
REPLAYED = re.compile(r"^headwater: cache: replayed the last run, \d+ observations unchanged\n$")
SETTLED = 0.06  # past the coarse clock's tick that a run's replay memo waits out (`observed.SLACK_NS`)
SPEC = "docs/specifications/ingest-api.md"


def cache_file(root: Path) -> Path:
    return root / ".headwater" / "cache" / "checks"


def replay_memo(root: Path) -> Path:
    return root / ".headwater" / "cache" / "replay"


def counted(err: str) -> tuple[int, int]:
    match = ACCOUNT.match(err)
    assert match, err
    return int(match.group(1)), int(match.group(2))


def check(hw, root: Path, *more: str, now: tuple[str, str] = NOW):
    manifest = root / "change" / "manifest"
    change = ("--change", str(manifest)) if manifest.is_file() else ()
    return hw("check", "--root", str(root), *now, *change, "--verbose", *more)  # the cache line needs it


@pytest.mark.parametrize("name", EVERY)
def test_cold_warm_and_uncached_runs_print_identical_stdout(hw, copy_fixture, name):
    root = copy_fixture(name)
    formats = FORMATS if name in ("quickstart", "check-all") else ("text", "json")
    for fmt in formats:
        cold = check(hw, root, "--format", fmt)
        time.sleep(SETTLED)  # the warm run below keeps itself to be replayed (HW-DR-0037)
        replay_memo(root).unlink(missing_ok=True)  # so it is served by the verdict cache
        warm = check(hw, root, "--format", fmt)
        replayed = check(hw, root, "--format", fmt)
        uncached = check(hw, root, "--format", fmt, "--no-cache")
        assert cold.out == warm.out == replayed.out == uncached.out, fmt
        assert cold.status == warm.status == replayed.status == uncached.status == 0
        assert uncached.err == ""
        hits, misses = counted(warm.err)
        assert misses == 0
        changed = (root / "change" / "manifest").is_file()  # a run that reads a manifest is never kept
        assert bool(REPLAYED.match(replayed.err)) is not changed, replayed.err
    replay_memo(root).unlink(missing_ok=True)
    assert counted(check(hw, root).err)[0] > 0 or "0 check instances" in warm.out


def test_a_cold_run_misses_everything_and_a_warm_run_serves_it_all(hw, quickstart):
    hits, misses = counted(check(hw, quickstart).err)
    assert hits == 0 and misses > 0
    assert counted(check(hw, quickstart).err) == (misses, 0)


def rewrite_verdicts(root: Path, verdicts) -> int:
    """Replace every cached section's verdicts with `verdicts(stored)`; the number of sections."""
    head, _seal, *lines = cache_file(root).read_text().split("\n")[:-1]  # the separators are line breaks to splitlines
    written, count = rewritten(lines, verdicts)
    reseal(cache_file(root), head, "\n".join(written) + "\n")
    return count


def rewritten(lines: list[str], verdicts) -> tuple[list[str], int]:
    """Record lines with every cached section's verdicts replaced by `verdicts(stored)`, and how many."""
    written, count = [], 0
    for line in lines:
        key, _, record = line.partition("\t")
        parts = []
        for part in record.split(PART):
            if part:
                reads, stamp, stored = part.split(FIELD)
                part = FIELD.join((reads, stamp, verdicts(stored)))
                count += 1
            parts.append(part)
        written.append(key + "\t" + PART.join(parts))
    return written, count


def reseal(path: Path, head: str, payload: str) -> None:
    """Write a cache file as this machine would: the test holds the key a run would use."""
    seal = cachekey.seal(cachekey.key(create=False), path.name.encode(), head.encode(), payload.encode())
    path.write_text(f"{head}\n{seal}\n{payload}")


def test_a_warm_run_answers_from_the_file_and_no_cache_reads_nothing(hw, quickstart):
    clean = check(hw, quickstart, "--json").out
    planted = [["facet.required.missing", "error", SPEC, 0, 0, "planted", "planted", False, "planted", None, None]]
    assert rewrite_verdicts(quickstart, lambda stored: json.dumps(
        [planted if isinstance(verdict, list) else verdict for verdict in json.loads(stored)]))
    served = json.loads(check(hw, quickstart, "--json").out)
    assert any(f["message"] == "planted" for f in served["findings"])
    assert check(hw, quickstart, "--json", "--no-cache").out == clean


@pytest.mark.parametrize("content", [
    b"\x00\xff garbage",
    b"",
    b"headwater check verdicts 0\n",
    (HEADER + "\nnot a line of this engine\n").encode(),
    (HEADER + "\n" + "0" * 32 + "\t[").encode(),
], ids=["garbage", "empty", "another format", "a foreign line", "a truncated file"])
def test_an_unreadable_or_foreign_cache_reads_as_empty(hw, quickstart, content):
    expected = check(hw, quickstart, "--no-cache").out
    cache_file(quickstart).parent.mkdir(parents=True)
    cache_file(quickstart).write_bytes(content)
    ran = check(hw, quickstart)
    assert ran.status == 0 and ran.out == expected and counted(ran.err)[0] == 0
    assert counted(check(hw, quickstart).err)[1] == 0  # written again, whole


def test_a_verdict_that_does_not_decode_is_a_miss_not_an_answer(hw, quickstart):
    expected = check(hw, quickstart).out
    everything = counted(check(hw, quickstart).err)[0]
    assert rewrite_verdicts(quickstart, lambda stored: "[{") > 0
    ran = check(hw, quickstart)
    assert ran.out == expected and counted(ran.err) == (0, everything)


def test_no_cache_neither_reads_nor_writes_the_cache(hw, quickstart):
    check(hw, quickstart, "--no-cache")
    assert not (quickstart / ".headwater" / "cache").exists()


def test_a_failed_cache_write_is_one_stderr_line_and_changes_nothing_else(hw, quickstart):
    expected = check(hw, quickstart, "--no-cache").out
    (quickstart / ".headwater" / "cache").write_text("a file where the cache directory goes\n")
    ran = check(hw, quickstart, "--strict")
    failure, account = ran.err.splitlines()
    assert failure == "headwater: the cache was not written (.headwater/cache: a file where a folder must be)"
    assert ACCOUNT.match(account + "\n") and ran.out == expected and ran.status == 0


def test_check_writes_nothing_but_the_cache_and_the_cache_ignores_itself(hw, copy_fixture):
    root = copy_fixture("check-all")
    before = tree(root)
    check(hw, root)
    assert tree(root) == before
    assert (root / ".headwater" / "cache" / ".gitignore").read_text() == "*\n"


def test_an_unchanged_cache_is_not_written_again(hw, quickstart):
    check(hw, quickstart)
    first = cache_file(quickstart).stat()
    check(hw, quickstart)
    second = cache_file(quickstart).stat()
    assert (first.st_ino, first.st_mtime_ns) == (second.st_ino, second.st_mtime_ns)


# -- what a change re-runs -----------------------------------------------------------------------


def reaching(root: Path, today: dt.date, reads) -> int:
    """How many cached instances that reach a verdict read what `reads(section, subject)` says
    they read; a rule judged by document counts once per document (its part of the verdict)."""
    ctx = Context(load(root, today), rule_ids())
    return sum(judge(ctx, section, subject).verdicts_reached
               for kind, layout in SECTIONS.items() for subject, _ in subjects(ctx, kind)
               for section in layout if section.cached and reads(section, subject))


def reads_document(path: str):
    """Whether a section's verdict on a subject reads the document at `path`: its own record (a
    document's sections, an edge's two ends, every census row for the corpus), or, for the link
    rules, a document whose links reach it."""
    def reads(section, subject) -> bool:
        if section.by_document:
            landed = (p for _, reach in reaches(subject, ()) for p in (reach.path, *reach.elsewhere))
            return subject.path == path or path in landed
        if section.kind is Scope.DOCUMENT:
            return subject.path == path
        if section.kind is Scope.EDGE:
            return path in (subject.source, subject.target.path)
        return Reads.SUBJECT in section.model.reads  # a corpus rule reads every census row
    return reads


def test_a_verdict_another_program_judged_is_not_served(hw, quickstart, monkeypatch):
    """A rule or the parser changed within one release, or a dependency upgraded, is another
    program (`codeprint`): what the last one judged may differ, so none of it is served."""
    first = check(hw, quickstart)
    everything = sum(counted(first.err))
    replay_memo(quickstart).unlink(missing_ok=True)  # so the verdict cache is what answers
    monkeypatch.setattr("headwater.check.cache.program_fingerprint", lambda: "another program")
    again = check(hw, quickstart)
    assert counted(again.err) == (0, everything)
    assert again.status == first.status == 0 and again.out == first.out


def test_editing_one_document_re_runs_only_what_read_it(hw, quickstart):
    check(hw, quickstart)
    everything = sum(counted(check(hw, quickstart).err))
    (quickstart / SPEC).write_text((quickstart / SPEC).read_text() + "\nOne more sentence of prose.\n")
    expected = reaching(quickstart, dt.date(2026, 11, 1), reads_document(SPEC))
    assert 0 < expected < everything
    assert counted(check(hw, quickstart).err) == (everything - expected, expected)
    cached, uncached = check(hw, quickstart), check(hw, quickstart, "--no-cache")
    assert cached.status == uncached.status == 0 and "0 findings" in cached.out and cached.out == uncached.out


def test_a_new_run_date_re_runs_only_the_rules_that_read_the_clock(hw, copy_fixture):
    root = copy_fixture("check-all")
    check(hw, root)
    everything = sum(counted(check(hw, root).err))
    later = ("--now", "2027-06-01")
    expected = reaching(root, dt.date(2027, 6, 1), lambda section, subject: section.model.reads_clock)
    ran = check(hw, root, now=later)
    assert expected > 0 and counted(ran.err) == (everything - expected, expected)
    uncached = check(hw, root, "--no-cache", now=later)
    assert ran.status == uncached.status == 0 and "findings" in ran.out and ran.out == uncached.out


def test_a_cached_fix_day_moves_when_another_successor_of_the_record_moves_its_day(hw, copy_fixture):
    root = copy_fixture("rules/lifecycle.state.not_set_by_edge/fail")
    first = root / "docs/decisions/0002-next.md"
    first.write_text(first.read_text().replace("status_since: 2026-10-01", "status_since: 2026-10-20"))
    other = root / "docs/decisions/0003-other.md"
    other.write_text(first.read_text().replace("ACME-DR-0002", "ACME-DR-0003").replace("2026-10-20", "2026-10-25"))
    assert "status_since: 2026-10-20` in" in check(hw, root).out  # the verdicts are now cached
    other.write_text(other.read_text().replace("2026-10-25", "2026-10-12"))  # not the first successor's bytes
    warm, cold = check(hw, root), check(hw, root, "--no-cache")
    assert warm.out == cold.out and "status_since: 2026-10-20` in" not in warm.out, warm.out


def test_the_change_scoped_skip_is_stored_as_a_number_and_served_as_its_sentence():
    raw = encode((NO_CHANGE, None, "another reason", ()))
    assert raw == '[1,0,"another reason",[]]'
    assert decode(raw).verdicts == (NO_CHANGE, None, "another reason", ())


def test_a_verdict_number_this_engine_never_writes_is_a_miss():
    assert decode("[2]") is None and decode("[true]") is None and decode("[0]").verdicts == (None,)


def test_a_warm_run_judges_an_anchored_edge_again_when_the_code_it_matches_moves(hw, copy_fixture):
    root = copy_fixture("rules/relation.target.suspect/pass")
    # an anchor judged first, at a revision of its own
    (root / "src/other.py").write_text("print('other')\n", encoding="utf-8")
    record = root / "docs/decisions/0001-base.md"
    record.write_text(record.read_text(encoding="utf-8").replace("    - to: src/app.py\n",
                                                                 "    - src/other.py\n    - to: src/app.py\n", 1))

    def found(ran) -> list[str]:
        return [f["rule"] for f in json.loads(ran.out)["findings"]]

    assert "relation.target.suspect" not in found(check(hw, root, "--format", "json"))
    assert counted(check(hw, root, "--format", "json").err)[1] == 0
    code = root / "src/app.py"
    code.write_text(code.read_text(encoding="utf-8") + "# moved\n", encoding="utf-8")
    warm = check(hw, root, "--format", "json")
    assert warm.out == check(hw, root, "--format", "json", "--no-cache").out
    assert "relation.target.suspect" in found(warm)
    assert counted(warm.err)[1] == 1  # that edge's anchored section alone


# -- the records beside the verdict file ---------------------------------------------------------


def beside(root: Path) -> Path:
    return root / ".headwater" / "cache" / "checks-since"


def test_a_run_that_changes_a_few_records_writes_them_beside_the_verdict_file_and_the_next_serves_them(hw, quickstart):
    check(hw, quickstart)
    whole = cache_file(quickstart).stat()
    assert not beside(quickstart).exists()
    spec = quickstart / SPEC
    spec.write_text(spec.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    edited = check(hw, quickstart)
    assert counted(edited.err)[1] > 0
    again = cache_file(quickstart).stat()
    assert (again.st_ino, again.st_mtime_ns) == (whole.st_ino, whole.st_mtime_ns)  # not written again
    assert beside(quickstart).stat().st_size > 0
    replay_memo(quickstart).unlink(missing_ok=True)  # so the next run is served by the verdict cache
    served = check(hw, quickstart)
    assert counted(served.err)[1] == 0
    assert served.out == edited.out == check(hw, quickstart, "--no-cache").out


def test_a_spoiled_file_of_records_beside_the_verdict_file_serves_nothing(hw, quickstart):
    check(hw, quickstart)
    spec = quickstart / SPEC
    spec.write_text(spec.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    check(hw, quickstart)
    data = beside(quickstart).read_bytes()
    beside(quickstart).write_bytes(data[:-10] + bytes([data[-10] ^ 1]) + data[-9:])
    replay_memo(quickstart).unlink(missing_ok=True)
    ran = check(hw, quickstart)
    assert counted(ran.err)[1] > 0  # the edited document's records are judged again
    assert ran.out == check(hw, quickstart, "--no-cache").out


def _saved_whole(root) -> dict[str, str]:
    """A verdict file of 200 records written whole by a first run; its records."""
    whole = {f"{n:032x}": f"record {n}" for n in range(200)}
    first = Verdicts(root, {})
    for key, record in whole.items():
        first.keep(key, record, True)
    assert first.save() == []
    return whole


def test_many_changed_records_write_the_verdict_file_whole_and_empty_the_records_beside_it(tmp_path):
    whole = _saved_whole(tmp_path)
    few = Verdicts.load(tmp_path)
    assert few.whole == whole and few.since == {}
    for key in whole:
        few.keep(key, few.stored[key], False)
    few.keep("f" * 32, "a fresh record", True)
    assert few.save() == []
    many = Verdicts.load(tmp_path)
    assert many.whole == whole and many.since == {"f" * 32: "a fresh record"}
    assert many.stored == {**whole, "f" * 32: "a fresh record"}
    for key in list(whole)[:100]:  # half the file's records go unused, and 100 are new
        many.keep(key, many.stored[key], False)
    fresh = {f"{n:032x}": "fresh" for n in range(1000, 1100)}
    for key, record in fresh.items():
        many.keep(key, record, True)
    assert many.save() == []
    rewritten = Verdicts.load(tmp_path)
    assert rewritten.whole == {**{key: whole[key] for key in list(whole)[:100]}, **fresh}
    assert rewritten.since == {}


def test_a_record_used_as_the_file_beside_holds_it_is_written_there_again_and_one_no_run_used_is_dropped(tmp_path):
    whole = _saved_whole(tmp_path)
    edited = Verdicts.load(tmp_path)
    for key in whole:
        edited.keep(key, edited.stored[key], False)
    edited.keep("a" * 32, "made by the first edit", True)
    edited.keep("b" * 32, "made by the first edit, used by no later run", True)
    assert edited.save() == []
    later = Verdicts.load(tmp_path)
    assert later.since == {"a" * 32: "made by the first edit", "b" * 32: "made by the first edit, used by no later run"}
    for key in [*whole, "a" * 32]:
        later.keep(key, later.stored[key], False)
    later.keep("c" * 32, "made by the second edit", True)
    assert later.kept == {**whole, "a" * 32: "made by the first edit", "c" * 32: "made by the second edit"}
    assert later.save() == []
    last = Verdicts.load(tmp_path)
    assert last.whole == whole
    assert last.since == {"a" * 32: "made by the first edit", "c" * 32: "made by the second edit"}
