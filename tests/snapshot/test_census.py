"""The census: every file under the corpus root gets exactly one row with one outcome."""

import os
from pathlib import Path

import pytest

from headwater import observed
from headwater.clock import run_date
from headwater.corpus import census as census_module
from headwater.corpus.census import Outcome
from headwater.corpus.walk import EntryKind, walk
from headwater.hashing import digest
from headwater.snapshot import load

TODAY = run_date("2026-11-01")

DECISION = """---
id: ACME-DR-00{n}
status: current
status_since: 2026-10-01
summary: "A decision."
last_verified: 2026-10-01
---

# A decision
"""


def pathological(repo: Path) -> dict[str, Outcome]:
    """A walk tree holding what git cannot: built at run time. Returns the expected outcomes."""
    docs = repo / "docs"
    decisions = docs / "decisions"
    decisions.mkdir(parents=True)
    outside = repo.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.md").write_text("---\nid: SECRET\n---\n")
    (decisions / "0001-typed.md").write_text(DECISION.format(n="01"))
    (decisions / "0002-bom.md").write_bytes(b"\xef\xbb\xbf" + DECISION.format(n="02").encode())
    (decisions / "0003-crlf.md").write_bytes(DECISION.format(n="03").replace("\n", "\r\n").encode())
    (decisions / "0004-big.md").write_text(DECISION.format(n="04") + ("words " * 20 + "\n") * 80_000)
    (decisions / "no-front-matter.md").write_text("# Just a heading\n")
    (decisions / "unterminated.md").write_text("---\nid: X\n")
    (decisions / "not-a-mapping.md").write_text("---\n- a\n- b\n---\n")
    (decisions / "duplicate-key.md").write_text("---\nid: A\nid: B\n---\n")
    (decisions / "latin1.md").write_bytes(b"---\nid: caf\xe9\n---\n")
    (decisions / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (docs / ".hidden.md").write_text("hidden but walked\n")
    (docs / "archive").mkdir()
    (docs / "archive" / "old.md").write_text("# old\n")
    os.symlink("0001-typed.md", decisions / "link-to-file.md")
    os.symlink(decisions, docs / "link-to-dir")
    os.symlink(outside, docs / "link-out")
    os.symlink(outside / "secret.md", docs / "link-out-file.md")
    os.symlink("loop-b", docs / "loop-a")
    os.symlink("loop-a", docs / "loop-b")
    os.symlink("nowhere.md", docs / "broken.md")
    os.mkfifo(docs / "a-fifo.md")
    (docs / os.fsdecode(b"bad-\xff-name.md")).write_text("x\n")
    (docs / "locked").mkdir()
    (docs / "locked" / "inside.md").write_text("x\n")
    return {
        "docs/decisions/0001-typed.md": Outcome.TYPED,
        "docs/decisions/0002-bom.md": Outcome.TYPED,
        "docs/decisions/0003-crlf.md": Outcome.TYPED,
        "docs/decisions/0004-big.md": Outcome.TYPED,
        "docs/decisions/no-front-matter.md": Outcome.UNTYPED,
        "docs/decisions/unterminated.md": Outcome.UNREADABLE,
        "docs/decisions/not-a-mapping.md": Outcome.UNREADABLE,
        "docs/decisions/duplicate-key.md": Outcome.UNREADABLE,
        "docs/decisions/latin1.md": Outcome.UNREADABLE,
        "docs/decisions/picture.png": Outcome.NOT_A_DOCUMENT,
        "docs/decisions/link-to-file.md": Outcome.UNWALKABLE,
        "docs/.hidden.md": Outcome.UNTYPED,
        "docs/archive/old.md": Outcome.EXCLUDED,
        "docs/link-to-dir": Outcome.UNWALKABLE,
        "docs/link-out": Outcome.UNWALKABLE,
        "docs/link-out-file.md": Outcome.UNWALKABLE,
        "docs/loop-a": Outcome.UNWALKABLE,
        "docs/loop-b": Outcome.UNWALKABLE,
        "docs/broken.md": Outcome.UNWALKABLE,
        "docs/a-fifo.md": Outcome.UNWALKABLE,
        "docs/bad-\\xff-name.md": Outcome.UNWALKABLE,
        "docs/locked": Outcome.UNWALKABLE,
    }


@pytest.fixture
def walked(quickstart, monkeypatch):
    """The quickstart's lock over a pathological tree; `docs/locked` cannot be listed."""
    import shutil

    shutil.rmtree(quickstart / "docs")
    expected = pathological(quickstart)
    real_scandir = os.scandir

    def scandir(path):
        if os.fsencode(path).endswith(b"docs/locked"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    opened: list[Path] = []
    real_read = census_module.read_regular

    def read(name, directory):  # a name in the folder the census opened (HW-DR-0045)
        opened.append(Path(os.readlink(f"/proc/self/fd/{directory}")) / name)
        return real_read(name, directory)

    monkeypatch.setattr(census_module, "read_regular", read)
    snapshot = load(quickstart, TODAY)
    return snapshot, expected, opened, quickstart


def test_every_pathology_lands_in_the_outcome_the_spec_names(walked):
    snapshot, expected, _, _ = walked
    outcomes = {row.path: row.outcome for row in snapshot.census.rows}
    assert outcomes == expected


def test_every_file_gets_exactly_one_row_sorted_by_path_bytes(walked):
    snapshot, expected, _, _ = walked
    paths = [row.path for row in snapshot.census.rows]
    assert len(paths) == len(set(paths)) == len(expected)
    raw = [os.fsencode(p.replace("\\xff", "\udcff")) for p in paths]
    assert raw == sorted(raw)


def test_each_row_that_is_not_typed_states_its_reason(walked):
    snapshot, _, _, _ = walked
    rows = snapshot.census.by_path
    assert all(r.reason for r in snapshot.census.rows if r.outcome is not Outcome.TYPED)
    assert rows["docs/decisions/unterminated.md"].reason.endswith("is never closed")
    assert "line 3" in rows["docs/decisions/duplicate-key.md"].reason
    assert rows["docs/decisions/no-front-matter.md"].reason == "no front matter, so nobody has typed this file"
    assert "symlink" in rows["docs/link-out"].reason
    assert "could not read" in rows["docs/locked"].reason
    assert rows["docs/archive/old.md"].reason.startswith("excluded by `docs/archive/**`")
    # `---\nid: caf\xe9`: where an editor would find the byte, not a bare offset read as a byte's value
    assert rows["docs/decisions/latin1.md"].reason == (
        "not UTF-8 text: the byte 0xe9 at line 2, column 8 (offset 11) cannot be decoded; save the file as UTF-8")


def test_nothing_outside_the_root_is_read_and_no_symlink_or_pipe_is_opened(walked):
    _, _, opened, root = walked
    assert opened, "the census read the documents"
    for path in opened:
        resolved = path.resolve()
        assert resolved.is_relative_to(root.resolve())
        assert not path.is_symlink() and not path.is_fifo()


def test_a_typed_row_records_its_derivation(walked):
    snapshot, _, _, _ = walked
    row = snapshot.census.by_path["docs/decisions/0002-bom.md"]
    assert row.kind == "decision"
    assert row.derivation == (
        "shelf `decisions` matched on `docs/decisions/**`",
        "`decisions` is homogeneous, so placement carries the kind `decision`",
    )
    assert row.document.id == "ACME-DR-0002" and row.reason == ""
    assert (row.document.path, row.document.body_text) == (row.path, "\n# A decision\n")


def test_a_missing_corpus_root_is_a_row_rather_than_an_empty_census(quickstart):
    import shutil

    shutil.rmtree(quickstart / "docs")
    snapshot = load(quickstart, TODAY)
    (row,) = snapshot.census.rows
    assert row.path == "docs" and row.outcome is Outcome.UNWALKABLE
    assert row.reason == "a corpus root that does not exist"


def test_tied_shelves_leave_a_file_untyped_and_say_so(quickstart, hw):
    overlay = quickstart / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text() + "  shelves.twins:\n    path: docs/decisions/**\n"
                       "    homogeneous: true\n    kind: specification\n")
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    row = load(quickstart, TODAY).census.by_path["docs/decisions/0002-deliver-at-least-once.md"]
    assert row.outcome is Outcome.UNTYPED and "tie is not a coin flip" in row.reason


def test_a_heterogeneous_shelf_reads_the_discriminator(quickstart, hw):
    declaration = quickstart / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace("bundles: []", "bundles: [diataxis]"))
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    guides = quickstart / "docs/guides"
    guides.mkdir()
    (guides / "a.md").write_text("---\ndoc_type: how_to\n---\n")
    (guides / "b.md").write_text("---\ntitle: x\n---\n")
    (guides / "c.md").write_text("---\ndoc_type: novel\n---\n")
    rows = load(quickstart, TODAY).census.by_path
    assert rows["docs/guides/a.md"].kind == "how_to"
    assert rows["docs/guides/a.md"].derivation == (
        "shelf `guides` matched on `docs/guides/**`",
        "`guides` is heterogeneous, and `doc_type: how_to` names the kind `how_to`")
    assert "declares no `doc_type`" in rows["docs/guides/b.md"].reason
    assert rows["docs/guides/c.md"].reason == ("`doc_type: novel` is not a kind the shelf `guides` carries "
                                               "(tutorial, how_to, reference, explanation)")


def test_the_quickstart_census(quickstart):
    snapshot = load(quickstart, TODAY)
    assert snapshot.census.root == "docs"
    labels = {row.path: row.label for row in snapshot.census.rows}
    assert labels == {
        "docs/archive/old-plan.md": "excluded",
        "docs/decisions/0001-store-attempts-in-postgres.md": "typed decision",
        "docs/decisions/0002-deliver-at-least-once.md": "typed decision",
        "docs/decisions/0003-rate-limit-per-tenant.md": "typed decision",
        "docs/notes/meeting-2026-09.md": "untyped",
        "docs/specifications/ingest-api.md": "typed specification",
        "docs/specifications/queue-retries.md": "typed specification",
    }


def test_a_corpus_rooted_at_the_top_lists_no_cache_file_so_a_warm_run_prints_what_a_cold_one_does(quickstart, hw):
    declaration = quickstart / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace("root: docs", "root: ."))
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    check = ("check", "--root", str(quickstart), "--now", "2026-11-01")
    cold = hw(*check, "--no-cache").out
    hw(*check)  # keeps the cache the next run reads
    assert (quickstart / ".headwater/cache").is_dir() and hw(*check).out == cold
    assert ".headwater/cache" not in cold


@pytest.mark.parametrize(("data", "line", "column", "offset"), [
    (b"\ncaf\xe9\n", 2, 4, 4),  # the one line break before the byte opens the file
    (b"# T\n\nna\xefve\n", 3, 3, 7),  # the last of two line breaks before it starts its line
])
def test_an_undecodable_byte_is_placed_at_its_own_line_and_column(quickstart, data, line, column, offset):
    (quickstart / "docs/decisions/0009-latin1.md").write_bytes(data)
    row = load(quickstart, TODAY).census.by_path["docs/decisions/0009-latin1.md"]
    assert row.outcome is Outcome.UNREADABLE and row.reason == (
        f"not UTF-8 text: the byte 0x{data[offset]:02x} at line {line}, column {column} (offset {offset}) "
        "cannot be decoded; save the file as UTF-8")


def test_an_untyped_file_with_front_matter_keeps_its_document_whether_no_shelf_or_two_claim_it(quickstart, hw):
    (quickstart / "docs/notes/loose.md").write_text("---\ntitle: Loose\n---\n\n# Loose\n")
    overlay = quickstart / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text() + "  shelves.twins:\n    path: docs/decisions/**\n"
                       "    homogeneous: true\n    kind: specification\n")
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    census = load(quickstart, TODAY).census
    loose = census.by_path["docs/notes/loose.md"]
    tied = census.by_path["docs/decisions/0001-store-attempts-in-postgres.md"]
    assert (loose.outcome, loose.reason) == (Outcome.UNTYPED, "no shelf pattern claims this path")
    assert (tied.outcome, tied.reason) == (
        Outcome.UNTYPED, "shelves `decisions` and `twins` claim it equally, and a tie is not a coin flip")
    for row in (loose, tied):
        data = (quickstart / row.path).read_bytes()
        assert (row.document.path, row.document.digest) == (row.path, digest(data))
    assert loose.document.kind is None and loose.document.text_of("title") == "Loose"
    assert (loose.document.body_text, loose.document.body_line) == ("\n# Loose\n", 4)
    assert tied.document.kind is None and tied.document.id == "ACME-DR-0001"
    assert tied.document.body_text.startswith("\n# Store attempts in Postgres") and tied.document.body_line == 13
    assert loose.document in census.parsed and loose.document not in census.documents


def test_the_census_counts_each_outcome(quickstart):
    census = load(quickstart, TODAY).census
    counts = {outcome: census.count(outcome) for outcome in Outcome}
    assert counts == {Outcome.UNWALKABLE: 0, Outcome.EXCLUDED: 1, Outcome.NOT_A_DOCUMENT: 0, Outcome.UNREADABLE: 0,
                      Outcome.UNTYPED: 1, Outcome.TYPED: 5}


def test_a_file_classified_on_its_own_finds_its_front_and_its_body(quickstart):
    classifier = census_module.Classifier(load(quickstart, TODAY).taxonomy)
    row = classifier.classify("docs/decisions/0009-x.md", DECISION.format(n="09") + "\nBody.\n", "")
    assert row.outcome is Outcome.TYPED and row.document.id == "ACME-DR-0009"
    assert (row.document.body_text, row.document.body_line) == ("\n# A decision\n\nBody.\n", 8)
    assert [shelf.name for shelf in classifier.matching_shelves("docs/decisions/0009-x.md")] == ["decisions"]


def test_a_file_a_heterogeneous_shelf_cannot_type_keeps_its_document_and_the_derivation_up_to_why_not(quickstart, hw):
    declaration = quickstart / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace("bundles: []", "bundles: [diataxis]"))
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    (quickstart / "docs/guides").mkdir()
    (quickstart / "docs/guides/b.md").write_text("---\ntitle: x\n---\n\n# B\n")
    row = load(quickstart, TODAY).census.by_path["docs/guides/b.md"]
    assert (row.outcome, row.kind) == (Outcome.UNTYPED, None)
    assert row.reason == "the shelf `guides` is heterogeneous and the document declares no `doc_type`"
    assert row.derivation == ("shelf `guides` matched on `docs/guides/**`",)
    assert (row.document.path, row.document.kind, row.document.body_text) == ("docs/guides/b.md", None, "\n# B\n")
    assert row.document.body_line == 4
    assert row.document.text_of("title") == "x"
    assert row.document.digest == digest((quickstart / "docs/guides/b.md").read_bytes())


@pytest.mark.parametrize(("text", "written"), [
    ("+++\ntitle = \"x\"\n+++\n", "TOML (between `+++` lines)"),
    ('{\n  "title": "x"\n}\n', "JSON (an object opening on line 1)"),
    ("# No front matter\n", None)])
def test_a_file_on_a_shelf_without_yaml_front_matter_says_why_and_keeps_the_shelf_it_matched(quickstart, text, written):
    (quickstart / "docs/decisions/0009-other.md").write_text(text)
    row = load(quickstart, TODAY).census.by_path["docs/decisions/0009-other.md"]
    assert (row.outcome, row.document) == (Outcome.UNTYPED, None)
    assert row.derivation == ("shelf `decisions` matched on `docs/decisions/**`",)
    assert row.reason == (f"its front matter is written in {written}, which headwater does not read; write it as "
                          "YAML between `---` lines" if written else "no front matter, so nobody has typed this file")


def test_each_unwalkable_row_says_what_the_walk_found_there(walked):
    snapshot, _, _, _ = walked
    reasons = {row.path: row.reason for row in snapshot.census.rows if row.outcome is Outcome.UNWALKABLE}
    assert reasons["docs/broken.md"] == "a symlink, which the walk does not follow (it points at `nowhere.md`)"
    assert reasons["docs/loop-a"] == "a symlink, which the walk does not follow (it points at `loop-b`)"
    assert reasons["docs/a-fifo.md"] == "a special file (a pipe, socket or device), which the walk never opens"
    assert reasons["docs/bad-\\xff-name.md"] == "a name that is not UTF-8"
    assert reasons["docs/locked"] == "a directory the walk could not read"


def test_a_git_folder_at_any_depth_is_never_walked_and_a_name_merely_like_it_is(quickstart, hw):
    declaration = quickstart / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace("root: docs", "root: ."))
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    for git in (quickstart / ".git", quickstart / "docs/vendored/.git"):
        git.mkdir(parents=True)
        (git / "HEAD").write_text("ref: refs/heads/main\n")
    (quickstart / "docs/vendored/.gitignore").write_text("*.tmp\n")
    (quickstart / ".github").mkdir()
    (quickstart / ".github/README.md").write_text("# CI\n")
    paths = {row.path for row in load(quickstart, TODAY).census.rows}
    assert not any(".git/" in path for path in paths)
    assert {"docs/vendored/.gitignore", ".github/README.md"} <= paths


def test_a_shelf_that_reads_the_file_name_types_only_the_names_it_takes(quickstart, hw):
    declaration = quickstart / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace("root: docs", "root: ."))
    overlay = quickstart / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text() + "  shelves.minutes:\n    path: docs/notes/meeting-*\n"
                       "    homogeneous: true\n    kind: specification\n"
                       "  shelves.overview:\n    path: OVERVIEW.md\n    homogeneous: true\n    kind: specification\n")
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    front = DECISION.replace("ACME-DR-", "ACME-SPEC-")
    (quickstart / "docs/notes/meeting-2026-09.md").write_text(front.format(n="07"))
    (quickstart / "docs/notes/agenda.md").write_text(front.format(n="08"))
    (quickstart / "docs/notes/meeting-archive").mkdir()  # a folder the pattern takes: what is in it, it does not
    (quickstart / "docs/notes/meeting-archive/old.md").write_text(front.format(n="10"))
    (quickstart / "OVERVIEW.md").write_text(front.format(n="09"))
    rows = load(quickstart, TODAY).census.by_path
    assert (rows["docs/notes/meeting-2026-09.md"].outcome, rows["docs/notes/meeting-2026-09.md"].kind) == (
        Outcome.TYPED, "specification")
    assert rows["docs/notes/meeting-2026-09.md"].derivation[0] == "shelf `minutes` matched on `docs/notes/meeting-*`"
    for untyped in ("docs/notes/agenda.md", "docs/notes/meeting-archive/old.md"):
        assert (rows[untyped].outcome, rows[untyped].reason) == (Outcome.UNTYPED, "no shelf pattern claims this path")
    assert (rows["OVERVIEW.md"].outcome, rows["OVERVIEW.md"].kind) == (Outcome.TYPED, "specification")


def test_a_typed_document_reads_its_identifier_under_the_key_its_kind_names(quickstart, hw):
    overlay = quickstart / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text()
                       + '  identifier_schemes.eip_id: {pattern: "{seq}", allocation: reconcile-first}\n'
                       "  kinds.proposal:\n    is_a: governed_document\n    purpose: behavior\n"
                       "    identifier: {scheme: eip_id, key: eip}\n"
                       "  shelves.eips: {path: docs/eips/**, homogeneous: true, kind: proposal}\n")
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0, "resolve"
    (quickstart / "docs/eips").mkdir()
    (quickstart / "docs/eips/eip-1559.md").write_text(DECISION.replace("id: ACME-DR-00{n}", "eip: 1559"))
    row = load(quickstart, TODAY).census.by_path["docs/eips/eip-1559.md"]
    assert (row.outcome, row.kind, row.document.id) == (Outcome.TYPED, "proposal", "1559")


def test_the_walk_announces_each_folder_it_lists_and_each_link_it_reads_to_the_recorder(tmp_path):
    (tmp_path / "docs/sub").mkdir(parents=True)
    (tmp_path / "docs/sub/a.md").write_text("# A\n")
    os.symlink("sub/a.md", tmp_path / "docs/link.md")
    with observed.Recorder(observed.Scope(())) as recorder:
        walk(tmp_path, "docs")
    assert recorder.noted[observed.LISTED] == {str(tmp_path / "docs"), str(tmp_path / "docs/sub")}
    assert recorder.noted[observed.PROBED] == {str(tmp_path / "docs"), str(tmp_path / "docs/link.md")}


def test_a_link_to_a_name_that_is_not_utf8_is_a_row_showing_the_name_escaped(tmp_path):
    (tmp_path / "docs").mkdir()
    os.symlink(b"caf\xe9.md", os.fsencode(tmp_path / "docs/link.md"))
    (entry,) = walk(tmp_path, "docs")
    assert (entry.path, entry.kind, entry.detail) == ("docs/link.md", EntryKind.SYMLINK, "caf\\xe9.md")


class _Unreadable:
    """A listing's entry whose type cannot be read: gone, or denied, between the listing and the look."""

    def __init__(self, entry: os.DirEntry) -> None:
        self.name, self.path = entry.name, entry.path

    def _refuse(self, **_: object) -> bool:
        raise PermissionError(13, "Permission denied")

    is_symlink = is_dir = is_file = _refuse


def test_an_entry_whose_type_cannot_be_read_is_still_a_row(quickstart, monkeypatch):
    real = os.scandir

    class Listing:
        def __init__(self, path) -> None:
            self.listing = real(path)

        def __enter__(self):
            return [_Unreadable(e) if e.name == b"ingest-api.md" else e for e in self.listing.__enter__()]

        def __exit__(self, *exc) -> None:
            self.listing.__exit__(*exc)

    monkeypatch.setattr(os, "scandir", Listing)
    rows = load(quickstart, TODAY).census.by_path
    row = rows["docs/specifications/ingest-api.md"]
    assert (row.outcome, row.reason) == (Outcome.UNWALKABLE, census_module.UNWALKABLE_REASONS[EntryKind.SPECIAL])
    assert rows["docs/specifications/queue-retries.md"].outcome is Outcome.TYPED


def test_every_file_the_census_opened_and_only_those_are_announced_to_the_recorder(quickstart):
    (quickstart / "docs/decisions/0009-latin1.md").write_bytes(b"caf\xe9\n")
    with observed.Recorder(observed.Scope(())) as recorder:
        load(quickstart, TODAY)
    docs = str(quickstart / "docs")
    assert {path for path in recorder.noted[observed.OPENED] if path.startswith(docs)} == {
        str(quickstart / path) for path in (
            "docs/decisions/0001-store-attempts-in-postgres.md", "docs/decisions/0002-deliver-at-least-once.md",
            "docs/decisions/0003-rate-limit-per-tenant.md", "docs/decisions/0009-latin1.md",
            "docs/notes/meeting-2026-09.md", "docs/specifications/ingest-api.md",
            "docs/specifications/queue-retries.md")}


def test_an_empty_corpus_root_is_an_empty_census(quickstart):
    import shutil

    shutil.rmtree(quickstart / "docs")
    (quickstart / "docs").mkdir()
    assert load(quickstart, TODAY).census.rows == ()


@pytest.mark.parametrize("piece", [1, 2, 7])  # the corpus's seven files: a piece each, pieces of two, one piece
def test_a_corpus_read_in_pieces_that_divide_it_exactly_is_read_whole(quickstart, monkeypatch, piece):
    whole = load(quickstart, TODAY).census
    monkeypatch.setattr(census_module, "PIECE", piece)
    assert load(quickstart, TODAY).census == whole and len(whole.rows) == 7


def test_an_excluded_or_foreign_file_says_which(quickstart):
    (quickstart / "docs/notes/diagram.png").write_bytes(b"\x89PNG\r\n")
    rows = load(quickstart, TODAY).census.by_path
    archived = rows["docs/archive/old-plan.md"]
    assert (archived.outcome, archived.exclusion.pattern) == (Outcome.EXCLUDED, "docs/archive/**")
    assert (rows["docs/notes/diagram.png"].outcome, rows["docs/notes/diagram.png"].reason) == (
        Outcome.NOT_A_DOCUMENT, "not a Markdown file")
