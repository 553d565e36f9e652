"""The four report formats: goldens, determinism, SARIF validity and stable fingerprints."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from headwater.render.common import NOTHING_CHECKED
from headwater.render.palette import Palette, strip
from tests.conftest import copy_tree, hw_process

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
FIXTURES = HERE.parents[1] / "corpus_fixtures"
FORMATS = {"text": "txt", "json": "json", "sarif": "sarif", "markdown": "md"}
NOW = ("--now", "2026-11-01", "--no-cache")  # fixtures are read in place: no cache lands in them


@pytest.mark.parametrize("fixture", ["quickstart", "check-all"])
@pytest.mark.parametrize("fmt", list(FORMATS))
def test_each_format_matches_its_golden_file(hw, golden, tmp_path, fixture, fmt):
    # copied out of this repository's work tree, whose folders SARIF would write before each path
    root = copy_tree(FIXTURES / fixture, tmp_path / fixture)
    ran = hw("check", "--root", str(root), *NOW, "--format", fmt)
    assert ran.status == 0 and ran.err == ""
    golden(GOLDEN / f"{fixture}.{FORMATS[fmt]}", ran.out)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_run_in_another_process_with_another_hash_seed_writes_the_same_bytes(hw, fmt):
    here = hw("check", "--root", str(FIXTURES / "check-all"), *NOW, "--format", fmt)
    elsewhere = hw_process("check", "--root", str(FIXTURES / "check-all"), *NOW, "--format", fmt, hash_seed="4242")
    assert here.status == elsewhere.status == 0 and here.err == elsewhere.err == ""
    assert here.out and here.out == elsewhere.out


def test_root_given_from_another_directory_gives_the_same_bytes(hw, monkeypatch, tmp_path):
    monkeypatch.chdir(FIXTURES / "check-all")
    here = hw("check", *NOW, "--format", "sarif")
    monkeypatch.chdir(tmp_path)
    elsewhere = hw_process("check", "--root", str(FIXTURES / "check-all"), *NOW, "--format", "sarif")
    assert here.status == elsewhere.status == 0 and here.err == elsewhere.err == ""
    assert '"results": [' in here.out and here.out == elsewhere.out


def sarif_of(hw, root: Path) -> dict:
    return json.loads(hw("check", "--root", str(root), *NOW, "--format", "sarif").out)


def test_sarif_validates_against_the_sarif_2_1_0_schema(hw):
    schema = json.loads((HERE / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    for fixture in ("quickstart", "check-all"):
        jsonschema.validate(sarif_of(hw, FIXTURES / fixture), schema)


def test_sarif_carries_every_field_github_code_scanning_reads(hw):
    log = sarif_of(hw, FIXTURES / "check-all")
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "headwater" and driver["version"] and driver["semanticVersion"]
    assert driver["informationUri"].startswith("https://")
    for rule in driver["rules"]:
        assert rule["id"] and rule["name"]
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
        assert rule["properties"]["tags"]
    assert "%SRCROOT%" in run["originalUriBaseIds"]
    ids = [r["id"] for r in driver["rules"]]
    assert run["results"]
    for result in run["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note") and result["message"]["text"]
        (location,) = result["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        assert artifact["uriBaseId"] == "%SRCROOT%"
        assert not artifact["uri"].startswith("/") and ":" not in artifact["uri"]
        region = location["physicalLocation"].get("region")
        assert region is None or region["startLine"] >= 1
        assert result["partialFingerprints"]["primaryLocationLineHash"]


def fingerprints(log: dict) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for result in log["runs"][0]["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        out.setdefault((result["ruleId"], uri), []).append(result["partialFingerprints"]["primaryLocationLineHash"])
    return out


def lines(log: dict) -> list[int]:
    return [r["locations"][0]["physicalLocation"].get("region", {}).get("startLine", 0)
            for r in log["runs"][0]["results"]]


def test_editing_unrelated_prose_moves_lines_but_keeps_every_fingerprint(hw, tmp_path):
    root = tmp_path / "repo"
    copy_tree(FIXTURES / "check-all", root)
    before = sarif_of(hw, root)
    for path in sorted((root / "docs" / "decisions").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        text = text.replace("---\n", "---\n# reviewed in the autumn pass\n", 1)
        text = text.replace("\n## ", "\nA new paragraph of unrelated prose.\n\nAnd another.\n\n## ", 1)
        path.write_text(text, encoding="utf-8")
    after = sarif_of(hw, root)
    assert lines(before) != lines(after)
    assert fingerprints(before) == fingerprints(after)


def test_json_has_its_members_in_order_and_no_nulls(hw):
    document = json.loads(hw("check", "--root", str(FIXTURES / "check-all"), *NOW, "--json").out)
    assert list(document) == ["version", "tool", "taxonomy", "clock", "coverage", "rules", "findings"]
    assert document["version"] == "1.1"
    assert "null" not in json.dumps(document)
    limited = json.loads(hw("check", "--root", str(FIXTURES / "check-all"), *NOW, "--json", "--limit", "3").out)
    assert list(limited)[-2:] == ["findings", "omitted"] and limited["omitted"] == len(document["findings"]) - 3
    assert list(document["coverage"]) == ["seen", "classified", "checked", "instances", "skipped", "skips"]


def test_colour_stripped_gives_the_plain_text_exactly():
    import datetime as dt

    from headwater.check.runner import run
    from headwater.check.shown import Shown
    from headwater.render.text import render_text
    from headwater.snapshot import load

    snapshot = load(FIXTURES / "check-all", dt.date(2026, 11, 1))
    report = run(snapshot)
    painted = render_text(report, Shown.of(snapshot), palette=Palette(True))
    assert "\x1b[" in painted
    assert strip(painted) == render_text(report, Shown.of(snapshot), palette=Palette(False))


def test_text_stays_within_80_columns_and_wide_follows_columns(hw, monkeypatch):
    narrow = hw("check", "--root", str(FIXTURES / "check-all"), *NOW).out
    assert max(len(line) for line in narrow.splitlines()) <= 80
    monkeypatch.setenv("COLUMNS", "200")
    wide = hw("check", "--root", str(FIXTURES / "check-all"), *NOW, "--wide").out
    assert 80 < max(len(line) for line in wide.splitlines()) <= 120


def test_a_corpus_of_only_untyped_files_says_nothing_was_checked_and_where_kinds_live(hw, copy_fixture):
    root = copy_fixture("quickstart")
    shutil.rmtree(root / "docs" / "decisions")
    shutil.rmtree(root / "docs" / "specifications")
    text = hw("check", "--root", str(root), *NOW)
    assert text.status == 0
    assert "docs/notes/meeting-2026-09.md untyped" in text.out
    assert NOTHING_CHECKED in " ".join(text.out.split())
    assert "nothing was checked: no file under the corpus root has a kind; `headwater adopt` types the records " \
           "already on a shelf, and `headwater taxonomy kinds` names the shelf each kind lives on" \
           in " ".join(text.out.split())
    markdown = hw("check", "--root", str(root), *NOW, "--format", "markdown").out
    assert "Nothing was checked: no file under the corpus root has a kind; `headwater adopt` types the records " \
           "already on a shelf, and `headwater taxonomy kinds` names the shelf each kind lives on." in markdown


def test_past_github_s_result_limit_sarif_keeps_the_most_severe_and_a_notification_counts_the_rest(hw, monkeypatch):
    from headwater.render import sarif

    assert sarif.MOST_RESULTS == 25_000  # GitHub rejects a run with more results, and with it every alert
    whole = sarif_of(hw, FIXTURES / "check-all")["runs"][0]
    monkeypatch.setattr(sarif, "MOST_RESULTS", 5)
    log = sarif_of(hw, FIXTURES / "check-all")
    run = log["runs"][0]
    total = len(whole["results"])
    levels = [r["level"] for r in run["results"]]
    assert len(levels) == 5 and set(levels) == {"error"} and total > 5
    [notice] = run["invocations"][0]["toolExecutionNotifications"]
    assert notice["level"] == "warning" and notice["message"]["text"].startswith(
        f"{total - 5} of {total} findings are not in this log: GitHub code scanning takes at most 5 results a run")
    assert run["properties"]["headwater"]["omitted"] == total - 5
    schema = json.loads((HERE / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validate(log, schema)
    assert "toolExecutionNotifications" not in whole["invocations"][0]


def test_a_root_in_a_folder_of_a_git_work_tree_writes_github_s_paths_from_the_work_tree_s_top(hw, tmp_path):
    top = tmp_path / "monorepo"
    root = copy_tree(FIXTURES / "check-all", top / "services" / "docs site")
    (top / ".git").mkdir()  # what git finds a work tree by
    sarif = json.loads(hw("check", "--root", str(root), *NOW, "--format", "sarif").out)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]]
    assert uris and all(uri.startswith("services/docs%20site/") for uri in uris)
    github = hw("check", "--root", str(root), *NOW, "--format", "github").out
    assert github.count("::error file=services/docs site/") == github.count("::error ") > 0
    # the other formats keep their paths at the root
    assert "services/" not in hw("check", "--root", str(root), *NOW, "--format", "json").out
    (top / ".git").rmdir()
    alone = json.loads(hw("check", "--root", str(root), *NOW, "--format", "sarif").out)["runs"][0]["results"]
    assert alone[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uris[0].split("/", 2)[2]
