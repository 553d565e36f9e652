"""The consumer surface: pages an adopter reads tell them nothing local to this repository."""

from __future__ import annotations

import re

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.check.rules.hits import ticked
from headwater.corpus.document import Document
from headwater.patterns import compile_pattern
from headwater.yaml.nodes import Map, Node, Scalar, Seq

SHELLS = ("sh", "shell", "bash", "console")
TOKEN_EDGE = "`'\"()[]{}<>,;:="
CODE_TOKEN = re.compile(r"[^\s`'\"()=,;]+")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def _adopter_page(ctx: Context, doc: Document) -> bool:
    return any(compile_pattern(p).matches(doc.path) for p in ctx.taxonomy.surface.adopter_documents)


def _roots(ctx: Context) -> tuple[str, ...]:
    return tuple(root.strip("/") + "/" for root in ctx.taxonomy.surface.local_roots if root.strip("/"))


def _local(token: str, roots: tuple[str, ...]) -> bool:
    token = token.strip(TOKEN_EDGE).removeprefix("./")
    return any(token.startswith(root) or token == root[:-1] for root in roots)


def _front_scalars(node: Node | None) -> list[Scalar]:
    if isinstance(node, Scalar):
        return [node]
    if isinstance(node, Map):
        return [s for _, value in node.entries for s in _front_scalars(value)]
    if isinstance(node, Seq):
        return [s for item in node.items for s in _front_scalars(item)]
    return []


@rule("surface.local_path.instructed", 1, Scope.DOCUMENT, Severity.ERROR,
      short="An adopter page instructs a path that exists only in this repository.",
      full="The document is one of `surface.adopter_documents`, and a code span, a code block "
           "or a front-matter value that is one path names a path under one of "
           "`surface.local_roots` (or `./` and one), which an adopter's checkout does not have. "
           "A path in a sentence is a mention, not an instruction, and is not read.",
      help="""
An adopter follows the page in their own repository, where this repository's local tooling
does not exist. Name what the adopter runs or has instead (a released command, a path in
their tree), or move the instruction to a page for this repository's maintainers. A passage
that cites this repository's own way of doing a thing is marked with a suppression directive,
`reason=accepted_deviation`.
""",
      tags=("surface",),
      routes=lambda ctx, doc: bool(_roots(ctx)) and _adopter_page(ctx, doc))
def surface_local_path_instructed(ctx: Context, doc: Document):
    roots = _roots(ctx)
    places = [(c.line + c.text.count("\n", 0, m.start()), m.group(0))
              for c in doc.body.code if not c.text.lstrip().startswith("<") for m in CODE_TOKEN.finditer(c.text)]
    # a front-matter value counts only when it is one path and nothing else (a mention is not an instruction)
    places += [(s.line, s.text.strip()) for s in _front_scalars(doc.front) if len(s.text.split()) == 1]
    seen, hits = set(), []
    for line, token in places:
        bare = token.strip(TOKEN_EDGE)
        if _local(token, roots) and (line, bare) not in seen:
            seen.add((line, bare))
            hits.append(Hit(doc.path, line, 0 if line == 0 else 1, f"`{bare}` is a path local to this "
                            f"repository (under {ticked(roots)}), and adopters read this page",
                            "name what an adopter has instead, or move the instruction to a maintainers' page",
                            bare))
    return hits


RESERVED = ("if", "then", "else", "elif", "while", "until", "do", "!", "{", "}", "time")
NOT_A_PROGRAM = ("for", "case", "fi", "done", "esac")  # a segment opening so runs no program
HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)")


def _segments(command: str) -> list[str]:
    """The parts of one command between `|`, `||`, `&&`, `&` and `;` outside quotes."""
    parts, current, quote, index = [], [], None, 0
    while index < len(command):
        char = command[index]
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "|;" or (char == "&" and ">" not in command[index - 1:index] + command[index + 1:index + 2]):
            parts.append("".join(current))
            current = []
            index += 2 if command[index + 1:index + 2] == char else 1
            continue
        current.append(char)
        index += 1
    return parts + ["".join(current)]


def _program(segment: str) -> str | None:
    words = segment.split()
    if words and words[0] in NOT_A_PROGRAM:
        return None
    words = [w for w in words if not ASSIGNMENT.match(w)]
    while words and words[0] in RESERVED:
        words = words[1:]
    return words[0].strip("'\"").split("/")[-1] if words else None


def _commands(block: str, console: bool) -> list[tuple[int, str]]:
    """(line offset, command) for each command of a shell block, continued lines joined."""
    found, joined, start, heredoc = [], "", 0, None
    for offset, raw in enumerate(block.splitlines()):
        if heredoc is not None:
            heredoc = None if raw.strip() == heredoc else heredoc
            continue
        line = raw.strip()
        if not joined:
            prompted = line.startswith("$ ")
            if console and not prompted:
                continue  # output, not a command
            line, start = line[2:] if prompted else line, offset
            if not line or line.startswith("#"):
                continue
        if line.endswith("\\"):
            joined += line[:-1] + " "
            continue
        command, joined = joined + line, ""
        found.append((start, command))
        marker = HEREDOC.search(command)
        heredoc = marker.group(1) if marker else None
    return found + ([(start, joined)] if joined else [])


@rule("surface.command.undeclared", 1, Scope.DOCUMENT, Severity.ERROR,
      short="An adopter page tells the reader to run a program the surface does not declare.",
      full="A shell block (`sh`, `shell`, `bash` or `console`) on one of "
           "`surface.adopter_documents` runs a program whose name is not in `surface.commands`. "
           "Each command's first word is read, and the first after every `|`, `||`, `&&`, `&` "
           "and `;` outside quotes, past assignments and shell reserved words; a `$ ` prompt is "
           "dropped, a `console` block's unprompted lines are output, and a here-document's body "
           "is skipped. A surface that declares no `commands` generates no instance.",
      help="""
Everything an adopter is told to run is part of the surface they must install. Add the
program to `surface.commands` (and, if it is not this project's, to `prerequisites`), or
rewrite the step with a command the surface declares.
""",
      tags=("surface",),
      routes=lambda ctx, doc: bool(ctx.taxonomy.surface.commands) and _adopter_page(ctx, doc))
def surface_command_undeclared(ctx: Context, doc: Document):
    declared = set(ctx.taxonomy.surface.commands)
    hits = []
    for block in doc.body.code:
        language = block.info.split()[0] if block.info else ""
        if block.kind != "fence" or language not in SHELLS:
            continue
        for offset, command in _commands(block.text, language == "console"):
            for program in filter(None, map(_program, _segments(command))):
                if program in declared:
                    continue
                hits.append(Hit(doc.path, block.line + offset, 1, f"this shell block runs `{program}`, "
                                "which `surface.commands` does not declare",
                                f"add `{program}` to `surface.commands`, or use a declared command", program))
    return hits


RULES = (surface_local_path_instructed, surface_command_undeclared)
