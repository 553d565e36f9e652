"""`init` binds a repository; `taxonomy kinds` says what can be written there."""

import json
import subprocess


def test_the_newcomer_loop_binds_resolves_and_lists_kinds(tmp_path, hw):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    ran = hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert ran.out.startswith("wrote .headwater/taxonomy.yml\nwrote .headwater/overlay.yml\n"
                              "wrote .headwater/taxonomy.lock\n")
    assert "Next: run `headwater check`" in ran.out
    assert hw("taxonomy", "resolve", "--check", "--root", str(tmp_path)).status == 0
    kinds = hw("taxonomy", "kinds", "--root", str(tmp_path))
    assert kinds.out.startswith("headwater/standard 1.0.0: 2 kinds a document can be, and 1 abstract kind")
    assert '  draft     headwater new decision --title "<title>"' in kinds.out


def test_init_without_a_namespace_asks_and_resolve_says_which_line_to_add(tmp_path, hw):
    assert hw("init", "--root", str(tmp_path)).status == 0
    overlay = (tmp_path / ".headwater/overlay.yml").read_text()
    assert "QUESTION" in overlay and overlay.endswith("add: {}\n")
    ran = hw("taxonomy", "resolve", "--root", str(tmp_path))
    assert ran.status == 1 and "identifier_schemes.decision_id.namespace: <NS>" in ran.err


def test_kinds_in_a_repository_never_bound_names_init_not_resolve(tmp_path, hw):
    """Resolve cannot help a repository with no declaration, so the lock's refusal must not send there."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    ran = hw("taxonomy", "kinds", "--root", str(tmp_path))
    assert ran.status == 1 and ran.out == ""
    assert ran.err == ("headwater: this repository is not bound to a taxonomy: .headwater/taxonomy.yml is "
                       "missing. Run `headwater init` to bind it\n")
    assert hw("init", "--root", str(tmp_path)).status == 0  # bound, with the namespace still to answer
    ran = hw("taxonomy", "kinds", "--root", str(tmp_path))
    assert ran.status == 1 and "Run `headwater taxonomy resolve` to write it" in ran.err


def test_init_picks_the_directory_with_the_most_markdown(tmp_path, hw):
    for name in ("a.md", "b.md"):
        (tmp_path / "handbook").mkdir(exist_ok=True)
        (tmp_path / "handbook" / name).write_text("# x\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "c.md").write_text("# x\n")
    hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert "  root: handbook\n" in (tmp_path / ".headwater/taxonomy.yml").read_text()


def _markdown(root, *paths: str) -> None:
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("# x\n")


def test_init_picks_the_folder_holding_the_most_markdown_over_one_named_as_documentation(tmp_path, hw):
    _markdown(tmp_path, "docs/one.md", "guides/a.md", "guides/b.md", "guides/c/d.md")
    ran = hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert ("  corpus root guides: `guides` holds the most Markdown (3 files); `docs` (1 Markdown file) lies outside "
            "it, so `check` and `route` never read it (`--corpus` names another root)\n") in ran.out, ran.out
    assert "  root: guides\n" in (tmp_path / ".headwater/taxonomy.yml").read_text()


def test_init_breaks_a_tie_by_a_name_said_as_documentation_then_by_name(tmp_path, hw):
    _markdown(tmp_path, "api/a.md", "api/b.md", "zeta/a.md", "zeta/b.md", "other/a.md", "other/b.md")
    ran = hw("init", "--dry-run", "--root", str(tmp_path))
    assert ran.status == 0 and "  corpus root api: `api` holds the most Markdown (2 files; as many as " \
                               "`other`, `zeta`, and `api` comes first by name); `other` (2 Markdown files), " \
                               "`zeta` (2) lie outside it" in ran.out
    _markdown(tmp_path, "rfcs/a.md", "rfcs/b.md")
    ran = hw("init", "--dry-run", "--root", str(tmp_path))
    assert ran.status == 0 and "  corpus root rfcs: `rfcs` holds the most Markdown (2 files; as many as " \
                               "`api`, `other`, `zeta`, and `rfcs` is named as documentation); `api` (2 Markdown " \
                               "files), `other` (2), `zeta` (2) lie outside it, so `check` and `route` never read " \
                               "them (`--corpus` names another root)\n" in ran.out, ran.out


def test_init_names_a_second_documentation_folder_its_corpus_root_leaves_out(tmp_path, hw):
    """dapr/docs keeps its site in `daprdocs/content/en` and the SDKs' pages in `sdkdocs`: init
    rooted the corpus at the site and said nothing of the 40 pages no verb would read."""
    _markdown(tmp_path, "README.md", "site/content/en/a.md", "site/content/en/b/c.md", "site/content/en/b/d.md",
              "sdkdocs/python/a.md", "sdkdocs/go/b.md", "pkg/runtime/README.md")
    ran = hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert ("  corpus root site/content/en: `site` holds the most Markdown (3 files), all of it under "
            "`site/content/en`; `sdkdocs` (2 Markdown files), `pkg` (1) lie outside it, so `check` and `route` "
            "never read them (`--corpus` names another root)\n") in ran.out, ran.out


def test_init_roots_the_corpus_at_the_nested_folder_that_holds_all_of_it(tmp_path, hw):
    _markdown(tmp_path, "README.md", "CONTRIBUTING.md", "website/docs/intro.md", "website/docs/guide/a.md",
              "website/docs/guide/b.md")
    ran = hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert ("  corpus root website/docs: `website` holds the most Markdown (3 files), all of it under "
            "`website/docs`\n") in ran.out
    assert "  root: website/docs\n" in (tmp_path / ".headwater/taxonomy.yml").read_text()


def test_init_roots_the_corpus_above_a_single_folder_of_files_so_other_shelves_stand_beside_it(tmp_path, hw):
    _markdown(tmp_path, "README.md", "docs/handbook/a.md", "docs/handbook/b.md")
    ran = hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert "  corpus root docs: `docs` holds the most Markdown (2 files)\n" in ran.out


def test_a_vendored_hidden_or_ignored_folder_never_holds_the_corpus_root(tmp_path, hw):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    many = [f"{folder}/{n}.md" for folder in ("node_modules/pkg", ".github", "site", "out/html") for n in range(5)]
    _markdown(tmp_path, "notes/one.md", *many)
    (tmp_path / ".gitignore").write_text("/site/\n")
    (tmp_path / "out").mkdir(exist_ok=True)
    (tmp_path / "out/.gitignore").write_text("html\n")
    ran = hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert "  corpus root notes: `notes` holds the most Markdown (1 file)\n" in ran.out


def test_corpus_overrides_the_folder_holding_the_most_markdown(tmp_path, hw):
    _markdown(tmp_path, "docs/one.md", "guides/a.md", "guides/b.md")
    ran = hw("init", "--namespace", "ACME", "--corpus", "docs", "--root", str(tmp_path))
    assert ran.status == 0 and "  corpus root docs: given with `--corpus`\n" in ran.out, ran.err
    assert "  root: docs\n" in (tmp_path / ".headwater/taxonomy.yml").read_text()


def test_init_refuses_a_repository_that_is_already_bound(quickstart, hw):
    before = (quickstart / ".headwater/taxonomy.yml").read_bytes()
    ran = hw("init", "--root", str(quickstart))
    assert ran.status == 1 and ran.out == "" and "already bound" in ran.err
    assert (quickstart / ".headwater/taxonomy.yml").read_bytes() == before


def test_init_names_the_files_an_earlier_binding_left_and_the_verb_that_recovers(tmp_path, hw):
    assert hw("init", "--namespace", "ACME", "--root", str(tmp_path)).status == 0
    (tmp_path / ".headwater/taxonomy.lock").unlink()  # an `init` stopped before its lock
    half = hw("init", "--root", str(tmp_path))
    assert half.status == 1 and half.err == (
        "headwater: this repository is half bound: .headwater/taxonomy.yml and .headwater/overlay.yml exist, but "
        "not .headwater/taxonomy.lock. Run `headwater taxonomy resolve` to finish binding it, or remove them to "
        "start over\n")
    (tmp_path / ".headwater/taxonomy.yml").unlink()
    stray = hw("init", "--root", str(tmp_path))
    assert stray.status == 1 and stray.err == (
        "headwater: this repository is not bound, yet .headwater/overlay.yml exists, left from an earlier "
        "binding; remove it and run `headwater init` again\n")
    (tmp_path / ".headwater/overlay.yml").unlink()
    assert hw("init", "--namespace", "ACME", "--root", str(tmp_path)).status == 0


def test_an_init_interrupted_after_its_files_are_written_says_they_bind_the_repository(tmp_path, hw, monkeypatch):
    from headwater.cli import verb_init

    def interrupted(root):
        raise KeyboardInterrupt

    monkeypatch.setattr(verb_init, "_to_adopt", interrupted)
    ran = hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.status == 1 and ran.out == "" and ran.err == (
        "headwater: interrupted after writing .headwater/taxonomy.yml, .headwater/overlay.yml, "
        ".headwater/taxonomy.lock, which bind this repository; run `headwater check`\n")


def test_a_run_interrupted_outside_a_write_says_so(tmp_path, hw, monkeypatch):
    from headwater.adoption import init

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(init, "infer", interrupted)
    ran = hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.status == 1 and ran.err == "headwater: interrupted, so nothing more was done\n"
    assert not (tmp_path / ".headwater").exists()


def test_init_refuses_an_unknown_bundle_and_a_bad_namespace(tmp_path, hw):
    assert "has no bundle `nope`" in hw("init", "--bundle", "nope", "--root", str(tmp_path)).err
    assert "`--namespace`" in hw("init", "--namespace", "no-no", "--root", str(tmp_path)).err
    assert not (tmp_path / ".headwater").exists()


def test_kinds_json_carries_the_documented_members(quickstart, hw):
    shape = json.loads(hw("taxonomy", "kinds", "--json", "--root", str(quickstart)).out)
    assert list(shape) == ["version", "package", "package_version", "abstract", "kinds"]
    decision = shape["kinds"][0]
    assert list(decision) == ["name", "is_a", "purpose", "shelves", "required_facets", "required_sections",
                              "draft", "when"]
    assert decision["shelves"] == [{"name": "decisions", "path": "docs/decisions/**"}]


def test_a_namespace_of_letters_outside_ascii_is_refused_saying_which_letters(tmp_path, hw):
    ran = hw("init", "--namespace", "ÄÖ", "--root", str(tmp_path))
    assert ran.status == 1 and "`--namespace` takes ASCII letters and digits (A-Z, a-z, 0-9)" in ran.err
    assert not (tmp_path / ".headwater").exists()


def test_a_kind_requiring_a_facet_nothing_decides_drafts_the_facet_flag_new_needs(tmp_path, hw):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert hw("init", "--namespace", "ACME", "--root", str(tmp_path)).status == 0
    with (tmp_path / ".headwater/overlay.yml").open("a") as overlay:
        overlay.write("  facets.severity: {type: string, values: [sev1, sev2]}\n"
                      "  kinds.decision.facets: {require: [severity]}\n")
    assert hw("taxonomy", "resolve", "--root", str(tmp_path)).status == 0
    kinds = hw("taxonomy", "kinds", "--root", str(tmp_path)).out
    draft = '  draft     headwater new decision --title "<title>" --facet severity=<sev1|sev2>'
    assert draft in kinds.splitlines()
    bare = hw("new", "decision", "--title", "Pick a queue", "--root", str(tmp_path))
    assert bare.status == 1 and "--facet severity=<value>" in bare.err  # what the draft now says beforehand
    written = hw("new", "decision", "--title", "Pick a queue", "--facet", "severity=sev1", "--root", str(tmp_path))
    assert written.status == 0, written.err
