"""Identifier minting: where the next number starts, what a spent number or identifier does, and a
scheme without `{seq}`, whose identifier is the title's slug and has no next one to step to."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from headwater import observed
from headwater.errors import Refusal
from headwater.snapshot import load
from headwater.writes import minting

NOW = "2026-11-01"
SPECS = ".headwater/ids/specification_id"


def _new(hw, root: Path, *args: str):
    return hw("new", *args, "--root", str(root), "--now", NOW)


def _scheme(root: Path, name: str):
    return load(root, dt.date(2026, 11, 1)).taxonomy.schemes[name]


@pytest.fixture
def by_slug(hw, quickstart) -> Path:
    """The quickstart with specifications identified by their title's slug, not by a number."""
    overlay = quickstart / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text() + 'override:\n  identifier_schemes.specification_id.pattern: '
                                              '"{namespace}-SPEC-{slug}"\n')
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    return quickstart


def test_a_claim_above_every_document_s_number_moves_the_next_number_past_it(hw, quickstart):
    (quickstart / ".headwater/ids/decision_id/ACME-DR-0009").write_text("docs/decisions/0009-gone.md\n")
    (quickstart / ".headwater/ids/decision_id/.ACME-DR-0042.tmp").write_text("a writer's temp file\n")
    ran = _new(hw, quickstart, "decision", "--title", "Next one")
    assert ran.status == 0, ran.err
    assert (quickstart / "docs/decisions/0010-next-one.md").read_text().startswith("---\nid: ACME-DR-0010\n")
    assert "the numbers its file names carry, and claims (9); claimed in .headwater/ids/decision_id/ACME-DR-0010\n" \
        in ran.out


def test_the_claim_store_a_run_counts_from_is_announced_to_the_recorder(quickstart):
    scheme = _scheme(quickstart, "decision_id")
    with observed.Recorder(observed.Scope(())) as recorder:
        assert minting.first_candidate(quickstart, scheme, ["ACME-DR-0001"]) == 4
    assert str(quickstart / ".headwater/ids/decision_id") in recorder.noted[observed.PROBED]


def test_a_run_that_read_the_corpus_before_another_claimed_its_number_takes_the_next_one(quickstart):
    from headwater import writelock
    from headwater.writes.new import carry_out, prepare

    snapshot = load(quickstart, dt.date(2026, 11, 1))
    first, second = (prepare(snapshot, "decision", title, [], "Plan.", [], None) for title in ("One", "Two"))
    with writelock.held(quickstart):
        written = [carry_out(first), carry_out(second)]  # the second's number was claimed under another name
    assert [w.paths[:2] for w in written] == [
        (".headwater/ids/decision_id/ACME-DR-0004", "docs/decisions/0004-one.md"),
        (".headwater/ids/decision_id/ACME-DR-0005", "docs/decisions/0005-two.md")]
    assert "after 1 number(s) above it were claimed meanwhile" in written[1].account


def test_an_identifier_the_corpus_carries_is_stepped_past_by_a_numbered_scheme(quickstart):
    scheme = _scheme(quickstart, "decision_id")
    minted = minting.mint(quickstart, scheme, 4, "x", {"ACME-DR-0004"}, lambda seq: f"docs/decisions/{seq:04d}-x.md")
    assert (minted.identifier, minted.sequence, minted.highest) == ("ACME-DR-0005", 5, 3)
    assert (quickstart / minted.claim).read_bytes() == b"docs/decisions/0005-x.md\n"


def test_a_numbered_scheme_with_every_number_spent_is_refused_after_its_tries(quickstart):
    scheme = _scheme(quickstart, "decision_id")
    with pytest.raises(Refusal) as refused:
        minting.mint(quickstart, scheme, 4, "x", set(), lambda seq: None)
    assert refused.value.sentence == "no free identifier under `decision_id` in 1000 tries from sequence 4"


def test_a_scheme_without_a_sequence_mints_the_title_s_slug_and_says_so(hw, by_slug):
    ran = _new(hw, by_slug, "specification", "--title", "Retry budget", "--summary", "How many retries.")
    assert ran.status == 0, ran.err
    assert "id: ACME-SPEC-retry-budget\n" in (by_slug / "docs/specifications/retry-budget.md").read_text()
    assert ("  identifier ACME-SPEC-retry-budget under `specification_id`, allocation reconcile-first — from the "
            f"title's slug; claimed in {SPECS}/ACME-SPEC-retry-budget\n") in ran.out
    assert (by_slug / SPECS / "ACME-SPEC-retry-budget").read_bytes() == b"docs/specifications/retry-budget.md\n"


def test_a_slug_another_document_carries_as_its_identifier_is_refused_and_nothing_is_claimed(hw, by_slug):
    (by_slug / "docs/specifications/budget.md").write_text(
        (by_slug / "docs/specifications/ingest-api.md").read_text().replace("ACME-SPEC-0002", "ACME-SPEC-retry-budget"))
    ran = _new(hw, by_slug, "specification", "--title", "Retry budget")
    assert (ran.status, ran.out) == (1, "")
    assert ran.err == ("headwater: the identifier `ACME-SPEC-retry-budget` is already carried by a document, so "
                       "`new` mints nothing\n")
    assert not (by_slug / SPECS / "ACME-SPEC-retry-budget").exists()


def test_a_slug_claimed_before_is_never_minted_again_after_its_document_is_deleted(hw, by_slug):
    assert _new(hw, by_slug, "specification", "--title", "Retry budget").status == 0
    (by_slug / "docs/specifications/retry-budget.md").unlink()
    ran = _new(hw, by_slug, "specification", "--title", "Retry budget")
    assert (ran.status, ran.out) == (1, "")
    assert ran.err == (f"headwater: the identifier `ACME-SPEC-retry-budget` was claimed before ({SPECS}/ACME-SPEC-"
                       "retry-budget), and a claim is never reused\n")
    assert not (by_slug / "docs/specifications/retry-budget.md").exists()


def test_a_scheme_without_a_sequence_is_tried_once_however_its_path_falls(by_slug):
    asked = []

    def spent(sequence: int) -> str | None:
        asked.append(sequence)
        return None if len(asked) == 1 else "docs/specifications/retry-budget.md"

    with pytest.raises(Refusal, match="^no free identifier under `specification_id`"):
        minting.mint(by_slug, _scheme(by_slug, "specification_id"), 1, "retry-budget", set(), spent)
    assert asked == [1]
