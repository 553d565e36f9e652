"""The consumer surface: pages an adopter reads tell them nothing local to this repository."""

from __future__ import annotations

import re
import shlex

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.check.rules.common import ticked
from headwater.corpus.document import Document
from headwater.patterns import compile_pattern
from headwater.yaml.nodes import Map, Node, Scalar, Seq

SHELLS = ("sh", "shell", "bash", "console")
TOKEN_EDGE = "`'\"()[]{}<>,;:"
SEPARATORS = re.compile(r"&&|\|\||[;|]")
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
           "or a front-matter value names a path under one of `surface.local_roots`, which an "
           "adopter's checkout does not have.",
      help="""
An adopter follows the page in their own repository, where this repository's local tooling
does not exist. Name what the adopter runs or has instead (a released command, a path in
their tree), or move the instruction to a page for this repository's maintainers.
""",
      tags=("surface",),
      routes=lambda ctx, doc: bool(_roots(ctx)) and _adopter_page(ctx, doc))
def surface_local_path_instructed(ctx: Context, doc: Document):
    roots = _roots(ctx)
    places = [(c.line + c.text.count("\n", 0, m.start()), c.text[m.start():m.end()])
              for c in doc.body.code for m in re.finditer(r"\S+", c.text)]
    places += [(s.line, token) for s in _front_scalars(doc.front) for token in s.text.split()]
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


def _programs(block: str, console: bool) -> list[tuple[int, str]]:
    """(line offset, first word) of each command a shell block runs."""
    found, continued = [], False
    for offset, raw in enumerate(block.splitlines()):
        line = raw.strip()
        joined, continued = continued, line.endswith("\\")
        if joined or not line or line.startswith("#"):
            continue
        if console:
            if not line.startswith(("$ ", "# ")):
                continue  # output, not a command
            line = line[2:]
        for command in SEPARATORS.split(line):
            try:
                words = shlex.split(command, comments=True)
            except ValueError:
                words = command.split()
            words = [w for w in words if not ASSIGNMENT.match(w)]
            if words and words[0] not in ("sudo", "env"):
                found.append((offset, words[0]))
            elif len(words) > 1:
                found.append((offset, words[1]))
    return found


@rule("surface.command.undeclared", 1, Scope.DOCUMENT, Severity.ERROR,
      short="An adopter page tells the reader to run a program the surface does not declare.",
      full="A shell block (`sh`, `shell`, `bash` or `console`) on one of "
           "`surface.adopter_documents` runs a program whose name is not in `surface.commands`. "
           "In a `console` block only lines opening with a `$ ` prompt are commands.",
      help="""
Everything an adopter is told to run is part of the surface they must install. Add the
program to `surface.commands` (and, if it is not this project's, to `prerequisites`), or
rewrite the step with a command the surface declares.
""",
      tags=("surface",),
      routes=lambda ctx, doc: _adopter_page(ctx, doc))
def surface_command_undeclared(ctx: Context, doc: Document):
    declared = set(ctx.taxonomy.surface.commands)
    hits = []
    for block in doc.body.code:
        language = block.info.split()[0] if block.info else ""
        if block.kind != "fence" or language not in SHELLS:
            continue
        for offset, program in _programs(block.text, language == "console"):
            if program.split("/")[-1] not in declared:
                hits.append(Hit(doc.path, block.line + offset, 1, f"this shell block runs `{program}`, "
                                "which `surface.commands` does not declare",
                                f"add `{program}` to `surface.commands`, or use a declared command", program))
    return hits


RULES = (surface_local_path_instructed, surface_command_undeclared)
