"""Taxonomy: the vendored taxonomy against the release its declaration pins, judged by the runner."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.errors import Refusal
from headwater.taxonomy.declaration import DECLARATION
from headwater.taxonomy.package import find_package, release_digest, release_members
from headwater.yaml.files import load_in_place
from headwater.yaml.nodes import Map


def _digest_position(ctx: Context) -> tuple[int, int]:
    try:
        top = load_in_place(ctx.snapshot.root, DECLARATION)
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


RULES = (taxonomy_pin_diverged,)
