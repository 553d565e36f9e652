"""`explain` and `show`: every refusal sentence, path spellings, untyped rows, exact bytes."""

import json
import os

import pytest

QS_DECISION = "docs/decisions/0002-deliver-at-least-once.md"


def test_explain_names_kind_derivation_purpose_requirements_and_edges(quickstart, hw):
    ran = hw("explain", "ACME-DR-0002", "--root", str(quickstart))
    assert ran.status == 0 and ran.err == ""
    lines = ran.out.splitlines()
    assert lines[:4] == [QS_DECISION, "  ACME-DR-0002", "  kind decision",
                         "    shelf `decisions` matched on `docs/decisions/**`"]
    assert "  requires the facets status, status_since, summary, last_verified" in lines
    assert "  requires the sections Context, Decision, Consequences" in lines
    assert any(line.startswith("  may declare supersedes to governed_document") for line in lines)
    assert "  to src/queue/** governs [this document governs the reading]" in lines


@pytest.mark.parametrize("spelling", ["./" + QS_DECISION, "docs/x/../decisions/0002-deliver-at-least-once.md",
                                      "ABSOLUTE"])
def test_a_path_typed_any_way_answers_as_its_plain_form(quickstart, hw, spelling):
    if spelling == "ABSOLUTE":
        spelling = str(quickstart / QS_DECISION)
    plain = hw("explain", QS_DECISION, "--root", str(quickstart))
    typed = hw("explain", spelling, "--root", str(quickstart))
    assert plain.status == typed.status == 0 and typed.err == ""
    assert typed.out.startswith(QS_DECISION + "\n") and typed.out == plain.out


@pytest.mark.parametrize(
    ("argument", "sentence"),
    [
        ("ACME-DR-0099", "`ACME-DR-0099` is shaped like an identifier of this corpus, and no document declares it"),
        ("docs/decisions/0099-nothing.md",
         "`docs/decisions/0099-nothing.md` is a path of this corpus, with no document written there yet"),
        ("docs/archive/old-plan.md",
         "`docs/archive/old-plan.md` is excluded by `docs/archive/**`: frozen material we no longer govern"),
        ("src/queue/retry.py", "`src/queue/retry.py` is outside every corpus root this repository declares"),
        ("FOO-1", "`FOO-1` names no document: no document declares it, and no file is named so"),
        ("acme-dr-0001", "`acme-dr-0001` names no document; did you mean ACME-DR-0001?"),
        ("../elsewhere.md", "../elsewhere.md is outside this repository, or is not a path it can read"),
        ("/etc/passwd", "/etc/passwd is outside this repository, or is not a path it can read"),
        (" ", "the target is empty: name a document by its identifier or its path"),
        ("./", "`./` is the repository's root, not a document"),
        ("docs/decisions", "`docs/decisions` is a folder, not a document: name one of the documents in it"),
        ("src", "`src` is a folder, not a document: name one of the documents in it"),
    ],
)
@pytest.mark.parametrize("verb", [["explain"], ["explain", "--json"], ["show"]])
def test_each_refusal_is_one_sentence_and_nothing_on_stdout(quickstart, hw, argument, sentence, verb):
    ran = hw(*verb, argument, "--root", str(quickstart))
    assert (ran.status, ran.out, ran.err) == (1, "", f"headwater: {sentence}\n")


def test_a_symlink_leading_out_is_outside_the_repository(quickstart, tmp_path, hw):
    (tmp_path / "secret").mkdir()
    os.symlink(tmp_path / "secret", quickstart / "docs" / "out")
    ran = hw("explain", "docs/out/x.md", "--root", str(quickstart))
    assert ran.err == "headwater: docs/out/x.md is outside this repository, or is not a path it can read\n"


def test_a_row_the_walk_could_not_read_is_refused_with_its_reason(quickstart, hw):
    os.symlink("gone.md", quickstart / "docs/decisions/alias.md")  # to no document: nothing to name instead
    ran = hw("explain", "docs/decisions/alias.md", "--root", str(quickstart))
    assert ran.status == 1
    assert ran.err.startswith("headwater: `docs/decisions/alias.md` is a symlink, which the walk does not follow")
    assert ran.err.endswith("so `explain` prints nothing\n")


def test_an_untyped_row_is_explained_with_its_reason(quickstart, hw):
    ran = hw("explain", "docs/notes/meeting-2026-09.md", "--root", str(quickstart))
    assert ran.out == ("docs/notes/meeting-2026-09.md\n  no kind, so nothing is required of it\n"
                       "    no shelf pattern claims this path\n")


def test_explain_json_keeps_the_documented_member_order_and_no_nulls(quickstart, hw):
    ran = hw("explain", "ACME-SPEC-0001", "--json", "--root", str(quickstart))
    shape = json.loads(ran.out)
    assert list(shape) == ["version", "path", "id", "kind", "derivation", "purpose", "summary", "warrant",
                           "facets", "sections", "permitted", "related"]
    assert "null" not in ran.out
    cue = shape["related"][1]
    assert cue["cue"] == "why a duplicate delivery is acceptable" and cue["cue_is_declared"] is True


def test_show_prints_the_bytes_exactly(quickstart, capsysbinary):
    from headwater.cli.main import main

    path = quickstart / QS_DECISION
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n") + "café\r\n".encode())
    capsysbinary.readouterr()
    assert main(["show", "ACME-DR-0002", "--root", str(quickstart)]) == 0
    assert capsysbinary.readouterr().out == path.read_bytes()


def test_an_explain_in_another_process_with_another_hash_seed_is_byte_identical(quickstart, hw):
    from tests.conftest import hw_process

    here = hw("explain", "ACME-DR-0001", "--root", str(quickstart))
    elsewhere = hw_process("explain", "ACME-DR-0001", "--root", str(quickstart), hash_seed="4242")
    assert here.status == elsewhere.status == 0 and here.err == elsewhere.err == ""
    assert "ACME-DR-0001" in here.out and here.out == elsewhere.out


def test_show_prints_the_bytes_of_a_file_whose_front_matter_does_not_load_and_explain_says_why_it_cannot(
        quickstart, hw):
    path = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    broken = path.read_bytes().replace(b"id: ACME-DR-0003", b"id: [ACME-DR-0003", 1)
    path.write_bytes(broken)
    shown = hw("show", "docs/decisions/0003-rate-limit-per-tenant.md", "--root", str(quickstart))
    assert shown.status == 0 and shown.out.encode("utf-8") == broken
    ran = hw("explain", "docs/decisions/0003-rate-limit-per-tenant.md", "--root", str(quickstart))
    assert ran.status == 1 and ran.err == (
        "headwater: `docs/decisions/0003-rate-limit-per-tenant.md` could not be read as a document (front matter "
        "line 3: did not find expected ',' or ']'), so `explain` prints nothing; `headwater show` prints its bytes\n")


@pytest.mark.parametrize("verb", ["explain", "related", "show"])
def test_a_folder_holding_one_document_is_refused_naming_that_document(quickstart, hw, verb):
    """A KEP is known by its folder (`/keps/sig-node/2221-remove-dockershim` is how KEPs link to
    one), and `explain` of it said only to name one of the documents in it."""
    folder = quickstart / "docs/decisions/0007-own-folder"
    folder.mkdir()
    (folder / "README.md").write_text("# Own folder\n")
    (folder / "kep.yaml").write_text("title: x\n")
    ran = hw(verb, "docs/decisions/0007-own-folder/", "--root", str(quickstart))
    assert (ran.status, ran.out) == (1, "")
    assert ran.err == ("headwater: `docs/decisions/0007-own-folder/` is a folder, not a document: name the one "
                       "document in it, `docs/decisions/0007-own-folder/README.md`\n")


@pytest.mark.parametrize("verb", ["explain", "related", "show"])
def test_a_symlink_to_a_document_is_refused_naming_that_document(quickstart, hw, verb):
    """kubernetes/enhancements keeps a KEP's old name as a link to its folder
    (`keps/sig-release/20190121-artifact-management.md` → `1732-artifact-management/README.md`)."""
    os.symlink("0002-deliver-at-least-once.md", quickstart / "docs/decisions/old-name.md")
    ran = hw(verb, "docs/decisions/old-name.md", "--root", str(quickstart))
    assert (ran.status, ran.out) == (1, "")
    assert ran.err == ("headwater: `docs/decisions/old-name.md` is a symlink, which the walk does not follow (it "
                       f"points at `0002-deliver-at-least-once.md`), so `{verb}` prints nothing; name "
                       "`docs/decisions/0002-deliver-at-least-once.md`, the document it points at\n")
