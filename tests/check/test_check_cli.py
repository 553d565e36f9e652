"""`headwater check` on the command line: exit status, refusals, the stale lock."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "corpus_fixtures"
NOW = ("--now", "2026-11-01", "--no-cache")  # fixtures are read in place: no cache lands in them


def test_strict_exits_1_when_a_live_error_remains_and_still_writes_the_report(hw):
    ran = hw("check", "--root", str(FIXTURES / "check-all"), *NOW, "--strict")
    assert ran.status == 1 and "✗ error" in ran.out


def test_without_strict_every_finding_is_advisory(hw):
    assert hw("check", "--root", str(FIXTURES / "check-all"), *NOW).status == 0


def test_strict_passes_a_clean_corpus_and_one_with_only_warnings(hw, copy_fixture):
    assert hw("check", "--root", str(FIXTURES / "quickstart"), *NOW, "--strict").status == 0
    warned = hw("check", "--root", str(copy_fixture("rules/facet.freshness.stale/fail")), *NOW, "--strict")
    assert warned.status == 0 and "▲ warn" in warned.out


@pytest.mark.parametrize("args", [
    ("--format", "xml"),
    ("--wide", "--format", "json"),
    ("--wide", "--format", "sarif"),
    ("--json", "--format", "json"),
    ("--now", "2026-02-30"),
    ("--now", "tomorrow"),
    ("--change", "manifest"),
    ("stray",),
])
def test_bad_input_is_a_one_sentence_refusal_with_nothing_on_stdout(hw, args):
    ran = hw("check", "--root", str(FIXTURES / "quickstart"), *args)
    assert ran.status == 1 and ran.out == ""
    assert ran.err.startswith("headwater: ") and ran.err.count("\n") == 1


def test_a_stale_lock_is_refused_naming_the_changed_source(hw, copy_fixture):
    root = copy_fixture("quickstart")
    overlay = root / ".headwater" / "overlay.yml"
    overlay.write_text(overlay.read_text() + "# an edit after resolving\n")
    ran = hw("check", "--root", str(root))
    assert ran.status == 1 and ran.out == ""
    assert ".headwater/overlay.yml" in ran.err and "headwater taxonomy resolve" in ran.err


@pytest.mark.parametrize(("old", "new"), [("bundles: []", "bundles: [diataxis]"), ("version: 1.0.0", "version: 9.9.9"),
                                        ("overlay: .headwater/overlay.yml", "overlay: .headwater/elsewhere.yml")])
def test_a_declaration_edited_since_the_lock_makes_it_stale_for_check_and_for_every_writer(hw, copy_fixture, old, new):
    root = copy_fixture("quickstart")
    declaration = root / ".headwater" / "taxonomy.yml"
    assert old in declaration.read_text()
    declaration.write_text(declaration.read_text().replace(old, new))
    stale = "headwater: .headwater/taxonomy.lock is stale: .headwater/taxonomy.yml changed since it was resolved."
    for verb in (["check"], ["new", "decision", "--title", "Stale"], ["adopt"]):
        ran = hw(*verb, "--root", str(root))
        assert ran.status == 1 and ran.out == "" and ran.err.startswith(stale), ran.err
    assert not list((root / "docs/decisions").glob("*stale*"))


def test_an_overlay_edited_since_the_lock_stops_new_before_it_writes(hw, copy_fixture):
    root = copy_fixture("quickstart")
    overlay = root / ".headwater" / "overlay.yml"
    overlay.write_text(overlay.read_text().replace("decision_id.namespace: ACME", "decision_id.namespace: ZZZ"))
    ran = hw("new", "decision", "--title", "Stale", "--root", str(root))
    assert ran.status == 1 and ".headwater/overlay.yml changed since it was resolved" in ran.err
    assert not list((root / "docs/decisions").glob("*stale*"))


def test_a_missing_lock_is_refused_naming_resolve(hw, copy_fixture):
    root = copy_fixture("quickstart")
    (root / ".headwater" / "taxonomy.lock").unlink()
    ran = hw("check", "--root", str(root))
    assert ran.status == 1 and ran.out == "" and "headwater taxonomy resolve" in ran.err


def test_no_cache_is_accepted_and_changes_nothing(hw, copy_fixture):
    root = copy_fixture("quickstart")
    plain = hw("check", "--root", str(root), "--now", "2026-11-01")
    uncached = hw("check", "--root", str(root), *NOW)
    assert plain.status == uncached.status == 0 and "0 findings" in plain.out and plain.out == uncached.out
