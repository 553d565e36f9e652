"""The `headwater` entry point: parse against the verb table, dispatch, and keep the contract.

Exit status is 0 or 1. A refusal is decided before anything is written: nothing on stdout,
one sentence on stderr prefixed `headwater: `. A traceback reaching a user is a defect, so
the last resort here names it as one instead of dumping it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path

from headwater import __version__
from headwater.cli.output import Result, write_whole
from headwater.cli.verbs import GLOBAL_FLAGS, SECOND_WORDS, VERBS, Flag, Verb, verb_named
from headwater.discovery import discover, init_root
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.paths import is_text, quoted
from headwater.textsafe import shown

VALUE_GLOBALS = {f.name for f in GLOBAL_FLAGS if f.metavar}
ALL_FLAGS = GLOBAL_FLAGS + tuple(f for v in VERBS for f in v.flags)
EVERY_FLAG = {name for f in ALL_FLAGS for name in (f.name, f.short) if name}
VALUE_FLAGS = {f.name for f in ALL_FLAGS if f.metavar}


@frozen
class Invocation:
    """One command line: its verb, parsed arguments and the repository root."""

    verb: Verb
    args: argparse.Namespace
    root: Path


class _Unprinted(argparse.HelpFormatter):
    """The formatter argparse makes for each flag added, only to test its metavar: it never prints
    here (`headwater help` does), so it asks no terminal its width (nor imports `shutil` to)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=80)


class _Parser(argparse.ArgumentParser):
    """argparse with its failures as refusals, told apart by what failed, never by argparse's English."""

    def __init__(self, verb: Verb) -> None:
        super().__init__(prog=f"headwater {verb.name}", add_help=False, allow_abbrev=False, exit_on_error=False,
                         formatter_class=_Unprinted)
        self.verb = verb
        self.flags = {f.name: f for f in GLOBAL_FLAGS + verb.flags}
        for flag in self.flags.values():
            names = [flag.name] + ([flag.short] if flag.short else [])
            dest = _dest(flag)
            if flag.metavar is None:
                self.add_argument(*names, dest=dest, action=_Once, nargs=0, default=False)
            elif flag.repeat:
                self.add_argument(*names, dest=dest, action="append", default=[], nargs=flag.values if flag.values > 1
                                  else None, metavar=tuple(flag.metavar.split()) if flag.values > 1 else flag.metavar)
            else:
                self.add_argument(*names, dest=dest, action=_Once, metavar=flag.metavar, choices=flag.choices or None,
                                  type=_one_of(flag) if flag.choices else None)
        for operand in verb.operands:
            self.add_argument(operand.name, nargs="*" if operand.many else "?")

    @property
    def see(self) -> str:
        return f"See `headwater help {self.verb.name}`"

    def parse(self, words: list[str]) -> argparse.Namespace:
        if "--" in words and not self.verb.operands:
            raise Refusal(f"`{self.verb.name}` takes no operand, so `--` has no operands to set apart. {self.see}")
        try:
            args, extra = self.parse_known_args(words)
        except argparse.ArgumentError as error:
            flag = self.flags.get((error.argument_name or "").split("/")[0])
            if flag is None:  # no failure of ours to name: argparse's own words
                raise Refusal(f"{error}. {self.see}") from None
            # the one way each kind of flag fails here: a switch given a value, a value flag none
            takes = "no value" if flag.metavar is None else "a value" if flag.values == 1 else "two values"
            raise Refusal(f"`{flag.name}` takes {takes}. {self.see}") from None
        for flag in self.flags.values():
            given = getattr(args, _dest(flag))
            values = given if isinstance(given, list) else [] if given is None else [given]
            blank = next((value for value in values if not value.strip()), None) if flag.names else None
            if blank is not None:
                raise Refusal(f"`{flag.name}` names `{shown(blank)}`, which is no {flag.names}; give one, "
                              f"or leave `{flag.name}` out")
        if extra and extra[0].startswith("-"):
            raise Refusal(f"`{shown(extra[0])}` is not a flag `{self.verb.name}` reads. {self.see}")
        if extra:
            raise Refusal(f"`{self.verb.name}` takes no operand `{shown(extra[0])}`. {self.see}")
        return args

    def error(self, message: str):  # argparse would exit 2; we refuse with one sentence
        raise Refusal(f"{message}. {self.see}")


def _dest(flag: Flag) -> str:
    return flag.name.lstrip("-").replace("-", "_")


class _Once(argparse.Action):
    """A single-valued flag: given twice, the second would silently win over the first."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        if getattr(namespace, self.dest) != self.default:
            raise Refusal(f"`{self.option_strings[0]}` is given twice; give it once")
        setattr(namespace, self.dest, True if self.nargs == 0 else values)


def _one_of(flag: Flag) -> Callable[[str], str]:
    """A value check argparse runs before its own: a value outside the flag's choices is refused."""
    def chosen(value: str) -> str:
        if value not in flag.choices:
            listed = f"{', '.join(flag.choices[:-1])} or {flag.choices[-1]}"
            raise Refusal(f"`{flag.name}` takes {listed}, and `{shown(value)}` is not one of them")
        return value

    return chosen


def _find_verb(argv: list[str]) -> tuple[Verb | None, list[str]]:
    """The verb (one or two words) and the remaining arguments, globals wherever they stand."""
    words: list[tuple[int, str]] = []
    skip = False
    for index, arg in enumerate(argv):
        if skip:
            skip = False
            continue
        if arg in VALUE_GLOBALS:
            skip = True
            continue
        if arg.startswith("-"):
            continue
        words.append((index, arg))
        if len(words) == 2 or words[0][1] not in SECOND_WORDS:
            break
    if not words:
        return None, argv
    first_index, first = words[0]
    if first in SECOND_WORDS:
        if len(words) < 2 and ("-h" in argv or "--help" in argv):
            return verb_named("help"), [first] + [a for a in argv if a not in ("-h", "--help", first)]
        if len(words) < 2 or words[1][1] not in SECOND_WORDS[first]:
            choices = ", ".join(f"`{w}`" for w in SECOND_WORDS[first])
            raise Refusal(f"`{first}` takes a second word: {choices}")
        second_index = words[1][0]
        rest = argv[:first_index] + argv[first_index + 1 : second_index] + argv[second_index + 1 :]
        return verb_named(f"{first} {words[1][1]}"), rest
    verb = verb_named(first)
    if verb is None:
        carried = ", ".join(f"`{v.name}`" for v in VERBS)
        raise Refusal(f"`{shown(first)}` is not a verb this binary carries. It carries {carried}")
    return verb, argv[:first_index] + argv[first_index + 1 :]


def _undecodable(argv: list[str]) -> None:
    """Every argument is read as UTF-8 before anything else, so no answer echoes a byte that is not
    (the OS hands an undecodable byte over as a lone surrogate); the refusal shows it as `\\xff`."""
    for index, arg in enumerate(argv):
        if not is_text(arg):
            escaped = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            named = f"the value of `{argv[index - 1]}`" if index and argv[index - 1] in VALUE_FLAGS \
                else f"argument {index + 1}"
            raise Refusal(f"{named} (`{shown(escaped)}`) is not valid UTF-8; give it in UTF-8")


def _no_verb(argv: list[str]) -> Refusal:
    """What a command line without a verb got wrong: a global flag that ate the verb as its value,
    a flag no verb reads, or no verb at all."""
    for index, arg in enumerate(argv):
        after = argv[index + 1] if index + 1 < len(argv) else None
        if arg in VALUE_GLOBALS and (after is None or verb_named(after) or after in SECOND_WORDS):
            return Refusal(f"`{arg}` takes a value. See `headwater help`")
        if arg.startswith("-") and arg.split("=")[0] not in EVERY_FLAG:
            return Refusal(f"`{shown(arg)}` is not a flag headwater reads. See `headwater help`")
    return Refusal("no verb. Try `headwater check`")


def parse(argv: list[str]) -> Invocation | Result:
    _undecodable(argv)
    if "-V" in argv or "--version" in argv:
        return Result(stdout=__version__ + "\n")
    verb, rest = _find_verb(argv)
    if verb is None:
        if "-h" in argv or "--help" in argv:
            verb, rest = verb_named("help"), [a for a in argv if a not in ("-h", "--help")]
        else:
            raise _no_verb(argv)
    args = _Parser(verb).parse(rest)
    if args.help and verb.name != "help":
        args.words, verb = verb.name.split(), verb_named("help")
    for operand in verb.operands:
        value = getattr(args, operand.name)
        if operand.missing and (value is None or (isinstance(value, list) and not " ".join(value).strip())):
            raise Refusal(operand.missing)
    if args.quiet and args.verbose:
        raise Refusal("`--quiet` and `--verbose` ask for opposite things, so give one of them")
    if args.wide and not verb.lays_out:
        raise Refusal(f"`--wide` sets a layout width, and `{verb.name}` lays nothing out")
    root = _root_of(verb, args)
    if not args.root:
        _read_from_here(verb, args, root, Path.cwd())
    return Invocation(verb, args, root)


def _read_from_here(verb: Verb, args: argparse.Namespace, root: Path, here: Path) -> None:
    """Each path typed in a folder below the root, as that folder's path to it, as git reads it,
    where something stands there; else as typed (a path the reports print, or an identifier)."""
    try:
        below = here.resolve().relative_to(root.resolve())
    except ValueError:
        return
    if not below.parts:
        return
    for name in [_dest(f) for f in verb.flags if f.path] + \
                [o.name for o in verb.operands if o.path]:
        value = getattr(args, name, None)
        if isinstance(value, list):
            setattr(args, name, [_from_here(v, root, below) for v in value])
        elif isinstance(value, str):
            setattr(args, name, _from_here(value, root, below))


def _from_here(typed: str, root: Path, below: Path) -> str:
    if not typed.strip() or os.path.isabs(typed) or "\x00" in typed:
        return typed
    joined = os.path.normpath(os.path.join(below, typed.strip()))
    if joined == ".." or joined.startswith("../") or not os.path.lexists(root / joined):
        return typed
    return Path(joined).as_posix()


def _root_of(verb: Verb, args: argparse.Namespace) -> Path:
    if args.root:
        if not Path(args.root).is_dir():  # a typo here is not a repository that needs `init`
            raise Refusal(f"`--root {shown(args.root)}` is not a directory")
        return Path(args.root)
    return init_root(Path.cwd()) if verb.name == "init" else discover(Path.cwd())


def dispatch(invocation: Invocation) -> Result:
    module_name, function = invocation.verb.handler.split(":")
    module = importlib.import_module(f"headwater.cli.{module_name}")
    return getattr(module, function)(invocation)


def _write(stream, data: str | bytes) -> None:
    """The whole answer lands, or the write raises (a gone reader: BrokenPipeError). Text is
    encoded here and written to the binary layer, because an unbuffered stdout (`python -u`,
    PYTHONUNBUFFERED) is a text layer over the raw file, which keeps the part of a large write a
    closing pipe took and drops the rest without a word: the run would exit 0 on a cut answer."""
    stream.flush()
    if isinstance(data, str) and not hasattr(stream, "buffer"):  # an in-memory text stream takes it whole
        stream.write(data)
        return
    payload = data if isinstance(data, bytes) else data.encode(stream.encoding, stream.errors)
    write_whole(stream.buffer, payload)


def run(argv: list[str]) -> int:
    return _run(argv)[0]


def _run(argv: list[str]) -> tuple[int, Result | None]:
    """The exit status, and the verb's answer (None after a refusal)."""
    try:
        parsed = parse(argv)
        result = parsed if isinstance(parsed, Result) else dispatch(parsed)
    except Refusal as refusal:
        sys.stderr.write(f"headwater: {refusal.sentence}\n")
        for detail in refusal.details:
            sys.stderr.write(f"  {detail}\n")
        return 1, None
    _write(sys.stdout, result.stdout)
    for line in result.stderr:
        sys.stderr.write(line + "\n")
    return result.status, result


def main(argv: list[str] | None = None) -> int:
    return _main(argv)[0]


def entry() -> None:
    """The console script: `main`, then leave without freeing the heap object by object (the
    answer holds the loaded snapshot until here); output is flushed first."""
    status, _ = _main(None)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        status = 1
    os._exit(status)


def _main(argv: list[str] | None) -> tuple[int, Result | None]:
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): leave quietly, and keep Python from
        # complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1, None
    except KeyboardInterrupt:  # outside a write: a write run turns it into a put-back under the lock
        sys.stderr.write("headwater: interrupted, so nothing more was done\n")
        return 1, None
    except OSError as error:  # the file system refused what no check foresaw: say what and where
        where = f"`{quoted(str(error.filename))}`: " if error.filename else ""
        sys.stderr.write(f"headwater: {where}{error.strerror or error}, so nothing more was done\n")
        return 1, None
    except Exception as error:  # noqa: BLE001 — the last resort that keeps tracebacks from users
        sys.stderr.write(f"headwater: internal defect ({type(error).__name__}: {error}). Please report it.\n")
        if os.environ.get("HEADWATER_TRACEBACK"):
            raise
        return 1, None
