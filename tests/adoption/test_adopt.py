"""`headwater adopt` on a small Nygard-style repository: what it writes, what it leaves, and its
refusals; and the baseline it writes, which never holds a finding that came later."""

from __future__ import annotations

import datetime as dt
import json
import subprocess

import pytest

from headwater.adoption.adopt import baseline
from headwater.check.adoption_tasks import task_text
from headwater.errors import Refusal

NOW = ("--now", "2026-11-30")
FIRST = """# 1. Record architecture decisions

Date: 2016-02-12

## Status

Superseded by [2. Use MADR](0002-use-madr.md)

## Context

We need to record decisions.

## Decision

We will use Architecture Decision Records.

## Consequences

See the article.
"""
SECOND = """# 2. Use MADR

Date: 2017-03-01

## Status

Accepted

Supersedes [1. Record architecture decisions](0001-record-architecture-decisions.md)

## Context

Nygard's form has no options.

## Decision

We will use MADR, and the old links keep working.

## Consequences

Options are compared in each record. See [the missing one](0099-missing.md).
"""


@pytest.fixture
def nygard(tmp_path, hw):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    adr = tmp_path / "doc" / "adr"
    adr.mkdir(parents=True)
    (adr / "0001-record-architecture-decisions.md").write_text(FIRST)
    (adr / "0002-use-madr.md").write_text(SECOND)
    assert hw("init", "--root", str(tmp_path)).status == 0
    return tmp_path


def test_adopt_writes_front_matter_and_leaves_every_other_byte(nygard, hw):
    ran = hw("adopt", "--root", str(nygard), *NOW)
    assert ran.status == 0, ran.err
    first = (nygard / "doc/adr/0001-record-architecture-decisions.md").read_text()
    front, body = first.split("---\n", 2)[1:]
    assert body == FIRST
    # superseded on the date of the record that superseded it, not the date it was written
    assert front.split("\n")[:4] == ["status: superseded", "status_since: '2017-03-01'",
                                     'title: "Record architecture decisions"', "id: ADR-0001"]
    assert "relations:\n  superseded_by:\n    - ADR-0002" in front
    assert (nygard / ".headwater/ids/decision_id/ADR-0002").read_text() == "doc/adr/0002-use-madr.md\n"
    assert "supersedes:\n    - ADR-0001" in (nygard / "doc/adr/0002-use-madr.md").read_text()
    again = hw("adopt", "--root", str(nygard), *NOW)
    assert again.out == "nothing to migrate: every record on a shelf already carries what its body says\n"
    assert hw("adopt", "--dry-run", "--root", str(nygard), *NOW).out == again.out


def test_a_dry_run_says_what_it_would_write_and_writes_nothing(nygard, hw):
    ran = hw("adopt", "--dry-run", "--root", str(nygard), *NOW)
    assert ran.status == 0 and "would adopt doc/adr/0002-use-madr.md: status accepted" in ran.out
    assert (nygard / "doc/adr/0002-use-madr.md").read_text() == SECOND
    assert not (nygard / ".headwater/ids").exists()


def test_a_record_that_cannot_take_its_edit_means_nothing_is_written(nygard, hw):
    (nygard / "doc/adr/0002-use-madr.md").write_text("---\nrelations: [not, a, mapping]\n---\n" + SECOND)
    ran = hw("adopt", "--root", str(nygard), *NOW)
    assert ran.status == 1 and ran.out == "" and ran.err.startswith("headwater: the patch for ")
    assert ran.err.endswith(", so `headwater adopt` wrote nothing\n") and "--fix" not in ran.err
    assert (nygard / "doc/adr/0001-record-architecture-decisions.md").read_text() == FIRST
    assert not (nygard / ".headwater/ids").exists()


def test_the_baseline_holds_todays_findings_and_never_a_later_one(nygard, hw):
    refused = hw("adopt", "--baseline", "--owner", "@docs", "--until", "2026-01-01", "--root", str(nygard), *NOW)
    assert refused.status == 1 and "a date after today" in refused.err
    assert (nygard / "doc/adr/0002-use-madr.md").read_text() == SECOND  # refused before any write
    ran = hw("adopt", "--baseline", "--owner", "@docs", "--until", "2027-03-31", "--root", str(nygard), *NOW)
    assert ran.status == 0 and "the adoption task AD-1, owned by @docs, until 2027-03-31, holds 1 finding;" in ran.out
    assert hw("check", "--strict", "--root", str(nygard), *NOW).status == 0
    second = nygard / "doc/adr/0002-use-madr.md"
    added = "See [another](0098-gone.md) and [the missing one]"
    second.write_text(second.read_text().replace("See [the missing one]", added))
    later = hw("check", "--strict", "--root", str(nygard), *NOW)
    assert later.status == 1 and "0098-gone.md" in later.out.split("not reported")[0]
    assert "held by the adoption task AD-1, owned by @docs, until 2027-03-31" in " ".join(later.out.split())


def test_a_second_finding_under_a_held_rule_path_and_subject_is_live(nygard, hw):
    second = nygard / "doc/adr/0002-use-madr.md"
    second.write_text(second.read_text() + "\nAnd [the missing one](0099-missing.md) again.\n")
    ran = hw("adopt", "--baseline", "--owner", "@docs", "--until", "2027-03-31", "--root", str(nygard), *NOW)
    assert ran.status == 0 and "holds 2 findings" in ran.out, ran.out
    task = (nygard / ".headwater/adoption.yml").read_text()
    assert "subject: 0099-missing.md, count: 2}" in task, task
    assert hw("check", "--strict", "--root", str(nygard), *NOW).status == 0
    second.write_text(second.read_text() + "\nA third time: [the missing one](0099-missing.md).\n")
    later = hw("check", "--strict", "--json", "--root", str(nygard), *NOW)
    escapes = [f["escape"] for f in json.loads(later.out)["findings"] if f["rule"] == "link.path.unresolved"]
    assert later.status == 1 and sorted(escapes) == ["migration-pending", "migration-pending", "none"]


def test_an_expired_task_counts_every_finding_it_held(nygard, hw):
    second = nygard / "doc/adr/0002-use-madr.md"
    second.write_text(second.read_text() + "\nAnd [the missing one](0099-missing.md) again.\n")
    held = hw("adopt", "--baseline", "--owner", "@docs", "--until", "2027-03-31", "--root", str(nygard), *NOW)
    assert held.status == 0, held.err
    expired = hw("check", "--root", str(nygard), "--now", "2027-04-01", "--wide")
    assert "so the 2 findings it held are live again" in " ".join(expired.out.split()), expired.out


def test_a_held_count_that_is_not_a_whole_number_from_one_is_refused(nygard, hw):
    (nygard / ".headwater/adoption.yml").write_text(
        "tasks:\n  - id: AD-1\n    statement: s\n    owner: o\n    until: 2027-03-31\n    held:\n"
        "      - {rule: link.path.unresolved, path: doc/adr/0002-use-madr.md, subject: 0099-missing.md, count: 0}\n")
    ran = hw("check", "--root", str(nygard), *NOW)
    assert ran.status == 1 and "`count` is how many findings an entry holds, a whole number from 1" in ran.err


def test_a_superseded_record_entered_its_state_when_its_successor_was_written(nygard, hw):
    ran = hw("adopt", "--dry-run", "--root", str(nygard), *NOW)
    assert ("would adopt doc/adr/0001-record-architecture-decisions.md: status superseded, status_since "
            "2017-03-01 (the date of the record that superseded it)") in ran.out, ran.out
    second = nygard / "doc/adr/0002-use-madr.md"
    second.write_text(second.read_text().replace("Date: 2017-03-01", "Date: 2015-01-01"))  # dated before it
    assert "status superseded, status_since 2016-02-12," in hw("adopt", "--dry-run", "--root", str(nygard), *NOW).out


def test_a_superseded_record_whose_successor_carries_no_date_gets_none_and_adopt_says_so(nygard, hw):
    second = nygard / "doc/adr/0002-use-madr.md"
    second.write_text(second.read_text().replace("Date: 2017-03-01\n\n", ""))
    ran = hw("adopt", "--root", str(nygard), *NOW)
    assert ran.status == 0, ran.err
    assert ("adopted doc/adr/0001-record-architecture-decisions.md: status superseded, status_since not written: "
            "no record that superseded it carries a date, so the day is unknown; write it, title,") in ran.out
    front = (nygard / "doc/adr/0001-record-architecture-decisions.md").read_text().split("---\n")[1]
    assert front.startswith("status: superseded\ntitle: ") and "status_since" not in front  # not its own 2016-02-12


def test_adopt_and_check_fix_date_one_supersession_alike(tmp_path, hw):
    """Once from the superseded record's own `Superseded by` line (adopt), once from the successor's
    `Supersedes` line alone, which leaves the record accepted until `check --fix` sets it."""
    dates = []
    for status in ("Superseded by [2. Use MADR](0002-use-madr.md)", "Accepted"):
        root = tmp_path / status.split()[0].lower()
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        (root / "doc/adr").mkdir(parents=True)
        (root / "doc/adr/0001-record-architecture-decisions.md").write_text(
            FIRST.replace("Superseded by [2. Use MADR](0002-use-madr.md)", status))
        (root / "doc/adr/0002-use-madr.md").write_text(SECOND)
        assert hw("init", "--root", str(root)).status == 0
        assert hw("adopt", "--root", str(root), *NOW).status == 0
        fixed = hw("check", "--fix", "--root", str(root), *NOW)
        assert fixed.status == 0, fixed.err
        assert "lifecycle.state" not in hw("check", "--root", str(root), *NOW).out
        front = (root / "doc/adr/0001-record-architecture-decisions.md").read_text().split("---\n")[1]
        dates.append(next(line for line in front.split("\n") if line.startswith("status_since:")))
    assert dates == ["status_since: '2017-03-01'"] * 2, dates  # the successor's Date, never the run date


@pytest.mark.parametrize(("front", "language"), [
    ('+++\ntitle = "Use MADR"\n+++\n', "TOML (between `+++` lines)"),
    ('+++ \ntitle = "Use MADR"\n+++ \n', "TOML (between `+++` lines)"),  # Hugo reads the fence so too
    ('{\n  "title": "Use MADR"\n}\n', "JSON (an object opening on line 1)"),
])
def test_a_record_with_toml_or_json_front_matter_is_left_alone_and_said_so(nygard, hw, front, language):
    # YAML written above a Hugo or Zola page's own front matter turns that into page text
    second = nygard / "doc/adr/0002-use-madr.md"
    second.write_text(front + SECOND)
    ran = hw("adopt", "--root", str(nygard), *NOW)
    assert ran.status == 0 and second.read_text() == front + SECOND
    assert (f"left doc/adr/0002-use-madr.md alone: its front matter is written in {language}, which headwater "
            "does not read; write it as YAML between `---` lines to adopt it") in ran.out.splitlines()
    assert "wrote front matter into 1 record\n" in ran.out  # the first record, and only it
    checked = hw("check", "--root", str(nygard), *NOW).out
    assert f"its front matter is written in {language}, which headwater" in " ".join(checked.split())


def test_a_record_the_census_could_not_read_is_named_as_left_alone_never_vouched_for(nygard, hw):
    # adopt passed over them without a word and closed on "every record on a shelf already carries
    # what its body says", of records it never read
    adr = nygard / "doc/adr"
    assert hw("adopt", "--root", str(nygard), *NOW).status == 0
    (adr / "0003-latin-1.md").write_bytes("# 3. Caf\u00e9\n\nDate: 2018-01-01\n".encode("latin-1"))
    (adr / "0004-unclosed.md").write_text("---\ntitle: x\n\n# 4. Unclosed\n")
    (nygard / "elsewhere.md").write_text(SECOND)
    (adr / "0005-linked.md").symlink_to("../../elsewhere.md")
    before = {p.name: p.read_bytes() for p in adr.iterdir()}
    ran = hw("adopt", "--root", str(nygard), *NOW)
    assert ran.status == 0 and {p.name: p.read_bytes() for p in adr.iterdir()} == before
    assert ran.out.splitlines()[:4] == [
        "left doc/adr/0003-latin-1.md alone: not UTF-8 text: the byte 0xe9 at line 1, column 9 (offset 8) cannot "
        "be decoded; save the file as UTF-8",
        "left doc/adr/0004-unclosed.md alone: front matter opens with `---` on line 1 and is never closed",
        "left doc/adr/0005-linked.md alone: a symlink, which the walk does not follow (it points at "
        "`../../elsewhere.md`)",
        "nothing else to migrate: every other record on a shelf already carries what its body says"]


@pytest.mark.parametrize("fence", ["--- ", "---\t", "---  \r"])
def test_a_front_matter_whose_fences_carry_trailing_blanks_is_edited_in_place_never_stacked_on(nygard, hw, fence):
    # Jekyll and Hugo read `--- ` as a fence; adopt did not, wrote a second front matter above it, and the
    # site then showed the team's own keys as page text under a rule
    second = nygard / "doc/adr/0002-use-madr.md"
    jekyll = f"{fence}\nparent: Decisions\nnav_order: 2\n{fence}\n"
    second.write_bytes((jekyll + SECOND).encode())
    ran = hw("adopt", "--root", str(nygard), *NOW)
    assert ran.status == 0, ran.err
    assert second.read_bytes().decode() == (f"{fence}\nparent: Decisions\nnav_order: 2\nstatus: accepted\n"
                                  f"status_since: '2017-03-01'\ntitle: \"Use MADR\"\nid: ADR-0002\n"
                                  f"relations:\n  supersedes:\n    - ADR-0001\n{fence}\n" + SECOND)


def _stale_baseline_inputs(root, hw):
    """A snapshot of the adopted records and its one live finding, as a `--baseline` run holds them
    before it takes the write lock."""
    from headwater.check.runner import run
    from headwater.snapshot import load

    assert hw("adopt", "--root", str(root), *NOW).status == 0
    snapshot = load(root, dt.date(2026, 11, 30))
    findings = list(run(snapshot).findings)
    assert [f.rule for f in findings if f.live] == ["link.path.unresolved"]
    return snapshot, findings


def test_a_task_another_baseline_wrote_since_the_snapshot_is_kept_and_holds_its_findings_alone(nygard, hw):
    snapshot, findings = _stale_baseline_inputs(nygard, hw)
    first = hw("adopt", "--baseline", "--owner", "@alice", "--until", "2027-03-31", "--root", str(nygard), *NOW)
    assert "the adoption task AD-1, owned by @alice" in first.out
    written = (nygard / ".headwater/adoption.yml").read_text()
    said = baseline(snapshot, findings, "@bob", dt.date(2027, 3, 31), "s")
    assert said == ["nothing to hold: the corpus has no live finding"]  # as if it had run second
    assert (nygard / ".headwater/adoption.yml").read_text() == written


def test_a_task_added_since_the_snapshot_keeps_its_id_and_the_new_task_takes_the_next(nygard, hw):
    snapshot, findings = _stale_baseline_inputs(nygard, hw)
    by_hand = "tasks:\n  - id: AD-1\n    statement: s\n    owner: '@carol'\n    until: 2027-01-31\n    held: []\n"
    (nygard / ".headwater/adoption.yml").write_text(by_hand)
    said = baseline(snapshot, findings, "@bob", dt.date(2027, 3, 31), "s")
    assert said[0].startswith("wrote .headwater/adoption.yml: the adoption task AD-2, owned by @bob"), said
    assert (nygard / ".headwater/adoption.yml").read_text().startswith(by_hand + "  - id: AD-2\n")
    assert hw("check", "--strict", "--root", str(nygard), *NOW).status == 0


def test_a_hand_edit_made_while_the_baseline_writes_is_never_overwritten(nygard, hw, monkeypatch):
    from headwater.adoption import adopt as module

    snapshot, findings = _stale_baseline_inputs(nygard, hw)
    edited = "# edited by hand\ntasks:\n"

    def meanwhile(*args):
        (nygard / ".headwater/adoption.yml").write_text(edited)  # between the read and the write
        return task_text(*args)

    monkeypatch.setattr(module, "task_text", meanwhile)
    with pytest.raises(Refusal, match=r"^\.headwater/adoption\.yml changed while `headwater adopt --baseline`"):
        baseline(snapshot, findings, "@bob", dt.date(2027, 3, 31), "s")
    assert (nygard / ".headwater/adoption.yml").read_text() == edited


def test_two_adoption_tasks_with_one_id_are_refused_for_a_held_finding_would_name_either(nygard, hw):
    task = "  - id: AD-1\n    statement: s\n    owner: o\n    until: 2027-03-31\n    held: []\n"
    (nygard / ".headwater/adoption.yml").write_text("tasks:\n" + task + task)
    ran = hw("check", "--root", str(nygard), *NOW)
    assert ran.status == 1 and ("line 7: the adoption task id AD-1 is already the id of the task on line 2; "
                                "give each task its own id") in ran.err, ran.err


def test_a_rerun_after_a_killed_adopt_gives_a_record_the_identifier_its_claim_already_names(nygard, hw):
    (nygard / "doc/adr/0002-zz-second.md").write_text(SECOND.replace("# 2. Use MADR", "# 2. Use MADR twice"))
    ids = nygard / ".headwater/ids/decision_id"
    ids.mkdir(parents=True)
    # what a run killed after its claims landed and before its records did leaves: the claims, sorted first
    for identifier, path in [("ADR-0001", "0001-record-architecture-decisions.md"), ("ADR-0002", "0002-use-madr.md"),
                             ("ADR-0003", "0002-zz-second.md")]:
        (ids / identifier).write_text(f"doc/adr/{path}\n")
    ran = hw("adopt", "--root", str(nygard), *NOW)
    assert ran.status == 0 and "adopted doc/adr/0002-zz-second.md: " in ran.out, ran.err
    assert "id: ADR-0003\n" in (nygard / "doc/adr/0002-zz-second.md").read_text()
    assert sorted(p.name for p in ids.iterdir()) == ["ADR-0001", "ADR-0002", "ADR-0003"]


def test_a_baseline_over_an_inline_empty_task_list_writes_a_block_list_that_reads_back(nygard, hw):
    assert hw("adopt", "--root", str(nygard), *NOW).status == 0
    (nygard / ".headwater/adoption.yml").write_text("# held findings\ntasks: []\n")
    ran = hw("adopt", "--baseline", "--owner", "@docs", "--until", "2027-03-31", "--root", str(nygard), *NOW)
    assert ran.status == 0 and "the adoption task AD-1" in ran.out
    written = (nygard / ".headwater/adoption.yml").read_text()
    assert written.startswith("# held findings\ntasks:\n  - id: AD-1\n")
    assert hw("check", "--strict", "--root", str(nygard), *NOW).status == 0


@pytest.mark.parametrize("text", [
    "tasks: [] # none yet\n",
    "tasks:\n  - {id: AD-1, statement: s, owner: a, until: 2027-01-01, held: []}\nnote: x\n"])
def test_a_baseline_that_cannot_append_a_task_refuses_and_leaves_the_file_as_it_was(nygard, hw, text):
    assert hw("adopt", "--root", str(nygard), *NOW).status == 0
    (nygard / ".headwater/adoption.yml").write_text(text)
    ran = hw("adopt", "--baseline", "--owner", "@docs", "--until", "2027-03-31", "--root", str(nygard), *NOW)
    assert ran.status == 1 and "cannot append a task to it and wrote nothing" in ran.err
    assert (nygard / ".headwater/adoption.yml").read_text() == text


@pytest.mark.parametrize(("text", "opens"), [
    ("", "# Findings held while this repository adopts headwater"),
    ("tasks:\n", "tasks:\n  - id: AD-1\n"),
    ("# held findings\ntasks: ~\n", "# held findings\ntasks:\n  - id: AD-1\n")])
def test_an_empty_adoption_file_holds_no_task_and_a_baseline_appends_the_first(nygard, hw, text, opens):
    assert hw("adopt", "--root", str(nygard), *NOW).status == 0
    (nygard / ".headwater/adoption.yml").write_text(text)
    checked = hw("check", "--root", str(nygard), *NOW)
    assert checked.status == 0 and checked.err == "" and "0098" not in checked.out
    ran = hw("adopt", "--baseline", "--owner", "@docs", "--until", "2027-03-31", "--root", str(nygard), *NOW)
    assert ran.status == 0 and "the adoption task AD-1, owned by @docs" in ran.out, ran.err
    written = (nygard / ".headwater/adoption.yml").read_text()
    assert written.count("tasks:\n") == 1 and "tasks:\n  - id: AD-1\n" in written
    assert written.startswith(opens)
    assert hw("check", "--strict", "--root", str(nygard), *NOW).status == 0


@pytest.mark.parametrize(("text", "said"), [
    ("tasks: [unclosed\n", ".headwater/adoption.yml line 2: did not find expected ',' or ']'"),
    ('tasks: ""\n', ".headwater/adoption.yml holds a `tasks:` list, and this one does not"),
    ("tasks: none\n", ".headwater/adoption.yml holds a `tasks:` list, and this one does not")])
def test_a_malformed_adoption_file_is_refused_naming_it(nygard, hw, text, said):
    (nygard / ".headwater/adoption.yml").write_text(text)
    ran = hw("check", "--root", str(nygard), *NOW)
    assert ran.status == 1 and ran.out == "" and said in ran.err, (ran.status, ran.err)
