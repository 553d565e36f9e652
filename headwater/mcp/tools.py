"""The tools this server registers: seven reads always, `new` and `fix` only under `--write`.

Each handler calls the same library function and renderer as its CLI counterpart, over the
snapshot the server took at start-up. Registration is the boundary: a tool that is not
registered has no handler at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from headwater.check.selection import SEVERITIES
from headwater.frozen import frozen
from headwater.mcp import schemas
from headwater.reads.route.task import TASK_MOST
from headwater.render import FORMAT_NAMES
from headwater.render.reads import UNFOLDED, Layout
from headwater.snapshot import Snapshot

CHECK_LIMIT = 50  # findings an answer carries unless `limit` says otherwise: agents' clients cap tool output
KINDS_FORMATS = ("text", "json")


@frozen
class Argument:
    name: str
    description: str
    required: bool = True
    enum: tuple[str, ...] = ()
    array: bool = False
    integer: bool = False
    most: int | None = None  # a string's greatest length, in characters
    example: str = ""  # an array's value as JSON, quoted when a call gives it in the wrong shape

    def schema(self) -> dict:
        if self.array:
            return {"type": "array", "items": {"type": "string"}, "description": self.description}
        if self.integer:
            return {"type": "integer", "minimum": 0, "description": self.description}
        out: dict = {"type": "string", "description": self.description}
        if self.enum:
            out["enum"] = list(self.enum)
        if self.most is not None:
            out["minLength"], out["maxLength"] = 1, self.most
        return out


@frozen
class Outcome:
    """What a tool hands back: content blocks, an optional structured document, and for writes
    whether a byte landed (which spends the server)."""

    blocks: tuple[str, ...]
    structured: dict | None = None
    is_error: bool = False
    landed: bool = False
    after: Callable[[], None] | None = None  # work for once the answer is written (keeping a cache)


@frozen
class Tool:
    name: str
    title: str
    description: str
    arguments: tuple[Argument, ...]
    run: Callable[[Snapshot, dict], Outcome]
    output_schema: dict | None = None
    writes: bool = False
    destructive: bool = False  # rewrites what is there, where a write that only adds is not

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
            "destructiveHint": self.destructive,
            "idempotentHint": not self.writes,
            "openWorldHint": False,
        }
        return entry


def _read(answer_of: Callable[[], object], layout: Layout = UNFOLDED, *, fmt: str = "text",
          structured: bool = False, refused: dict | None = None) -> Outcome:
    """A read's rendering, never folded (spec 04: the text block is for display only), and its
    document when the tool declares an output schema; a refusal is its sentence as a normal
    answer, with `refused` as the document, but a refused argument is the protocol's error."""
    from headwater.errors import ArgumentRefused, Refusal
    from headwater.render.reads import render
    from headwater.render.reads.answer_json import data

    try:
        answer = answer_of()
    except ArgumentRefused:
        raise
    except Refusal as refusal:
        return Outcome((refusal.sentence + "\n",), refused)
    return Outcome((render(fmt, answer, layout),), data(answer) if structured else None)


def _route(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.route.answer import route_answer
    from headwater.reads.route.kept import prime
    from headwater.reads.route.task import checked_task

    task = checked_task(args["task"], "task")  # refused as the command line refuses it: an error, not a route
    keep = prime(snapshot)  # the reader the last server kept, when it is this corpus's (HW-DR-0036)
    outcome = _read(lambda: route_answer(snapshot, task, read_tree=False), structured=True)
    return replace(outcome, after=keep)  # a reader built is kept once the answer is out (HW-DR-0052)


def _explain(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.explain import explain

    return _read(lambda: explain(snapshot, args["target"]))


def _related(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.related import related

    return _read(lambda: related(snapshot, args["target"]))


def _resolve(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.identifiers import resolve_identifier

    return _read(lambda: resolve_identifier(snapshot, args["id"]))


def _governing(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.governing import governing_docs_for_path

    return _read(lambda: governing_docs_for_path(snapshot, args["path"]), structured=True,
                 refused={"pointers": []})


def _check(snapshot: Snapshot, args: dict) -> Outcome:
    """A summary sentence first, then the bytes of `check --no-cache` with the same filters."""
    from headwater.check.cache import Verdicts
    from headwater.check.registry import rule_ids
    from headwater.check.runner import run as run_checks
    from headwater.check.selection import bounded, narrowed, refuse_naming_nothing, selection
    from headwater.discovery import place_in_work_tree
    from headwater.render import Layout, format_named, render

    limit = CHECK_LIMIT if args["limit"] is None else args["limit"]
    chosen = selection(args["paths"], args["rules"], args["min_severity"], limit, rule_ids(),
                       {name: name for name in ("paths", "rules", "min_severity", "limit")})
    refuse_naming_nothing(args["paths"], snapshot.root, "paths")
    # the bytes `--no-cache` writes, which a cached run writes too (a test holds it): the verdicts
    # the last check kept are read, never written, and the session's snapshot is judged once
    whole = snapshot.derived("check.report", lambda: run_checks(snapshot, cache=Verdicts.load(snapshot.root)))
    report = bounded(narrowed(whole, chosen), chosen.limit)
    place = place_in_work_tree(snapshot.root) if format_named(args["format"]).from_top else ""
    layout = Layout(rows=chosen.limit, place=place)
    return Outcome((_check_summary(report), render(args["format"], report, snapshot, layout)))


def _check_summary(report) -> str:
    from headwater.render.common import plural, tally

    text = f"Over {plural(report.coverage.classified, 'document')}: {tally(report)}."
    if report.omitted:
        text += " Pass a larger `limit`, or narrow by `paths`, `rules` or `min_severity`, to read the rest."
    return text + "\n"


def _kinds(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.reads.kinds import kinds

    return _read(lambda: kinds(snapshot.lock), fmt=args["format"], structured=True)


def _new(snapshot: Snapshot, args: dict) -> Outcome:
    """The same library call as `headwater new`: the account and the artifact as separate blocks."""
    from headwater.taxonomy.staleness import refuse_stale
    from headwater.writes.inputs import TOOL_ARGUMENTS
    from headwater.writes.new import Aborted, new_document

    refuse_stale(snapshot)  # as `headwater new` refuses: a document shaped by a lock its sources moved past
    try:
        written = new_document(snapshot, args["kind"], args["title"], relates=args["relates"],
                               summary=args["summary"], facets=args["facets"], directory=args["directory"],
                               spelling=TOOL_ARGUMENTS)
    except Aborted as aborted:
        return Outcome((aborted.sentence + "\n",), is_error=True, landed=bool(aborted.written))
    return Outcome((written.account, written.artifact), landed=written.landed)


def _fix(snapshot: Snapshot, args: dict) -> Outcome:
    """The same batch as `check --fix`, uncached: the account, then the report of the state after the writes."""
    from headwater.check.fix import fixed_run
    from headwater.check.runner import run as run_checks
    from headwater.render import render
    from headwater.taxonomy.staleness import refuse_stale

    refuse_stale(snapshot)  # as `headwater check --fix` refuses
    after, report, lines = fixed_run(snapshot, run_checks)
    account = "".join(line + "\n" for line in lines)
    return Outcome((account, render(args["format"], report, after)), landed=bool(lines))


PATH_NOTE = ("A path is read relative to the repository root the server started over; "
             "a path outside it is answered with a sentence saying so.")

READS = (
    Tool("route", "Route a task to its governing documents",
         "Call this first, before you start a task: give the task in your own words and get pointers "
         "(paths and one-line summaries, never bodies) to the documents that govern it, each with the "
         "evidence that reached it; a document path or identifier written in the task is offered first. "
         "Silent, with a reason, when nothing is confident: a wrong pointer "
         "costs more than a missing one. Read structuredContent.pointers, not the text; `unread_pins` names "
         "a pinned corpus that binds nothing and could govern a path the task names.",
         (Argument("task", f"what you are about to do, in your own words (at most {TASK_MOST:,} characters)",
                   most=TASK_MOST),), _route, schemas.ROUTE),
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
         "The document an identifier names, by exact match only; or the untyped file that carries it; "
         "a miss asks about an identifier that differs only in case or in how its number is written. "
         "`<corpus>:<id>` names a document of a harvested corpus.",
         (Argument("id", "an identifier, e.g. ACME-DR-0001"),), _resolve),
    Tool("governing_docs_for_path", "Documents governing a code path",
         "The documents that govern a file or directory through a declared governance edge, such as "
         "`governs: src/ingest/**`; documents of harvested corpora follow, marked `harvested` with their "
         "`corpus`. Read structuredContent.pointers; `unread_pins` names a pinned corpus that binds nothing "
         "and so could govern the path unseen. " + PATH_NOTE,
         (Argument("path", "a repository path, e.g. src/ingest/rate_limit.py (a line in it, `:12` or "
                           "`#L12`, reads as the file)"),), _governing, schemas.POINTERS),
    Tool("check", "Check the corpus",
         "Run every check the lock generates over the snapshot this server took, with no cache. The "
         "first block is one sentence of counts; the second is the bytes of `headwater check --format "
         "<format> --no-cache` at the session date, with the same filters (`--path`, `--rule`, "
         f"`--min-severity`, `--limit`). At most {CHECK_LIMIT} findings are written unless `limit` says "
         "otherwise, and the report says how many it left out.",
         (Argument("format", "the report format", enum=FORMAT_NAMES),
          Argument("paths", "report only findings in these files, directories or patterns", required=False,
                   array=True, example='["docs/decisions"]'),
          Argument("rules", "report only these rules, or families such as `facet`", required=False, array=True,
                   example='["link", "facet.required.missing"]'),
          Argument("min_severity", "report only findings this severe or more", required=False,
                   enum=SEVERITIES),
          Argument("limit", f"write at most this many findings (default {CHECK_LIMIT})", required=False,
                   integer=True)),
         _check),
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
          Argument("summary", "the one-sentence summary routing reads", required=False),
          Argument("relates", "relations to declare, each \"<relation>=<target>\"", required=False, array=True,
                   example='["supersedes=ACME-DR-0001"]'),
          Argument("facets", "facet values, each \"<facet>=<value>\"", required=False, array=True,
                   example='["status=draft"]'),
          Argument("directory", "where on the kind's shelf to write", required=False)),
         _new, writes=True),
    Tool("fix", "Apply mechanical fixes",
         "Apply every mechanical patch `check` proposes, all or nothing, and report the corpus after "
         "the writes. A write that lands ends this server's usable session.",
         (Argument("format", "the report format", enum=FORMAT_NAMES),), _fix, writes=True,
         destructive=True),  # a patch sets a value or replaces a span an author wrote
)


def registered(write: bool) -> tuple[Tool, ...]:
    return READS + (WRITES if write else ())
