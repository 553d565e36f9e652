"""The help screens, laid out by the engine at 80 columns (or `--wide`), from the verb table."""

from __future__ import annotations

import os
import textwrap

from headwater import TAGLINE, __version__
from headwater.cli.output import Result, layout_width
from headwater.cli.verbs import GLOBAL_FLAGS, GROUPS, SECOND_WORDS, VERBS, Flag, Verb, verb_named
from headwater.errors import Refusal
from headwater.render.palette import stdout_palette
from headwater.textsafe import shown

EXAMPLES = (
    ("headwater check --strict", "run every check; exit 1 when a live error remains"),
    ('headwater route "add rate limiting"', "which documents govern this task"),
    ("headwater explain ACME-DR-0001", "what a document is, and what is required of it"),
    ('headwater new decision --title "Adopt an overlay"', "write a correctly shaped decision"),
    ("headwater help taxonomy kinds", "the long help of one verb"),
)


def run(invocation) -> Result:
    args = invocation.args
    width = layout_width(args.wide)
    words = list(args.words or [])
    palette = stdout_palette(args.no_color)
    if not words:
        banner = not (args.no_banner or os.environ.get("HEADWATER_NO_BANNER"))
        return Result(root_screen(width, banner, palette))
    verb = verb_named(" ".join(words[:2]))
    if verb is None and words[0] in SECOND_WORDS and len(words) == 1:
        return Result(group_screen(words[0], width))
    if verb is None:
        raise Refusal(f"`{shown(' '.join(words))}` is not a verb. Run `headwater help` for the list")
    return Result(verb_screen(verb, width))


def _fold(text: str, width: int, indent: int) -> list[str]:
    return textwrap.wrap(text, width, initial_indent=" " * indent, subsequent_indent=" " * indent,
                         break_on_hyphens=False, break_long_words=False) or [""]


def _row(name: str, text: str, width: int, column: int = 17) -> list[str]:
    head = f"  {name}".ljust(column)
    if len(f"  {name}") >= column - 1:
        return [head.rstrip()] + _fold(text, width, column)
    lines = _fold(text, width - column, 0)
    return [head + lines[0]] + [" " * column + line for line in lines[1:]]


def root_screen(width: int, banner: bool, palette) -> str:
    lines: list[str] = []
    if banner:
        lines += [f"{palette.paint('verb', 'headwater')} {__version__} — {palette.paint('dim', TAGLINE)}",
                  "─" * min(width, 80)]
    lines += ["Usage: headwater <verb> [flags]", "", "Examples:"]
    for command, text in EXAMPLES:
        lines += [f"  {command}"] + _fold(text, width, 6)
    for group in GROUPS:
        lines += ["", f"{group}:"]
        for verb in (v for v in VERBS if v.group == group):
            lines += _row(verb.name, verb.summary, width)
    lines += ["", "Global flags:"]
    lines += [row for flag in GLOBAL_FLAGS for row in _row(_flag_label(flag), flag.help, width, 20)]
    lines += [""] + _fold("Run `headwater help <verb>` for the long description of one verb, "
                          "or `headwater <verb> --help`.", width, 0)
    return "\n".join(lines) + "\n"


def group_screen(word: str, width: int) -> str:
    lines = [f"headwater {word} <second word>", "", "Second words:"]
    for second in SECOND_WORDS[word]:
        verb = verb_named(f"{word} {second}")
        if verb:
            lines += _row(second, verb.summary, width)
    lines += ["", f"Run `headwater help {word} <word>` for the long description of one."]
    return "\n".join(lines) + "\n"


def _flag_label(flag: Flag) -> str:
    label = flag.name + (f" <{flag.metavar}>" if flag.metavar else "")
    return f"{flag.short}, {label}" if flag.short else label


def _usage(verb: Verb) -> str:
    parts = [f"headwater {verb.name}"]
    for operand in verb.operands:
        shown = f"<{operand.name}{'…' if operand.many else ''}>"
        parts.append(shown if operand.missing else f"[{shown}]")
    parts += [(_flag_label(f) if f.required else f"[{_flag_label(f)}]") + ("…" if f.repeat else "") for f in verb.flags]
    return " ".join(parts)


def verb_screen(verb: Verb, width: int) -> str:
    lines = _fold(verb.description, width, 0) + [""]
    lines += _fold("Usage: " + _usage(verb), width, 0)
    if verb.operands:
        lines += ["", "Operands:"]
        lines += [row for o in verb.operands for row in _row(f"<{o.name}>", o.help, width, 24)]
    if verb.flags:
        lines += ["", "Flags:"]
        lines += [row for f in verb.flags for row in _row(_flag_label(f), f.help + (
            f" ({', '.join(f.choices)})" if f.choices else "") + (" (repeatable)" if f.repeat else ""), width, 24)]
    lines += ["", "Global flags:"]
    lines += [row for f in GLOBAL_FLAGS for row in _row(_flag_label(f), f.help, width, 24)]
    return "\n".join(lines) + "\n"
