"""Front matter as a standards corpus writes it: the taxonomy names the key that carries the
identifier (`eip: 1559`), and a bare number is an identifier every read answers by."""

from __future__ import annotations

import json
import subprocess

import pytest

NOW = ("--now", "2026-11-30")
OVERLAY = """add:
  identifier_schemes.decision_id.namespace: ACME
  identifier_schemes.specification_id.namespace: ACME
  identifier_schemes.eip_id: {pattern: "{seq}", allocation: reconcile-first}
  kinds.proposal:
    is_a: governed_document
    purpose: behavior
    identifier: {scheme: eip_id, key: eip}
  shelves.eips: {path: "EIPS/**", homogeneous: true, kind: proposal, layout: "eip-{seq}.md"}
override:
  kinds.governed_document.facets.require: [status]
"""
EIP = """---
eip: {number}
title: Proposal {number}
status: current
---

# Proposal {number}
"""


@pytest.fixture
def eips(tmp_path, hw):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "EIPS").mkdir()
    for number in (1559, 2718):
        (tmp_path / f"EIPS/eip-{number}.md").write_text(EIP.format(number=number))
    (tmp_path / "EIPS/eip-2930.md").write_text(EIP.format(number=2930).replace("eip: 2930\n", ""))
    assert hw("init", "--corpus", "EIPS", "--namespace", "ACME", "--root", str(tmp_path)).status == 0
    (tmp_path / ".headwater/overlay.yml").write_text(OVERLAY)
    resolved = hw("taxonomy", "resolve", "--root", str(tmp_path))
    assert resolved.status == 0, resolved.err
    return tmp_path


def test_explain_and_resolve_answer_by_the_teams_own_numbers(eips, hw):
    explained = hw("explain", "1559", "--root", str(eips))
    assert explained.status == 0 and explained.out.startswith("EIPS/eip-1559.md\n  1559\n")
    from headwater.clock import run_date
    from headwater.mcp.protocol import Server
    from headwater.snapshot import load

    server = Server(load(eips, run_date(NOW[1])))
    line = server.handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "resolve_identifier", "arguments": {"id": "2718"}}}).encode())
    assert json.loads(line)["result"]["content"][0]["text"].startswith("EIPS/eip-2718.md")


def test_a_proposal_missing_its_number_is_told_its_own_and_fix_writes_it_under_the_teams_key(eips, hw):
    report = json.loads(hw("check", "--json", "--root", str(eips), *NOW).out)
    [unusable] = [f for f in report["findings"] if f["rule"] == "identifier.unusable"]
    assert unusable["path"] == "EIPS/eip-2930.md" and unusable["remediation"].startswith("add `eip: 2930`")
    assert hw("check", "--fix", "--root", str(eips), *NOW).status == 0
    assert "\neip: '2930'\n" in (eips / "EIPS/eip-2930.md").read_text()  # written as a string, as set_scalar does
    assert hw("explain", "2930", "--root", str(eips)).status == 0


KEYED = OVERLAY.replace("override:", """  relations.requires:
    {family: association, from: [proposal], to: [proposal], key: requires, lifecycle_sensitive: true}
  relations.supersedes.inverse_key: superseded-by
override:
  vocabularies.lifecycle_state:
    - {value: Draft, role: initial}
    - {value: Final, role: live}
    - {value: superseded, role: terminal-retained}
    - {value: Withdrawn, role: terminal-retained}
  regimes.lifecycle.standard.initial: Draft
  regimes.lifecycle.standard.transitions: {Draft: [Final, Withdrawn], Final: [superseded]}
  relations.conflicts_with.invalid_when.both.status: Final
  facets.status.guidance: the proposal's status""")


def test_top_level_relation_keys_are_edges_and_a_final_requiring_a_withdrawn_is_seen(eips, hw):
    (eips / ".headwater/overlay.yml").write_text(KEYED)
    assert hw("taxonomy", "resolve", "--root", str(eips)).status == 0
    final = (eips / "EIPS/eip-1559.md").read_text().replace("status: current", "status: Final")
    (eips / "EIPS/eip-1559.md").write_text(final.replace("---\n\n", "requires: 2718, 2930\n---\n\n", 1))
    withdrawn = (eips / "EIPS/eip-2718.md").read_text().replace("status: current", "status: Withdrawn")
    (eips / "EIPS/eip-2718.md").write_text(withdrawn)
    explained = hw("explain", "1559", "--root", str(eips)).out
    assert "to 2718 requires" in explained and "to 2930 requires" in explained, explained
    report = json.loads(hw("check", "--json", "--root", str(eips), *NOW).out)
    terminal = [f for f in report["findings"] if f["rule"] == "lifecycle.dependency.on_terminal"]
    assert [f["path"] for f in terminal] == ["EIPS/eip-1559.md"] and "2718" in terminal[0]["message"]


def test_a_keyed_list_splits_at_each_numbers_own_column_and_an_inverse_key_writes_the_inverse_half(eips, hw):
    from headwater.clock import run_date
    from headwater.graph import Bound, ProblemKind
    from headwater.snapshot import load

    (eips / ".headwater/overlay.yml").write_text(KEYED)
    assert hw("taxonomy", "resolve", "--root", str(eips)).status == 0
    one = (eips / "EIPS/eip-1559.md").read_text()
    keyed = "requires: 2718,  2930 ,7,\nsuperseded-by: 2718\n"
    (eips / "EIPS/eip-1559.md").write_text(one.replace("---\n\n", keyed + "---\n\n", 1))
    two = (eips / "EIPS/eip-2718.md").read_text()
    (eips / "EIPS/eip-2718.md").write_text(two.replace("---\n\n", "requires: [[1559]]\n---\n\n", 1))
    graph = load(eips, run_date(NOW[1])).graph
    edges = [(e.source, e.written_as, e.inverse, e.target.bound, e.target.raw, e.line, e.column) for e in graph.edges]
    assert edges == [  # in the order the taxonomy names the keys
        ("EIPS/eip-1559.md", "superseded-by", True, Bound.DOCUMENT, "2718", 6, 16),
        ("EIPS/eip-1559.md", "requires", False, Bound.DOCUMENT, "2718", 5, 11),
        ("EIPS/eip-1559.md", "requires", False, Bound.UNBOUND, "2930", 5, 18),  # eip-2930 carries no number
        ("EIPS/eip-1559.md", "requires", False, Bound.UNBOUND, "7", 5, 24),
    ]
    assert [(p.kind, p.path, p.line, p.column) for p in graph.problems] == [
        (ProblemKind.LIST_TARGET, "EIPS/eip-2718.md", 5, 12)]
