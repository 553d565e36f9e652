"""Every rule has its own pass and fail fixture, and each behaves as its fixture says."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from headwater.check.change_manifest import read_manifest
from headwater.check.registry import RULES
from headwater.check.runner import run
from headwater.snapshot import load

FIXTURES = Path(__file__).resolve().parents[2] / "corpus_fixtures"
RULE_FIXTURES = FIXTURES / "rules"
NOW = dt.date(2026, 11, 1)


def fired(root: Path) -> list[str]:
    """The rules that fire, with the fixture's change when it carries one (`change/manifest`)."""
    manifest = root / "change" / "manifest"
    change = read_manifest(manifest, root) if manifest.is_file() else None
    return [finding.rule for finding in run(load(root, NOW), change).findings]


def test_every_registered_rule_has_a_pass_and_a_fail_fixture():
    lacking = [f"{r.id}/{side}" for r in RULES for side in ("pass", "fail")
               if not (RULE_FIXTURES / r.id / side / ".headwater" / "taxonomy.lock").is_file()]
    assert lacking == []


def test_no_fixture_names_a_rule_the_registry_lacks():
    assert sorted(p.name for p in RULE_FIXTURES.iterdir()) == sorted(r.id for r in RULES)


@pytest.mark.parametrize("rule_id", [r.id for r in RULES])
def test_a_rule_fires_on_its_fail_fixture_and_stays_silent_on_its_pass_fixture(rule_id):
    assert rule_id in fired(RULE_FIXTURES / rule_id / "fail")
    assert rule_id not in fired(RULE_FIXTURES / rule_id / "pass")


def test_the_check_all_fixture_trips_every_rule():
    assert {r.id for r in RULES} - set(fired(FIXTURES / "check-all")) == set()


def test_the_quickstart_fixture_is_clean():
    assert fired(FIXTURES / "quickstart") == []


def test_rule_ids_are_unique_and_each_rule_carries_its_descriptions():
    assert len({r.id for r in RULES}) == len(RULES)
    for r in RULES:
        assert r.version >= 1 and r.short and r.full and r.help and r.tags


def test_findings_come_sorted_by_path_line_column_rule_and_message():
    findings = run(load(FIXTURES / "check-all", NOW)).findings
    keys = [(f.path, f.line, f.column, f.rule, f.message) for f in findings]
    assert keys == sorted(keys)
    assert all(f.remediation for f in findings)
    assert all(f.column == 0 for f in findings if f.line == 0)
