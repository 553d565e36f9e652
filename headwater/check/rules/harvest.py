"""Harvests: a pinned export of another corpus that binds nothing, judged by the runner."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.check.rules.federation_pins import unread
from headwater.taxonomy.pins import Family


@rule("harvest.pin.unread", 1, Scope.RUNNER, Severity.ERROR,
      short="A pinned export under `harvests` binds nothing.",
      full="`harvests.<name>` names an export of another corpus and the digest it must hash to; "
           "the pin has no digest, the file is missing, it fails the digest, it is not a "
           "headwater export, or it is one of a version this headwater does not read, so no "
           "document or anchor of that corpus is bound.",
      help="""
A harvest reads a committed copy of another corpus's `.headwater/export.json`, never a live
one. Refresh the pin: copy the export the other corpus's `headwater export` wrote to the `at`
path, and write its digest (the one `headwater export` printed) as `digest`. Until then every
relation naming `<name>:…` binds nothing.
""",
      tags=("federation", "pin"))
def harvest_pin_unread(ctx: Context, _tally) -> list[Hit]:
    return unread(ctx, Family.HARVEST, "copy the other corpus's `.headwater/export.json` to {at} and pin "
                   "the digest `headwater export` printed for it")


RULES = (harvest_pin_unread,)
