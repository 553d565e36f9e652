"""A flag's choices live in the verb table and argparse refuses anything else, before a handler runs;
each parse failure is told apart by what failed, never by matching argparse's English."""

import pytest

from headwater.cli.verbs import verb_named
from headwater.render import FORMAT_NAMES

NOWHERE = ("--root", "/nonexistent/headwater-root")  # a handler that ran would refuse this root first


def _choices(verb: str, flag: str) -> tuple[str, ...]:
    return next(f.choices for f in verb_named(verb).flags if f.name == flag)


def test_the_check_format_choices_are_the_render_table():
    assert _choices("check", "--format") == FORMAT_NAMES


def test_the_impact_format_choices_are_the_formats_the_read_renderers_hold():
    from headwater.render.reads import FORMATS as READ_FORMATS

    assert sorted(_choices("impact", "--format")) == sorted(READ_FORMATS)


@pytest.mark.parametrize(("args", "sentence"), [
    (("check", "--format", "yaml"),
     "`--format` takes text, json, sarif, markdown, github or concise, and `yaml` is not one of them"),
    (("impact", "manifest", "--format", "sarif"),
     "`--format` takes text, markdown, json or github, and `sarif` is not one of them"),
])
def test_a_value_outside_a_flags_choices_is_refused_before_the_verb_runs(hw, args, sentence):
    ran = hw(*args, *NOWHERE)
    assert (ran.status, ran.out, ran.err) == (1, "", f"headwater: {sentence}\n")


@pytest.mark.parametrize(("args", "sentence"), [
    (("check", "--format"), "`--format` takes a value. See `headwater help check`"),
    (("change", "HEAD", "out", "--verified-edge", "a.md"), "`--verified-edge` takes two values. "
                                                           "See `headwater help change`"),
    (("check", "--bogus"), "`--bogus` is not a flag `check` reads. See `headwater help check`"),
    (("check", "extra"), "`check` takes no operand `extra`. See `headwater help check`"),
])
def test_each_parse_failure_is_one_sentence_naming_the_flag_or_operand(hw, args, sentence):
    ran = hw(*args, *NOWHERE)
    assert (ran.status, ran.out, ran.err) == (1, "", f"headwater: {sentence}\n")
