"""Suppression directives: applied after the rules, expired ones hide nothing, refused ones are
findings, `scope=block` covers the next block and `scope=file` the whole document."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

NOW = "2026-11-01"
DOC = "docs/decisions/0001-base.md"
RETIRED = "rules/language.retired_term.used/fail"


def directive(rule="language.retired_term.used", scope="file", until="2027-01-01",
              reason="accepted_deviation", note="the vendor's product is named so") -> str:
    return (f"<!-- headwater allow={rule} scope={scope} until={until} reason={reason} "
            f"note={note} -->")


@pytest.fixture
def corpus(copy_fixture):
    """The retired-term fail fixture, with text appended to its one document's body."""

    root = copy_fixture(RETIRED)
    original = (root / DOC).read_text()

    def make(*paragraphs: str):
        (root / DOC).write_text(original + "".join(f"\n{p}\n" for p in paragraphs))
        return root

    return make


def report(hw, root, *more):
    ran = hw("check", "--root", str(root), "--now", NOW, "--no-cache", "--format", "json", *more)
    return ran, json.loads(ran.out)


def of_rule(findings, rule):
    return [f for f in findings if f["rule"] == rule]


def test_an_applied_directive_keeps_the_finding_marked_as_suppressed_and_strict_passes(hw, corpus):
    root = corpus(directive())
    ran, data = report(hw, root, "--strict")
    [finding] = of_rule(data["findings"], "language.retired_term.used")
    assert ran.status == 0
    assert finding["escape"] == "suppression"
    assert finding["hidden_by"] == {"path": DOC, "line": 27, "reason": "accepted_deviation",
                                    "until": "2027-01-01", "note": "the vendor's product is named so"}


def test_an_expired_directive_hides_nothing(hw, corpus):
    root = corpus(directive(until="2026-10-31"))
    ran, data = report(hw, root, "--strict")
    [finding] = of_rule(data["findings"], "language.retired_term.used")
    assert ran.status == 1 and finding["escape"] == "none" and "hidden_by" not in finding


def test_a_directive_is_live_through_its_until_date(hw, corpus):
    _, data = report(hw, corpus(directive(until=NOW)))
    assert of_rule(data["findings"], "language.retired_term.used")[0]["escape"] == "suppression"


@pytest.mark.parametrize(("written", "says"), [
    ({"rule": "no.such.rule"}, "no rule of this engine is named `no.such.rule`"),
    ({"reason": "because"}, "`reason=because` is not one of"),
    ({"until": "someday"}, "`until=someday` is not a date"),
    ({"scope": "line"}, "`scope=line` is not one of"),
])
def test_a_refused_directive_is_a_finding_and_hides_nothing(hw, corpus, written, says):
    ran, data = report(hw, corpus(directive(**written)), "--strict")
    [refused] = of_rule(data["findings"], "suppression.refused")
    assert says in refused["message"] and (refused["line"], refused["column"]) == (27, 1)
    assert of_rule(data["findings"], "language.retired_term.used")[0]["escape"] == "none"
    assert ran.status == 1


def test_a_block_directive_covers_the_next_block_and_a_file_directive_every_block(hw, corpus):
    again = "The whitelist is read twice."
    _, block = report(hw, corpus(directive(scope="block"), again))
    _, whole = report(hw, corpus(directive(scope="file"), again))
    escapes = {f["line"]: f["escape"] for f in of_rule(block["findings"], "language.retired_term.used")}
    assert escapes == {25: "none", 29: "suppression"}
    assert {f["escape"] for f in of_rule(whole["findings"], "language.retired_term.used")} == {"suppression"}


def test_only_a_file_directive_reaches_front_matter(hw, copy_fixture):
    root = copy_fixture("rules/facet.value.blank/fail")
    path = root / DOC
    text = path.read_text()
    path.write_text(text + "\n" + directive("facet.value.blank", "block") + "\n")
    _, data = report(hw, root)
    assert of_rule(data["findings"], "facet.value.blank")[0]["escape"] == "none"
    path.write_text(text + "\n" + directive("facet.value.blank", "file") + "\n")
    _, data = report(hw, root)
    assert of_rule(data["findings"], "facet.value.blank")[0]["escape"] == "suppression"


def test_a_directive_hides_only_its_own_rule(hw, corpus):
    _, data = report(hw, corpus(directive(rule="voice.forbidden_construction")))
    assert of_rule(data["findings"], "language.retired_term.used")[0]["escape"] == "none"


def test_every_format_shows_the_suppressed_finding_as_such(hw, corpus):
    root = corpus(directive())
    base = ("check", "--root", str(root), "--now", NOW, "--no-cache")
    text = hw(*base).out
    assert "not reported" in text
    assert (f"not reported (suppression): suppressed at {DOC}:27 as accepted_deviation, until "
            "2027-01-01 (the vendor's product is named so)") in " ".join(text.split())
    assert "<details>" in hw(*base, "--format", "markdown").out
    sarif = json.loads(hw(*base, "--format", "sarif").out)
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "language.retired_term.used"]
    assert result["suppressions"][0]["kind"] == "inSource"
    schema = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validate(sarif, schema)


def test_a_directive_inside_fenced_code_is_an_example_not_a_directive(hw, corpus):
    _, data = report(hw, corpus("```", directive(), "```"))
    assert of_rule(data["findings"], "language.retired_term.used")[0]["escape"] == "none"


def test_fix_leaves_a_suppressed_finding_alone(hw, corpus):
    root = corpus(directive())
    before = (root / DOC).read_bytes()
    ran = hw("check", "--root", str(root), "--now", NOW, "--no-cache", "--fix")
    assert ran.status == 0 and ran.err == "" and (root / DOC).read_bytes() == before
