"""The reference dialect: which of its constructs this engine reads with no effect, and why.

The taxonomy language is the reference engine's meta-schema plus a few members of our own.
Every member the validator admits either has a meaning here (a rule, a verb or a validation
reads it) or is listed below with the reason it is read and left alone. `inert` names each
such member a resolved tree carries; the lock records the list and `taxonomy validate
--verbose` prints it, so "accepted" never silently means "obeyed".
"""

from __future__ import annotations

from typing import Any

from headwater.frozen import frozen
from headwater.taxonomy.model import Taxonomy

# (section, member) → why a declaration's member is read and nothing follows from it here.
READ_ONLY_MEMBERS: dict[tuple[str, str], str] = {
    ("facets", "severity"): "the reference states no rule that reads it; findings keep their rule's severity",
    ("relations", "created_by"): "no check reads the actor that writes an edge",
    ("relations", "cardinality"): "no check counts the targets of one relation entry",
    ("relations", "nuclearity"): "no verb here renders rhetorical structure",
    ("relations", "nucleus"): "no verb here renders rhetorical structure",
    ("relations", "inherits"): "no verb here carries attributes along an edge",
    ("anchors", "pattern"): "no resolver here reads a pattern (no `comment-scan` resolver)",
    ("shelves", "group_by"): "no projection here groups a shelf",
}
# Members one level down, inside a kind's facet contract.
READ_ONLY_KIND_FACETS = {"optional": "a kind admits every declared facet already; no rule reads the list"}
READ_ONLY_ROOTS: dict[str, str] = {
    "extends": "a label naming the base a taxonomy was written against",
    "projections": "this engine has no `generate` verb to write projections",
    "mappings": "this engine exports no SKOS mappings",
}
READ_ONLY_SURFACE: dict[str, str] = {
    "archive": "no release archive is checked here",
    "integration_points": "no integration point is checked here",
    "prerequisites": "no installation is checked here",
    "companions": "no companion tool is checked here",
}
# Categories the voice rule has a matcher for; any other is read and skipped.
VOICE_CATEGORIES = ("future_intent", "change_narration", "phased_rollout")
# Allocations the `new` verb implements; any other mints as `reconcile-first`.
ALLOCATIONS = ("reconcile-first", "minted-once")


@frozen
class Inert:
    address: str
    reason: str

    def line(self) -> str:
        return f"{self.address}: {self.reason}"


def _entries(tree: dict, section: str) -> list[tuple[str, dict]]:
    body = tree.get(section)
    return [(n, b) for n, b in body.items() if isinstance(b, dict)] if isinstance(body, dict) else []


def inert(tree: Any) -> list[Inert]:
    """Every construct of a resolved tree that this engine reads and gives no effect, by address."""
    if not isinstance(tree, dict):
        return []
    found = [Inert(root, reason) for root, reason in READ_ONLY_ROOTS.items() if root in tree]
    for (section, member), reason in READ_ONLY_MEMBERS.items():
        found += [Inert(f"{section}.{name}.{member}", reason)
                  for name, body in _entries(tree, section) if member in body]
    for name, body in _entries(tree, "kinds"):
        contract = body.get("facets") if isinstance(body.get("facets"), dict) else {}
        found += [Inert(f"kinds.{name}.facets.{m}", reason)
                  for m, reason in READ_ONLY_KIND_FACETS.items() if m in contract]
    surface = tree.get("surface")
    if isinstance(surface, dict):
        found += [Inert(f"surface.{m}", reason) for m, reason in READ_ONLY_SURFACE.items() if m in surface]
    for name, body in _entries(tree.get("regimes") or {}, "voice"):
        found += [Inert(f"regimes.voice.{name}.forbid.{category}",
                        "no matcher here for this category, so the voice rule skips it")
                  for category in body.get("forbid") or [] if category not in VOICE_CATEGORIES]
    for name, body in _entries(tree, "identifier_schemes"):
        allocation = body.get("allocation")
        if allocation is not None and allocation not in ALLOCATIONS:
            found.append(Inert(f"identifier_schemes.{name}.allocation",
                               f"`{allocation}` is not implemented here; `new` mints it as reconcile-first"))
    found += _unserved(tree)
    return sorted(found, key=lambda i: i.address)


def _unserved(tree: dict) -> list[Inert]:
    """A purpose no concrete kind serves is read and routes nowhere (a bundle may declare a purpose
    for a kind another bundle brings, and the reference resolves it alone)."""
    tax = Taxonomy(tree)
    served = {tax.purpose_of(k) for k in tax.concrete_kinds}
    return [Inert(f"purposes.{name}", "no concrete kind serves it, so routing never answers with it")
            for name in tax.purposes if name not in served]
