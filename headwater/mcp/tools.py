"""The tools this server registers: seven reads always, `new` and `fix` only under `--write`.

Each handler calls the same library function and renderer as its CLI counterpart, over the
snapshot the server took at start-up. Registration is the boundary: a tool that is not
registered has no handler at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from headwater.mcp import schemas
from headwater.reads.answer import Answer
from headwater.snapshot import Snapshot

CHECK_FORMATS = ("text", "json", "sarif", "markdown")
KINDS_FORMATS = ("text", "json")


@dataclass(frozen=True)
class Argument:
    name: str
    description: str
    required: bool = True
    enum: tuple[str, ...] = ()
    array: bool = False

    def schema(self) -> dict:
        if self.array:
            return {"type": "array", "items": {"type": "string"}, "description": self.description}
        out: dict = {"type": "string", "description": self.description}
        if self.enum:
            out["enum"] = list(self.enum)
        return out


@dataclass(frozen=True)
class Outcome:
    """What a tool hands back: content blocks, an optional structured document, and for writes
    whether a byte landed (which spends the server)."""

    blocks: tuple[str, ...]
    structured: dict | None = None
    is_error: bool = False
    landed: bool = False


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    arguments: tuple[Argument, ...]
    run: Callable[[Snapshot, dict], Outcome]
    output_schema: dict | None = None
    writes: bool = False
    annotations: dict = field(default_factory=dict)

    def listing(self) -> dict:
        entry = {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": {
                "type": "object",
                "properties": {a.name: a.schema() for a in self.arguments},
                "required": [a.name for a in self.arguments if a.required],
                "additionalProperties": False,
            },
        }
        if self.output_schema:
            entry["outputSchema"] = self.output_schema
        entry["annotations"] = {
            "title": self.title,
            "readOnlyHint": not self.writes,
            "destructiveHint": False,
            "idempotentHint": not self.writes,
            "openWorldHint": False,
        }
        return entry


def _answer(answer: Answer, structured: bool = False) -> Outcome:
    return Outcome((answer.text,), answer.structured if structured else None)


def _route(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.route_render import route_answer

    return _answer(route_answer(snapshot, args["task"]), structured=True)


def _explain(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.explain import explain_answer

    return _answer(explain_answer(snapshot, args["target"]))


def _related(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.related import related

    return _answer(related(snapshot, args["target"]))


def _resolve(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.identifiers import resolve_identifier

    return _answer(resolve_identifier(snapshot, args["id"]))


def _governing(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.governing import governing_docs_for_path

    return _answer(governing_docs_for_path(snapshot, args["path"]), structured=True)


def _check(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.check.runner import run as run_checks
    from headwater.cli.output import Palette
    from headwater.render import render

    report = run_checks(snapshot)  # uncached: the bytes of `check --no-cache`
    return Outcome((render(args["format"], report, snapshot, width=80, palette=Palette(False)),))


def _kinds(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads import kinds

    text = kinds.render_json(snapshot.lock) if args["format"] == "json" else kinds.render_text(snapshot.lock)
    return Outcome((text,), kinds.document(snapshot.lock))


def _new(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.mcp.writes import new_document

    return new_document(snapshot, args)


def _fix(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.mcp.writes import fix_corpus

    return fix_corpus(snapshot, args)


PATH_NOTE = ("A path is read relative to the repository root the server started over; "
             "a path outside it is answered with a sentence saying so.")

READS = (
    Tool("route", "Route a task to its governing documents",
         "Call this first, before you start a task: give the task in your own words and get pointers "
         "(paths and one-line summaries, never bodies) to the documents that govern it, each with the "
         "evidence that reached it. Silent, with a reason, when nothing is confident: a wrong pointer "
         "costs more than a missing one. Read structuredContent.pointers, not the text.",
         (Argument("task", "what you are about to do, in your own words"),), _route, schemas.ROUTE),
    Tool("explain", "Explain a document",
         "What a document is and why: its kind and how the shelf derived it, its purpose, summary and "
         "warrant, the facets and sections its kind requires, the relations it may declare, and its "
         "edges. " + PATH_NOTE,
         (Argument("target", "a document path or an identifier such as ACME-DR-0001"),), _explain),
    Tool("related", "List a document's edges",
         "Outbound then inbound edges of one document, each with its cue and which end governs the "
         "reading. " + PATH_NOTE,
         (Argument("target", "a document path or an identifier"),), _related),
    Tool("resolve_identifier", "Resolve an identifier",
         "The document an identifier names, by exact match only; or the untyped file that carries it. "
         "`<corpus>:<id>` names a document of a harvested corpus.",
         (Argument("id", "an identifier, e.g. ACME-DR-0001"),), _resolve),
    Tool("governing_docs_for_path", "Documents governing a code path",
         "The documents that govern a file or directory through a declared governance edge, such as "
         "`governs: src/ingest/**`; documents of harvested corpora follow, marked `harvested` with their "
         "`corpus`. Read structuredContent.pointers. " + PATH_NOTE,
         (Argument("path", "a repository path, e.g. src/ingest/rate_limit.py"),), _governing, schemas.POINTERS),
    Tool("check", "Check the corpus",
         "Run every check the lock generates over the snapshot this server took, with no cache; the "
         "bytes equal `headwater check --format <format> --no-cache` at the session date.",
         (Argument("format", "the report format", enum=CHECK_FORMATS),), _check),
    Tool("kinds", "Kinds a document can be",
         "What can be written here and how: each kind's parent, purpose, shelf, required facets and "
         "sections, the `headwater new` line that drafts one, and when to write one.",
         (Argument("format", "text, or json", enum=KINDS_FORMATS),), _kinds, schemas.KINDS),
)

WRITES = (
    Tool("new", "Write a new document",
         "Write one correctly shaped document of a kind, with a minted identifier, its required facets "
         "and sections, and the far halves of reciprocal relations. The first write ends this server's "
         "usable session: start another to read the changed corpus.",
         (Argument("kind", "the kind of document, as `kinds` lists them"),
          Argument("title", "the document's title"),
          Argument("relates", "relations to declare, each \"<relation>=<target>\"", required=False, array=True)),
         _new, writes=True),
    Tool("fix", "Apply mechanical fixes",
         "Apply every mechanical patch `check` proposes, all or nothing, and report the corpus after "
         "the writes. A write that lands ends this server's usable session.",
         (Argument("format", "the report format", enum=CHECK_FORMATS),), _fix, writes=True),
)


def registered(write: bool) -> tuple[Tool, ...]:
    return READS + (WRITES if write else ())
