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


def test_a_line_separator_above_a_block_directive_leaves_it_covering_its_own_line(hw, corpus):
    # the directive's lines were counted at U+2028 too, so it stood a line below the finding beside it
    _, block = report(hw, corpus("A line\u2028that runs on.", f"The whitelist again. {directive(scope='block')}"))
    escapes = {f["line"]: f["escape"] for f in of_rule(block["findings"], "language.retired_term.used")}
    assert escapes == {25: "none", 29: "suppression"}


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


# -- what one directive reads as, line by line -------------------------------------------------


def read(*lines: str):
    """The directives of a document whose body is `lines`, its first line being line 10."""
    from headwater.check.registry import rule_ids
    from headwater.check.suppressions import directives
    from headwater.corpus.document import Document
    from headwater.yaml.nodes import Map

    body = "".join(line + "\n" for line in lines)
    document = Document("d.md", None, Map((), 1, 1), body, 0, 10, "sha256:0")
    return directives(document, frozenset(rule_ids()))


LIVE = directive(scope="block")


@pytest.mark.parametrize(("lines", "last"), [
    ((LIVE, "covered", "covered too", "", "not covered"), 12),
    ((LIVE, "", "covered", "", "not covered"), 12),
    ((LIVE, "", "", "covered", "covered too", "", "not covered"), 14),
    ((LIVE, "", "", "", "covered", "", "not covered"), 14),
    ((LIVE, "", ""), 12),  # nothing follows: the blank lines, which carry no finding
    ((LIVE,), 10),
], ids=["run right after", "one blank first", "two blanks first", "three blanks first", "only blanks", "last line"])
def test_a_block_directive_covers_its_line_and_the_next_run_of_lines_after_blank_ones(lines, last):
    [read_as] = read(*lines)
    assert (read_as.line, read_as.last, read_as.problem) == (10, last, None)


def test_the_note_is_everything_after_the_first_note_key_and_no_field_is_read_from_it():
    [read_as] = read("<!-- headwater allow=language.retired_term.used scope=file until=2027-01-01 "
                     "reason=false_positive note=kept note=as written scope=block -->")
    assert read_as.note == "kept note=as written scope=block"
    assert (read_as.scope, read_as.reason, read_as.problem) == ("file", "false_positive", None)


@pytest.mark.parametrize(("written", "says"), [
    ("scope=file until=2027-01-01 reason=false_positive", "no rule of this engine is named ``"),
    ("allow=language.retired_term.used scope=file until=2027-01-01",
     "`reason=` is not one of false_positive, accepted_deviation"),
    ("allow=language.retired_term.used until=2027-01-01 reason=false_positive", "`scope=` is not one of block, file"),
    ("allow=language.retired_term.used scope=file reason=false_positive", "`until=` is not a date written YYYY-MM-DD"),
], ids=["allow", "reason", "scope", "until"])
def test_a_directive_missing_a_field_is_refused_in_a_sentence_naming_the_field_empty(written, says):
    [read_as] = read(f"<!-- headwater {written} -->")
    assert read_as.problem == "suppresses nothing: " + says
    missing = {"allow": read_as.rule, "reason": read_as.reason, "scope": read_as.scope}
    assert all(value == "" for key, value in missing.items() if f"{key}=" not in written)
    assert (read_as.until is None) == ("until=" not in written)


def test_a_directive_after_a_closed_fence_reads_and_one_inside_an_open_fence_does_not():
    [after] = read("```", directive(), "```", "", LIVE, "covered")
    assert (after.line, after.last, after.scope) == (14, 15, "block")
    assert read("~~~", "text", "~~~", "```", LIVE, "still fenced") == []
    [indented] = read("   ```", "x", "   ```", LIVE)
    assert indented.line == 13
    [not_a_fence] = read("    ```", LIVE)  # four spaces: indented code text, no fence
    assert not_a_fence.line == 11


def finding_at(line: int, rule: str = "language.retired_term.used", path: str = "d.md"):
    from headwater.check.finding import Finding, Severity

    return Finding(rule, Severity.ERROR, path, line, 1, "m", "r", False, "s")


def test_a_block_directive_hides_findings_from_its_own_line_through_its_last_and_no_further():
    import datetime as dt

    [block] = read(LIVE, "covered", "", "not covered")
    today = dt.date(2026, 11, 1)
    assert [block.hides(finding_at(line), today) for line in (9, 10, 11, 12, 13)] == [False, True, True, False, False]
    assert not block.hides(finding_at(10, rule="voice.forbidden_construction"), today)
    assert not block.hides(finding_at(10, path="e.md"), today)
    assert block.hides(finding_at(10), dt.date(2027, 1, 1)) and not block.hides(finding_at(10), dt.date(2027, 1, 2))


def test_findings_on_a_path_that_is_no_document_pass_through_untouched():
    import datetime as dt

    from headwater.check.registry import rule_ids
    from headwater.check.suppressions import apply

    claim = finding_at(0, path=".headwater/ids/decision_id/ACME-DR-0001")
    assert apply([claim, claim], {}, frozenset(rule_ids()), dt.date(2026, 11, 1)) == [claim, claim]
