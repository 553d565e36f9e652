"""What `identifier.pattern.not_met` tells a user to write: the identifier's own number in the
scheme's shape where nothing else holds it, else the next free identifier."""

from __future__ import annotations

import json

import pytest

from headwater.check.rules.identifier import _own_number
from headwater.taxonomy.model import Scheme

BASE = "docs/decisions/0001-base.md"
FAILING = "rules/identifier.pattern.not_met/fail"  # `id: ACME-DR-12` on BASE


def remedy(hw, root) -> str:
    ran = hw("check", "--root", str(root), "--now", "2026-11-01", "--no-cache", "--json")
    [found] = [f for f in json.loads(ran.out)["findings"] if f["rule"] == "identifier.pattern.not_met"]
    return found["remediation"]


def test_an_identifier_of_the_wrong_width_is_told_its_own_number_in_the_scheme_s_shape(hw, copy_fixture):
    root = copy_fixture(FAILING)
    assert remedy(hw, root) == ("write the `id` as `ACME-DR-0012`, its own number in the scheme's shape, and "
                                "update the documents that name it")


def test_an_own_number_another_document_carries_is_not_offered(hw, copy_fixture):
    root = copy_fixture(FAILING)
    other = (root / BASE).read_text().replace("id: ACME-DR-12", "id: ACME-DR-0012")
    (root / "docs/decisions/0012-other.md").write_text(other)
    assert remedy(hw, root) == ("write the `id` in the shape `ACME-DR-0013`, and update the documents that "
                                "name it")


def test_an_own_number_claimed_for_another_path_is_not_offered(hw, copy_fixture):
    root = copy_fixture(FAILING)
    claims = root / ".headwater/ids/decision_id"  # the fixture's store claims `ACME-DR-12` already
    (claims / "ACME-DR-0012").write_text("docs/decisions/0012-deleted.md\n")
    assert remedy(hw, root).startswith("write the `id` in the shape `ACME-DR-")
    (claims / "ACME-DR-0012").write_text(f"{BASE}\n")  # claimed for this very document: its own
    assert remedy(hw, root).startswith("write the `id` as `ACME-DR-0012`")


def test_an_identifier_whose_letters_differ_too_is_not_told_a_number_of_its_own(hw, copy_fixture):
    root = copy_fixture(FAILING)
    base = root / BASE
    base.write_text(base.read_text().replace("id: ACME-DR-12", "id: ACME-DR-0012-rev5"))
    assert remedy(hw, root).startswith("write the `id` in the shape `ACME-DR-")


@pytest.mark.parametrize("pattern", ["{namespace}-{slug}", "{namespace}-{seq:04d}-{slug}", "{namespace}-DR"])
def test_a_scheme_with_a_slug_or_no_sequence_is_never_told_a_number_of_its_own(pattern):
    scheme = Scheme("decision_id", pattern, "ADR", "reconcile-first")
    assert _own_number(None, scheme, None, "ADR-12") is None  # decided before any document is asked about
