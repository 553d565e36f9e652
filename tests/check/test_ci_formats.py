"""The formats CI and editors read (`github`, `concise`), the bounded markdown, the counts at the
end of the text report, and the filters `check` shares with the MCP `check` tool."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from headwater.check.finding import Finding, Severity
from headwater.discovery import place_in_work_tree
from headwater.render.lines import concise_line, github_command
from tests.conftest import check_all_tally

FIXTURES = Path(__file__).resolve().parents[2] / "corpus_fixtures"
CHECK_ALL = ("--root", str(FIXTURES / "check-all"), "--now", "2026-11-01", "--no-cache")
# GitHub's workflow command: `::<command> <k>=<v>,<k>=<v>::<data>`, properties escaped so none holds `,` or `:`.
COMMAND = re.compile(r"^::(error|warning|notice) ((?:[a-z]+=[^,:\r\n]*)(?:,[a-z]+=[^,:\r\n]*)*)::([^\r\n]*)$")
CONCISE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warn|info) "
                     r"(?P<rule>[a-z_.]+) (?P<message>.+)$")


def unescape(text: str) -> str:
    """What the Actions runner does to a property or a message before it shows it."""
    for coded, raw in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(coded, raw)
    return text


def findings_json(hw, *more: str) -> list[dict]:
    ran = hw("check", *CHECK_ALL, "--format", "json", *more)
    return [f for f in json.loads(ran.out)["findings"] if f["escape"] == "none"]


def test_every_github_line_is_a_workflow_command_that_unescapes_to_the_finding(hw):
    ran = hw("check", *CHECK_ALL, "--format", "github")
    *commands, counts = ran.out.splitlines()
    expected = findings_json(hw)
    place = place_in_work_tree(Path(CHECK_ALL[1]))  # read in place: this repository's folders, when it is a work tree
    assert ran.status == 0 and len(commands) == len(expected) > 0
    for line, finding in zip(commands, expected, strict=True):
        match = COMMAND.match(line)
        assert match, line
        props = dict(p.split("=", 1) for p in match.group(2).split(","))
        assert unescape(props["file"]) == place + finding["path"] and props["title"] == finding["rule"]
        assert props.get("line") == (str(finding["line"]) if finding["line"] else None)
        assert unescape(match.group(3)).startswith(finding["message"] + "\n")
        assert match.group(1) == {"error": "error", "warn": "warning", "info": "notice"}[finding["severity"]]
    assert counts == check_all_tally().counts


def test_github_escapes_percent_colons_and_commas_in_properties_and_shows_controls_escaped():
    finding = Finding("a.b", Severity.WARN, "docs/50%,a:b.md", 3, 7, "one\r\ntwo 100%: x,y \x1b[2J", "fix it",
                      False, "s")
    line = github_command(finding)
    assert line == ("::warning file=docs/50%25%2Ca%3Ab.md,line=3,col=7,title=a.b::"
                    "one\\u{d}\\u{a}two 100%25: x,y \\u{1b}[2J%0Afix: fix it")
    assert COMMAND.match(line) and "\x1b" not in line


def test_every_concise_line_parses_as_path_line_col_severity_rule_message(hw):
    ran = hw("check", *CHECK_ALL, "--format", "concise")
    *lines, counts = ran.out.splitlines()
    expected = findings_json(hw)
    parsed = [CONCISE.match(line) for line in lines]
    assert all(parsed) and len(parsed) == len(expected)
    for match, finding in zip(parsed, expected, strict=True):
        assert (match["path"], match["rule"], match["severity"]) == (finding["path"], finding["rule"],
                                                                     finding["severity"])
        assert int(match["line"]) == (finding["line"] or 1)
    assert counts == check_all_tally().counts
    assert not CONCISE.match(counts)


def test_a_concise_line_is_one_line_and_a_whole_file_finding_stands_at_its_first_character():
    finding = Finding("a.b", Severity.ERROR, "docs/x.md", 0, 0, "first\nsecond\tthird \x1b]8;;x\x07", "", False, "s")
    assert concise_line(finding) == "docs/x.md:1:1: error a.b first second third \\u{1b}]8;;x\\u{7}"


def test_a_concise_line_shows_a_line_break_in_a_file_name_escaped_never_as_a_space():
    finding = Finding("a.b", Severity.ERROR, "docs/new\nline.md", 2, 1, "m", "", False, "s")
    assert concise_line(finding) == "docs/new\\u{a}line.md:2:1: error a.b m"


def test_the_text_report_gives_its_counts_at_the_end_as_at_the_top(hw):
    out = hw("check", *CHECK_ALL).out.splitlines()
    tally = check_all_tally()
    assert out[-1] == "  " + tally.counts
    assert f"  {tally.live} findings" in out


def test_the_markdown_report_stays_under_max_bytes_and_counts_what_it_left_out(hw):
    whole = hw("check", *CHECK_ALL, "--format", "markdown").out
    ran = hw("check", *CHECK_ALL, "--format", "markdown", "--max-bytes", "2500")
    assert ran.status == 0 and len(ran.out.encode()) <= 2500 < len(whole.encode())
    rows = [line for line in ran.out.splitlines() if line.startswith("| ") and "`" in line]
    left = int(re.search(r"_(\d+) findings are not in this report, which stops short of 2,500 bytes", ran.out)[1])
    # the live findings and those held by an adoption task
    assert rows and left == check_all_tally().total - len(rows) and all(row.startswith("| error |") for row in rows)


def test_the_default_markdown_bound_keeps_a_huge_report_under_a_pull_request_comments_limit(hw):
    import dataclasses

    from headwater.check.runner import run
    from headwater.clock import run_date
    from headwater.render import MARKDOWN_MAX_BYTES, render
    from headwater.snapshot import load

    snapshot = load(FIXTURES / "check-all", run_date("2026-11-01"))
    report = run(snapshot)
    huge = dataclasses.replace(report, findings=report.findings * 400)
    text = render("markdown", huge, snapshot)
    assert len(text.encode()) <= MARKDOWN_MAX_BYTES < 65_536
    left = int(re.search(r"_([\d]+) findings are not in this report", text)[1])
    rows = sum(1 for line in text.splitlines() if line.startswith("| ") and "`" in line)
    assert left + rows == len(huge.findings)


@pytest.mark.parametrize(("flags", "keep"), [
    (("--rule", "facet"), lambda f: f["rule"].startswith("facet.")),
    (("--rule", "identifier.claimed_twice"), lambda f: f["rule"] == "identifier.claimed_twice"),
    (("--path", "docs/specifications"), lambda f: f["path"].startswith("docs/specifications/")),
    (("--path", "docs/decisions/0001-base.md"), lambda f: f["path"] == "docs/decisions/0001-base.md"),
    (("--path", "docs/*/0002-*.md"), lambda f: f["path"].startswith("docs/decisions/0002-")),
    (("--min-severity", "error"), lambda f: f["severity"] == "error"),
])
def test_each_check_filter_keeps_exactly_the_findings_it_names(hw, flags, keep):
    every = findings_json(hw)
    chosen = findings_json(hw, *flags)
    assert chosen == [f for f in every if keep(f)] and 0 < len(chosen) < len(every)


def test_the_limit_writes_the_most_severe_findings_in_report_order_and_says_how_many_it_left_out(hw):
    every = findings_json(hw)
    rank = {"error": 0, "warn": 1, "info": 2}
    first = sorted(sorted(range(len(every)), key=lambda n: (rank[every[n]["severity"]], n))[:40])
    limited = findings_json(hw, "--limit", "40")
    assert limited == [every[n] for n in first] and {f["severity"] for f in limited} == {"error", "warn"}
    assert [f for f in findings_json(hw, "--limit", "5")] == [f for f in every if f["severity"] == "error"][:5]
    tally = check_all_tally()
    live, held = tally.counts.split("; ")
    words = f"{live}; {tally.total - 5} of {tally.total} not written, past the limit; {held}".split()
    assert hw("check", *CHECK_ALL, "--limit", "5", "--wide").out.split()[-len(words):] == words


def test_strict_judges_only_the_selected_findings(hw):
    assert hw("check", *CHECK_ALL, "--strict").status == 1
    unchecked = ("--rule", "coverage.document_unchecked")
    assert hw("check", *CHECK_ALL, "--strict", "--min-severity", "error", *unchecked).status == 0
    assert hw("check", *CHECK_ALL, "--strict", "--limit", "0").status == 1  # a limit hides nothing from --strict


@pytest.mark.parametrize(("args", "sentence"), [
    (("--rule", "no.such"), "`--rule` names `no.such`, which is no rule and no family of rules"),
    (("--min-severity", "fatal"), "`--min-severity` takes error, warn, info, and `fatal` is not one of them"),
    (("--limit", "many"), "`--limit` takes a whole number of findings, 0 or more"),
    (("--path", "../elsewhere"), "`--path` takes a path inside the repository"),
    (("--format", "markdown", "--max-bytes", "100"), "`--max-bytes` takes a number of bytes, 1024 or more"),
    (("--max-bytes", "5000"), "`--max-bytes` bounds the markdown report, and `--format text` is not markdown"),
    (("--fix", "--rule", "facet"), "`--fix` applies every mechanical patch of the corpus"),
    (("--quiet", "--verbose"), "`--quiet` and `--verbose` ask for opposite things"),
])
def test_a_bad_filter_is_a_one_sentence_refusal(hw, args, sentence):
    ran = hw("check", *CHECK_ALL, *args)
    assert ran.status == 1 and ran.out == "" and ran.err.startswith("headwater: " + sentence)


def test_the_cache_account_is_written_only_under_verbose(hw, copy_fixture):
    root = copy_fixture("quickstart")
    assert hw("check", "--root", str(root)).err == ""
    assert re.fullmatch(r"headwater: cache: \d+ hits, \d+ misses\n", hw("check", "--root", str(root), "--verbose").err)
    assert hw("check", "--root", str(root), "--quiet").err == ""


def test_a_limit_also_bounds_the_census_rows_the_text_report_lists(hw):
    quickstart = ("--root", str(FIXTURES / "quickstart"), "--now", "2026-11-01", "--no-cache")
    every = hw("check", *quickstart).out
    assert "docs/archive/old-plan.md excluded" in every and "not listed" not in every
    one = hw("check", *quickstart, "--limit", "1").out
    assert "docs/archive/old-plan.md excluded" in one and "  1 more row not listed, past the limit\n" in one
    assert "  2 more rows not listed, past the limit\n" in hw("check", *quickstart, "--limit", "0").out


def test_quiet_writes_the_fix_without_its_account_on_stderr(hw, copy_fixture):
    root = copy_fixture("quickstart")
    first = root / "docs/decisions/0001-store-attempts-in-postgres.md"
    kept = first.read_bytes()
    assert hw("new", "decision", "--title", "Retry with backoff", "--relates", "supersedes=ACME-DR-0001",
              "--root", str(root), "--now", "2026-11-01").status == 0
    first.write_bytes(kept)  # lose the far half, which `--fix` writes back
    fixed = hw("check", "--root", str(root), "--now", "2026-11-01", "--fix", "--quiet")
    assert fixed.status == 0 and fixed.err == "" and first.read_bytes() != kept
