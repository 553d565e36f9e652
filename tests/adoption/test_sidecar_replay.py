"""The largest replay: kubernetes/enhancements, 653 KEPs whose metadata lives in a `kep.yaml` beside
each `README.md`, across one folder per SIG. Unpacked once; three commands to a green strict check,
the findings a legacy corpus really has held under an adoption task, then expiry and the reads."""

from __future__ import annotations

import json

import pytest
from adoption_harness import NOW, headwater

KEPS = 653  # keps/**/NNN-slug/README.md in the archive, without the two template folders
LATER = "2027-07-01"  # after the task's `until`


@pytest.fixture(scope="module")
def keps(unpacked):
    root = unpacked("kubernetes-enhancements")
    steps = [headwater(root, "init"),
             headwater(root / "keps", "adopt", "--baseline", "--owner", "@sig-architecture", "--until", "2027-06-30",
                       "--now", NOW),
             headwater(root / "keps" / "sig-node", "check", "--strict", "--now", NOW)]
    return root, steps


def test_three_commands_adopt_the_keps_and_hold_what_they_really_have(keps):
    root, (init, adopt, strict) = keps
    assert init.status == 0 and f"  shelf decisions: {KEPS} records in `keps`" in init.out, init.err
    assert "identifiers decision_id: `{namespace}-{seq}`" in init.out and "namespace `KEP`" in init.out
    assert "exclude keps/NNNN-kep-template/README.md" in init.out
    assert "exclude keps/sig-cloud-provider/providers/0000-cloud-provider-template/README.md" in init.out
    assert adopt.status == 0 and f"front matter into {KEPS} records" in adopt.out, adopt.err
    assert "the adoption task AD-1, owned by @sig-architecture, until 2027-06-30" in adopt.out
    assert strict.status == 0, strict.err


def test_every_kep_is_typed_and_the_held_findings_say_who_holds_them_in_every_format(keps):
    root, _ = keps
    report = headwater(root, "check", "--json", "--now", NOW).json
    assert report["coverage"]["classified"] == report["coverage"]["checked"] == KEPS
    held = [f for f in report["findings"] if f["escape"] == "migration-pending"]
    assert held and len(held) == len(report["findings"])
    assert {f["hidden_by"]["reason"] for f in held} == {"AD-1"}
    line = "not reported (migration-pending): held by the adoption task AD-1, owned by"
    assert line in headwater(root, "check", "--now", NOW, "--wide").out.replace("\n      ", " ")
    sarif = json.loads(headwater(root, "check", "--format", "sarif", "--now", NOW).out)
    assert sarif["runs"][0]["results"][0]["suppressions"][0]["kind"] == "external"
    assert "held by the adoption task AD-1" in headwater(root, "check", "--format", "markdown", "--now", NOW).out


def test_once_the_task_expires_its_findings_are_live_and_a_new_finding_was_never_held(keps):
    root, _ = keps
    expired = headwater(root, "check", "--strict", "--json", "--now", LATER)
    assert expired.status == 1
    rules = [f["rule"] for f in expired.json["findings"] if f["escape"] == "none"]
    assert "adoption.task.expired" in rules and "link.path.unresolved" in rules


def test_the_supersession_a_sidecar_states_is_a_relation_and_reads_answer_by_the_teams_numbers(keps):
    root, _ = keps
    assert "to KEP-1205 superseded_by" in headwater(root, "explain", "KEP-2451").out
    assert headwater(root, "explain", "KEP-4355").out.startswith("keps/sig-api-machinery/4355-coordinated-leader")
    pointers = headwater(root, "route", "why add coordinated leader election", "--json").json["pointers"]
    assert pointers[0]["path"] == "keps/sig-api-machinery/4355-coordinated-leader-election/README.md"
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "resolve_identifier", "arguments": {"id": "KEP-4355"}}}]
    served = headwater(root, "mcp", "--now", NOW, stdin=b"".join(json.dumps(m).encode() + b"\n" for m in lines))
    answer = json.loads(served.out.splitlines()[1])["result"]["content"][0]["text"]
    assert answer.startswith("keps/sig-api-machinery/4355-coordinated-leader-election/README.md")


def test_no_kep_is_titled_by_the_template_its_kep_yaml_was_copied_from(keps):
    """Six kep.yaml files kept the template's `title: KEP Template`; their titles are their headings."""
    root, _ = keps
    readmes = (root / "keps").glob("*/*/README.md")
    fronts = {path: path.read_text(encoding="utf-8").split("---\n")[1] for path in readmes}
    assert not [path for path, front in fronts.items() if 'title: "KEP Template"' in front]
    assert 'title: "KEP-85: Graduate PodDisruptionBudget to stable"' in \
        fronts[root / "keps/sig-apps/85-Graduate-PDB-to-Stable/README.md"]


def test_new_writes_the_next_kep_in_its_own_folder_in_the_sig_the_team_names(keps):
    root, _ = keps
    ran = headwater(root, "new", "decision", "--title", "Adopt headwater", "--directory", "keps/sig-docs",
                    "--summary", "The KEPs are governed by headwater.", "--now", NOW)
    assert ran.status == 0, ran.err
    written = ran.out.split("\n")[0].removeprefix("wrote ")
    assert written.startswith("keps/sig-docs/") and written.endswith("-adopt-headwater/README.md")
    number = int(written.split("/")[2].split("-")[0])
    assert number > 5000 and f"KEP-{number}" in headwater(root, "explain", written).out
    # the new record is new: the baseline never held it, and strict judges it live
    after = headwater(root, "check", "--json", "--now", NOW).json["findings"]
    assert all(f["escape"] == "none" for f in after if f["path"] == written)
