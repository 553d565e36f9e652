"""Resolving a taxonomy into the lock: determinism, staleness, overlays, validation."""

from pathlib import Path

import pytest

from headwater.taxonomy.resolve import resolve

DECLARATION = """taxonomy:
  package: headwater/standard
  version: 1.0.0
  bundles: [{bundles}]
  overlay: .headwater/overlay.yml
corpus:
  root: docs
"""
NAMESPACES = """add:
  identifier_schemes.decision_id.namespace: ACME
  identifier_schemes.specification_id.namespace: ACME
"""
REQUIREMENT_NAMESPACES = """  identifier_schemes.requirement_id.namespace: ACME
  identifier_schemes.acceptance_criterion_id.namespace: ACME
"""


def bind(root: Path, bundles: str = "", overlay: str = NAMESPACES) -> Path:
    (root / ".headwater").mkdir(parents=True, exist_ok=True)
    (root / ".headwater/taxonomy.yml").write_text(DECLARATION.format(bundles=bundles))
    if "requirements" in bundles:
        overlay = overlay.replace(NAMESPACES, NAMESPACES + REQUIREMENT_NAMESPACES)
    (root / ".headwater/overlay.yml").write_text(overlay)
    return root


def test_resolving_twice_writes_byte_identical_locks(tmp_path, hw):
    root = bind(tmp_path)
    assert hw("taxonomy", "resolve", "--root", str(root)).status == 0
    first = (root / ".headwater/taxonomy.lock").read_bytes()
    assert hw("taxonomy", "resolve", "--root", str(root)).status == 0
    assert (root / ".headwater/taxonomy.lock").read_bytes() == first


def test_bundles_in_either_order_give_one_lock(tmp_path):
    one = resolve(bind(tmp_path / "a", "diataxis, requirements"))
    two = resolve(bind(tmp_path / "b", "requirements, diataxis"))
    assert one.problems == two.problems == ()
    assert one.digest == two.digest
    assert one.lock_text() == two.lock_text()


def test_the_lock_digest_is_the_sha256_of_the_resolved_body(tmp_path, hw):
    import hashlib

    root = bind(tmp_path)
    hw("taxonomy", "resolve", "--root", str(root))
    text = (root / ".headwater/taxonomy.lock").read_text()
    body = text.split("\nresolved:\n", 1)[1]
    column_zero = "".join(line[2:] + "\n" for line in body.splitlines())
    assert f'digest: "sha256:{hashlib.sha256(column_zero.encode()).hexdigest()}"' in text


def test_an_edited_overlay_makes_resolve_check_fail_and_name_the_overlay(tmp_path, hw):
    root = bind(tmp_path)
    hw("taxonomy", "resolve", "--root", str(root))
    assert hw("taxonomy", "resolve", "--check", "--root", str(root)).status == 0
    with (root / ".headwater/overlay.yml").open("a") as overlay:
        overlay.write("override:\n  facets.last_verified.stale_after_days: 90\n")
    ran = hw("taxonomy", "resolve", "--check", "--root", str(root))
    assert ran.status == 1 and ran.out == ""
    assert "is not what the sources resolve to" in ran.err
    assert "changed: .headwater/overlay.yml" in ran.err


def test_a_scheme_without_a_namespace_is_refused_with_the_line_to_add(tmp_path, hw):
    root = bind(tmp_path, overlay="add: {}\n")
    ran = hw("taxonomy", "resolve", "--root", str(root))
    assert ran.status == 1 and ran.out == ""
    assert "identifier_schemes.decision_id.namespace: <NS>" in ran.err
    assert not (root / ".headwater/taxonomy.lock").exists()


@pytest.mark.parametrize(
    ("overlay", "problem"),
    [
        ("add:\n  kinds.decision: {}\n", "`kinds.decision` already exists"),
        ("override:\n  kinds.memo.purpose: rationale\n", "`kinds.memo.purpose` does not exist"),
        ("remove:\n  - shelves.nowhere\n", "`shelves.nowhere` does not exist"),
        ("add_to:\n  kinds.decision.sections.require: [Context]\n", "already holds `Context`"),
        ("remove_from:\n  kinds.decision.sections.require: [Appendix]\n", "does not hold `Appendix`"),
        ("add:\n  bad..address: 1\n", "is not an address"),
        ("frobnicate: {}\n", "is not an operation"),
        ("add:\n  facets.tone: {type: string, values: $vocabularies.nothing}\n", "names nothing"),
    ],
)
def test_every_overlay_precondition_failure_names_its_address(tmp_path, hw, overlay, problem):
    root = bind(tmp_path, overlay=NAMESPACES + overlay.replace("add:\n", "", 1)
                if overlay.startswith("add:\n") else NAMESPACES + overlay)
    ran = hw("taxonomy", "resolve", "--root", str(root))
    assert ran.status == 1 and ran.out == ""
    assert problem in ran.err


def test_vocabulary_references_expand_in_the_lock(tmp_path, hw):
    root = bind(tmp_path)
    hw("taxonomy", "resolve", "--root", str(root))
    lock = (root / ".headwater/taxonomy.lock").read_text()
    assert "$vocabularies" not in lock
    assert "- value: superseded\n" in lock


@pytest.mark.parametrize(
    ("overlay", "problem"),
    [
        ("add:\n  kinds.memo: {is_a: governed_document}\n", "kinds.memo: a concrete kind must serve a purpose"),
        ("add:\n  kinds.memo: {is_a: nothing, purpose: rationale}\n", "kinds.memo.is_a: names `nothing`"),
        ("add:\n  facets.headline: {type: string, role: name}\n", "`name` is already the role of `title`"),
        ("add:\n  shelves.all: {path: \"**/*.md\", homogeneous: true, kind: decision}\n", "opens with a wildcard"),
        ("add:\n  kinds.decision.colour: blue\n", "kinds.decision.colour: is not a member"),
    ],
)
def test_validation_names_the_address_of_each_problem(tmp_path, hw, overlay, problem):
    body = overlay.replace("add:\n", "")
    root = bind(tmp_path, overlay=NAMESPACES + body)
    ran = hw("taxonomy", "validate", "--root", str(root))
    assert ran.status == 1 and ran.out == ""
    assert problem in ran.err


@pytest.mark.parametrize(("override", "problem"), [
    ("regimes.lifecycle.standard.transitions: 7", "regimes.lifecycle.standard.transitions: must be a mapping"),
    ("kinds.decision.sections: 5", "kinds.decision.sections: must be a mapping"),
    ("kinds.decision.sections.require: {a: b}", "kinds.decision.sections.require: must be a value or a list of"),
    ("shelves.decisions.path: [a, b]", "shelves.decisions.path: must be one value"),
    ("relations.supersedes.from: [decision, {a: b}]", "relations.supersedes.from: must be a value or a list"),
])
def test_a_member_of_the_wrong_shape_is_a_problem_at_its_address_not_a_defect(tmp_path, hw, override, problem):
    root = bind(tmp_path, overlay=NAMESPACES + "override:\n  " + override + "\n")
    for verb in ("validate", "resolve"):
        ran = hw("taxonomy", verb, "--root", str(root))
        assert ran.status == 1 and ran.out == "" and problem in ran.err, ran.err
        assert "internal defect" not in ran.err


@pytest.mark.parametrize("lock", ["", "# a comment alone\n"])
def test_an_empty_lock_is_a_refusal_naming_resolve(quickstart, hw, lock):
    (quickstart / ".headwater/taxonomy.lock").write_text(lock)
    for verb in (["check"], ["route", "x"], ["taxonomy", "resolve", "--check"]):
        ran = hw(*verb, "--root", str(quickstart))
        assert ran.status == 1 and "is not a lock" in ran.err and "internal defect" not in ran.err, ran.err


def test_a_folder_where_the_lock_belongs_is_refused_in_one_sentence_by_readers_and_writers(quickstart, hw):
    lock = quickstart / ".headwater/taxonomy.lock"
    lock.unlink()
    lock.mkdir()
    assert "is not a regular file. Remove it" in hw("check", "--root", str(quickstart)).err
    ran = hw("taxonomy", "resolve", "--root", str(quickstart))
    assert ran.status == 1
    assert ran.err == "headwater: `.headwater/taxonomy.lock`: Is a directory, so nothing more was done\n"
    assert lock.is_dir()


def test_a_missing_lock_is_a_refusal_naming_resolve(quickstart, hw):
    (quickstart / ".headwater/taxonomy.lock").unlink()
    for verb in (["explain", "ACME-DR-0001"], ["explain", "ACME-DR-0001", "--json"], ["taxonomy", "kinds"]):
        ran = hw(*verb, "--root", str(quickstart))
        assert ran.status == 1 and ran.out == ""
        assert "headwater taxonomy resolve" in ran.err


def test_a_malformed_taxonomy_file_is_a_refusal_naming_file_and_line(quickstart, hw):
    (quickstart / ".headwater/taxonomy.yml").write_text("taxonomy:\n  package: a\n  package: b\n")
    ran = hw("explain", "ACME-DR-0001", "--json", "--root", str(quickstart))
    assert ran.status == 1 and ran.out == ""
    assert ran.err == "headwater: .headwater/taxonomy.yml line 3: the key `package` appears twice\n"


def test_a_hand_edited_lock_is_refused(quickstart, hw):
    lock = quickstart / ".headwater/taxonomy.lock"
    lock.write_text(lock.read_text().replace("stale_after_days: 180", "stale_after_days: 999"))
    ran = hw("taxonomy", "kinds", "--root", str(quickstart))
    assert ran.status == 1 and "edited by hand" in ran.err


def test_the_shipped_lock_of_the_quickstart_is_current(quickstart, hw):
    assert hw("taxonomy", "resolve", "--check", "--root", str(quickstart)).status == 0


def test_the_embedded_package_validates_with_every_bundle(tmp_path):
    assert resolve(bind(tmp_path, "diataxis, requirements")).problems == ()
