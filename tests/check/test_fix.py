"""`check --fix`: one all-or-nothing batch of mechanical patches, and the report after the writes."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from pathlib import Path

import pytest

from headwater import atomic
from headwater.check.change_manifest import read_manifest
from headwater.check.finding import Escape, Finding, Severity
from headwater.check.fix import fix, patches_by_file
from headwater.check.patches import Create, Patch
from headwater.check.runner import run
from headwater.errors import Refusal
from headwater.snapshot import load

GOLDEN = Path(__file__).resolve().parent / "golden" / "fix"
NOW = ("--now", "2026-11-01", "--no-cache")
TODAY = dt.date(2026, 11, 1)
FIRST = "docs/decisions/0001-store-attempts-in-postgres.md"
BASE = "docs/decisions/0001-base.md"
NEXT = "docs/decisions/0002-next.md"  # supersedes BASE


def tree(root: Path) -> dict[str, bytes]:
    """Every file under the root but the cache, which is not corpus."""
    files = {}
    for top, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if os.path.join(top, d) != str(root / ".headwater" / "cache")]
        for name in names:
            path = Path(top) / name
            files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def changed(before: dict[str, bytes], after: dict[str, bytes]) -> dict[str, bytes]:
    return {p: after[p] for p in sorted(after) if before.get(p) != after[p]}


def live_rules(report_json: str) -> set[str]:
    return {f["rule"] for f in json.loads(report_json)["findings"] if f.get("escape", "none") == "none"}


def check(hw, root: Path, *more: str):
    return hw("check", "--root", str(root), *NOW, *more)


# -- the tutorial loop -----------------------------------------------------------------------


def test_the_tutorial_loop_writes_the_far_half_and_then_strict_passes(hw, quickstart):
    kept = (quickstart / FIRST).read_bytes()
    made = hw("new", "decision", "--title", "Retry with backoff", "--summary", "Retries back off.",
              "--relates", "supersedes=ACME-DR-0001",
              "--root", str(quickstart), "--now", "2026-11-01")
    assert made.status == 0
    (quickstart / FIRST).write_bytes(kept)  # lose the far half
    new = next((quickstart / "docs/decisions").glob("0004-*.md")).relative_to(quickstart).as_posix()
    lines = (quickstart / new).read_text().split("\n")
    line = next(n for n, text in enumerate(lines, 1) if "ACME-DR-0001" in text)
    where = f"{new}:{line}:{lines[line - 1].index('ACME-DR-0001') + 1}"

    found = check(hw, quickstart)
    assert f"{where} ✗ error\n    relation.reciprocity.missing: " in found.out
    assert "fix (mechanical): add `superseded_by: ACME-DR-0004` under `relations:`" in found.out

    fixed = check(hw, quickstart, "--fix")
    assert fixed.status == 0 and fixed.err == f"headwater: fixed {FIRST} (1 patch)\n"
    assert "relation.reciprocity.missing" not in fixed.out
    assert check(hw, quickstart, "--strict").status == 0


# -- one loop per patch kind, against goldens --------------------------------------------------


@pytest.mark.parametrize("rule", ["relation.reciprocity.missing", "lifecycle.state.not_set_by_edge",
                                  "identifier.claim.missing", "language.retired_term.used"])
def test_fix_writes_exactly_the_expected_bytes_and_a_second_fix_writes_nothing(hw, copy_fixture, golden, rule):
    root = copy_fixture(f"rules/{rule}/fail")
    assert rule in live_rules(check(hw, root, "--json").out)
    before = tree(root)
    fixed = check(hw, root, "--fix", "--json")
    assert fixed.status == 0 and fixed.err.startswith("headwater: fixed ")
    assert rule not in live_rules(fixed.out)
    written = changed(before, tree(root))
    assert fixed.err == "".join(f"headwater: fixed {p} (1 patch)\n" for p in written)
    shown = "".join(f"== {path} ==\n{data.decode()}" for path, data in written.items())
    golden(GOLDEN / f"{rule}.txt", shown)

    again = check(hw, root, "--fix", "--json")
    assert again.err == "" and again.out == fixed.out and tree(root) == before | written


def _successor_entered(root: Path, since: str | None) -> None:
    """The successor (`0002-next.md`, which supersedes the base) entered its state on `since`, or
    carries no such date."""
    successor = root / NEXT
    kept = successor.read_text().replace("status_since: 2026-10-01\n", "")
    successor.write_text(kept.replace("status: current\n", f"status: current\nstatus_since: {since}\n" if since
                                      else "status: current\n"))


def test_a_comment_beside_the_edited_key_and_the_authors_quoting_stay(hw, copy_fixture):
    root = copy_fixture("rules/lifecycle.state.not_set_by_edge/fail")
    _successor_entered(root, "2026-10-20")
    target = root / BASE
    text = target.read_text()
    target.write_text(text.replace("status: current\n", "status: current  # agreed in review\n")
                      .replace("status_since: 2026-10-01", "status_since: \"2026-10-01\""))
    assert check(hw, root, "--fix").status == 0
    after = target.read_text()
    assert "status: superseded  # agreed in review\n" in after
    assert "status_since: \"2026-10-20\"\n" in after
    assert after.replace("superseded  #", "current  #").replace("2026-10-20", "2026-10-01") == \
        text.replace("status: current\n", "status: current  # agreed in review\n") \
            .replace("status_since: 2026-10-01", "status_since: \"2026-10-01\"")


def test_the_fix_dates_a_superseded_record_on_the_day_its_successor_entered_its_state(hw, copy_fixture):
    root = copy_fixture("rules/lifecycle.state.not_set_by_edge/fail")
    _successor_entered(root, "2026-10-20")
    found = check(hw, root)
    assert "set `status: superseded` and `status_since: 2026-10-20` in" in found.out, found.out
    fixed = check(hw, root, "--fix")  # run on 2026-11-01: the day it looked, not the day it happened
    assert fixed.status == 0 and fixed.err == f"headwater: fixed {BASE} (1 patch)\n", fixed.err
    assert "status: superseded\nstatus_since: 2026-10-20\n" in (root / BASE).read_text()


def test_two_successors_of_one_record_fix_it_once_on_the_earlier_of_their_days(hw, copy_fixture):
    root = copy_fixture("rules/lifecycle.state.not_set_by_edge/fail")
    _successor_entered(root, "2026-10-20")
    second = (root / NEXT).read_text().replace("ACME-DR-0002", "ACME-DR-0003").replace("2026-10-20", "2026-10-12")
    (root / "docs/decisions/0003-other.md").write_text(second)
    found = check(hw, root, "--json")
    fixes = [f["remediation"] for f in json.loads(found.out)["findings"]
             if f["rule"] == "lifecycle.state.not_set_by_edge"]
    assert fixes == [f"set `status: superseded` and `status_since: 2026-10-12` in {BASE}"] * 2, found.out
    fixed = check(hw, root, "--fix")  # the two patches agree, so the batch lands (it once refused them all)
    assert fixed.status == 0 and f"headwater: fixed {BASE} (2 patches)\n" in fixed.err, fixed.err
    assert "status: superseded\nstatus_since: 2026-10-12\n" in (root / BASE).read_text()


def test_a_draft_successor_neither_dates_the_fix_nor_holds_it_back(hw, copy_fixture):
    root = copy_fixture("rules/lifecycle.state.not_set_by_edge/fail")
    _successor_entered(root, "2026-10-20")
    draft = (root / NEXT).read_text().replace("ACME-DR-0002", "ACME-DR-0003")
    draft = draft.replace("status: current", "status: draft")
    (root / "docs/decisions/0003-draft.md").write_text(draft.replace("2026-10-20", "2026-10-05"))
    assert "set `status: superseded` and `status_since: 2026-10-20` in" in check(hw, root).out
    (root / "docs/decisions/0003-draft.md").write_text(draft.replace("status_since: 2026-10-20\n", ""))
    fixed = check(hw, root, "--fix")
    assert fixed.status == 0 and "status: superseded\nstatus_since: 2026-10-20\n" in (root / BASE).read_text()


def test_the_remediation_names_the_successor_that_records_no_day(hw, copy_fixture):
    root = copy_fixture("rules/lifecycle.state.not_set_by_edge/fail")
    _successor_entered(root, "2026-10-20")
    other = (root / NEXT).read_text().replace("ACME-DR-0002", "ACME-DR-0003")
    (root / "docs/decisions/0003-other.md").write_text(other.replace("status_since: 2026-10-20\n", ""))
    found = json.loads(check(hw, root, "--json").out)["findings"]
    remedies = {f["remediation"] for f in found if f["rule"] == "lifecycle.state.not_set_by_edge"}
    assert remedies == {f"set `status: superseded` in {BASE}, and `status_since` to the day `ACME-DR-0003` "
                        "took over, which nothing here records"}, remedies


def test_a_successor_that_records_no_date_gets_no_fix_and_the_remediation_asks_for_the_day(hw, copy_fixture):
    root = copy_fixture("rules/lifecycle.state.not_set_by_edge/fail")
    _successor_entered(root, None)
    before = (root / BASE).read_bytes()
    fixed = check(hw, root, "--fix", "--json")
    [finding] = [f for f in json.loads(fixed.out)["findings"] if f["rule"] == "lifecycle.state.not_set_by_edge"]
    assert finding["severity"] == "error" and not finding["fixable"], finding
    assert finding["remediation"] == (f"set `status: superseded` in {BASE}, and `status_since` to the day "
                                      "`ACME-DR-0002` took over, which nothing here records")
    assert fixed.status == 0 and BASE not in fixed.err and (root / BASE).read_bytes() == before


def test_a_far_half_and_a_state_on_one_target_both_land(hw, copy_fixture):
    root = copy_fixture("rules/lifecycle.state.not_set_by_edge/fail")
    target = root / BASE
    text = target.read_text()
    front, rest = text.split("\n---\n", 1)
    target.write_text(front.split("\nrelations:")[0] + "\n---\n" + rest)  # drop the far half too
    assert {"relation.reciprocity.missing", "lifecycle.state.not_set_by_edge"} <= live_rules(
        check(hw, root, "--json").out)
    fixed = check(hw, root, "--fix", "--json")
    assert fixed.err == f"headwater: fixed {BASE} (2 patches)\n"
    assert not {"relation.reciprocity.missing", "lifecycle.state.not_set_by_edge"} & live_rules(fixed.out)
    assert check(hw, root, "--fix").err == ""


# -- all or nothing --------------------------------------------------------------------------


MINTED_CLAIM = ".headwater/ids/decision_id/ACME-DR-0005"  # identifier.unusable mints 0005-no-id.md's own
CLAIM = ".headwater/ids/decision_id/ACME-DR-0007"
FIRST_WRITTEN = "docs/briefs/evidenced.md"  # the first document check-all's fix writes, after the claims
SECOND_WRITTEN = "docs/briefs/old.md"  # the second
THIRD_WRITTEN = "docs/decisions/0005-no-id.md"  # the third: identifier.unusable writes its minted id


def writes_failing(monkeypatch, fails) -> list[Path]:
    """Make the n-th write fail wherever `fails(n)` (restores included); the paths tried."""
    calls: list[Path] = []

    def failing(real):
        def write(path, data, **where):
            calls.append(path)
            if fails(len(calls)):
                raise PermissionError(13, "Permission denied")
            return real(path, data, **where)
        return write

    monkeypatch.setattr(atomic, "write_bytes", failing(atomic.write_bytes))
    monkeypatch.setattr(atomic, "create_exclusive", failing(atomic.create_exclusive))
    return calls


def test_a_batch_whose_second_write_fails_changes_no_file_and_exits_1(hw, copy_fixture, monkeypatch):
    root = copy_fixture("check-all")
    before = tree(root)
    calls = writes_failing(monkeypatch, lambda n: n == 4)
    ran = check(hw, root, "--fix")
    monkeypatch.undo()
    assert ran.status == 1 and ran.out == ""
    assert ran.err == (f"headwater: {SECOND_WRITTEN} could not be written ([Errno 13] Permission denied), "
                       "so `--fix` put back every file it had written\n")
    # the claims were taken back, and the minted id's file put back (the last write)
    assert [p.relative_to(root).as_posix() for p in calls] == [MINTED_CLAIM, CLAIM, FIRST_WRITTEN, SECOND_WRITTEN,
                                                               FIRST_WRITTEN]
    assert not (root / CLAIM).exists() and (root / SECOND_WRITTEN).read_bytes() == before[SECOND_WRITTEN]
    assert tree(root) == before


@pytest.mark.parametrize(("fixture", "path", "meanwhile", "refused"), [
    ("check-all", "docs/decisions/0016-prose.md", "A line written meanwhile.\n", "changed since this run read it"),
    ("rules/identifier.claim.missing/fail", ".headwater/ids/decision_id/ACME-DR-0002", "someone/else.md\n",
     "appeared since this run read the corpus"),
], ids=["an edited file", "a claim created by another run"])
def test_a_file_that_moved_after_the_run_read_it_refuses_the_whole_batch(copy_fixture, fixture, path,
                                                                         meanwhile, refused):
    root = copy_fixture(fixture)
    snapshot = load(root, TODAY)
    report = run(snapshot)
    target = root / path
    target.write_text((target.read_text() if target.exists() else "") + meanwhile)
    before = tree(root)
    with pytest.raises(Refusal, match=refused):
        fix(snapshot, report)
    assert tree(root) == before


def test_a_batch_failing_after_an_edit_landed_puts_back_the_edited_files_bytes_exactly(hw, copy_fixture,
                                                                                   monkeypatch):
    root = copy_fixture("check-all")
    before = tree(root)
    calls = writes_failing(monkeypatch, lambda n: n == 5)
    ran = check(hw, root, "--fix")
    monkeypatch.undo()
    assert [p.relative_to(root).as_posix() for p in calls] == [MINTED_CLAIM, CLAIM, FIRST_WRITTEN, SECOND_WRITTEN,
                                                               THIRD_WRITTEN, SECOND_WRITTEN, FIRST_WRITTEN]
    # the last two calls are the restores
    assert ran.status == 1 and ran.out == ""
    assert ran.err == (f"headwater: {THIRD_WRITTEN} could not be written ([Errno 13] Permission denied), "
                       "so `--fix` put back every file it had written\n")
    assert (root / SECOND_WRITTEN).read_bytes() == before[SECOND_WRITTEN]
    assert not (root / CLAIM).exists()
    assert tree(root) == before


def test_a_restore_that_fails_names_the_file_it_could_not_put_back_and_still_restores_the_rest(
        hw, copy_fixture, monkeypatch):
    root = copy_fixture("check-all")
    before = tree(root)
    writes_failing(monkeypatch, lambda n: n >= 5)
    ran = check(hw, root, "--fix")
    monkeypatch.undo()
    assert ran.status == 1 and ran.out == "" and ran.err.count("\n") == 1
    assert ran.err.startswith(f"headwater: {THIRD_WRITTEN} could not be written")
    assert ran.err.endswith(f"; {SECOND_WRITTEN}, {FIRST_WRITTEN} could not be put back\n")
    assert not (root / CLAIM).exists()  # the restore went on past the files it could not put back
    assert (root / SECOND_WRITTEN).read_bytes() != before[SECOND_WRITTEN]
    kept = (SECOND_WRITTEN, FIRST_WRITTEN)
    assert {k: v for k, v in tree(root).items() if k not in kept} == {k: v for k, v in before.items() if k not in kept}


def test_a_finding_without_a_patch_or_a_second_claim_on_one_path_does_not_stop_the_grouping():
    claim = Patch(".headwater/ids/s/X-1", None, (Create("a.md\n"),))
    rival = Patch(".headwater/ids/s/X-1", None, (Create("b.md\n"),))
    edit = Patch("z.md", "sha256:0", (Create("x"),))

    def finding(patch):
        return Finding("r", Severity.ERROR, "a.md", 1, 1, "m", "r", patch is not None, "s", patch=patch)

    assert patches_by_file((finding(None), finding(claim), finding(rival), finding(edit))) == \
        {".headwater/ids/s/X-1": [claim], "z.md": [edit]}



def test_a_finding_whose_patch_is_already_planned_still_brings_its_companion():
    edit = Patch("a.md", "sha256:0", (Create("x"),))
    far = Patch("b.md", "sha256:1", (Create("y"),))
    first = Finding("r", Severity.ERROR, "a.md", 1, 1, "m", "r", True, "s", patch=edit)
    second = Finding("r", Severity.ERROR, "a.md", 2, 1, "m", "r", True, "s", patch=edit, companion=far)

    assert patches_by_file((first, second)) == {"a.md": [edit], "b.md": [far]}

def test_escaped_findings_and_repeated_claims_reach_the_writer_once_or_not_at_all():
    claim = Patch(".headwater/ids/s/X-1", None, (Create("a.md\n"),))
    other = Patch(".headwater/ids/s/X-1", None, (Create("b.md\n"),))

    def finding(patch, escape=Escape.NONE):
        return Finding("r", Severity.ERROR, "a.md", 1, 1, "m", "r", True, "s", escape=escape, patch=patch)

    hidden = Patch("c.md", "sha256:0", (Create("x"),))
    grouped = patches_by_file((finding(claim), finding(other), finding(claim),
                               finding(hidden, Escape.SUPPRESSION)))
    assert grouped == {".headwater/ids/s/X-1": [claim]}


# -- stamps ----------------------------------------------------------------------------------


def manifest(root: Path, scratch: Path, *lines: str) -> Path:
    (scratch / "prior").mkdir(parents=True, exist_ok=True)
    (scratch / "prior" / "0").write_bytes((root / "src/app.py").read_bytes())
    path = scratch / "manifest"
    path.write_text("\n".join(("headwater change 1", *lines)) + "\n")
    return path


def stamped_run(root: Path, path: Path) -> tuple[list[str], list[Finding]]:
    snapshot = load(root, TODAY)
    change = read_manifest(path, root)
    account = fix(snapshot, run(snapshot, change))
    after = run(load(root, TODAY), change)
    return account, [f for f in after.findings if f.rule == "relation.target.suspect"]


@pytest.mark.parametrize("lines", [
    ("verified\tdocs/decisions/0001-base.md\tsrc/app.py",),
    ("verified\tdocs/decisions/0001-base.md", "prior\tsrc/app.py\tprior/0"),
], ids=["a verified edge line", "a verified document and the target it names"])
def test_a_stamp_is_written_when_the_change_states_a_re_read_of_the_edge(copy_fixture, tmp_path, lines):
    root = copy_fixture("rules/relation.target.suspect/fail")
    revision = load(root, TODAY).tree.revision(("src/app.py",))
    account, suspect = stamped_run(root, manifest(root, tmp_path, *lines))
    assert account == [f"headwater: fixed {BASE} (1 patch)"] and suspect == []
    assert f"      verified_revision: \"{revision}\"\n" in (root / BASE).read_text()


@pytest.mark.parametrize("lines", [
    ("prior\tsrc/app.py\tprior/0",),
    ("verified\tdocs/decisions/0001-base.md",),
    ("verified\tdocs/decisions/0001-base.md\tsrc/other.py",),
], ids=["the governed file moved", "a re-read naming no target", "a verified line for another edge"])
def test_without_a_stated_re_read_the_edge_stays_suspect_and_nothing_is_written(copy_fixture, tmp_path, lines):
    root = copy_fixture("rules/relation.target.suspect/fail")
    before = tree(root)
    account, suspect = stamped_run(root, manifest(root, tmp_path, *lines))
    assert account == [] and tree(root) == before
    assert [(f.severity, f.fixable) for f in suspect] == [(Severity.WARN, False)]


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_the_governs_loop_stamps_only_after_the_change_states_the_re_read(hw, copy_fixture, tmp_path):
    root = copy_fixture("rules/relation.target.suspect/pass")
    for args in (("init", "-q"), ("config", "user.name", "Test"), ("config", "user.email", "t@example.invalid"),
                 ("add", "-A"), ("commit", "-q", "-m", "base")):
        git(root, *args)
    (root / "src/app.py").write_text("print('the application, changed')\n")

    def fix_with_change(name: str):
        out = tmp_path / name
        assert hw("change", "HEAD", str(out), "--root", str(root)).status == 0
        return check(hw, root, "--fix", "--change", str(out / "manifest"))

    moved = fix_with_change("moved")
    assert moved.err == "" and "relation.target.suspect" in moved.out and "▲ warn" in moved.out
    doc = root / BASE
    doc.write_text(doc.read_text().replace("last_verified: 2026-10-01", "last_verified: 2026-11-01"))
    stamped = fix_with_change("re-read")
    assert stamped.err == f"headwater: fixed {BASE} (1 patch)\n"
    assert "relation.target.suspect" not in stamped.out
    revision = load(root, TODAY).tree.revision(("src/app.py",))
    assert f"verified_revision: \"{revision}\"" in doc.read_text()
    assert check(hw, root, "--strict").status == 0


# -- the edges of the batch --------------------------------------------------------------------


def test_a_file_edited_by_someone_else_while_the_batch_writes_stops_it_and_keeps_their_edit(hw, copy_fixture,
                                                                                       monkeypatch):
    root = copy_fixture("check-all")
    before = tree(root)
    real_create = atomic.create_exclusive

    def create_then_someone_edits(path, data, **where):
        real_create(path, data, **where)
        (root / THIRD_WRITTEN).write_text((root / THIRD_WRITTEN).read_text() + "Their edit.\n")

    monkeypatch.setattr(atomic, "create_exclusive", create_then_someone_edits)
    ran = check(hw, root, "--fix")
    monkeypatch.undo()
    assert ran.status == 1 and ran.out == ""
    assert ran.err == (f"headwater: {THIRD_WRITTEN} changed while `--fix` wrote the batch, "
                       "so `--fix` put back every file it had written\n")
    assert (root / THIRD_WRITTEN).read_text().endswith("Their edit.\n")
    others = {k: v for k, v in before.items() if k != THIRD_WRITTEN}
    assert {k: v for k, v in tree(root).items() if k != THIRD_WRITTEN} == others


def test_every_file_that_could_not_be_put_back_is_named(hw, copy_fixture, monkeypatch):
    root = copy_fixture("check-all")
    writes_failing(monkeypatch, lambda n: n >= 5)

    def cannot_remove(path, **where):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(atomic, "remove", cannot_remove)
    ran = check(hw, root, "--fix")
    monkeypatch.undo()
    assert ran.status == 1
    assert ran.err.endswith(f"; {SECOND_WRITTEN}, {FIRST_WRITTEN}, {CLAIM}, {MINTED_CLAIM} could not be put back\n")


def test_a_file_that_stops_being_a_regular_file_refuses_the_batch_in_one_sentence(copy_fixture):
    root = copy_fixture("check-all")
    snapshot = load(root, TODAY)
    report = run(snapshot)
    (root / THIRD_WRITTEN).unlink()
    (root / THIRD_WRITTEN).mkdir()
    with pytest.raises(Refusal) as refused:
        fix(snapshot, report)
    assert refused.value.sentence == (f"{THIRD_WRITTEN} does not read (not a regular file), "
                                      "so `--fix` wrote nothing")


def test_a_document_with_a_byte_order_mark_keeps_it_and_gets_its_patch(hw, copy_fixture):
    root = copy_fixture("rules/relation.reciprocity.missing/fail")
    target = root / BASE
    original = target.read_bytes()
    target.write_bytes(b"\xef\xbb\xbf" + original)
    fixed = check(hw, root, "--fix")
    assert fixed.status == 0 and fixed.err == f"headwater: fixed {BASE} (1 patch)\n"
    after = target.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf---\n") and after.count(b"\xef\xbb\xbf") == 1
    target.write_bytes(original)
    assert check(hw, root, "--fix").status == 0
    assert target.read_bytes() == after[3:]  # the same patch, byte for byte, with the mark or without


def test_a_document_whose_line_ends_mix_keeps_each_one_and_only_the_added_lines_are_new(hw, copy_fixture):
    root = copy_fixture("rules/relation.reciprocity.missing/fail")
    target = root / BASE
    lines = target.read_bytes().split(b"\n")
    mixed = b"\n".join(line + (b"\r" if index % 2 else b"") for index, line in enumerate(lines[:-1])) + b"\n"
    target.write_bytes(mixed)
    fixed = check(hw, root, "--fix")
    assert fixed.status == 0 and fixed.err == f"headwater: fixed {BASE} (1 patch)\n"
    after = target.read_bytes()
    added = b"relations:\r\n  superseded_by:\r\n    - ACME-DR-0002\r\n"  # ended as the first line under the fence
    assert after.replace(added, b"", 1) == mixed and after.index(added) == mixed.index(b"---", 3)


def test_a_read_only_document_refuses_the_batch_naming_it_and_nothing_is_written(hw, copy_fixture):
    root = copy_fixture("rules/relation.reciprocity.missing/fail")
    (root / BASE).chmod(0o444)
    before = tree(root)
    fixed = check(hw, root, "--fix")
    assert fixed.status == 1 and fixed.out == ""
    assert fixed.err == (f"headwater: {BASE} is read-only, and headwater writes no file its owner keeps read-only; "
                         "make it writable (`chmod u+w`) and run it again, so `--fix` put back every file it had "
                         "written\n")
    assert tree(root) == before and (root / BASE).stat().st_mode & 0o777 == 0o444


def test_a_patch_that_does_not_fit_the_file_refuses_naming_the_file_and_why(copy_fixture):
    root = copy_fixture("rules/relation.reciprocity.missing/fail")
    snapshot = load(root, TODAY)
    report = run(snapshot)
    [patched] = [f for f in report.findings if f.patch is not None]
    text = (root / BASE).read_text()
    broken = Finding(patched.rule, patched.severity, patched.path, patched.line, patched.column, patched.message,
                     patched.remediation, True, patched.subject,
                     patch=Patch(BASE, patched.patch.expects, (Create("x"),) + patched.patch.edits))
    with pytest.raises(Refusal) as refused:
        fix(snapshot, type(report)(**{**report.__dict__, "findings": (broken,)}))
    assert refused.value.sentence == (f"the patch for {BASE} does not fit the file (a created file takes exactly "
                                      "one patch, and only where nothing is), so `--fix` wrote nothing")
    assert (root / BASE).read_text() == text


def test_the_mcp_fix_answers_every_line_of_the_account_and_the_plain_report_at_80_columns(copy_fixture, hw):
    from headwater.mcp.tools import WRITES

    root = copy_fixture("check-all")
    fix_tool = next(tool for tool in WRITES if tool.name == "fix")
    answered = fix_tool.run(load(root, TODAY), {"format": "text"})
    account, report = answered.blocks
    assert answered.landed and not answered.is_error
    assert account == "".join(f"headwater: fixed {p} ({n})\n" for p, n in
                                       ((MINTED_CLAIM, "1 patch"), (CLAIM, "1 patch"), (FIRST_WRITTEN, "1 patch"),
                                        (SECOND_WRITTEN, "1 patch"), (THIRD_WRITTEN, "1 patch"),
                                        ("docs/decisions/0010-superseded.md", "2 patches"),
                                        ("docs/decisions/0016-prose.md", "1 patch")))
    assert "\x1b[" not in report and max(map(len, report.splitlines())) <= 80
    assert report == check(hw, root).out  # the CLI's plain text, 80 columns unless --wide


def test_a_far_half_written_to_an_identifier_two_documents_claim_is_not_added_again(hw, copy_fixture):
    root = copy_fixture("quickstart")
    (root / "docs/decisions/0009-copy.md").write_bytes((root / FIRST).read_bytes())
    before = tree(root)
    first = check(hw, root, "--fix", "--strict", "--json")
    assert first.status == 1 and changed(before, tree(root)) == {}
    rules = [f["rule"] for f in json.loads(first.out)["findings"]]
    assert rules == ["identifier.claimed_twice", "identifier.claimed_twice"], rules
