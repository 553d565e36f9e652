"""Imports: a pinned anchors snapshot of another repository that binds nothing, judged by the runner.

Named `import_` because `import` is a Python keyword."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.check.rules.federation_pins import unread
from headwater.taxonomy.pins import Family


@rule("import.pin.unread", 1, Scope.RUNNER, Severity.ERROR,
      short="A pinned anchors snapshot under `imports` binds nothing.",
      full="`imports.<name>` names another repository's anchors snapshot and the digest it must "
           "hash to; the pin has no digest, the file is missing or unreadable, it fails the "
           "digest, it is not an anchors snapshot, or it is one of a version this headwater does "
           "not read, so no path of that repository is bound.",
      help="""
An import reads a committed copy of another repository's `.headwater/anchors.json`, which
`headwater export --anchors <pattern>` writes there. Copy it to the `at` path (by default
`.headwater/imports/<name>.json`) and pin its digest; until then every anchor naming
`<name>:…` matches nothing.
""",
      tags=("federation", "pin"))
def import_pin_unread(ctx: Context, _tally) -> list[Hit]:
    return unread(ctx, Family.IMPORT, "copy the other repository's `.headwater/anchors.json` to {at} "
                   "and pin the digest `headwater export --anchors` printed for it")


RULES = (import_pin_unread,)
