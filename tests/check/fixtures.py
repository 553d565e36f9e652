"""Writes the rule fixtures (`corpus_fixtures/rules/<rule>/{pass,fail}/`) and `check-all`.

Each fixture is a tiny governed repository: `.headwater/taxonomy.yml`, an overlay, claim files
and a few documents; its lock is the one its taxonomy shares in `corpus_fixtures/locks/`
(`tests/fixture_locks.py`), except where it vendors its package. The committed trees are
the truth; run `python tests/check/fixtures.py` only to write them again after a change here,
or `python tests/check/fixtures.py <rule id> …` to write those rules' trees and `check-all` alone.
`check-all` is written in place: what it carries beyond `check_all()` (its adoption tasks, the
package vendored when it was written) stays as committed.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RULES_DIR = REPO / "corpus_fixtures" / "rules"
CHECK_ALL = REPO / "corpus_fixtures" / "check-all"
EMBEDDED = REPO / "taxonomy" / "headwater-standard"
WRONG_PIN = "sha256:" + "0" * 64
VENDORED = Path(".headwater/packages/headwater-standard")
CHANGE = "change"  # where a fixture keeps the manifest of its change, beside `.headwater/`

OVERLAY = """\
add:
  identifier_schemes.decision_id.namespace: ACME
  identifier_schemes.specification_id.namespace: ACME
"""
VOCAB = """\
add_to:
  vocabularies.lifecycle_state:
    - {value: archived, role: terminal-retained}
"""
MEMO = """\
  kinds.memo:
    purpose: rationale
    write_when: a short note should be kept beside the decisions
  shelves.memos:
    path: docs/memos/**
    homogeneous: true
    kind: memo
"""
SECTIONS = {"decision": ("Context", "Decision", "Consequences"), "specification": ("Scope", "Behavior"),
            "brief": ()}
SCHEMES = {"docs/decisions/": "decision_id", "docs/briefs/": "decision_id", "docs/specifications/": "specification_id"}


def declaration(bundles=(), pin: str | None = None, vendored: bool = False, pins: str = "") -> str:
    listed = "[" + ", ".join(bundles) + "]"
    digest = f"  digest: \"{pin}\"\n" if pin else ""
    return ("taxonomy:\n  package: headwater/standard\n  version: 1.0.0\n" + digest +
            f"  bundles: {listed}\n  overlay: .headwater/overlay.yml\ncorpus:\n  root: docs\n" + pins)


def doc(kind: str, id: str | None = "ACME-DR-0001", status: str = "current", *, title: str = "A record",
        summary: str | None = "One sentence a reader learns here.", verified: str = "2026-10-01",
        warrant: str | None = "{warrant: asserted}", extra: str = "", relations: str = "",
        sections: tuple[str, ...] | None = None, prose: str = "", since: str = "2026-10-01") -> str:
    front = [f"id: {id}"] if id is not None else []
    front += [f"status: {status}", f"status_since: {since}"]
    if summary is not None:
        front.append(f"summary: \"{summary}\"" if summary else "summary:")
    front += [f"last_verified: {verified}", f"title: {title}"]
    if warrant is not None:
        front.append(f"provenance: {warrant}")
    if extra:
        front.append(extra.rstrip("\n"))
    if relations:
        front.append("relations:\n" + relations.rstrip("\n"))
    body = [f"# {title}", ""]
    for name in SECTIONS[kind] if sections is None else sections:
        body += [f"## {name}", "", f"The {name.lower()} of this record, stated plainly.", ""]
    if prose:
        body += [prose, ""]
    return "---\n" + "\n".join(front) + "\n---\n\n" + "\n".join(body).rstrip("\n") + "\n"


def decision(id="ACME-DR-0001", status="current", **more) -> str:
    return doc("decision", id, status, **more)


BASE_DOC = {"docs/decisions/0001-base.md": decision()}


def fixture(files: dict[str, str], *, bundles=(), overlay_extra: str = "", pin: str | None = None,
            vendored: bool = False, unclaimed: tuple[str, ...] = (), base: bool = True,
            prior: dict[str, str] | None = None, pins: str = "") -> dict:
    """`prior`: the base-revision text of changed paths, written as `change/manifest` + copies.
    `pins`: `harvests`/`imports` blocks for the declaration, where `DIGEST(<path>)` stands for
    the digest of that file of the fixture."""
    return {"files": {**(BASE_DOC if base else {}), **files}, "bundles": bundles,
            "overlay": OVERLAY + overlay_extra, "pin": pin, "vendored": vendored, "unclaimed": unclaimed,
            "prior": prior, "pins": pins}


def suspect(revision: str) -> str:
    return decision(relations=f"  governs:\n    - to: src/app.py\n      verified_revision: \"{revision}\"")


def app_revision() -> str:
    import tempfile

    from headwater.corpus.tree import SourceTree

    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "src").mkdir()
        (Path(scratch) / "src" / "app.py").write_text(APP)
        return SourceTree(Path(scratch), ()).revision(("src/app.py",))


APP = "print('the application')\n"
HARVESTED = ".headwater/harvested/decisions.json"
IMPORTED = ".headwater/imports/svc.json"


def harvested_export() -> str:
    """A one-document export of another corpus, in the bytes `headwater export` writes."""
    from headwater.federation import formats

    facets = {"id": "ACME-DR-0100", "title": "Deliver at least once"}
    document = {"path": "docs/decisions/0100-deliver.md", "kind": "decision", "id": "ACME-DR-0100",
                "name": "Deliver at least once", "digest": "sha256:" + "2" * 64, "facets": facets}
    return formats.encode({formats.MARKER: formats.EXPORT, "export_version": formats.EXPORT_VERSION,
                           "census": {"accounted for": 1, "unaccounted for": 0},
                           "graph": {"documents": [document], "edges": []}, "anchors": []}).decode()


def anchors_snapshot() -> str:
    """A service repository's anchors snapshot, as `headwater export --anchors 'src/**'` writes it."""
    from headwater.federation import formats

    return formats.encode({formats.MARKER: formats.ANCHORS, "anchors_version": formats.ANCHORS_VERSION,
                           "patterns": ["src/**"], "files": [{"path": "src/app.py", "revision": "3" * 64}]}).decode()


def harvest_pin(digest: str = "DIGEST(.headwater/harvested/decisions.json)") -> str:
    return f"harvests:\n  decisions:\n    at: {HARVESTED}\n    digest: \"{digest}\"\n"


def import_pin(digest: str | None = "DIGEST(.headwater/imports/svc.json)") -> str:
    return "imports:\n  svc:\n    at: .headwater/imports/svc.json\n" + (f"    digest: \"{digest}\"\n" if digest else "")
MEMO_FILES = {"docs/memos/m.md": "---\nowner: j.doe\n---\n\n# A memo\n"}
SUPERSEDES = "  supersedes: ACME-DR-0001\n"
NEXT = "docs/decisions/0002-next.md"
ACCEPTED = "{warrant: accepted, accepted_by: j.doe}"


def cases() -> dict[str, dict[str, dict]]:
    revision = app_revision()
    return {
        "facet.required.missing": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(summary=None)}),
            "pass": fixture({})},
        "facet.value.not_permitted": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(status="active")}),
            "pass": fixture({})},
        "facet.value.blank": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(summary="")}),
            "pass": fixture({})},
        "facet.freshness.stale": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(verified="2026-01-01")}),
            "pass": fixture({})},
        "identifier.pattern.not_met": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(id="ACME-DR-12")}),
            "pass": fixture({})},
        "identifier.unusable": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(id=None)}),
            "pass": fixture({})},
        "shelf.placement_is_primary": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(extra="doc_type: reference")},
                            bundles=("diataxis",)),
            "pass": fixture({}, bundles=("diataxis",))},
        "warrant.value.not_permitted": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(warrant="{warrant: believed}")}),
            "pass": fixture({})},
        "warrant.acceptance.unpaired": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(warrant="{warrant: accepted}")}),
            "pass": fixture({"docs/decisions/0001-base.md":
                             decision(warrant="{warrant: accepted, accepted_by: j.doe}")})},
        "section.required.missing": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(sections=("Context", "Decision"))}),
            "pass": fixture({})},
        "lifecycle.state.not_admitted": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(status="archived")}, overlay_extra=VOCAB),
            "pass": fixture({}, overlay_extra=VOCAB)},
        "relation.declaration.unusable": {
            "fail": fixture({"docs/decisions/0002-next.md":
                             decision("ACME-DR-0002", relations="  replaces: ACME-DR-0001")}),
            "pass": fixture({"docs/decisions/0002-next.md":
                             decision("ACME-DR-0002", relations="  constrains: ACME-DR-0001")})},
        "identifier.claimed_twice": {
            "fail": fixture({"docs/decisions/0002-next.md": decision("ACME-DR-0001")}),
            "pass": fixture({"docs/decisions/0002-next.md": decision("ACME-DR-0002")})},
        "identifier.claim.missing": {
            "fail": fixture({"docs/decisions/0002-next.md": decision("ACME-DR-0002")},
                            unclaimed=("ACME-DR-0002",)),
            "pass": fixture({"docs/decisions/0002-next.md": decision("ACME-DR-0002")})},
        "relation.target.unresolved": {
            "fail": fixture({"docs/decisions/0002-next.md":
                             decision("ACME-DR-0002", relations="  constrains: ACME-DR-0042")}),
            "pass": fixture({"docs/decisions/0002-next.md":
                             decision("ACME-DR-0002", relations="  constrains: ACME-DR-0001")})},
        "relation.target.is_source": {
            "fail": fixture({"docs/decisions/0002-next.md":
                             decision("ACME-DR-0002", relations="  constrains: ACME-DR-0002")}),
            "pass": fixture({"docs/decisions/0002-next.md":
                             decision("ACME-DR-0002", relations="  constrains: ACME-DR-0001")})},
        "relation.endpoint.not_permitted": {
            "fail": fixture({"docs/specifications/api.md": doc(
                "specification", "ACME-SPEC-0001", relations="  constrains: ACME-DR-0001")}),
            "pass": fixture({"docs/specifications/api.md": doc(
                "specification", "ACME-SPEC-0001", relations="  constrained_by: ACME-DR-0001")})},
        "relation.reciprocity.missing": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(status="superseded"),
                             "docs/decisions/0002-next.md": decision("ACME-DR-0002", relations=SUPERSEDES)}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(
                                status="superseded", relations="  superseded_by: ACME-DR-0002"),
                             "docs/decisions/0002-next.md": decision("ACME-DR-0002", relations=SUPERSEDES),
                             # symmetric, written at one end: one fact, which owes no far half
                             "docs/decisions/0003-other.md": decision(
                                 "ACME-DR-0003", status="deprecated", relations="  conflicts_with: ACME-DR-0002")})},
        "relation.pair.invalid": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(relations="  conflicts_with: ACME-DR-0002"),
                             "docs/decisions/0002-next.md": decision(
                                 "ACME-DR-0002", relations="  conflicts_with: ACME-DR-0001")}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(
                                status="deprecated", relations="  conflicts_with: ACME-DR-0002"),
                             "docs/decisions/0002-next.md": decision(
                                 "ACME-DR-0002", relations="  conflicts_with: ACME-DR-0001")})},
        "relation.target.suspect": {
            "fail": fixture({"docs/decisions/0001-base.md": suspect("sha256:" + "1" * 64), "src/app.py": APP}),
            "pass": fixture({"docs/decisions/0001-base.md": suspect(revision), "src/app.py": APP})},
        "lifecycle.dependency.on_terminal": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(status="deprecated"),
                             "docs/decisions/0002-next.md": decision(
                                 "ACME-DR-0002", relations="  traces_to: ACME-DR-0001")}),
            "pass": fixture({"docs/decisions/0002-next.md": decision(
                                 "ACME-DR-0002", relations="  traces_to: ACME-DR-0001")})},
        "lifecycle.state.not_set_by_edge": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(relations="  superseded_by: ACME-DR-0002"),
                             "docs/decisions/0002-next.md": decision("ACME-DR-0002", relations=SUPERSEDES)}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(
                                status="superseded", relations="  superseded_by: ACME-DR-0002"),
                             "docs/decisions/0002-next.md": decision("ACME-DR-0002", relations=SUPERSEDES)})},
        "link.path.unresolved": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(prose="See [the plan](0009-plan.md).")}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(prose="See [this record](0001-base.md).")})},
        "link.fragment.unresolved": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(prose="See [the context](#nowhere).")}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(prose="See [the context](#context).")})},
        "link.identifier.mismatch": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(prose="See [ACME-DR-0002](0001-base.md)."),
                             NEXT: decision("ACME-DR-0002")}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(prose="See [ACME-DR-0002](0002-next.md)."),
                             NEXT: decision("ACME-DR-0002")})},
        "voice.forbidden_construction": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(prose="We renamed the queue to `drain`.")}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(
                prose="The queue is drained nightly. `We will` is code, and \"for now\" is a quotation.")})},
        "language.retired_term.used": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(prose="Requests pass the whitelist first.")}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(prose="Requests pass the allowlist first.")})},
        "lifecycle.transition.not_permitted": {
            "fail": fixture({}, prior={"docs/decisions/0001-base.md": decision(status="superseded")}),
            "pass": fixture({}, prior={"docs/decisions/0001-base.md": decision(status="draft")})},
        "warrant.promoted": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(warrant=ACCEPTED)},
                            prior={"docs/decisions/0001-base.md": decision()}),
            "pass": fixture({}, prior={"docs/decisions/0001-base.md": decision(title="An older title")})},
        "lifecycle.deletion.not_permitted": {
            "fail": fixture({}, prior={NEXT: decision("ACME-DR-0002", status="superseded")}),
            "pass": fixture({}, prior={NEXT: decision("ACME-DR-0002", status="current")})},
        "coverage.document_unchecked": {
            "fail": fixture(MEMO_FILES, overlay_extra=MEMO),
            "pass": fixture({"docs/memos/m.md": "---\nprovenance: {warrant: asserted}\n---\n\n# A memo\n"},
                            overlay_extra=MEMO)},
        "coverage.document_unreadable": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(),
                             "docs/decisions/0002-broken.md": "---\nid: [ACME-DR-0002\n---\n\n# Broken\n",
                             "docs/notes/rule.md": "---\n\nA note that opens with a rule and never closes it.\n"}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(),
                             "docs/notes/rule.md": "---\n\nA note that opens with a rule and never closes it.\n"})},
        "taxonomy.pin.diverged": {
            "fail": fixture({}, pin=WRONG_PIN, vendored=True),
            "pass": fixture({}, pin="today", vendored=True)},
        "harvest.pin.unread": {
            "fail": fixture({HARVESTED: harvested_export()}, pins=harvest_pin(WRONG_PIN)),
            "pass": fixture({HARVESTED: harvested_export(), "docs/decisions/0001-base.md": decision(
                relations="  constrains: decisions:ACME-DR-0100")}, pins=harvest_pin())},
        "import.pin.unread": {
            "fail": fixture({IMPORTED: anchors_snapshot()}, pins=import_pin(None)),
            "pass": fixture({IMPORTED: anchors_snapshot()}, pins=import_pin())},
        "suppression.refused": {
            "fail": fixture({"docs/decisions/0001-base.md": decision(prose=(
                "<!-- headwater allow=no.such.rule scope=file until=2027-01-01 "
                "reason=false_positive note=kept for the demo -->"))}),
            "pass": fixture({"docs/decisions/0001-base.md": decision(prose=(
                "<!-- headwater allow=facet.value.blank scope=file until=2027-01-01 "
                "reason=false_positive note=kept for the demo -->"))})},
    }


def check_all() -> dict:
    """One repository that trips every rule of the registry at least once."""
    files = {
        "docs/decisions/0001-base.md": decision(
            relations="  constrains: [ACME-DR-0042, ACME-DR-0001]",
            prose="<!-- headwater allow=no.such.rule scope=file until=2027-01-01 reason=false_positive note=demo -->"),
        "docs/decisions/0002-no-summary.md": decision("ACME-DR-0002", status="active", summary=None),
        "docs/decisions/0003-blank-and-stale.md": decision("ACME-DR-0003", summary="", verified="2025-01-01"),
        "docs/decisions/0004-restated.md": decision("ACME-DR-4", extra="doc_type: reference"),
        "docs/decisions/0005-no-id.md": decision(None, warrant="{warrant: believed}"),
        "docs/decisions/0006-unpaired.md": decision(
            "ACME-DR-0006", status="archived", warrant="{warrant: accepted}", sections=("Context", "Decision")),
        "docs/decisions/0007-unclaimed.md": decision("ACME-DR-0007", relations="  replaces: ACME-DR-0001"),
        "docs/decisions/0008-twice.md": decision("ACME-DR-0001", title="The same identifier again"),
        "docs/decisions/0009-supersedes.md": decision("ACME-DR-0009", relations="  supersedes: ACME-DR-0010"),
        "docs/decisions/0010-superseded.md": decision("ACME-DR-0010"),
        "docs/decisions/0011-conflict.md": decision("ACME-DR-0011", relations="  conflicts_with: ACME-DR-0012"),
        "docs/decisions/0012-conflict.md": decision("ACME-DR-0012", relations="  conflicts_with: ACME-DR-0011"),
        "docs/decisions/0013-suspect.md": suspect("sha256:" + "1" * 64).replace("ACME-DR-0001", "ACME-DR-0013"),
        "docs/decisions/0014-deprecated.md": decision("ACME-DR-0014", status="deprecated"),
        "docs/decisions/0015-rests.md": decision("ACME-DR-0015", relations="  traces_to: ACME-DR-0014"),
        "docs/specifications/api.md": doc("specification", "ACME-SPEC-0001", relations="  constrains: ACME-DR-0001"),
        "docs/decisions/0016-prose.md": decision("ACME-DR-0016", warrant=ACCEPTED, prose=(
            "We renamed the [plan](0099-plan.md) and the [context](#nowhere), and the whitelist will "
            "be read by [ACME-DR-0002](0001-base.md).\n\nTODO write this section.")),
        "docs/notes/loose.md": "# Loose notes\n\nNobody typed this file.\n",
        "docs/decisions/0018-broken.md": "---\nid: [ACME-DR-0018\n---\n\n# Broken\n",
        "src/app.py": APP,
        IMPORTED: harvested_export(),  # an export where an anchors snapshot belongs
        **MEMO_FILES,
    }
    prior = {"docs/decisions/0016-prose.md": decision("ACME-DR-0016", status="superseded"),
             "docs/decisions/0017-gone.md": decision("ACME-DR-0017", status="superseded")}
    from fixtures_reference import BRIEF_FILES, BRIEFS

    return fixture({**files, **BRIEF_FILES}, base=False, bundles=("diataxis",), overlay_extra=MEMO + BRIEFS + VOCAB,
                   pin=WRONG_PIN, vendored=True, unclaimed=("ACME-DR-0007",), prior=prior,
                   pins=harvest_pin(WRONG_PIN) + import_pin())


def _claims(spec: dict) -> dict[str, str]:
    from headwater.corpus.frontmatter import FrontMatterRefusal, split

    claims = {}
    for path, text in sorted(spec["files"].items()):
        scheme = next((s for prefix, s in SCHEMES.items() if path.startswith(prefix)), None)
        if scheme is None:
            continue
        try:
            front = split(text).front
        except FrontMatterRefusal:
            continue  # a document no census reads claims nothing
        node = front.get("id") if front else None
        identifier = getattr(node, "text", "")
        if identifier and identifier not in spec["unclaimed"] and "/" not in identifier:
            claims.setdefault(f".headwater/ids/{scheme}/{identifier}", path + "\n")
    return claims


def write_change(directory: Path, prior: dict[str, str]) -> None:
    """A manifest as `headwater change` writes it: one `prior` line and one copy per path."""
    (directory / "prior").mkdir(parents=True, exist_ok=True)
    lines = ["headwater change 1"]
    for number, (path, text) in enumerate(sorted(prior.items()), start=1):
        (directory / "prior" / str(number)).write_text(text, encoding="utf-8")
        lines.append(f"prior\t{path}\tprior/{number}")
    (directory / "manifest").write_text("\n".join(lines) + "\n", encoding="utf-8")


def pins_with_digests(pins: str, files: dict[str, str]) -> str:
    """The pins with each `DIGEST(<path>)` spelled as that file's digest."""
    from headwater.hashing import digest

    for path, text in files.items():
        pins = pins.replace(f"DIGEST({path})", digest(text.encode("utf-8")))
    return pins


def _clear(target: Path) -> None:
    """Remove a tree, but for the package vendored when it was first written: a fixture pins the
    package it was written with, so a later embedded package moves no fixture."""
    for path in sorted(target.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if VENDORED not in path.relative_to(target).parents and path.relative_to(target) != VENDORED:
            if path.is_dir() and not path.is_symlink():
                if not any(path.iterdir()):
                    path.rmdir()
            else:
                path.unlink()


def write(target: Path, spec: dict, in_place: bool = False, shared: bool = False) -> None:
    from headwater.cli.main import run
    from headwater.taxonomy.package import release_digest, release_members

    if target.exists() and not in_place:
        _clear(target)
    files = {**_claims(spec), **spec["files"], ".headwater/overlay.yml": spec["overlay"]}
    for path, text in files.items():
        (target / path).parent.mkdir(parents=True, exist_ok=True)
        (target / path).write_text(text, encoding="utf-8")
    pin = spec["pin"]
    if spec["vendored"]:
        vendored = target / VENDORED
        if not vendored.is_dir():
            shutil.copytree(EMBEDDED, vendored, ignore=shutil.ignore_patterns("__pycache__"))
        if pin == "today":
            pin = release_digest(release_members(vendored))
    (target / ".headwater" / "taxonomy.yml").write_text(declaration(spec["bundles"], pin, pins=pins_with_digests(
        spec["pins"], files)), encoding="utf-8")
    if spec["prior"]:
        write_change(target / CHANGE, spec["prior"])
    with contextlib.redirect_stdout(io.StringIO()):
        if run(["taxonomy", "resolve", "--root", str(target)]) != 0:
            raise SystemExit(f"resolve failed for {target}")
    if shared and not spec["vendored"]:  # the lock of its taxonomy lives in `corpus_fixtures/locks/`
        (target / ".headwater" / "taxonomy.lock").unlink()


def main(chosen: list[str]) -> None:
    """Write every rule's trees, or only those of the rule ids `chosen` names; then `check-all`."""
    sys.path.insert(0, str(REPO))
    from fixtures_reference import reference_cases

    every = {**cases(), **reference_cases()}
    unknown = sorted(set(chosen) - set(every))
    if unknown:
        raise SystemExit(f"fixtures.py: no cases for {', '.join(unknown)}")
    for rule_id in chosen or every:
        for side, spec in every[rule_id].items():
            write(RULES_DIR / rule_id / side, spec, shared=True)
    write(CHECK_ALL, check_all(), in_place=True)
    from tests.fixture_locks import write_shared_locks

    write_shared_locks()


if __name__ == "__main__":
    main(sys.argv[1:])
