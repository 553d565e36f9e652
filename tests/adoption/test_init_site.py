"""What `init` reads off a documentation site: the pages no shelf of the package claims, and the
folder its links opening with `/` are written against."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from adoption_harness import NOW, headwater, unpack

from headwater.adoption.forms import read

PAGE = "---\ntitle: {title}\ndescription: {title}, for readers of the site\n---\n\n# {title}\n\n{body}\n"


def _tree(root: Path, files: dict[str, str]) -> Path:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def hugo_like(tmp_path):
    """A Hugo site: pages under `site/content/en`, published at `/`, linking each other from there."""
    return _tree(tmp_path, {
        "site/content/en/_index.md": PAGE.format(title="Home", body="Start at [the guide](/guide/)."),
        "site/content/en/guide/_index.md": PAGE.format(title="Guide", body="See [install](/guide/install.md)."),
        "site/content/en/guide/install.md": PAGE.format(title="Install the agent",
                                                        body="Then [configure it](/guide/configure.md#ports)."),
        "site/content/en/guide/configure.md": PAGE.format(title="Configure the agent", body="## Ports\n\nOpen 80."),
        "README.md": "# The site\n",
    })


def test_init_types_the_pages_of_a_site_no_shelf_claims_and_says_why(hugo_like, hw):
    ran = hw("init", "--namespace", "SITE", "--root", str(hugo_like))
    assert ran.status == 0, ran.err
    assert ("  shelf pages: 4 pages under `site/content/en` have front matter and no shelf of the package claims "
            "them; every one carries `title`, so a page must. Kind `page` types them, so `check` reads their links "
            "and `route` offers them\n") in ran.out
    overlay = (hugo_like / ".headwater/overlay.yml").read_text(encoding="utf-8")
    assert "  shelves.pages:\n" in overlay and '    path: "site/content/en/**"\n' in overlay
    assert "    facets:\n      require:\n        - title\n" in overlay
    checked = hw("check", "--strict", "--root", str(hugo_like), "--now", NOW, "--format", "json")
    report = json.loads(checked.out)
    assert checked.status == 0 and report["findings"] == [], checked.out
    assert report["coverage"]["classified"] == 4 and report["coverage"]["checked"] == 4


def test_the_namespace_question_is_answered_by_uncommenting_its_lines_where_they_stand(hugo_like, hw):
    """On a site, init wrote `add:` with the pages' kind and asked for the namespace above it as a
    commented `# add:` block: uncommented as shown, it made `add` a key twice and resolve refused."""
    ran = hw("init", "--root", str(hugo_like))
    assert ran.status == 0 and not (hugo_like / ".headwater/taxonomy.lock").exists(), ran.err
    overlay = hugo_like / ".headwater/overlay.yml"
    text = overlay.read_text(encoding="utf-8")
    assert ("# The package cannot know it. Uncomment the lines under `add:` below and write your namespace in "
            "them.\n") in text
    assert "\nadd:\n  # identifier_schemes.decision_id.namespace: ACME\n" in text, text
    overlay.write_text(text.replace("  # identifier_schemes.", "  identifier_schemes.").replace(": ACME", ": SITE"),
                       encoding="utf-8")
    resolved = hw("taxonomy", "resolve", "--root", str(hugo_like))
    assert resolved.status == 0 and resolved.out.startswith("wrote .headwater/taxonomy.lock\n"), resolved.err
    checked = hw("check", "--strict", "--root", str(hugo_like), "--now", NOW)
    assert checked.status == 0 and "\n  0 findings" in checked.out, checked.out


def test_the_sites_own_summary_key_becomes_the_summary_route_reads(hugo_like, hw):
    ran = hw("init", "--namespace", "SITE", "--root", str(hugo_like))
    assert ("  facet description: 4 pages carry `description`, so it is the one-sentence summary `route` reads "
            "(the package calls it `summary`)\n") in ran.out
    overlay = (hugo_like / ".headwater/overlay.yml").read_text(encoding="utf-8")
    assert "remove:\n  - facets.summary\n" in overlay and "    - description\n" in overlay
    routed = json.loads(hw("route", "install the agent", "--json", "--root", str(hugo_like)).out)
    first = routed["pointers"][0]
    assert first["path"] == "site/content/en/guide/install.md"
    assert first["summary"] == "Install the agent, for readers of the site"
    # a page written later carries its summary under the team's key
    written = hw("new", "page", "--title", "Serve the site from a CDN", "--summary", "Pages are served from the edge.",
                 "--directory", "site/content/en/guide", "--root", str(hugo_like), "--now", NOW)
    assert written.status == 0, written.err
    page = (hugo_like / "site/content/en/guide/serve-the-site-from-a-cdn.md").read_text(encoding="utf-8")
    assert 'description: "Pages are served from the edge."\n' in page and "summary:" not in page
    assert "status" not in page  # a page has no lifecycle: no state, and no date it entered one


def test_a_link_opening_with_a_slash_is_looked_for_under_the_folder_the_site_publishes(hugo_like, hw):
    ran = hw("init", "--namespace", "SITE", "--root", str(hugo_like))
    assert ("  site root `site/content/en`: of the 3 paths that links opening with `/` name, 3 stand under "
            "`site/content/en`; none at the repository root\n") in ran.out
    declaration = (hugo_like / ".headwater/taxonomy.yml").read_text(encoding="utf-8")
    assert declaration.endswith("  site_roots: [site/content/en]\n")
    # the fragment of a link found under the site root is judged against the page it lands on
    page = hugo_like / "site/content/en/guide/install.md"
    page.write_text(page.read_text(encoding="utf-8").replace("#ports", "#port"), encoding="utf-8")
    checked = json.loads(hw("check", "--root", str(hugo_like), "--now", NOW, "--format", "json").out)
    assert [(f["rule"], f["path"]) for f in checked["findings"]] == [
        ("link.fragment.unresolved", "site/content/en/guide/install.md")]


def test_a_folder_of_static_files_beside_the_content_is_the_next_site_root(hugo_like, hw):
    extra = PAGE.format(title="Reports", body="Read [the audit](/files/audit.pdf) and [the deck](/files/deck.pdf).")
    (hugo_like / "site/content/en/reports.md").write_text(extra, encoding="utf-8")
    (hugo_like / "site/static/files").mkdir(parents=True)
    for name in ("audit.pdf", "deck.pdf"):
        (hugo_like / "site/static/files" / name).write_bytes(b"%PDF")
    ran = hw("init", "--namespace", "SITE", "--root", str(hugo_like))
    assert ("  site roots `site/content/en`, `site/static`: of the 5 paths that links opening with `/` name, 3 stand "
            "under `site/content/en`, 2 more under `site/static`; none at the repository root\n") in ran.out
    assert hw("check", "--strict", "--root", str(hugo_like), "--now", NOW).status == 0


def test_links_that_land_at_the_repository_root_declare_no_site_root(tmp_path, hw):
    root = _tree(tmp_path, {
        "docs/guide.md": PAGE.format(title="Guide", body="See [the other](/docs/other.md) and [this](/docs/guide.md)."),
        "docs/other.md": PAGE.format(title="Other", body="Back to [the guide](/docs/guide.md)."),
    })
    ran = hw("init", "--namespace", "SITE", "--root", str(root))
    assert ran.status == 0 and "site root" not in ran.out
    assert "site_roots" not in (root / ".headwater/taxonomy.yml").read_text(encoding="utf-8")


def test_a_site_root_keeps_the_repository_root_behind_it_for_links_that_land_only_there(hugo_like, hw):
    extra = PAGE.format(title="Licence", body="Read [the licence](/LICENSE) and [the readme](/README.md).")
    (hugo_like / "site/content/en/licence.md").write_text(extra, encoding="utf-8")
    (hugo_like / "LICENSE").write_text("MIT\n", encoding="utf-8")
    ran = hw("init", "--namespace", "SITE", "--root", str(hugo_like))
    assert ("  site roots `site/content/en`, `.`: of the 5 paths that links opening with `/` name, 3 stand under "
            "`site/content/en`; 2 only at the repository root, which stays the last site root\n") in ran.out
    assert (hugo_like / ".headwater/taxonomy.yml").read_text(encoding="utf-8").endswith(
        '  site_roots: [site/content/en, "."]\n')
    checked = hw("check", "--strict", "--root", str(hugo_like), "--now", NOW)
    assert checked.status == 0, checked.out


def test_pages_at_the_repository_root_get_no_shelf_since_a_shelf_is_bounded_by_a_folder(tmp_path, hw):
    root = _tree(tmp_path, {"index.md": PAGE.format(title="Home", body="Hello."),
                            "guide/setup.md": PAGE.format(title="Set up", body="Steps.")})
    ran = hw("init", "--namespace", "SITE", "--corpus", ".", "--root", str(root))
    assert ran.status == 0 and "shelf pages" not in ran.out, ran.err
    assert "kinds.page" not in (root / ".headwater/overlay.yml").read_text(encoding="utf-8")


def test_pages_without_front_matter_are_given_no_kind(tmp_path, hw):
    root = _tree(tmp_path, {f"docs/note-{n}.md": f"# Note {n}\n\nPlain notes.\n" for n in range(4)})
    ran = hw("init", "--namespace", "SITE", "--root", str(root))
    assert ran.status == 0 and "shelf pages" not in ran.out
    assert "kinds.page" not in (root / ".headwater/overlay.yml").read_text(encoding="utf-8")


def test_a_site_where_not_every_page_is_titled_types_them_all_and_requires_no_title(hugo_like, hw):
    (hugo_like / "site/content/en/_index.md").write_text("---\ntype: docs\n---\n# Home\n", encoding="utf-8")
    ran = hw("init", "--namespace", "SITE", "--root", str(hugo_like))
    assert "3 of them carry `title`, so a page is not required to." in ran.out
    assert "    facets:" not in (hugo_like / ".headwater/overlay.yml").read_text(encoding="utf-8")


def test_a_title_read_off_a_heading_is_the_text_a_reader_sees():
    assert read("# Use [Postgres](x.md) for <b>state</b>\n").title == "Use Postgres for state"
    assert read("# 3. Record architecture decisions\n").title == "Record architecture decisions"
    assert read("# <br>\n").title is None
    assert read('# <img src="/logo.png" alt="Logo"> Widgets\n').title == "Widgets"
    assert read("# ![Logo](/logo.png) Widgets\n").title == "Widgets"


@pytest.mark.parametrize(("heading", "alt"), [('<img src="/images/home.png" alt="Dapr Docs" width=400>', "Dapr Docs"),
                                              ("![Dapr Docs](/images/home.png)", "Dapr Docs"),
                                              ('<img src="/images/home.png">', "")])
def test_a_heading_that_shows_only_an_image_is_no_title(heading, alt):
    derived = read(f"# {heading}\n\nWelcome.\n\n## Next\n")
    assert derived.title is None and derived.pictured == alt


def test_adopt_writes_no_title_off_a_home_page_whose_heading_is_an_image_and_says_so(hugo_like, hw):
    home = "---\ntype: docs\n---\n# <img src=\"/images/home.png\" alt=\"Widget Docs\" width=400>\n\nWelcome.\n"
    (hugo_like / "site/content/en/_index.md").write_text(home, encoding="utf-8")
    assert hw("init", "--namespace", "SITE", "--root", str(hugo_like)).status == 0
    adopted = hw("adopt", "--root", str(hugo_like), "--now", NOW)
    assert adopted.status == 0 and adopted.out.startswith(
        "left site/content/en/_index.md without `title`: its first heading shows an image (alt text `Widget Docs`), "
        "not a title a reader sees; write `title` yourself\n"), adopted.out
    assert (hugo_like / "site/content/en/_index.md").read_text(encoding="utf-8") == home


def test_init_on_a_real_docs_site_types_every_page_and_finds_its_rooted_links(tmp_path):
    """dapr/docs: Hugo pages under `daprdocs/content/en`, linked at `/reference/…` as the site publishes them."""
    site = unpack("dapr-docs", tmp_path)
    ran = headwater(site, "init", "--namespace", "DAPR")
    assert ran.status == 0, ran.err
    assert "  site root `daprdocs/content/en`: " in ran.out
    assert "  shelf pages: 454 pages under `daprdocs/content/en`" in ran.out
    home = (site / "daprdocs/content/en/_index.md").read_text(encoding="utf-8")
    adopted = headwater(site, "adopt")  # the home page's first heading is an image: no title to write
    assert adopted.status == 0 and adopted.out == (
        "left daprdocs/content/en/_index.md without `title`: its first heading shows an image (alt text `Dapr "
        "Docs`), not a title a reader sees; write `title` yourself\n"
        "nothing else to migrate: every other record on a shelf already carries what its body says\n"), adopted.out
    assert (site / "daprdocs/content/en/_index.md").read_text(encoding="utf-8") == home
    report = headwater(site, "check", "--now", NOW, "--format", "json").json
    assert report["coverage"]["seen"] == report["coverage"]["classified"] == 454
    rules = {f["rule"] for f in report["findings"]}
    assert rules == {"link.path.unresolved", "link.fragment.unresolved", "facet.value.blank",
                     "coverage.document_unchecked"}, rules
    # the home page as Hugo keeps it: no facet of its own, no Markdown link, so no check reaches it
    unchecked = [f["path"] for f in report["findings"] if f["rule"] == "coverage.document_unchecked"]
    assert unchecked == ["daprdocs/content/en/_index.md"]
    blank = [f["path"] for f in report["findings"] if f["rule"] == "facet.value.blank"]
    assert len(blank) == 2 and all("/performance-and-scalability/" in p for p in blank)  # `description: ""`
    # every rooted link still unresolved names a file the snapshot does not carry (PDFs, YAML, slides)
    rooted = [f["message"] for f in report["findings"] if f["message"].startswith("the link `/")]
    assert rooted and not any("`/reference/" in m for m in rooted), rooted


def test_new_writes_a_page_where_the_site_publishes_it(hugo_like, hw):
    assert hw("init", "--namespace", "SITE", "--root", str(hugo_like)).status == 0
    ran = hw("new", "page", "--title", "Serve from a CDN", "--root", str(hugo_like), "--now", NOW)
    assert ran.status == 0 and ran.out.startswith("wrote site/content/en/serve-from-a-cdn.md\n"), ran.err
