"""The one declaration of every verb: group, summary, long help, flags, operands, handler.

The parser, the root help screen, `headwater help <verb>` and the README's verb table all
read this table, so they cannot drift apart.
"""

from __future__ import annotations

from headwater.frozen import frozen
from headwater.reads.route.task import TASK_MOST
from headwater.render import FORMAT_NAMES, MARKDOWN_MAX_BYTES

GROUPS = ("Checking a corpus", "Reading a corpus", "Writing a corpus", "The taxonomy", "Getting help")


@frozen
class Flag:
    """An option a verb takes, as the help and the parser spell it."""

    name: str  # "--strict"
    help: str
    metavar: str | None = None  # None: a switch that takes no value; one word per value
    repeat: bool = False
    values: int = 1  # how many words each use of the flag takes
    choices: tuple[str, ...] = ()  # argparse refuses any other value, before a handler runs
    short: str | None = None
    path: bool = False  # a path the user types: read from the directory they typed it in, as git reads one
    names: str = ""  # what a path-taking value names ("path", "pattern"): empty would mean here, or everything
    required: bool = False  # the verb refuses to run without it, so its usage shows no brackets


@frozen
class Operand:
    """A positional word (or words) a verb takes."""

    name: str  # "task"
    help: str
    many: bool = False  # all remaining words form one operand
    missing: str = ""  # the refusal sentence when it is absent (None: optional)
    path: bool = False  # a path the user may type (or an identifier): read as `Flag.path` says


@frozen
class Verb:
    """A command: its words, help, flags and operands, and the handler that runs it."""

    name: str  # "check", or "taxonomy resolve" for a second word
    group: str
    summary: str
    description: str
    handler: str  # "module:function" under headwater.cli, imported only when the verb runs
    flags: tuple[Flag, ...] = ()
    operands: tuple[Operand, ...] = ()
    lays_out: bool = False  # whether `--wide` means anything to this verb


NOW = Flag("--now", "the run date, instead of reading the clock", "YYYY-MM-DD")
JSON = Flag("--json", "write the JSON document instead of the text")
# only where `--format` exists too: a verb without it would refuse the spelling its help named
FORMAT_JSON = Flag("--json", "write the JSON document (another spelling of `--format json`)")

CHANGE_OPERANDS = ("`change` takes a base revision and an output directory. "
                   "Try `headwater change HEAD .headwater/change`")

GLOBAL_FLAGS = (
    Flag("--root", "the repository to read (default: the nearest directory up from here that holds "
                   "`.headwater/taxonomy.yml`, else the git top level)", "PATH", names="path"),
    Flag("--version", "print the version and exit", short="-V"),
    Flag("--wide", "lay text out as wide as COLUMNS allows, 80 to 120"),
    Flag("--no-color", "no colour; also NO_COLOR, TERM=dumb, or stdout not a terminal (FORCE_COLOR forces it)"),
    Flag("--quiet", "nothing on stderr but refusals and failures: no progress, no account", short="-q"),
    Flag("--verbose", "also the accounts a run keeps (the cache's hits and misses; what `taxonomy validate` "
                      "reads with no effect here)"),
    Flag("--no-banner", "drop the masthead from the root help screen"),
    Flag("--help", "print help and exit", short="-h"),
)

VERBS: tuple[Verb, ...] = (
    Verb(
        "check", GROUPS[0],
        "run every check the committed lock generates over the corpus",
        "Loads the lock and the corpus, runs every rule instance the taxonomy generates, and "
        "writes one report. Advisory by default; `--strict` exits 1 when a live error remains.",
        "verb_check:run",
        (Flag("--strict", "exit 1 when a live error remains"),
         Flag("--fix", "apply every mechanical patch, all or nothing"),
         Flag("--no-cache", "neither read nor write the cache"),
         Flag("--staged", "check the tree git's index holds, as a commit would (runs git; for pre-commit hooks)"),
         NOW,
         Flag("--change", "a manifest written by `headwater change`", "MANIFEST", names="path"),
         Flag("--format", "the report format", "FORMAT", choices=FORMAT_NAMES),
         FORMAT_JSON,
         Flag("--path", "report only findings in this file, directory or pattern", "PATH", repeat=True, path=True,
              names="path"),
         Flag("--rule", "report only this rule, or a family such as `facet`", "RULE", repeat=True),
         # Checked by `check.selection`, which words its own refusal ("error, warn, info, and …").
         Flag("--min-severity", "report only findings this severe or more (error, warn, info)", "SEVERITY"),
         Flag("--limit", "write at most N findings (and N census rows in text), saying how many were left out",
              "N"),
         Flag("--max-bytes", f"bound the markdown report (default {MARKDOWN_MAX_BYTES})", "N")),
        lays_out=True,
    ),
    Verb(
        "change", GROUPS[0],
        "write the change manifest `check --change` reads (git runs only here and in `check --staged`)",
        "Compares the working tree with a base revision and writes a manifest plus the prior "
        "bytes of every changed file, so change-scoped rules can see what moved.",
        "verb_change:run",
        (Flag("--verified", "a document whose re-read this change states", "DOC", repeat=True),
         Flag("--verified-edge", "a document and a target whose edge was re-read", "DOC TARGET", repeat=True,
              values=2)),
        (Operand("base_rev", "the revision to compare against",
                 missing=CHANGE_OPERANDS),
         Operand("out_dir", "where the manifest goes",
                 missing=CHANGE_OPERANDS)),
    ),
    Verb(
        "impact", GROUPS[0],
        "name the governed documents a change touches, and which it did not re-verify",
        "Reads the manifest `headwater change` wrote and lists every document whose governing "
        "edges reach a path the change adds, changes or removes, flagging those the change did not "
        "re-verify. `--strict` exits 1 when one was not.",
        "verb_impact:run",
        (Flag("--strict", "exit 1 when a touched document was not re-verified"),
         Flag("--format", "the report format", "FORMAT", choices=("text", "markdown", "json", "github")),
         FORMAT_JSON,
         Flag("--max-bytes", f"bound the markdown report (default {MARKDOWN_MAX_BYTES})", "N")),
        (Operand("manifest", "the manifest `headwater change` wrote",
                 missing="`impact` takes the manifest `headwater change` wrote. "
                         "Try `headwater change origin/main .headwater/change && "
                         "headwater impact .headwater/change/manifest`"),),
        lays_out=True,
    ),
    Verb(
        "route", GROUPS[1],
        "name the documents that govern a task, or stay silent when unsure",
        "Reads the task's words and any paths it names, ranks every document on its title, "
        "summary, headings, path and body, and points at the documents that govern the work, "
        "each with its lifecycle state and the evidence that reached it.",
        "verb_route:run",
        (Flag("--budget", "how many pointers at most (default 5)", "N"), JSON),
        (Operand("task", f"the task, in words (at most {TASK_MOST:,} characters)", many=True,
                 missing='`route` takes a task description. '
                         'Try `headwater route "add rate limiting to the ingest API"`'),),
        lays_out=True,
    ),
    Verb(
        "explain", GROUPS[1],
        "say what a document is, why, what is required of it and what it relates to",
        "Prints a document's kind and how it was derived, its purpose, summary and warrant, the "
        "facets and sections its kind requires, the relations it may declare, and its edges.",
        "verb_explain:run_explain",
        (JSON,),
        (Operand("target", "a path or an identifier", path=True,
                 missing="`explain` takes a path or an identifier. "
                         "Try `headwater explain docs/decisions/0001-example.md`"),),
        lays_out=True,
    ),
    Verb(
        "show", GROUPS[1],
        "print a document's bytes exactly as they are on disk",
        "Resolves a path or an identifier the way `explain` does and writes the file's bytes "
        "unchanged.",
        "verb_explain:run_show",
        (),
        (Operand("target", "a path or an identifier", path=True,
                 missing="`show` takes a path or an identifier. Try `headwater show docs/decisions/0001-example.md`"),),
    ),
    Verb(
        "related", GROUPS[1],
        "list a document's edges, outbound then inbound",
        "Prints one line per edge of a document: outbound in graph order, then inbound from other "
        "documents, each with its cue and which end governs the reading. The MCP `related` tool's answer.",
        "verb_reads:run_related",
        (JSON,),
        (Operand("target", "a path or an identifier", path=True,
                 missing="`related` takes a path or an identifier. Try `headwater related ACME-DR-0001`"),),
    ),
    Verb(
        "resolve", GROUPS[1],
        "name the document an identifier names, by exact match only",
        "Prints the pointer of the document that carries an identifier, or says which untyped file "
        "carries it, or that none does, asking about an identifier a document carries that differs "
        "only in case or in how its number is written. The MCP `resolve_identifier` tool's answer.",
        "verb_reads:run_resolve",
        (JSON,),
        (Operand("id", "an identifier",
                 missing="`resolve` takes an identifier. Try `headwater resolve ACME-DR-0001`"),),
    ),
    Verb(
        "mcp", GROUPS[1],
        "serve the reads to agents over MCP stdio, from one snapshot",
        "Loads the lock and walks the corpus once, then answers JSON-RPC on stdin/stdout. "
        "`--write` adds the `new` and `fix` tools; the first write spends the server.",
        "verb_mcp:run",
        (NOW, Flag("--write", "also register the write tools `new` and `fix`")),
    ),
    Verb(
        "new", GROUPS[2],
        "write a correctly shaped new document, with a minted identifier",
        "Places a document of a kind on its shelf, mints its identifier, fills its facets and "
        "required sections, writes far halves of reciprocal relations, and records the cost.",
        "verb_new:run",
        (Flag("--title", "the document's title", "TITLE"),
         Flag("--summary", "the one-sentence summary routing reads", "SUMMARY"),
         Flag("--relates", "a relation and its target", "REL=TARGET", repeat=True),
         Flag("--facet", "a facet and its value", "FACET=VALUE", repeat=True),
         Flag("--directory", "where on the shelf to write", "DIR", path=True, names="path"),
         NOW),
        (Operand("kind", "the kind of document",
                 missing='`new` takes a kind. Try `headwater new decision --title "Adopt an overlay"`'),),
    ),
    Verb(
        "adopt", GROUPS[2],
        "migrate records that keep their metadata in the body into front matter, all or nothing",
        "Reads each record on a shelf the way adr-tools, MADR and log4brains write it (a `Date:` line, a "
        "`## Status` section, `- Status:` bullets, `Superseded by [..](..)` links) and writes front matter "
        "derived from it: the status, the date, an identifier from the file's own number with its claim, "
        "and both halves of each supersession. Every other byte stays; one batch, like `check --fix`.",
        "verb_adopt:run",
        (Flag("--dry-run", "print what it would write, and write nothing"),
         Flag("--baseline", "then hold every remaining finding under a new adoption task in "
                            "`.headwater/adoption.yml`"),
         Flag("--owner", "who answers for the findings the task holds", "OWNER"),
         Flag("--until", "when the held findings count again", "YYYY-MM-DD"),
         NOW),
    ),
    Verb(
        "export", GROUPS[2],
        "write the corpus's pinnable export and descriptor, or an anchors snapshot",
        "Writes `.headwater/export.json` (the census, every document and every edge, every value a "
        "string, no timestamp) and `.headwater/corpus.json`, and prints the digest another "
        "repository pins under `harvests`. `--anchors PATTERN` instead writes "
        "`.headwater/anchors.json`, the files the patterns match with the revision of each, which "
        "another repository pins under `imports`. `--check` writes nothing and exits 1 when the "
        "committed copy is stale.",
        "verb_export:run",
        (Flag("--check", "exit 1 when the committed copy is not what the corpus exports today"),
         Flag("--anchors", "write the anchors snapshot of the files this pattern matches", "PATTERN",
              repeat=True, names="pattern")),
    ),
    Verb(
        "init", GROUPS[3],
        "bind this repository to a taxonomy package",
        "Writes `.headwater/taxonomy.yml`, `.headwater/overlay.yml` and the lock, reading what it can off "
        "the tree (where the records are, how they are numbered, the statuses and sections they use, "
        "the pages beside them) and saying each inference on its own line; what it cannot read it "
        "asks as comments in the overlay.",
        "verb_init:run",
        (Flag("--corpus", "the corpus root (default: read off the tree: the folder holding the records, "
                          "else the top-level folder holding the most Markdown, narrowed to the folder "
                          "below it that holds all of it; `docs` when none holds any)", "DIR", names="path"),
         Flag("--dry-run", "print the declaration and overlay it would write, and write nothing"),
         Flag("--package", "the taxonomy package (default headwater/standard)", "NAME"),
         Flag("--bundle", "a bundle of the package to select", "NAME", repeat=True),
         Flag("--namespace", "the identifier namespace, e.g. ACME", "NS")),
    ),
    Verb(
        "taxonomy resolve", GROUPS[3],
        "resolve package, bundles and overlay into `.headwater/taxonomy.lock`",
        "Validates the resolved taxonomy and writes the lock every other verb reads. "
        "`--check` writes nothing and exits 1 when the lock is not what the sources resolve to.",
        "verb_taxonomy:run_resolve",
        (Flag("--check", "exit 1 when the lock is stale, naming the changed sources"),),
    ),
    Verb(
        "taxonomy validate", GROUPS[3],
        "list every problem of the taxonomy sources, writing nothing",
        "Resolves the sources in memory and prints one line per problem, naming its address. "
        "`--verbose` also lists each construct that is read and has no effect in this engine.",
        "verb_taxonomy:run_validate",
        (),
    ),
    Verb(
        "taxonomy kinds", GROUPS[3],
        "list the kinds a document can be, and how to write one",
        "Reads only the lock and prints each concrete kind: its parent, purpose, shelf, facets, "
        "sections, the `headwater new` line that drafts one, and when to write one.",
        "verb_taxonomy:run_kinds",
        (JSON,),
    ),
    Verb(
        "taxonomy vendor", GROUPS[3],
        "copy a taxonomy package into `.headwater/packages/` after checking its digest",
        "Checks every file of the package against the release digest, copies it, and pins the "
        "digest in `.headwater/taxonomy.yml`.",
        "verb_vendor:run",
        (Flag("--expect", "the release digest the publisher printed", "DIGEST", required=True),),
        (Operand("directory", "the package directory",
                 missing="`taxonomy vendor` takes a package directory. "
                         "Try `headwater taxonomy vendor ../headwater-standard --expect sha256:…`"),),
    ),
    Verb(
        "rule", GROUPS[4],
        "explain a rule: what it finds, why, and how to fix it",
        "Prints one rule's reference from the registry: its name, severity, scope, version, precision, "
        "whether a patch fixes it, its descriptions and its help. `--list` lists every rule; `--all` "
        "prints the whole rules page (`headwater rule --all > docs/rules.md` regenerates it).",
        "verb_rule:run",
        (Flag("--list", "one line per rule: id, severity, short description"),
         Flag("--all", "every rule's section: the page docs/rules.md holds"),
         JSON),
        (Operand("rule", "a rule id, such as facet.required.missing"),),
    ),
    Verb(
        "help", GROUPS[4],
        "print the root help screen, or one verb's long help",
        "With no word, the root screen; with a verb, that verb's page.",
        "help:run",
        (),
        (Operand("words", "a verb (and its second word)", many=True),),
        lays_out=True,
    ),
)

SECOND_WORDS = {"taxonomy": tuple(v.name.split()[1] for v in VERBS if v.name.startswith("taxonomy "))}


def verb_named(name: str) -> Verb | None:
    for verb in VERBS:
        if verb.name == name:
            return verb
    return None


def markdown_table() -> str:
    """The README's verb table, generated from this declaration."""
    lines = ["| verb | what it does |", "|---|---|"]
    lines += [f"| `headwater {v.name}` | {v.summary} |" for v in VERBS]
    return "\n".join(lines) + "\n"
