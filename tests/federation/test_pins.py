"""Every way a pin binds nothing (a finding), and every way it leaves the root (a refusal)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.check.fixtures import HARVESTED, IMPORTED, harvest_pin, import_pin, pins_with_digests, write
from tests.federation.conftest import DATE, pinned_service, platform_spec
from tests.mcp.mcp_session import Session

HEADWATER = [sys.executable, "-m", "headwater"]
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
WRONG = "sha256:" + "9" * 64


def no_digest(pin: str) -> str:
    return "".join(line for line in pin.splitlines(keepends=True) if "digest" not in line)


HARVEST_CAUSES = {
    "no digest": (no_digest(harvest_pin()), "the pin has no `digest`"),
    "missing": (harvest_pin().replace(HARVESTED, ".headwater/harvested/gone.json"),
                ".headwater/harvested/gone.json is missing"),
    "wrong digest": (harvest_pin(WRONG), f"not the pinned {WRONG}"),
    "not an export": (harvest_pin(f"DIGEST({IMPORTED})").replace(HARVESTED, IMPORTED),
                      "is not a headwater export"),
}
IMPORT_CAUSES = {
    "no digest": (import_pin(None), "the pin has no `digest`"),
    "missing": (import_pin().replace("svc.json", "gone.json"), ".headwater/imports/gone.json is missing"),
    "unreadable": (import_pin().replace("svc.json", "folder"), ".headwater/imports/folder could not be read"),
    "wrong digest": (import_pin(WRONG), f"not the pinned {WRONG}"),
    "not an anchors snapshot": (import_pin(f"DIGEST({HARVESTED})").replace(IMPORTED, HARVESTED),
                                "is not a headwater anchors snapshot"),
}


def pinned_platform(repos, pins: str):
    """The platform with its pins replaced (`taxonomy.yml` is no source of the lock, so the lock holds)."""
    spec = platform_spec(repos.export, repos.anchors)
    write(repos.platform, spec)
    declaration = repos.platform / ".headwater" / "taxonomy.yml"
    kept = declaration.read_text(encoding="utf-8").split("harvests:")[0]
    declaration.write_text(kept + pins_with_digests(pins, spec["files"]), encoding="utf-8")
    (repos.platform / ".headwater" / "imports" / "folder").mkdir()
    return repos.platform


def check(hw, root) -> list[dict]:
    ran = hw("check", "--root", str(root), "--now", DATE, "--format", "json")
    assert ran.status == 0, ran.err
    return json.loads(ran.out)["findings"]


@pytest.mark.parametrize("cause", sorted(HARVEST_CAUSES))
def test_each_cause_of_harvest_pin_unread_binds_nothing_and_is_an_error(repos, hw, cause):
    pins, reason = HARVEST_CAUSES[cause]
    root = pinned_platform(repos, pins + import_pin())
    found = check(hw, root)
    unread = [f for f in found if f["rule"] == "harvest.pin.unread"]
    assert len(unread) == 1 and unread[0]["severity"] == "error"
    assert unread[0]["path"] == ".headwater/taxonomy.yml" and unread[0]["line"] == 9
    assert unread[0]["message"].startswith("`harvests.decisions` binds nothing: ") and reason in unread[0]["message"]
    assert any(f["rule"] == "relation.target.unresolved" and "the pin `decisions` binds nothing" in f["message"]
               for f in found)
    session = Session(root)  # the server starts: an unread pin is a finding, not a refusal
    answer = session.call("governing_docs_for_path", path="svc:src/app.py")["result"]["structuredContent"]
    assert answer["pointers"] == [] and [u["pin"] for u in answer["unread_pins"]] == ["harvests.decisions"]
    assert reason in answer["unread_pins"][0]["reason"]  # the read says why, as the finding does
    assert hw("check", "--root", str(root), "--now", DATE, "--strict").status == 1


@pytest.mark.parametrize("cause", sorted(IMPORT_CAUSES))
def test_each_cause_of_import_pin_unread_binds_nothing_and_is_an_error(repos, hw, cause):
    pins, reason = IMPORT_CAUSES[cause]
    root = pinned_platform(repos, harvest_pin() + pins)
    unread = [f for f in check(hw, root) if f["rule"] == "import.pin.unread"]
    assert len(unread) == 1 and unread[0]["severity"] == "error"
    assert unread[0]["message"].startswith("`imports.svc` binds nothing: ") and reason in unread[0]["message"]
    # the harvested decision's edge still names `svc:`, so it still reads; no local anchor binds it
    assert Session(root).call("governing_docs_for_path", path="svc:src/app.py")["result"][
        "structuredContent"]["pointers"][0]["corpus"] == "decisions"


def refused_before_any_message(root) -> str:
    process = subprocess.run([*HEADWATER, "mcp", "--root", str(root), "--now", DATE],
                             input=(INITIALIZE + "\n").encode(), capture_output=True, timeout=60)
    assert process.returncode == 1 and process.stdout == b""
    err = process.stderr.decode()
    assert err.startswith("headwater: ") and err.count("\n") == 1
    return err


def test_an_at_path_outside_the_root_is_refused_before_any_mcp_message_is_read(repos, hw):
    for outside in ("../decisions/.headwater/export.json", "/etc/passwd"):
        root = pinned_platform(repos, harvest_pin().replace(HARVESTED, outside))
        err = refused_before_any_message(root)
        assert "`harvests.decisions.at`" in err and "is outside this repository" in err
        ran = hw("check", "--root", str(root), "--now", DATE)
        assert ran.status == 1 and ran.out == "" and ran.err == err


def test_an_import_at_path_outside_the_root_is_refused_too(repos):
    root = pinned_platform(repos, import_pin().replace(IMPORTED, "../service/.headwater/anchors.json"))
    assert "`imports.svc.at`" in refused_before_any_message(root)


def test_an_at_path_through_a_symlink_is_refused_before_any_mcp_message_is_read(repos, hw):
    for target in (repos.decisions / ".headwater", repos.platform / ".headwater" / "harvested"):
        root = pinned_platform(repos, harvest_pin().replace(HARVESTED, ".headwater/linked/export.json"))
        os.symlink(target, root / ".headwater" / "linked")
        err = refused_before_any_message(root)
        assert "goes through the symlink `.headwater/linked`" in err
        assert hw("route", "--root", str(root), "anything").status == 1


def test_a_pin_entry_that_does_not_read_stops_the_server(repos):
    for pins in ("harvests:\n  decisions: [a, b]\n", "harvests: [decisions]\n",
                 "harvests:\n  decisions:\n    digest: sha256:00\n",
                 "harvests:\n  decisions:\n    at: x.json\n    channel: nightly\n",
                 harvest_pin() + "imports:\n  decisions:\n    digest: sha256:00\n",
                 harvest_pin() + "    here: src/app.py\n"):
        refused_before_any_message(pinned_platform(repos, pins))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                              st.sampled_from(["graph", "documents", "edges", "anchors", "files", "path", "id",
                                               "kind", "digest", "target", "bound", "patterns", "source",
                                               "headwater:generated", "export_version", "anchors_version"]),
                              inner, max_size=4), max_leaves=12))
def test_any_json_at_a_pin_binds_or_is_unread_and_never_raises(tmp_path, value):
    from headwater.federation.formats import ANCHORS, EXPORT, MARKER
    from headwater.federation.pinned import read_federation
    from headwater.hashing import digest
    from headwater.taxonomy.pins import Family, Pin

    for family, marker, version in ((Family.HARVEST, EXPORT, "export_version"), (Family.IMPORT, ANCHORS,
                                                                                 "anchors_version")):
        shaped = {MARKER: marker, version: "1", **value} if isinstance(value, dict) else value
        data = json.dumps(shaped).encode()
        (tmp_path / "pin.json").write_bytes(data)
        pin = Pin(family, "x", "pin.json", digest(data), None, 1, 1)
        federation = read_federation(tmp_path, (pin,))
        assert len(federation.pinned) + len(federation.unread) == 1


def test_a_deeply_nested_file_at_a_pin_is_unread_not_a_crash(tmp_path):
    from headwater.federation.pinned import read_federation
    from headwater.hashing import digest
    from headwater.taxonomy.pins import Family, Pin

    data = b"[" * 100_000 + b"]" * 100_000
    (tmp_path / "pin.json").write_bytes(data)
    [unread] = read_federation(tmp_path, (Pin(Family.HARVEST, "x", "pin.json", digest(data), None, 1, 1),)).unread
    assert "is not a headwater export" in unread.reason


def test_the_stdio_server_loads_the_pins_at_start_up_and_answers_across_repositories(repos):
    call = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "governing_docs_for_path", "arguments": {"path": "src/app.py"}}})
    process = subprocess.run([*HEADWATER, "mcp", "--root", str(repos.service), "--now", DATE],
                             input=(INITIALIZE + "\n" + call + "\n").encode(), capture_output=True, timeout=60)
    assert process.returncode == 0, process.stderr
    answer = json.loads(process.stdout.splitlines()[1])["result"]["structuredContent"]
    assert [(p["id"], p["corpus"], p["harvested"]) for p in answer["pointers"]] == [("ACME-DR-0001", "decisions", True)]


def test_an_import_and_a_harvest_of_one_name_are_refused_at_the_lines_that_declare_them(repos, hw):
    root = pinned_platform(repos, harvest_pin() + "imports:\n  decisions:\n    digest: sha256:00\n")
    text = (root / ".headwater" / "taxonomy.yml").read_text(encoding="utf-8").splitlines()
    lines = [n for n, line in enumerate(text, start=1) if line == "  decisions:"]
    ran = hw("check", "--root", str(root), "--now", DATE)
    assert ran.status == 1 and len(lines) == 2
    assert ran.err.startswith(f"headwater: .headwater/taxonomy.yml lines {lines[0]} and {lines[1]}: "
                              "`harvests.decisions` and `imports.decisions` both name the corpus `decisions`")
    assert "give one of them another name" in ran.err


@pytest.mark.parametrize("version", ["2", "0"])
def test_an_export_of_a_version_this_headwater_does_not_read_says_which_it_reads(repos, hw, version):
    export = repos.export.replace('"export_version": "1"', f'"export_version": "{version}"', 1)
    write(repos.platform, platform_spec(export, repos.anchors))
    [unread] = [f for f in check(hw, repos.platform) if f["rule"] == "harvest.pin.unread"]
    assert unread["message"] == (
        f"`harvests.decisions` binds nothing: {HARVESTED} is a headwater export of version \"{version}\", which "
        "this headwater does not read (it reads version \"1\"); pin a copy written in that version")


def test_strict_check_of_a_service_with_pins_and_no_documents_judges_its_pins(repos, hw):
    for _ in range(2):  # the run, then (when the run was kept) its replay
        ran = hw("check", "--root", str(repos.service), "--now", DATE, "--strict")
        assert ran.status == 0 and "no document is classified" not in ran.err
    spec = pinned_service(repos.export, repos.anchors)
    spec["pins"] = spec["pins"].replace("DIGEST(.headwater/harvested/decisions.json)", WRONG)
    write(repos.service, spec)
    ran = hw("check", "--root", str(repos.service), "--now", DATE, "--strict")
    assert ran.status == 1 and "harvest.pin.unread" in ran.out and "no document is classified" not in ran.err
