"""`headwater export`: deterministic bytes, every scalar a string, `--check` for CI, confined writes."""

from __future__ import annotations

import json
import os

from headwater.hashing import digest

EXPORT = ".headwater/export.json"
DESCRIPTOR = ".headwater/corpus.json"


def scalars(value) -> list:
    if isinstance(value, dict):
        return [s for v in value.values() for s in scalars(v)]
    if isinstance(value, list):
        return [s for v in value for s in scalars(v)]
    return [value]


def test_export_twice_writes_the_same_bytes_and_prints_their_digest(quickstart, hw):
    first = hw("export", "--root", str(quickstart))
    exported = (quickstart / EXPORT).read_bytes()
    described = (quickstart / DESCRIPTOR).read_bytes()
    second = hw("export", "--root", str(quickstart))
    assert first.status == second.status == 0 and first.out == second.out
    assert (quickstart / EXPORT).read_bytes() == exported and (quickstart / DESCRIPTOR).read_bytes() == described
    assert first.out.splitlines() == [f"wrote {EXPORT} {digest(exported)}", f"wrote {DESCRIPTOR} {digest(described)}"]


def test_every_scalar_of_the_export_is_a_string_and_a_round_trip_is_exact(quickstart, hw):
    hw("export", "--root", str(quickstart))
    text = (quickstart / EXPORT).read_text(encoding="utf-8")
    document = json.loads(text)
    assert all(isinstance(s, str) for s in scalars(document))
    assert json.dumps(document, indent=2, ensure_ascii=False) + "\n" == text
    assert "2026" not in json.dumps(document["census"]) and "time" not in text.lower()


def test_the_export_holds_the_census_every_document_and_every_edge(quickstart, hw):
    hw("export", "--root", str(quickstart))
    document = json.loads((quickstart / EXPORT).read_text(encoding="utf-8"))
    assert document["census"] == {"accounted for": "7", "unaccounted for": "0", "unwalkable": "0",
                                  "excluded": "1", "not_a_document": "0", "unreadable": "0", "untyped": "1",
                                  "typed": "5"}
    documents = document["graph"]["documents"]
    assert [d["id"] for d in documents][:2] == ["ACME-DR-0001", "ACME-DR-0002"]
    assert set(documents[0]) >= {"path", "kind", "id", "warrant", "facets", "digest"}
    bounds = {e["target"]["bound"] for e in document["graph"]["edges"]}
    assert bounds == {"document", "anchor"}
    anchored = [e for e in document["graph"]["edges"] if e["target"]["bound"] == "anchor"]
    assert all(set(e["target"]) >= {"anchor_kind", "id", "patterns", "matched"} for e in anchored)
    assert {a["path"] for a in document["anchors"]} >= {p for e in anchored for p in e["target"]["matched"]}


def test_the_descriptor_names_root_exclusions_taxonomy_and_an_entry_point_per_shelf(quickstart, hw):
    hw("export", "--root", str(quickstart))
    [corpus] = json.loads((quickstart / DESCRIPTOR).read_text(encoding="utf-8"))["corpora"]
    assert corpus["root"] == "docs" and corpus["excluded"][0]["path"] == "docs/archive/**"
    assert set(corpus["taxonomy"]) == {"package", "version", "lock"}
    assert [e["shelf"] for e in corpus["entry_points"]] == ["decisions", "specifications"]
    assert corpus["exports"] == [{"output": EXPORT, "digest": digest((quickstart / EXPORT).read_bytes())}]


def test_export_check_passes_on_a_fresh_copy_and_exits_1_on_a_stale_one(quickstart, hw):
    hw("export", "--root", str(quickstart))
    assert hw("export", "--root", str(quickstart), "--check").status == 0
    decision = quickstart / "docs" / "decisions" / "0003-rate-limit-per-tenant.md"
    decision.write_text(decision.read_text().replace("summary:", "summary: Newly, "), encoding="utf-8")
    before = (quickstart / EXPORT).read_bytes()
    stale = hw("export", "--root", str(quickstart), "--check")
    assert stale.status == 1 and stale.out == ""
    assert stale.err == (f"headwater: {EXPORT} and {DESCRIPTOR} are not what the corpus exports today; "
                         "run `headwater export` and commit the result\n")
    assert (quickstart / EXPORT).read_bytes() == before


def test_export_check_before_any_export_says_the_files_are_missing_not_stale(quickstart, hw):
    ran = hw("export", "--root", str(quickstart), "--check")
    assert (ran.status, ran.out) == (1, "")
    assert ran.err == (f"headwater: {EXPORT} and {DESCRIPTOR} are missing; run `headwater export` and commit the "
                       "result\n")


def test_export_never_writes_through_a_symlinked_headwater_directory(quickstart, hw, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (quickstart / ".headwater").rename(outside / ".headwater")
    os.symlink(outside / ".headwater", quickstart / ".headwater")
    ran = hw("export", "--root", str(quickstart))
    assert ran.status == 1 and ran.out == "" and "symlink" in ran.err
    assert not (outside / ".headwater" / "export.json").exists()


def test_the_anchors_snapshot_lists_each_matched_file_with_its_revision(quickstart, hw):
    (quickstart / "tools").mkdir()
    (quickstart / "tools" / "a.py").write_text("a = 1\n")
    (quickstart / "tools" / "b.txt").write_text("b\n")
    ran = hw("export", "--root", str(quickstart), "--anchors", "tools/**/*.py")
    snapshot = json.loads((quickstart / ".headwater" / "anchors.json").read_text())
    assert ran.status == 0 and ran.out.startswith("wrote .headwater/anchors.json sha256:")
    assert snapshot["files"] == [{"path": "tools/a.py", "revision": digest(b"a = 1\n").removeprefix("sha256:")}]
    assert hw("export", "--root", str(quickstart), "--anchors", "tools/**/*.py", "--check").status == 0
    for bad in ("../elsewhere/**", "/etc/**", "**/x.py", "tools/**/*.rs"):
        refused = hw("export", "--root", str(quickstart), "--anchors", bad)
        assert refused.status == 1 and refused.out == ""


def test_the_anchors_snapshot_needs_a_root_that_exists_and_no_corpus(tmp_path, hw):
    missing = hw("export", "--root", str(tmp_path / "nowhere"), "--anchors", "src/**")
    assert missing.status == 1 and not (tmp_path / "nowhere").exists()
    (tmp_path / "svc" / "src").mkdir(parents=True)
    (tmp_path / "svc" / "src" / "app.py").write_text("x = 1\n")
    assert hw("export", "--root", str(tmp_path / "svc"), "--anchors", "src/**").status == 0


def test_export_refuses_a_lock_its_sources_moved_past(quickstart, hw):
    overlay = quickstart / ".headwater" / "overlay.yml"
    overlay.write_text(overlay.read_text() + "\n# edited\n", encoding="utf-8")
    ran = hw("export", "--root", str(quickstart))
    assert ran.status == 1 and ran.out == "" and "is stale" in ran.err
    assert not (quickstart / EXPORT).exists()
