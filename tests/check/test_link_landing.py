"""Where a relative link lands, and what a cached verdict on a document's links must see change."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from headwater.check.links import Reach, named, reach
from headwater.corpus.body import Link

NOW = ("--now", "2026-11-01")
SOURCE = "docs/decisions/0003-rate-limit-per-tenant.md"
RETRIES = "docs/specifications/queue-retries.md"


def page(path: str) -> SimpleNamespace:
    return SimpleNamespace(path=path)  # `reach` reads a document's path alone


@pytest.mark.parametrize(("href", "landed"), [
    ("../", Reach("", "")),  # the repository's root, named as the empty path
    ("..", Reach("", "")),
    ("../../", Reach(None, "")),  # one folder above the root
    ("../../x.md#top", Reach(None, "top")),
    ("../b%20c.md?plain=1#S%C3%A9", Reach("b c.md", "Sé")),
    ("#only", Reach("docs/a.md", "only")),
])
def test_a_relative_link_lands_where_its_folder_says_and_never_above_the_root(href, landed):
    assert reach(page("docs/a.md"), href) == landed


@pytest.mark.parametrize("href", ["https://example.com/x.md", "//host/x.md", "mailto:a@b.c", ""])
def test_an_address_with_a_scheme_or_a_host_or_nothing_is_not_resolved(href):
    assert reach(page("docs/a.md"), href) is None


def test_a_rooted_link_lands_under_each_site_root_whatever_letter_it_opens_with():
    assert reach(page("site/a.md"), "/Xylophone.md", ("site", "static")) == \
        Reach("site/Xylophone.md", "", ("static/Xylophone.md",))
    assert reach(page("site/a.md"), "/Xylophone.md") == Reach("Xylophone.md", "")


def test_on_a_published_site_a_link_also_lands_under_the_folder_named_for_its_page():
    assert reach(page("guide/setup.v2.md"), "img.png", ("site",)) == \
        Reach("guide/img.png", "", ("guide/setup.v2/img.png",))
    assert reach(page("setup.md"), "img.png", ("site",)) == Reach("img.png", "", ("setup/img.png",))
    assert reach(page("guide/README.md"), "img.png", ("site",)) == Reach("guide/img.png", "")
    assert reach(page("guide/setup.md"), "img.png") == Reach("guide/img.png", "")  # no site: the forge's reading


def test_a_link_text_names_an_identifier_trimmed_and_unticked():
    assert named(Link("x.md", " `ACME-DR-0002` ", 1, 1)) == "ACME-DR-0002"
    assert named(Link("x.md", "`X-1X`", 1, 1)) == "X-1X"  # only the ticks go


def _findings(hw, root, rule: str) -> list[tuple[str, str]]:
    ran = hw("check", "--root", str(root), "--format", "json", *NOW)
    assert ran.status in (0, 1), ran.err
    return [(f["path"], f["message"]) for f in json.loads(ran.out)["findings"] if f["rule"] == rule]


def _linking(root, line: str) -> None:
    source = root / SOURCE
    source.write_text(source.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


@pytest.mark.parametrize("spaced", [False, True])
def test_a_fragment_into_a_page_edited_since_the_last_run_is_judged_again(hw, quickstart, spaced):
    retries = quickstart / RETRIES
    if spaced:  # a name with a space: the verdict's inputs are listed by separators, never by blanks
        moved = quickstart / "docs/specifications/queue retries.md"
        moved.write_text(retries.read_text(encoding="utf-8"), encoding="utf-8")
        retries.unlink()
        retries = moved
    retries.write_text(retries.read_text(encoding="utf-8") + "\n## Limits\n\nAt most eight.\n", encoding="utf-8")
    name = "queue%20retries.md" if spaced else "queue-retries.md"
    _linking(quickstart, f"Retries stop, as [the limits](../specifications/{name}#limits) say.")
    assert _findings(hw, quickstart, "link.fragment.unresolved") == []
    retries.write_text(retries.read_text(encoding="utf-8").replace("## Limits", "## Bounds"), encoding="utf-8")
    assert [path for path, _ in _findings(hw, quickstart, "link.fragment.unresolved")] == [SOURCE]


def test_a_link_to_a_file_the_census_keeps_without_a_document_stands_on_every_run(hw, quickstart):
    _linking(quickstart, "The [old plan](../archive/old-plan.md) is kept for its history.")
    first = hw("check", "--root", str(quickstart), *NOW)
    again = hw("check", "--root", str(quickstart), *NOW)  # the verdict served from the cache
    assert (first.status, first.out) == (again.status, again.out)
    assert _findings(hw, quickstart, "link.path.unresolved") == []


def test_a_link_text_is_judged_again_when_a_new_document_comes_to_carry_it(hw, quickstart):
    _linking(quickstart, "As [ACME-DR-0009](0002-deliver-at-least-once.md) will say.")
    assert _findings(hw, quickstart, "link.identifier.mismatch") == []
    later = quickstart / "docs/decisions/0009-later.md"
    later.write_text((quickstart / SOURCE).read_text(encoding="utf-8").replace("ACME-DR-0003", "ACME-DR-0009"),
                     encoding="utf-8")
    assert (SOURCE, "the link text `ACME-DR-0009` is the identifier of `docs/decisions/0009-later.md`, and the "
            "link reaches `docs/decisions/0002-deliver-at-least-once.md`") in \
        _findings(hw, quickstart, "link.identifier.mismatch")
