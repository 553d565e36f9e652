"""Writes never follow a symlink out of the root: a symlinked state folder is a one-sentence refusal."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

NOW = ("--now", "2026-11-01")


def outside_folder(root: Path, name: str) -> Path:
    folder = root.parent / f"outside-{name.replace('/', '-')}"
    folder.mkdir()
    (folder / "checks").write_text("a file of someone else's\n")
    return folder


def listing(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def refused_in_one_sentence(ran, link: str) -> None:
    assert ran.status == 1 and ran.out == ""
    assert ran.err.startswith("headwater: ") and ran.err.count("\n") == 1, ran.err
    assert f"`{link}` is a symlink" in ran.err


def test_a_symlinked_cache_folder_makes_check_refuse_and_writes_nothing_there(hw, quickstart):
    outside = outside_folder(quickstart, "cache")
    before = listing(outside)
    os.symlink(outside, quickstart / ".headwater" / "cache")
    ran = hw("check", "--root", str(quickstart), *NOW)
    refused_in_one_sentence(ran, ".headwater/cache")
    assert listing(outside) == before


def test_a_symlinked_state_folder_is_refused_by_every_verb_before_it_reads(hw, quickstart):
    outside = quickstart.parent / "state"
    shutil.move(quickstart / ".headwater", outside)
    os.symlink(outside, quickstart / ".headwater")
    before = listing(outside)
    for verb in (("check",), ("check", "--no-cache"), ("new", "decision", "--title", "Through a link"),
                 ("route", "adopt an overlay"), ("taxonomy", "resolve")):
        ran = hw(*verb, "--root", str(quickstart), *(NOW if verb[0] in ("check", "new") else ()))
        refused_in_one_sentence(ran, ".headwater")
    assert listing(outside) == before


@pytest.mark.parametrize("linked", [".headwater/ids", ".headwater/ids/decision_id"])
def test_new_never_creates_a_claim_through_a_symlinked_claim_store(hw, quickstart, linked):
    outside = outside_folder(quickstart, linked)
    shutil.copytree(quickstart / linked, outside, dirs_exist_ok=True)
    shutil.rmtree(quickstart / linked)
    os.symlink(outside, quickstart / linked)
    before = listing(outside)
    ran = hw("new", "decision", "--title", "Through a link", "--root", str(quickstart), *NOW)
    refused_in_one_sentence(ran, linked)
    refused_in_one_sentence(hw("check", "--no-cache", "--root", str(quickstart), *NOW), linked)  # claims are evidence
    assert listing(outside) == before
    assert not list((quickstart / "docs").rglob("*through-a-link*"))


def test_fix_never_creates_a_claim_through_a_symlinked_scheme_folder(hw, copy_fixture):
    root = copy_fixture("rules/identifier.claim.missing/fail")
    linked = root / ".headwater/ids/decision_id"
    outside = outside_folder(root, "scheme")
    shutil.copytree(linked, outside, dirs_exist_ok=True)
    shutil.rmtree(linked)
    os.symlink(outside, linked)
    before = listing(outside)
    ran = hw("check", "--fix", "--no-cache", "--root", str(root), *NOW)
    refused_in_one_sentence(ran, ".headwater/ids/decision_id")
    assert listing(outside) == before


def test_a_symlinked_state_folder_is_refused_before_its_claims_or_packages_are_listed(quickstart):
    from headwater import observed
    from headwater.errors import Refusal
    from headwater.statefolder import refuse_linked

    outside = quickstart.parent / "state"
    shutil.move(quickstart / ".headwater", outside)
    (outside / "packages" / "vendored").mkdir(parents=True)
    os.symlink(outside, quickstart / ".headwater")
    with observed.Recorder(observed.Scope(())) as recorder, pytest.raises(Refusal, match="`.headwater` is a symlink"):
        refuse_linked(quickstart)
    through = (str(outside), str(quickstart / ".headwater"))  # the folder the link leads to, by either name
    assert not [path for path in recorder.noted[observed.LISTED] if path.startswith(through)]


def test_every_state_folder_judged_is_announced_to_the_recorder(quickstart):
    from headwater import observed
    from headwater.statefolder import GUARDED, refuse_linked

    schemes = sorted(p.name for p in (quickstart / ".headwater" / "ids").iterdir())
    assert schemes  # the quickstart keeps claims, so a scheme's folder is judged too
    with observed.Recorder(observed.Scope(())) as recorder:
        refuse_linked(quickstart)
    judged = {str(quickstart / relative) for relative in (*GUARDED, *(f".headwater/ids/{s}" for s in schemes))}
    assert judged <= recorder.noted[observed.PROBED]
