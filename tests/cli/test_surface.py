"""The command-line surface: the verb table, refusals, exit status, help, version."""

import subprocess
import sys

import pytest

from headwater import __version__
from headwater.cli.verbs import VERBS


def test_a_bare_headwater_names_a_verb_to_try(hw):
    assert hw() == type(hw())(1, "", "headwater: no verb. Try `headwater check`\n")


def test_an_unknown_verb_lists_the_verbs_from_the_table(hw):
    ran = hw("frobnicate")
    assert ran.status == 1 and ran.out == ""
    assert all(f"`{verb.name}`" in ran.err for verb in VERBS)


def test_a_flag_of_another_verb_is_refused_not_ignored(hw):
    ran = hw("explain", "x", "--strict")
    assert (ran.status, ran.out) == (1, "")
    assert ran.err == "headwater: `--strict` is not a flag `explain` reads. See `headwater help explain`\n"


def test_a_verb_missing_its_operand_names_itself_and_gives_an_example(hw):
    ran = hw("route")
    assert ran.err == ('headwater: `route` takes a task description. '
                       'Try `headwater route "add rate limiting to the ingest API"`\n')


@pytest.mark.parametrize("verb", [["check"], ["route", "retry"], ["init"], ["mcp"], ["explain", "ACME-DR-0001"]])
@pytest.mark.parametrize("where", ["missing", "a-file"])
def test_a_root_that_is_no_directory_is_named_not_mistaken_for_an_unbound_repository(hw, tmp_path, verb, where):
    root = tmp_path / where
    if where == "a-file":
        root.write_text("not a repository\n")
    ran = hw(*verb, "--root", str(root))
    assert (ran.status, ran.out, ran.err) == (1, "", f"headwater: `--root {root}` is not a directory\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ([where] if where == "a-file" else [])


def test_wide_is_refused_where_nothing_is_laid_out(hw):
    assert hw("taxonomy", "kinds", "--wide").err == \
        "headwater: `--wide` sets a layout width, and `taxonomy kinds` lays nothing out\n"


WIDE_READS = [("route", "retry failed deliveries in the queue"),
              ("explain", "docs/decisions/0002-deliver-at-least-once.md")]


@pytest.mark.parametrize("read", WIDE_READS, ids=lambda read: read[0])
def test_wide_lays_a_read_out_as_wide_as_columns_allows(hw, quickstart, monkeypatch, read):
    monkeypatch.setenv("COLUMNS", "120")
    narrow, wide = (hw(*read, "--root", str(quickstart), *extra) for extra in ((), ("--wide",)))
    assert (narrow.status, narrow.err, wide.status, wide.err) == (0, "", 0, "")
    assert max(len(line) for line in narrow.out.splitlines()) <= 80
    assert 80 < max(len(line) for line in wide.out.splitlines()) <= 120
    assert wide.out.split() == narrow.out.split()  # the same words, only folded elsewhere


@pytest.mark.parametrize("read", WIDE_READS, ids=lambda read: read[0])
def test_wide_beside_json_is_refused_as_check_refuses_it(hw, quickstart, read):
    ran = hw(*read, "--root", str(quickstart), "--wide", "--json")
    assert (ran.status, ran.out) == (1, "")
    assert ran.err == "headwater: `--wide` sets the width of the text report, and `--json` lays nothing out\n"


@pytest.mark.parametrize("spelled", [("--json",), ("--format", "json")], ids=["json", "format-json"])
def test_wide_beside_json_on_check_is_refused_in_the_user_s_own_spelling(hw, quickstart, spelled):
    ran = hw("check", "--root", str(quickstart), "--wide", *spelled)
    assert (ran.status, ran.out) == (1, "")
    assert ran.err == (f"headwater: `--wide` sets the width of the text report, and `{' '.join(spelled)}` lays "
                       "nothing out\n")


def test_the_help_of_json_names_format_only_where_the_verb_reads_format(hw):
    for verb in VERBS:
        flags = {flag.name: flag for flag in verb.flags}
        if "--json" in flags:
            assert ("`--format json`" in flags["--json"].help) == ("--format" in flags), verb.name
    assert "--format" not in hw("route", "--help").out


def test_version_prints_the_bare_version_anywhere(hw):
    assert hw("-V").out == f"{__version__}\n"
    assert hw("explain", "--version").out == f"{__version__}\n"


def test_the_root_help_screen_has_the_masthead_unless_asked_not_to(hw):
    screen = hw("--help").out
    assert screen.startswith(f"headwater {__version__} — ")
    assert not hw("help", "--no-banner").out.startswith("headwater ")
    assert all(len(line) <= 80 for line in screen.splitlines())
    assert all(verb.summary in " ".join(screen.split()) for verb in VERBS)


def test_help_of_a_verb_equals_its_dash_dash_help(hw):
    for words in (("check",), ("taxonomy", "kinds")):
        screens = [hw("help", *words), hw(*words, "--help"), hw(*words, "-h")]
        assert [ran.status for ran in screens] == [0, 0, 0] and all(ran.err == "" for ran in screens)
        assert " ".join(words) in screens[0].out and screens[0].out == screens[1].out == screens[2].out


def test_the_readme_verb_table_is_the_one_the_table_generates():
    from pathlib import Path

    from headwater.cli.verbs import markdown_table

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert markdown_table() in readme


def test_a_broken_pipe_exits_one_quietly():
    """The reader is gone before the first byte is written, so the write always meets EPIPE (a
    small output piped to `head` may fit the pipe's buffer and never break it)."""
    import os

    reader, writer = os.pipe()
    os.close(reader)
    try:
        process = subprocess.run([sys.executable, "-m", "headwater", "help"], stdout=writer,
                                 stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(writer)
    assert process.returncode == 1 and process.stderr == ""


@pytest.mark.parametrize("unbuffered", [True, False], ids=["PYTHONUNBUFFERED", "buffered"])
def test_a_pipe_closed_partway_through_a_large_answer_exits_one_quietly(unbuffered):
    """The reader takes a few bytes and leaves while the rest waits on a full pipe, so the write
    lands in part. An unbuffered stdout drops the rest of a part-written text without a word: it
    exited 0 on a cut answer. Several runs, as the pipe's timing varies."""
    import fcntl
    import os

    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    env |= {"PYTHONUNBUFFERED": "1"} if unbuffered else {}
    for _ in range(5):
        reader, writer = os.pipe()
        fcntl.fcntl(writer, fcntl.F_SETPIPE_SZ, 4096)  # the rules page is some 36 KB: far more than it holds
        with subprocess.Popen([sys.executable, "-m", "headwater", "rule", "--all"], stdout=writer,
                              stderr=subprocess.PIPE, env=env) as process:
            os.close(writer)
            assert os.read(reader, 10)
            os.close(reader)
            stderr = process.stderr.read()
        assert (process.returncode, stderr) == (1, b"")


@pytest.mark.parametrize("args", [["taxonomy"], ["taxonomy", "frob"]])
def test_a_grouped_verb_wants_its_second_word(hw, args):
    ran = hw(*args)
    assert ran.status == 1 and "`taxonomy` takes a second word" in ran.err
