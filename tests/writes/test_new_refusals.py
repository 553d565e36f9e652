"""Every refusal of `new` is one sentence on stderr, nothing on stdout, exit 1, and no byte written."""

from __future__ import annotations

from pathlib import Path

import pytest

from headwater.hashing import sha256_hex
from headwater.taxonomy.lock import body_of

LOCK = ".headwater/taxonomy.lock"


def _relock(root: Path, old: str, new: str) -> None:
    """Edit the resolved body of the lock and re-seal its digest: a lock `resolve` would refuse to
    write, for the refusals `new` must still make on its own."""
    path = root / LOCK
    text = path.read_text()
    assert old in text
    text = text.replace(old, new, 1)
    head, _, rest = text.partition("  digest: ")
    sealed = '"sha256:' + sha256_hex(body_of(text).encode("utf-8")) + '"'
    path.write_text(head + "  digest: " + sealed + rest[rest.index("\n"):])


def _overlay(hw, root: Path, lines: str) -> None:
    overlay = root / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text() + lines)
    assert hw("taxonomy", "resolve", "--root", str(root)).status == 0


def _no_namespace(hw, root):
    _relock(root, "      allocation: reconcile-first\n      namespace: ACME\n",
            "      allocation: reconcile-first\n")


def _no_scheme(hw, root):
    _overlay(hw, root, "remove:\n  - kinds.specification.identifier\n")


def _no_shelf(hw, root):
    _overlay(hw, root, "remove:\n  - shelves.specifications\n")


def _risk_facet(hw, root):
    _overlay(hw, root, "  facets.risk: {type: string, values: [low, high]}\n"
                       "  kinds.decision.facets: {require: [risk]}\n")


def _climbing_layout(hw, root):
    _relock(root, 'layout: "{seq:04d}-{slug}.md"', 'layout: "../../{seq:04d}-{slug}.md"')


def _area_in_layout(hw, root):
    _overlay(hw, root, "  facets.area: {type: string}\n"
                       "  kinds.decision.facets: {require: [area]}\n"
                       "override:\n"
                       "  shelves.decisions.layout: \"{area}-{seq:04d}-{slug}.md\"\n")


def _area_in_layout_optional(hw, root):
    _overlay(hw, root, "  facets.area: {type: string}\n"
                       "override:\n"
                       "  shelves.decisions.layout: \"{area}-{seq:04d}-{slug}.md\"\n")


def _area_as_a_number(hw, root):
    _overlay(hw, root, "  facets.area: {type: string}\n"
                       "override:\n"
                       "  shelves.decisions.layout: \"{area:02d}-{slug}.md\"\n")


def _two_shelves_of_decisions(hw, root):
    _overlay(hw, root, "  shelves.more_decisions:\n    path: docs/more/**\n    homogeneous: true\n"
                       "    kind: decision\n")


def _numbered_without_a_scheme(hw, root):
    _overlay(hw, root, "remove:\n  - kinds.decision.identifier\n")


REFUSALS = [
    ("unknown kind lists the kinds", None, ["memo", "--title", "x"],
     "`memo` is not a kind this taxonomy declares; the kinds are decision, specification"),
    ("abstract kind", None, ["governed_document", "--title", "x"],
     "headwater: `governed_document` is abstract and no document is one; write one of its kinds instead "
     "(decision, specification)\n"),
    ("a kind two shelves carry", _two_shelves_of_decisions, ["decision", "--title", "x"],
     "headwater: the kind `decision` is carried by the shelves `decisions`, `more_decisions`, and `new` places a "
     "document only where exactly one shelf carries its kind\n"),
    ("a kind no shelf places", _no_shelf, ["specification", "--title", "x"],
     "no shelf carries the kind `specification`"),
    ("an existing file", None, ["specification", "--title", "Ingest API"],
     "docs/specifications/ingest-api.md already exists"),
    ("a relation the kind may not declare", None,
     ["specification", "--title", "x", "--relates", "conflicts_with=ACME-DR-0001"],
     "a `specification` may not declare `conflicts_with`"),
    ("an unresolvable target", None, ["decision", "--title", "x", "--relates", "supersedes=ACME-DR-0099"],
     "no document carries `ACME-DR-0099`"),
    ("a code path that matches nothing", None, ["decision", "--title", "x", "--relates", "governs=src/nothing/**"],
     "matches nothing in the repository"),
    ("an untyped target", None, ["decision", "--title", "x", "--relates", "supersedes=docs/notes/meeting-2026-09.md"],
     "no document carries"),
    ("an enum facet with no value lists its values", _risk_facet, ["decision", "--title", "x"],
     "pass `--facet risk=<value>`, one of low, high"),
    ("an enum facet with a value it does not admit", _risk_facet,
     ["decision", "--title", "x", "--facet", "risk=medium"],
     "it admits low, high"),
    ("an unknown facet", None, ["decision", "--title", "x", "--facet", "colour=blue"], "`colour` is not a facet"),
    ("a facet the taxonomy decides", None, ["decision", "--title", "x", "--facet", "status=current"],
     "`status` is decided by the taxonomy"),
    ("a scheme without a namespace", _no_namespace, ["decision", "--title", "x"],
     "add `identifier_schemes.decision_id.namespace: <NS>` under `add:` in .headwater/overlay.yml"),
    ("a far half that could not name a kind without a scheme", _no_scheme,
     ["specification", "--title", "x", "--relates", "supersedes=ACME-SPEC-0001"],
     "declares no identifier scheme, so no far half can name the new document"),
    ("a directory off the shelf", None, ["decision", "--title", "x", "--directory", "docs/notes"],
     "is not on the shelf `decisions`"),
    ("a directory outside the repository", None, ["decision", "--title", "x", "--directory", "/tmp"],
     "`--directory` takes a folder inside the repository, and `/tmp` is not one"),
    ("a missing title", None, ["decision"], "`new` takes a title"),
    ("a relates without a target", None, ["decision", "--title", "x", "--relates", "supersedes="],
     "`--relates` takes REL=TARGET with neither side empty"),
    ("a facet without a name", None, ["decision", "--title", "x", "--facet", "=low"],
     "`--facet` takes FACET=VALUE"),
    ("a title with no letters", None, ["decision", "--title", "!!!"], "no Latin letters or digits"),
    # a U+2028 written into the front matter moved every finding below it a line down
    ("a title split by a line separator", None, ["decision", "--title", "Split\u2028title"],
     "`--title` takes one line of text"),
    ("a summary split by a next-line character", None, ["decision", "--title", "x", "--summary", "Two\x85lines."],
     "`--summary` takes one line of text"),
    ("a bad run date", None, ["decision", "--title", "x", "--now", "2026-13-01"], "`--now` takes a calendar date"),
    ("a layout in the lock that climbs out, before any id is claimed", _climbing_layout, ["decision", "--title", "x"],
     "names this document `docs/decisions/../../0004-x.md`, which is not a plain path inside the repository"),
    ("a layout naming a facet nobody gave", _area_in_layout_optional, ["decision", "--title", "x"],
     "headwater: the shelf `decisions` names files `{area}-{seq:04d}-{slug}.md`, and nothing here gives `area`; "
     "pass `--facet area=<value>`\n"),
    ("a layout giving a facet a number's width", _area_as_a_number,
     ["decision", "--title", "x", "--facet", "area=north"],
     "headwater: the layout `{area:02d}-{slug}.md` takes a number for `area`, and `north` is not one\n"),
    ("a layout numbering a kind without a scheme", _numbered_without_a_scheme, ["decision", "--title", "x"],
     "headwater: the shelf `decisions` names files `{seq:04d}-{slug}.md`, and nothing here gives `seq`\n"),
    ("a facet whose value in the layout climbs out", _area_in_layout,
     ["decision", "--title", "x", "--facet", "area=../../../up"], "which is not a plain path inside the repository"),
]


@pytest.mark.parametrize(("setup", "args", "sentence"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_a_refusal_is_one_sentence_and_writes_nothing(hw, quickstart, tree_bytes, setup, args, sentence):
    if setup:
        setup(hw, quickstart)
    before = tree_bytes(quickstart)
    ran = hw("new", *args, "--root", str(quickstart))
    assert ran.status == 1
    assert ran.out == ""
    assert ran.err.startswith("headwater: ") and ran.err.count("\n") == 1, ran.err
    assert sentence in ran.err
    assert tree_bytes(quickstart) == before


def test_a_target_changed_since_the_snapshot_is_refused_before_anything_is_written(quickstart, tree_bytes):
    import datetime as dt

    from headwater.errors import Refusal
    from headwater.snapshot import load
    from headwater.writes.new import new_document

    snapshot = load(quickstart, dt.date(2026, 11, 1))
    target = quickstart / "docs/decisions/0002-deliver-at-least-once.md"
    target.write_text(target.read_text() + "\nAn edit nobody re-read.\n")
    before = tree_bytes(quickstart)
    with pytest.raises(Refusal, match="changed since this run read it"):
        new_document(snapshot, "decision", "Deliver in order", ["supersedes=ACME-DR-0002"])
    assert tree_bytes(quickstart) == before


def test_a_kind_without_a_scheme_gets_a_document_without_an_id(quickstart, hw):
    _no_scheme(hw, quickstart)
    ran = hw("new", "specification", "--title", "Event ordering", "--summary", "Events arrive in order.",
             "--now", "2026-11-01", "--root", str(quickstart))
    assert ran.status == 0, ran.err
    assert "no identifier: the kind `specification` declares no identifier scheme" in ran.out
    written = (quickstart / "docs/specifications/event-ordering.md").read_text()
    assert written.startswith("---\nstatus: draft\n") and "\nid:" not in written
    assert not (quickstart / ".headwater/ids/specification_id").joinpath("ACME-SPEC-0003").exists()


def test_a_file_where_the_claims_folder_belongs_is_a_refusal_and_no_document_is_written(quickstart, hw):
    ids = quickstart / ".headwater/ids"
    for path in sorted(ids.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    ids.rmdir()
    ids.write_text("x\n")
    before = sorted(p for p in (quickstart / "docs").rglob("*"))
    ran = hw("new", "decision", "--title", "Store attempts in Redis", "--root", str(quickstart))
    assert ran.status == 1 and ran.out == ""
    assert ran.err == "headwater: `.headwater/ids`: a file where a folder must be, so nothing more was done\n"
    assert sorted(p for p in (quickstart / "docs").rglob("*")) == before and ids.read_text() == "x\n"


@pytest.mark.parametrize(("title", "slug"), [("Café über Straße", "cafe-uber-strasse"), ("Ærø Łódź", "aero-lodz"),
                                             ("Use ŞEN ı İ", "use-sen-i-i"),
                                             ("Привет мир (hello world)", "hello-world")])
def test_a_latin_letter_loses_its_accents_in_the_file_name_rather_than_the_letter(title, slug):
    from headwater.writes.placement import slug as slugged

    assert slugged(title) == slug


def test_a_title_in_another_script_alone_is_refused_with_a_way_to_name_the_file(quickstart, hw, tree_bytes):
    before = tree_bytes(quickstart)
    ran = hw("new", "decision", "--title", "日本語のタイトル", "--root", str(quickstart))
    assert ran.status == 1 and "has no Latin letters or digits to make a file name from: add a few" in ran.err
    assert tree_bytes(quickstart) == before


def test_a_refusal_quotes_a_long_title_by_its_start(quickstart, hw):
    ran = hw("new", "decision", "--title", "word " * 2000, "--root", str(quickstart))
    assert ran.status == 1 and len(ran.err) < 300 and "word word…` makes a file name longer" in ran.err, ran.err


@pytest.mark.parametrize(("layout", "path", "named"), [
    ("{status_since:yyyymmdd}-{slug}.md", "docs/adr/20201016-use-slugs.md", "20201016-use-slugs"),
    ("{slug}.md", "docs/adr/use-slugs.md", "use-slugs"),
    ("{seq:04d}-{slug}.md", "docs/adr/0007-use-slugs.md", None),  # a number names it: the scheme's sequence
    ("{slug}/README.md", "docs/adr/use-slugs/README.md", None),
    ("{slug}/index.md", "docs/adr/use-slugs/index.md", None),  # the slug names the folder, not the file
    ("{area}/{slug}/index.md", "docs/adr/queues/use-slugs/index.md", None),
    ("{slug}.md", "use-slugs.md", "use-slugs"),  # a document at the top of the repository
    ("{status_since:yyyymmdd}-{slug}.md", "docs/adr/20201016-Use-Slugs.md", None)])
def test_a_scheme_without_a_sequence_names_a_document_by_its_whole_file_name_where_the_layout_writes_it(
        layout, path, named):
    from headwater.writes.placement import named_slug

    assert named_slug(layout, path) == named


@pytest.mark.parametrize(("layout", "path", "number"), [
    ("{seq:04d}-{slug}.md", "docs/adr/0007-use-slugs.md", 7),
    ("{seq:04d}-{slug}/README.md", "docs/adr/0007-use-slugs/README.md", 7),  # the number is on the folder
    ("{seq:04d}/{seq:04d}-{slug}.md", "docs/adr/0007/0007-use-slugs.md", 7),  # the first one read, the second matched
    ("{seq:04d}-{slug}/README.md", "docs/adr/0007-use-slugs.md", None),
    ("{slug}.md", "docs/adr/0007-use-slugs.md", None)])
def test_the_number_a_file_name_carries_is_read_under_its_layout_however_many_segments_it_spans(layout, path, number):
    from headwater.writes.placement import layout_sequence

    assert layout_sequence(layout, path) == number
