"""The command line's contract with what a user types: undecodable bytes, repeated flags, empty
paths, flags that take no value, `--`, and refusals that name what actually went wrong."""

import os
import subprocess
import sys

import pytest

SEE_CHECK = "See `headwater help check`"


def at(root, args: list[str]) -> list[str]:
    """The arguments over a copied repository (a refusal missed must not write into this one)."""
    return args if "--root" in args else [*args, "--root", str(root)]


def refused(ran, sentence: str) -> bool:
    return (ran.status, ran.out, ran.err) == (1, "", f"headwater: {sentence}\n")


def test_an_argument_that_is_not_utf8_is_refused_before_any_byte_reaches_stdout(quickstart):
    ran = subprocess.run([sys.executable, "-m", "headwater", "route", b"\xff rate", "--json", "--root",
                          str(quickstart)], capture_output=True, env={**os.environ}, timeout=300)
    assert (ran.returncode, ran.stdout) == (1, b"")
    assert ran.stderr == b"headwater: argument 2 (`\\xff rate`) is not valid UTF-8; give it in UTF-8\n"


@pytest.mark.parametrize(("args", "named"), [
    (["explain", "\udcff"], "argument 2 (`\\xff`)"),
    (["new", "decision", "--title", "\udcffA"], "the value of `--title` (`\\xffA`)"),
])
def test_every_verb_names_an_undecodable_argument_by_its_flag_or_its_position(hw, quickstart, args, named):
    assert refused(hw(*args, "--root", str(quickstart)), f"{named} is not valid UTF-8; give it in UTF-8")


@pytest.mark.parametrize(("args", "flag"), [
    (["new", "decision", "--title", "A", "--title", "B"], "--title"),
    (["check", "--format", "json", "--format", "sarif"], "--format"),
    (["check", "--now", "2026-01-01", "--now", "2026-01-02"], "--now"),
    (["--root", "docs", "check", "--root", "docs"], "--root"),
    (["route", "--budget", "2", "--budget", "3", "retry"], "--budget"),
    (["route", "retry", "--json", "--json"], "--json"),
    (["check", "-q", "--quiet"], "--quiet"),
])
def test_a_single_valued_flag_given_twice_is_refused_rather_than_the_last_one_winning(hw, quickstart, args, flag):
    assert refused(hw(*at(quickstart, args)), f"`{flag}` is given twice; give it once")


def test_a_repeatable_flag_stays_repeatable(hw, quickstart):
    ran = hw("check", "--root", str(quickstart), "--rule", "facet", "--rule", "section", "--path", "docs",
             "--path", "docs/decisions", "--now", "2026-11-01")
    assert ran.status == 0 and ran.err == ""


@pytest.mark.parametrize(("args", "flag", "noun"), [
    (["check", "--path", ""], "--path", "path"),
    (["check", "--path", " "], "--path", "path"),
    (["--root", "", "check"], "--root", "path"),
    (["check", "--change", ""], "--change", "path"),
    (["export", "--anchors", ""], "--anchors", "pattern"),
    (["new", "decision", "--title", "T", "--directory", ""], "--directory", "path"),
])
def test_an_empty_path_is_refused_rather_than_read_as_here_or_everything(hw, quickstart, args, flag, noun):
    value = args[args.index(flag) + 1]
    assert refused(hw(*at(quickstart, args)),
                   f"`{flag}` names `{value}`, which is no {noun}; give one, or leave `{flag}` out")


def test_a_switch_given_a_value_says_it_takes_none(hw):  # refused before the root is read
    assert refused(hw("check", "--strict=yes", "--root", "."), f"`--strict` takes no value. {SEE_CHECK}")


@pytest.mark.parametrize("args", [["--root"], ["--root", "check"], ["--root", "taxonomy"]])
def test_a_global_flag_missing_its_value_is_named_not_reported_as_no_verb(hw, args):
    assert refused(hw(*args), f"`{args[0]}` takes a value. See `headwater help`")


def test_an_unknown_flag_without_a_verb_is_named_as_unknown(hw):
    assert refused(hw("-x"), "`-x` is not a flag headwater reads. See `headwater help`")


def test_a_double_dash_ends_the_flags_of_a_verb_with_operands_and_is_refused_by_one_without(hw, quickstart):
    assert refused(hw("check", "--root", str(quickstart), "--", "--strict"),
                   f"`check` takes no operand, so `--` has no operands to set apart. {SEE_CHECK}")
    ran = hw("route", "--root", str(quickstart), "--", "--json")
    assert ran.status == 0 and ran.out.startswith('route "--json"\n')


@pytest.mark.parametrize("task", ["", "  "])
def test_route_with_a_blank_task_is_refused_as_a_missing_operand(hw, quickstart, task):
    assert refused(hw("route", task, "--root", str(quickstart)),
                   '`route` takes a task description. Try `headwater route "add rate limiting to the ingest API"`')


@pytest.mark.parametrize("verb", [["check"], ["new", "decision", "--title", "x"], ["mcp"]])
def test_an_empty_now_says_it_is_empty_and_what_it_takes(hw, quickstart, verb):
    assert refused(hw(*at(quickstart, [*verb, "--now", ""])),
                   "`--now` is empty; it takes a calendar date as YYYY-MM-DD, such as 2026-11-01")


LONG = "q" * 5000


@pytest.mark.parametrize("args", [
    [LONG],
    ["check", LONG],
    ["check", f"--{LONG}"],
    ["check", "--format", LONG],
    ["check", "--max-bytes", LONG, "--format", "markdown"],
    ["check", "--now", LONG],
    ["route", "x", "--budget", LONG],
    ["rule", LONG],
    ["help", LONG],
    ["check", "--root", LONG],
    ["new", "decision", "--title", "x", "--facet", f"{LONG}=1"],
    ["new", LONG, "--title", "x"],
], ids=lambda args: " ".join(a[:12] for a in args))
def test_a_refusal_quotes_a_long_argument_by_its_start(hw, quickstart, args):
    ran = hw(*at(quickstart, args))
    assert ran.status == 1 and ran.out == "" and ran.err.count("\n") == 1, ran.err[:300]
    assert "q" * 60 + "…" in ran.err and len(ran.err) < 700, ran.err[:300]  # by its start


@pytest.mark.parametrize(("words", "usage"), [
    (["taxonomy", "vendor"], "Usage: headwater taxonomy vendor <directory> --expect <DIGEST>\n"),
    (["rule"], "Usage: headwater rule [<rule>] [--list] [--all] [--json]\n"),
])
def test_a_usage_line_brackets_only_what_is_optional_and_marks_only_what_repeats(hw, words, usage):
    ran = hw("help", *words)
    assert ran.status == 0 and usage in ran.out


def test_vendor_names_a_missing_directory_before_asking_for_the_digest(hw, quickstart, tmp_path):
    missing = tmp_path / "nonexistent"
    assert refused(hw("taxonomy", "vendor", str(missing), "--root", str(quickstart)),
                   f"{missing} is not a directory, so there is no package to vendor")
