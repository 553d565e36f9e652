"""Runner: judged after every instance ran — coverage, the taxonomy and federation pins, suppression directives."""

from __future__ import annotations

from headwater.check.adoption import ADOPTION
from headwater.check.context import Context
from headwater.check.coverage import Tally
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.check.suppressions import directives
from headwater.errors import Refusal
from headwater.taxonomy.declaration import DECLARATION
from headwater.taxonomy.package import find_package, release_digest, release_members
from headwater.taxonomy.pins import Family
from headwater.yaml.files import load_file
from headwater.yaml.nodes import Map


@rule("coverage.document_unchecked", 1, Scope.RUNNER, Severity.WARN,
      short="A classified document reached no check.",
      full="A typed document got no check instance, or every one of its instances was skipped, "
           "so nothing vouches for it.",
      help="""
The census typed this document, yet no rule reached a verdict on it. Check that the shelf
claims the right files and that the kind declares what its documents must carry; the skip
reasons in the coverage block say why each instance stopped.
""",
      tags=("coverage",))
def coverage_document_unchecked(ctx: Context, tally: Tally) -> list[Hit]:
    hits = []
    for doc in ctx.graph.census.documents:
        reached, skipped = tally.documents.get(doc.path, (0, 0))
        if not reached:
            message = "this document is classified and no check instance reached it"
        elif skipped == reached:
            message = f"this document is classified and all {reached} of its check instances were skipped"
        else:
            continue
        hits.append(Hit(doc.path, 0, 0, message, "check that the shelf claims the right files and that "
                        "the kind declares what its documents must carry", "coverage"))
    return hits


def _digest_position(ctx: Context) -> tuple[int, int]:
    try:
        top = load_file(ctx.snapshot.root / DECLARATION, DECLARATION)
    except Refusal:
        return (0, 0)
    taxonomy = top.get("taxonomy") if isinstance(top, Map) else None
    node = taxonomy.get("digest") if isinstance(taxonomy, Map) else None
    return (node.line, node.column) if node is not None else (0, 0)


@rule("taxonomy.pin.diverged", 1, Scope.RUNNER, Severity.ERROR,
      short="The taxonomy package does not hash to the digest `.headwater/taxonomy.yml` pins.",
      full="`taxonomy.digest` pins the release digest of the package; the package found today "
           "hashes to something else, so its files changed after they were vendored.",
      help="""
A vendored package is pinned by its release digest. When its files no longer hash to the pin,
someone edited the vendored copy: vendor the release again with `headwater taxonomy vendor`,
or move the change into the overlay.
""",
      tags=("taxonomy",))
def taxonomy_pin_diverged(ctx: Context, _tally) -> list[Hit]:
    declaration = ctx.snapshot.declaration
    if not declaration.digest:
        return []
    try:
        package = find_package(ctx.snapshot.root, declaration.package)
    except Refusal:
        found = "no package of that name is here to hash"
    else:
        today = release_digest(release_members(package.directory))
        if today == declaration.digest:
            return []
        found = f"{package.label} hashes to {today}"
    line, column = _digest_position(ctx)
    return [Hit(DECLARATION, line, column, f"`taxonomy.digest` pins {declaration.digest}, and {found}",
                "vendor the package again with `headwater taxonomy vendor`, or move local changes "
                "into the overlay", "taxonomy.digest")]


def _unread(ctx: Context, family: Family, remedy: str) -> list[Hit]:
    return [Hit(DECLARATION, u.pin.line, u.pin.column, f"`{u.pin.address}` binds nothing: {u.reason}",
                remedy.format(at=u.pin.at), u.pin.address)
            for u in ctx.snapshot.federation.unread_in(family)]


@rule("harvest.pin.unread", 1, Scope.RUNNER, Severity.ERROR,
      short="A pinned export under `harvests` binds nothing.",
      full="`harvests.<name>` names an export of another corpus and the digest it must hash to; "
           "the pin has no digest, the file is missing, it fails the digest, or it is not a "
           "headwater export, so no document or anchor of that corpus is bound.",
      help="""
A harvest reads a committed copy of another corpus's `.headwater/export.json`, never a live
one. Refresh the pin: copy the export the other corpus's `headwater export` wrote to the `at`
path, and write its digest (the one `headwater export` printed) as `digest`. Until then every
relation naming `<name>:…` binds nothing.
""",
      tags=("federation", "pin"))
def harvest_pin_unread(ctx: Context, _tally) -> list[Hit]:
    return _unread(ctx, Family.HARVEST, "copy the other corpus's `.headwater/export.json` to {at} and pin "
                   "the digest `headwater export` printed for it")


@rule("import.pin.unread", 1, Scope.RUNNER, Severity.ERROR,
      short="A pinned anchors snapshot under `imports` binds nothing.",
      full="`imports.<name>` names another repository's anchors snapshot and the digest it must "
           "hash to; the pin has no digest, the file is missing or unreadable, it fails the "
           "digest, or it is not an anchors snapshot, so no path of that repository is bound.",
      help="""
An import reads a committed copy of another repository's `.headwater/anchors.json`, which
`headwater export --anchors <pattern>` writes there. Copy it to the `at` path (by default
`.headwater/imports/<name>.json`) and pin its digest; until then every anchor naming
`<name>:…` matches nothing.
""",
      tags=("federation", "pin"))
def import_pin_unread(ctx: Context, _tally) -> list[Hit]:
    return _unread(ctx, Family.IMPORT, "copy the other repository's `.headwater/anchors.json` to {at} "
                   "and pin the digest `headwater export --anchors` printed for it")


@rule("suppression.refused", 1, Scope.RUNNER, Severity.ERROR,
      short="A suppression directive names an unknown rule, an unknown reason or a bad date.",
      full="A `<!-- headwater allow=… -->` directive that cannot be read hides nothing; it names "
           "a rule this engine does not carry, a reason outside the two, a scope outside "
           "`block`/`file`, or an `until` that is not a date.",
      help="""
A directive reads `<!-- headwater allow=<rule> scope=block|file until=YYYY-MM-DD
reason=false_positive|accepted_deviation note=<text> -->`. Expiry is mandatory. Correct the
directive, or delete it.
""",
      tags=("suppression",))
def suppression_refused(ctx: Context, _tally) -> list[Hit]:
    return [Hit(d.path, d.line, d.column, d.problem,
                "correct the directive (rule id, scope, until date and reason), or delete it", d.rule)
            for doc in ctx.graph.census.documents for d in directives(doc, ctx.rule_ids) if d.problem]


@rule("adoption.task.expired", 1, Scope.RUNNER, Severity.WARN,
      short="An adoption task is past its `until`; the findings it held are live again.",
      full="A task in `.headwater/adoption.yml` held findings until a date that has passed, so it "
           "holds nothing now and each of its findings is reported live.",
      help="""
An adoption task gives a team time to fix what a legacy corpus held when headwater came in.
Once its `until` passes, its findings count again. Fix them and delete the task, or, when the
work is under way, move `until` with the owner's agreement.
""",
      tags=("adoption",))
def adoption_task_expired(ctx: Context, _tally) -> list[Hit]:
    return [Hit(ADOPTION, task.line, 1, f"the adoption task {task.id} (owned by {task.owner}) ended on "
                f"{task.until.isoformat()}, so " + ("the finding it held is live again" if len(task.held) == 1
                                                    else f"the {len(task.held)} findings it held are live again"),
                "fix the findings and delete the task, or move `until` with its owner's agreement", task.id)
            for task in ctx.snapshot.adoption if task.until < ctx.today]


RULES = (coverage_document_unchecked, taxonomy_pin_diverged, harvest_pin_unread, import_pin_unread,
         suppression_refused, adoption_task_expired)
