"""Body rules over prose: links (paths, fragments, identifiers), voice, retired terms and their fix."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from headwater.check.runner import run
from headwater.snapshot import load

NOW = dt.date(2026, 11, 1)
DOC = "docs/decisions/0001-base.md"
NEXT = "docs/decisions/0002-next.md"
BASE = "rules/link.identifier.mismatch/pass"  # two clean decisions, ACME-DR-0001 and ACME-DR-0002


@pytest.fixture
def prose(copy_fixture):
    """A clean two-document corpus; `prose(text)` appends text to the first one's body."""
    root = copy_fixture(BASE)
    original = (root / DOC).read_text(encoding="utf-8")

    def write(text: str) -> Path:
        (root / DOC).write_text(original + "\n" + text + "\n", encoding="utf-8")
        return root

    return write


def found(root: Path, rule: str) -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.message) for f in run(load(root, NOW)).findings if f.rule == rule]


def lines_of(root: Path) -> int:
    return len((root / DOC).read_text(encoding="utf-8").splitlines())


# -- links ----------------------------------------------------------------------------------


@pytest.mark.parametrize("href", ["0002-next.md", "./0002-next.md", "../decisions/0002-next.md",
                                  "/docs/decisions/0002-next.md", "0002-next.md?plain=1",
                                  "../../src", "%30002-next.md"])
def test_a_relative_link_resolves_against_the_document_directory(prose, href):
    root = prose(f"See [the next one]({href}).")
    (root / "src").mkdir(exist_ok=True)
    assert found(root, "link.path.unresolved") == []


@pytest.mark.parametrize("href", ["https://example.com/missing.md", "mailto:ops@example.com",
                                  "//example.com/x", "ftp://example.com/x"])
def test_urls_are_not_resolved(prose, href):
    assert found(prose(f"See [elsewhere]({href})."), "link.path.unresolved") == []


def test_a_link_to_nothing_is_reported_at_the_link(prose):
    root = prose("See [the plan](0009-plan.md).")
    [(line, column, message)] = found(root, "link.path.unresolved")
    assert line == lines_of(root) and column == len("See [the plan]") + 1
    assert "`docs/decisions/0009-plan.md`" in message


def test_reference_links_sharing_a_broken_definition_are_one_finding_where_the_definition_writes_it(prose):
    root = prose("See [the plan][plan] and, again, [the plan][plan].\n\n[plan]: 0009-plan.md")
    [(line, column, message)] = found(root, "link.path.unresolved")
    assert line == lines_of(root) and column == len("[plan]: ") + 1
    assert "`docs/decisions/0009-plan.md`" in message


def test_a_link_that_climbs_above_the_repository_is_unresolved(prose):
    [(_, _, message)] = found(prose("See [the host](../../../etc/passwd)."), "link.path.unresolved")
    assert "climbs above the repository" in message


def _site_roots(root: Path, *roots: str) -> Path:
    declaration = root / ".headwater/taxonomy.yml"
    listed = ", ".join(f'"{r}"' for r in roots)
    declaration.write_text(declaration.read_text(encoding="utf-8") + f"  site_roots: [{listed}]\n", encoding="utf-8")
    return root


def test_a_link_opening_with_a_slash_lands_under_the_first_site_root_where_anything_stands(prose):
    root = _site_roots(prose("See [next](/decisions/0002-next.md#consequences), [the report](/files/audit.pdf) "
                             "and [the section](/decisions/)."), "docs", "static")
    (root / "static/files").mkdir(parents=True)
    (root / "static/files/audit.pdf").write_bytes(b"%PDF")
    assert found(root, "link.path.unresolved") == found(root, "link.fragment.unresolved") == []


def test_a_link_opening_with_a_slash_that_lands_under_no_site_root_names_every_place_it_looked(prose):
    root = _site_roots(prose("See [the slides](/presentations/deck.pdf) and [next](/docs/decisions/0002-next.md)."),
                       "docs", "static")
    messages = [message for _, _, message in found(root, "link.path.unresolved")]
    assert messages == [
        "the link `/presentations/deck.pdf` reaches `docs/presentations/deck.pdf` or "
        "`static/presentations/deck.pdf`, and no file stands at any",
        "the link `/docs/decisions/0002-next.md` reaches `docs/docs/decisions/0002-next.md` or "
        "`static/docs/decisions/0002-next.md`, and no file stands at any"]


def test_a_fragment_behind_a_site_root_is_judged_against_the_document_it_lands_on(prose):
    root = _site_roots(prose("See [why](/decisions/0002-next.md#reasons)."), "static", "docs")
    [(_, _, message)] = found(root, "link.fragment.unresolved")
    assert f"`{NEXT}` has no heading" in message


def test_on_a_published_site_a_relative_link_may_land_where_the_browser_resolves_it_from_the_page(prose):
    root = prose("See [the query](../examples/query.json) and [the index](../)")
    (root / "docs/decisions/examples").mkdir()
    (root / "docs/decisions/examples/query.json").write_text("{}", encoding="utf-8")
    [(_, _, unpublished)] = found(root, "link.path.unresolved")
    assert unpublished == ("the link `../examples/query.json` reaches `docs/examples/query.json`, and no file "
                           "stands there")
    assert found(_site_roots(root, "docs"), "link.path.unresolved") == []
    (root / "docs/decisions/examples/query.json").unlink()
    [(_, _, message)] = found(root, "link.path.unresolved")
    assert message == ("the link `../examples/query.json` reaches `docs/examples/query.json` or "
                       "`docs/decisions/examples/query.json`, and no file stands at any")


def test_an_index_page_is_served_at_its_own_folder_so_its_links_land_once(prose):
    root = _site_roots(prose(""), "docs")
    index = root / "docs/decisions/_index.md"
    index.write_text((root / DOC).read_text(encoding="utf-8").replace("ACME-DR-0001", "ACME-DR-0003")
                     + "\nSee [the examples](examples/query.json).\n", encoding="utf-8")
    messages = [f.message for f in run(load(root, NOW)).findings
                if f.rule == "link.path.unresolved" and f.path == "docs/decisions/_index.md"]
    assert messages == ["the link `examples/query.json` reaches `docs/decisions/examples/query.json`, and no file "
                        "stands there"]


def test_a_site_root_outside_the_repository_is_refused(prose, hw):
    root = _site_roots(prose("See [next](/decisions/0002-next.md)."), "../elsewhere")
    ran = hw("check", "--root", str(root), "--now", NOW.isoformat())
    assert ran.status == 1 and ran.out == ""
    assert "the site root `../elsewhere` in `corpus.site_roots` must stay inside the repository" in ran.err


def test_declaring_site_roots_re_judges_cached_link_verdicts(prose, hw):
    root = prose("See [next](/decisions/0002-next.md).")
    before = hw("check", "--root", str(root), "--now", NOW.isoformat(), "--rule", "link.path.unresolved")
    assert "link.path.unresolved" in before.out
    _site_roots(root, "docs")
    after = hw("check", "--root", str(root), "--now", NOW.isoformat(), "--rule", "link.path.unresolved", "--verbose")
    assert "link.path.unresolved:" not in after.out and "0 findings" in after.out


def test_a_link_to_the_repository_root_itself_resolves(prose):
    assert found(prose("See [the repository](/) and [again](../../)."), "link.path.unresolved") == []


def test_a_file_that_appears_under_a_later_site_root_clears_the_cached_verdict(prose, hw):
    root = _site_roots(prose("See [the report](/files/audit.pdf)."), "docs", "static")
    check = ("check", "--root", str(root), "--now", NOW.isoformat(), "--rule", "link.path.unresolved", "--json")
    [finding] = json.loads(hw(*check).out)["findings"]
    assert finding["message"].endswith("`static/files/audit.pdf`, and no file stands at any")
    (root / "static/files").mkdir(parents=True)
    (root / "static/files/audit.pdf").write_bytes(b"%PDF")
    assert json.loads(hw(*check).out)["findings"] == []


def test_a_fragment_is_compared_with_the_github_slugs_of_the_target(prose):
    assert found(prose("See [why](0002-next.md#consequences) and [here](#a-record)."),
                 "link.fragment.unresolved") == []
    [(_, _, message)] = found(prose("See [why](0002-next.md#reasons)."), "link.fragment.unresolved")
    assert "`#reasons`" in message and f"`{NEXT}` has no heading" in message



def test_on_the_forge_a_fragment_lands_on_a_heading_in_any_case(prose):
    # no site roots: the pages are read where GitHub renders them, and it lands `#Consequences`
    root = prose("See [why](0002-next.md#Consequences) and [here](#A-Record).")
    assert found(root, "link.fragment.unresolved") == []
    [(_, _, message)] = found(prose("See [why](0002-next.md#Reasons)."), "link.fragment.unresolved")
    assert "`#Reasons`" in message


def test_on_a_published_site_a_fragment_must_match_the_case_and_the_remedy_names_the_heading(prose):
    root = _site_roots(prose("See [why](0002-next.md#Consequences)."), "docs")
    [finding] = [f for f in run(load(root, NOW)).findings if f.rule == "link.fragment.unresolved"]
    assert "names `#Consequences`" in finding.message
    assert finding.remediation == "use one of its headings: `#consequences`"

def test_the_remedy_for_a_missed_fragment_names_the_headings_spelled_nearest_to_it_first(prose):
    headings = "".join(f"\n## {h}\n\ntext\n" for h in ["Binding support", "Component format", "Create file",
                                                          "Delete object", "Example", "Get object", "Upload a file"])
    root = prose(headings + "\nSee [fetching](#get-file).")
    [finding] = [f for f in run(load(root, NOW)).findings if f.rule == "link.fragment.unresolved"]
    # by name alone it offered `#a-record`, `#binding-support`, `#component-format`… and never `#get-object`
    assert finding.remediation.startswith("use one of its headings: `#create-file`, `#get-object`, ")


NAMED = """<a name="old-place"></a>
Text with <span id="inline-one">a span</span>.

<div id="block-one" class="note">
</div>

## Later {#custom}

<meta name="description">

```html
<a id="in-code"></a>
```
"""


def test_a_fragment_lands_on_an_anchor_the_author_named_in_html_or_a_heading_attribute(prose):
    links = "See [a](#old-place), [b](#inline-one), [c](#block-one), [d](#custom), [e](#later-custom)."
    assert found(prose(NAMED + links), "link.fragment.unresolved") == []


def test_an_id_inside_code_or_a_name_on_an_element_that_is_not_a_link_names_no_anchor(prose):
    messages = [m for _, _, m in found(prose(NAMED + "See [a](#in-code) and [b](#description)."),
                                       "link.fragment.unresolved")]
    assert len(messages) == 2 and "`#in-code`" in messages[0] and "`#description`" in messages[1]


def test_a_named_anchor_read_back_from_the_parse_cache_still_resolves(prose, hw):
    # the target is unchanged, so its anchors come from the parse cache; the linking document is
    # edited, so its link is judged again rather than replayed
    root = prose("See [the old place](0002-next.md#old-place).")
    (root / NEXT).write_text((root / NEXT).read_text(encoding="utf-8") + '\n<a name="old-place"></a>\n',
                             encoding="utf-8")
    check = ("check", "--root", str(root), "--now", NOW.isoformat(), "--rule", "link.fragment.unresolved")
    assert "0 findings" in hw(*check).out
    (root / DOC).write_text((root / DOC).read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    again = hw(*check, "--verbose")
    assert again.status == 0 and "0 findings" in again.out and "link.fragment.unresolved:" not in again.out


def test_a_fragment_into_this_document_names_this_document(prose):
    [(_, _, message)] = found(prose("See [above](#nowhere)."), "link.fragment.unresolved")
    assert "this document has no heading" in message


def test_a_fragment_into_a_file_that_is_not_markdown_is_not_judged(prose):
    root = prose("See [line ten](../../src/app.py#L10).")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("pass\n")
    assert found(root, "link.fragment.unresolved") == found(root, "link.path.unresolved") == []


def test_link_text_naming_one_document_while_the_link_reaches_another_is_a_mismatch(prose):
    assert found(prose("See [ACME-DR-0002](0002-next.md) and [`ACME-DR-0001`](#a-record)."),
                 "link.identifier.mismatch") == []
    [(_, _, message)] = found(prose("See [`ACME-DR-0002`](0001-base.md)."), "link.identifier.mismatch")
    assert f"identifier of `{NEXT}`" in message and f"reaches `{DOC}`" in message


# -- voice ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("sentence", "category"), [
    ("We renamed the queue to `jobs`.", "change_narration"),
    ("The field was changed to a list.", "change_narration"),
    ("Tenants no longer share a limit.", "change_narration"),
])
def test_each_forbidden_category_is_found(prose, sentence, category):
    [(_, _, message)] = found(prose(sentence), "voice.forbidden_construction")
    assert f"(`{category}`" in message


SPEC = """---
id: ACME-SPEC-0001
status: current
status_since: 2026-10-01
summary: "How the index behaves."
last_verified: 2026-10-01
title: Index
---

# Index

## Scope

The index.

## Behavior

{sentence}
"""


@pytest.mark.parametrize(("sentence", "category"), [
    ("The index will be rebuilt nightly.", "future_intent"),
    ("The team is going to drop the cache.", "future_intent"),
    ("We'll drop the cache.", "future_intent"),
    ("For now, retries are capped at five.", "phased_rollout"),
    ("In phase 2 the limit rises.", "phased_rollout"),
    ("Initially, only one region is served.", "phased_rollout"),
    ("Every tenant eventually gets a quota.", "phased_rollout"),
])
def test_a_decision_states_its_intent_and_stages_and_a_specification_may_not(prose, sentence, category):
    root = prose(sentence)
    assert found(root, "voice.forbidden_construction") == []
    (root / "docs/specifications").mkdir()
    (root / "docs/specifications/index.md").write_text(SPEC.format(sentence=sentence), encoding="utf-8")
    [(path, message)] = [(f.path, f.message) for f in run(load(root, NOW)).findings
                         if f.rule == "voice.forbidden_construction"]
    assert path == "docs/specifications/index.md" and f"(`{category}`, which the voice `declarative`" in message


@pytest.mark.parametrize("text", [
    "The queue is drained nightly, and every tenant has a quota.",
    "Run `we renamed it` to see the code path.",
    "```\nWe renamed the index.\n```",
    "    We renamed the index (indented code).",
    "> We renamed the queue, the vendor wrote.",
    'The vendor calls it "a plan we renamed", in its words.',
    "<!-- we renamed this comment -->",
    "See [the note](https://example.com/we-renamed/no-longer).",
])
def test_code_quotes_and_markup_are_not_the_authors_voice(prose, text):
    assert found(prose(text), "voice.forbidden_construction") == []


def test_a_finding_points_at_the_start_of_the_sentence_even_across_lines(prose):
    root = prose("The queue is drained. Retries were\nrenamed to attempts.")
    [(line, column, _)] = found(root, "voice.forbidden_construction")
    assert (line, column) == (lines_of(root) - 1, len("The queue is drained. ") + 1)


def test_a_list_item_is_reported_at_its_first_word(prose):
    root = prose("- The index was renamed to `idx`.")
    [(line, column, _)] = found(root, "voice.forbidden_construction")
    assert (line, column) == (lines_of(root), 3)


def test_the_voice_table_has_one_row_for_each_category_the_engine_matches():
    from headwater.check.rules.voice import VOICE
    from headwater.taxonomy.dialect import VOICE_CATEGORIES

    assert [row[0] for row in VOICE] == list(VOICE_CATEGORIES)


# -- retired terms --------------------------------------------------------------------------


def test_a_retired_term_with_a_replacement_is_an_error_carrying_a_patch(prose):
    root = prose("Requests pass the Whitelist, then the BLACKLIST.")
    findings = [f for f in run(load(root, NOW)).findings if f.rule == "language.retired_term.used"]
    assert [(f.severity.value, f.remediation, f.fixable) for f in findings] == [
        ("error", "write `Allowlist` instead", True), ("error", "write `DENYLIST` instead", True)]
    assert findings[0].patch.edits[0].old == "Whitelist"


def test_a_retired_term_in_a_heading_is_an_error_with_no_patch_since_its_anchor_would_move(prose):
    root = prose("See [the rules](#whitelist-rules).\n\n## Whitelist rules\n\nThe whitelist is short.")
    findings = [f for f in run(load(root, NOW)).findings if f.rule == "language.retired_term.used"]
    assert [(f.severity.value, f.remediation, f.fixable) for f in findings] == [
        ("error", "write `Allowlist` instead, and change the links to this heading's anchor with it", False),
        ("error", "write `allowlist` instead", True)]


def test_a_retired_term_without_a_replacement_is_a_warning_with_no_patch(prose):
    [finding] = [f for f in run(load(prose("Run a sanity\ncheck first."), NOW)).findings
                 if f.rule == "language.retired_term.used"]
    assert finding.severity.value == "warn" and finding.patch is None and not finding.fixable


def test_retired_terms_in_code_and_in_longer_words_are_not_used(prose):
    root = prose("The `whitelist` flag and the whitelisted-hosts file are code names.")
    assert found(root, "language.retired_term.used") == []


def test_fix_writes_the_replacement_and_a_second_fix_writes_nothing(hw, prose):
    root = prose("Requests pass the whitelist first, and the Blacklist after.")
    before = (root / DOC).read_text(encoding="utf-8")
    args = ("check", "--root", str(root), "--now", "2026-11-01", "--no-cache")
    shown = hw(*args)
    assert "fix (mechanical): write `allowlist` instead" in shown.out
    fixed = hw(*args, "--fix")
    assert fixed.status == 0 and fixed.err == f"headwater: fixed {DOC} (2 patches)\n"
    assert (root / DOC).read_text(encoding="utf-8") == before.replace(
        "the whitelist first, and the Blacklist", "the allowlist first, and the Denylist")
    again = hw(*args, "--fix", "--strict")
    assert again.status == 0 and again.err == ""


@pytest.mark.parametrize("text", [
    "Read https://example.com/whitelist/x and www.example.com/whitelist first.",
    "Edit ./whitelist.md, ../lists/whitelist.yml, /etc/whitelist or docs/whitelist.md by hand.",
    "Read the [hosts list][whitelist] first.\n\n[whitelist]: https://example.com/whitelist",
    "Read the [whitelist] first.\n\n[whitelist]: https://example.com/list",
    "Read the [whitelist][] first.\n\n[whitelist]: https://example.com/list",
])
def test_a_retired_term_inside_a_url_a_path_or_a_reference_label_is_not_prose(prose, text):
    # rewriting any of them would break the link or the path it names, and nothing would report it
    assert found(prose(text), "language.retired_term.used") == []


def test_the_link_text_of_an_inline_or_full_reference_link_is_still_prose(prose):
    root = prose("Read the [whitelist](https://example.com/list) and the [old whitelist][list].\n\n"
                 "[list]: https://example.com/list")
    assert [column for _, column, _ in found(root, "language.retired_term.used")] == [11, 61]


def test_fix_turns_the_article_before_a_replacement_that_sounds_otherwise(hw, prose):
    root = prose("Requests pass a whitelist, then A whitelist, then an blacklist.")
    before = (root / DOC).read_text(encoding="utf-8")
    fixed = hw("check", "--root", str(root), "--now", "2026-11-01", "--no-cache", "--fix")
    assert fixed.status == 0, fixed.err
    assert (root / DOC).read_text(encoding="utf-8") == before.replace(
        "a whitelist, then A whitelist, then an blacklist", "an allowlist, then An allowlist, then a denylist")


def test_a_page_s_slugs_are_gathered_once_however_many_of_its_links_name_a_fragment(prose, monkeypatch):
    from headwater.corpus.document import Document

    headings = "\n".join(f"## H {n}\n\n[back](#h-{n})\n" for n in range(300))
    root = prose(headings + "\n[nowhere](#no-such-heading)\n")
    asked = []
    slugs = Document.slugs

    def counted(self):
        asked.append(self.path)
        return slugs.fget(self)

    monkeypatch.setattr(Document, "slugs", property(counted))
    assert [message for _, _, message in found(root, "link.fragment.unresolved")] == [
        "the link `#no-such-heading` names `#no-such-heading`, and this document has no heading with that slug"]
    assert asked.count(DOC) == 1  # once per page: made again for each of 301 links, the time was the square


def test_a_document_s_links_are_resolved_once_however_many_link_rules_read_them(prose, monkeypatch):
    from headwater.check import links

    reach, asked = links.reach, []

    def counted(doc, href, site_roots=()):
        asked.append((doc.path, href))
        return reach(doc, href, site_roots)

    monkeypatch.setattr(links, "reach", counted)
    root = prose("See [one](0002-next.md), [two](0009-gone.md#x) and [ACME-DR-0002](0001-base.md).")
    assert [message for _, _, message in found(root, "link.path.unresolved")] == [
        "the link `0009-gone.md#x` reaches `docs/decisions/0009-gone.md`, and no file stands there"]
    # once a link as written (the page already links `0002-next.md` once): not once a rule
    assert sorted(href for path, href in asked if path == DOC) == [
        "0001-base.md", "0002-next.md", "0002-next.md", "0009-gone.md#x"]


def test_a_destination_holding_parentheses_is_blanked_whole_and_an_unclosed_one_blanks_nothing():
    from headwater.check.rules.mask import mask

    text = "See [x](https://e.org/wiki/Foo_(whitelist)) and [y](a.md), then [a]([a]([a]( whitelist."
    masked = mask(text)
    assert masked == "See [x]" + " " * 36 + " and [y]" + " " * 6 + ", then [a]([a]([a]( whitelist."
