"""Validation of a resolved taxonomy: every problem is one line naming its address.

A taxonomy that does not validate gets no lock, so every later verb may trust the lock.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from headwater.paths import OutsidePath, normalize
from headwater.patterns import opening_wildcard
from headwater.taxonomy.dialect import ALLOCATIONS, VOICE_CATEGORIES
from headwater.taxonomy.model import (
    FACET_ROLES,
    FAMILIES,
    PLACEHOLDER,
    SECTION_ROLES,
    STATE_ROLES,
    Kind,
    Relation,
    Taxonomy,
)
from headwater.taxonomy.validate_dialect import admitting, dialect_problems, unknown_keys

# The reference meta-schema's roots and members, plus our extensions (`governing_end`,
# `write_when`, `function_words`, string `guidance`); `dialect.py` lists what is read only.
TOP = ("taxonomy", "version", "extends", "purposes", "vocabularies", "facets", "kinds", "relations",
       "anchors", "regimes", "shelves", "identifier_schemes", "core", "projections", "mappings",
       "obligations", "controls", "surface")
KEYS = {
    "purposes": ("intent", "answers"),
    "facets": ("type", "values", "required", "role", "stale_after_days", "guidance", "severity",
               "volatility"),
    "kinds": ("abstract", "is_a", "purpose", "identifier", "lifecycle", "voice", "language",
              "facets", "sections", "relations", "write_when"),
    "relations": ("family", "from", "to", "inverse", "reciprocal", "on_target",
                  "lifecycle_sensitive", "invalid_when", "attributes", "governing_end", "created_by",
                  "cardinality", "nuclearity", "nucleus", "inherits", "evidence_at",
                  "key", "inverse_key"),
    "anchors": ("resolver", "scope", "pattern"),
    "shelves": ("path", "homogeneous", "kind", "discriminator", "kinds", "layout", "title", "group_by"),
    "identifier_schemes": ("pattern", "namespace", "allocation"),
}
REGIME_KEYS = {
    "lifecycle": ("initial", "transitions", "retain_terminal"),
    "voice": ("forbid",),
    "language": ("tag", "controlled", "profile", "source_form", "retired_terms", "outside_root",
                 "function_words"),
}
# What each member must be, where the model reads it as one: a mapping, one value, or a list of
# values (one value is a list of one). Anything else would be read as something it does not say.
MAPPING, VALUE, VALUES = "a mapping", "one value", "a value or a list of values"
MEMBER_SHAPES = {
    "kinds": {"facets": MAPPING, "sections": MAPPING, "identifier": MAPPING, "abstract": VALUE, "is_a": VALUE,
              "purpose": VALUE, "lifecycle": VALUE, "voice": VALUE, "language": VALUE, "write_when": VALUE},
    "kinds.facets": {"require": VALUES, "forbid": VALUES, "values": MAPPING},
    "kinds.sections": {"require": VALUES, "optional": VALUES},  # `roles`: `_section_roles` says what it maps
    "relations": {"family": VALUE, "from": VALUES, "to": VALUES, "inverse": VALUE, "reciprocal": VALUE,
                  "on_target": MAPPING, "invalid_when": MAPPING, "attributes": MAPPING, "governing_end": VALUE,
                  "lifecycle_sensitive": VALUE, "evidence_at": VALUE, "key": VALUE, "inverse_key": VALUE},
    "shelves": {"path": VALUE, "homogeneous": VALUE, "kind": VALUE, "discriminator": VALUE, "kinds": VALUES,
                "layout": VALUE, "title": VALUE},
    "identifier_schemes": {"pattern": VALUE, "namespace": VALUE, "allocation": VALUE},
    "regimes.lifecycle": {"initial": VALUE, "transitions": MAPPING, "retain_terminal": VALUE},
    "regimes.voice": {"forbid": VALUES},
    "regimes.language": {"tag": VALUE, "controlled": VALUE, "profile": VALUE, "source_form": VALUE},
}
# The keys each mapping one level inside a declaration may hold, where the model fixes them (a
# kind's `facets` keeps `optional`, which `dialect.py` lists as inert; `relations` under a kind is
# checked with its expectations). A key outside these is a typo whose meaning would be dropped.
NESTED_KEYS = {
    "kinds.facets": ("require", "forbid", "values", "optional"),
    "kinds.sections": ("require", "optional", "roles"),
    "kinds.identifier": ("scheme", "key"),
    "relations.on_target": ("set_state",),
    "relations.invalid_when": ("both",),
}
ATTRIBUTE_KEYS = ("type", "owner", "values")  # `values`: the reference full dialect uses it
FACET_TYPES = ("string", "date", "integer", "boolean", "duration")
BOOLEAN = ("true", "false")
NAMESPACE = re.compile(r"^[A-Za-z0-9]+$")


def validate(tree: Any) -> list[str]:
    if not isinstance(tree, dict):
        return ["(top): the taxonomy must be a mapping"]
    problems = _shape(tree)
    if problems:
        return problems
    return _references(Taxonomy(tree))


def _shape(tree: dict) -> list[str]:
    problems = [f"{key}: is not a declaration this engine reads{admitting(TOP)}" for key in tree if key not in TOP]
    problems += [f"{root}: must be a mapping" for root in ("obligations", "controls", "surface", "core")
                 if root in tree and not isinstance(tree[root], dict)]
    for section, allowed in KEYS.items():
        entries = tree.get(section, {})
        if not isinstance(entries, dict):
            problems.append(f"{section}: must be a mapping of names to declarations")
            continue
        for name, body in entries.items():
            if not isinstance(body, dict):
                problems.append(f"{section}.{name}: must be a mapping")
                continue
            problems += [f"{section}.{name}.{k}: is not a member a declaration here may have{admitting(allowed)}"
                         for k in body if k not in allowed]
            problems += _members(section, name, body) + _nested_keys(section, name, body)
    regimes = tree.get("regimes", {})
    if not isinstance(regimes, dict):
        return problems + ["regimes: must be a mapping"]
    for family, entries in regimes.items():
        if family not in REGIME_KEYS:
            problems.append(f"regimes.{family}: is not a regime family (lifecycle, voice, language)")
        elif not isinstance(entries, dict) or not all(isinstance(b, dict) for b in entries.values()):
            problems.append(f"regimes.{family}: must map names to mappings")
        else:
            problems += [f"regimes.{family}.{name}.{k}: is not a member a regime may have"
                         f"{admitting(REGIME_KEYS[family])}"
                         for name, body in entries.items() for k in body if k not in REGIME_KEYS[family]]
            problems += [p for name, body in entries.items() for p in _members(f"regimes.{family}", name, body)]
    return problems


def _members(section: str, name: str, body: dict) -> list[str]:
    """Each member of a declaration whose shape is not the one `MEMBER_SHAPES` names for it, and
    the same for the mappings inside it that have shapes of their own."""
    problems = []
    for member, shape in MEMBER_SHAPES.get(section, {}).items():
        value = body.get(member)
        if value is not None and not _fits(value, shape):
            problems.append(f"{section}.{name}.{member}: must be {shape}")
        elif isinstance(value, dict) and f"{section}.{member}" in MEMBER_SHAPES:
            problems += [p.replace(f"{section}.{member}.{name}.", f"{section}.{name}.{member}.", 1)
                         for p in _members(f"{section}.{member}", name, value)]
    return problems


def _nested_keys(section: str, name: str, body: dict) -> list[str]:
    """Each key of a nested mapping (and of a relation's attribute) that the model does not define."""
    nested = []
    for address, admitted in NESTED_KEYS.items():
        owner, member = address.split(".")
        if owner == section and isinstance(body.get(member), dict):
            nested.append((f"{section}.{name}.{member}", body[member], admitted))
    if section == "relations" and isinstance(body.get("attributes"), dict):
        nested += [(f"relations.{name}.attributes.{attribute}", value, ATTRIBUTE_KEYS)
                   for attribute, value in body["attributes"].items() if isinstance(value, dict)]
    return [problem for where, mapping, admitted in nested for problem in unknown_keys(where, mapping, admitted)]


def _fits(value: Any, shape: str) -> bool:
    if shape == MAPPING:
        return isinstance(value, dict)
    if shape == VALUE:
        return isinstance(value, str)
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


def _references(tax: Taxonomy) -> list[str]:
    return (_facets(tax) + _kinds(tax) + _relations(tax) + _shelves(tax) + _schemes(tax)
            + _regimes(tax) + _misspelled(tax) + dialect_problems(tax))


def _misspelled(tax: Taxonomy) -> list[str]:
    """An allocation or a voice category this engine does not implement is read and left inert
    (`dialect.inert`), since another engine's taxonomy may name its own; one that differs from a
    value it implements only as a typo would is a typo, and its rule would silently never run."""
    problems = []
    for scheme in tax.schemes.values():
        problems += _near(f"identifier_schemes.{scheme.name}.allocation", scheme.allocation, ALLOCATIONS)
    for name, raw in (tax.regimes.get("voice") or {}).items():
        forbid = raw.get("forbid") or []
        for category in forbid if isinstance(forbid, list) else [forbid]:
            problems += _near(f"regimes.voice.{name}.forbid", str(category), VOICE_CATEGORIES)
    return problems


def _near(where: str, value: str, known: tuple[str, ...]) -> list[str]:
    if value in known:
        return []
    spelled = {k.replace("_", "-"): k for k in known}  # `_` and `-` swapped is the commonest slip
    close = difflib.get_close_matches(value.lower().replace("_", "-"), list(spelled), n=1, cutoff=0.85)
    return [f"{where}: `{value}` is not one this engine knows; write `{spelled[close[0]]}`"] if close else []


def _facets(tax: Taxonomy) -> list[str]:
    problems, roles = [], {}
    for name, raw in tax.raw.get("facets", {}).items():
        where = f"facets.{name}"
        if str(raw.get("type", "string")) not in FACET_TYPES:
            problems.append(f"{where}.type: must be one of {', '.join(FACET_TYPES)}")
        role = raw.get("role")
        if role is not None:
            if role not in FACET_ROLES:
                problems.append(f"{where}.role: `{role}` is not a role (roles: {', '.join(FACET_ROLES)})")
            elif role in roles:
                problems.append(f"{where}.role: `{role}` is already the role of `{roles[role]}`")
            roles[role] = name
        values = raw.get("values")
        if values is not None and not isinstance(values, list):
            problems.append(f"{where}.values: must be a list (or a `$vocabularies` reference)")
        problems += [f"{where}.values[{n}]: an entry written as a mapping names its `value`"
                     for n, entry in enumerate(values or ()) if isinstance(entry, dict) and "value" not in entry]
        for flag in ("required",):
            if flag in raw and str(raw[flag]) not in BOOLEAN:
                problems.append(f"{where}.{flag}: must be true or false")
        if "stale_after_days" in raw and not str(raw["stale_after_days"]).isdigit():
            problems.append(f"{where}.stale_after_days: must be a whole number of days")
    return problems


def _kinds(tax: Taxonomy) -> list[str]:
    problems = []
    for kind in tax.kinds.values():
        where = f"kinds.{kind.name}"
        if kind.is_a and kind.is_a not in tax.kinds:
            problems.append(f"{where}.is_a: names `{kind.is_a}`, which is not a kind")
        elif len(tax.chain(kind.name)) != _chain_length(tax, kind.name):
            problems.append(f"{where}.is_a: the `is_a` chain runs in a cycle")
        if kind.purpose and kind.purpose not in tax.purposes:
            problems.append(f"{where}.purpose: names `{kind.purpose}`, which is not a purpose")
        # A taxonomy that declares no purposes still types and routes its documents (purposes
        # are route's prior, not its gate); once it declares some, every concrete kind serves one.
        if not kind.abstract and tax.purposes and not tax.purpose_of(kind.name):
            problems.append(f"{where}: a concrete kind must serve a purpose, its own or inherited")
        if kind.scheme and kind.scheme not in tax.schemes:
            problems.append(f"{where}.identifier.scheme: names `{kind.scheme}`, which is not a scheme")
        if kind.lifecycle and kind.lifecycle not in tax.lifecycles:
            problems.append(f"{where}.lifecycle: names `{kind.lifecycle}`, which is not a lifecycle regime")
        if kind.voice and kind.voice not in (tax.regimes.get("voice") or {}):
            problems.append(f"{where}.voice: names `{kind.voice}`, which is not a voice regime")
        if kind.language and kind.language not in (tax.regimes.get("language") or {}):
            problems.append(f"{where}.language: names `{kind.language}`, which is not a language regime")
        for facet in kind.require + kind.forbid + tuple(kind.narrowed):
            if facet not in tax.facets:
                problems.append(f"{where}.facets: names `{facet}`, which is not a facet")
        for facet, subset in kind.narrowed.items():
            declared = tax.facets.get(facet)
            if declared and declared.values and not set(subset) <= set(declared.values):
                problems.append(f"{where}.facets.values.{facet}: may only narrow the declared values")
        if kind.abstract and not any(tax.is_a(k, kind.name) for k in tax.concrete_kinds):
            problems.append(f"{where}: an abstract kind that no concrete kind inherits is a dead leaf")
        problems += _section_roles(tax, kind, f"{where}.sections.roles")
    return problems


def _section_roles(tax: Taxonomy, kind: Kind, where: str) -> list[str]:
    """Each role one of SECTION_ROLES, played by a section the kind (or an ancestor) declares."""
    raw = ((tax.raw.get("kinds", {}).get(kind.name) or {}).get("sections") or {}).get("roles")
    if raw is not None and not isinstance(raw, dict):
        return [f"{where}: must map section roles to section names"]
    declared = {s for link in tax.chain(kind.name) for s in link.sections + link.optional_sections}
    problems = [f"{where}.{role}: `{role}` is not a section role (roles: {', '.join(SECTION_ROLES)})"
                for role in kind.section_roles if role not in SECTION_ROLES]
    return problems + [f"{where}.{role}: names `{section}`, which the kind declares in neither "
                       "`sections.require` nor `sections.optional`"
                       for role, section in kind.section_roles.items() if section not in declared]


def _chain_length(tax: Taxonomy, kind: str) -> int:
    length, current, seen = 0, tax.kinds.get(kind), set()
    while current is not None:
        if current.name in seen:
            return -1
        seen.add(current.name)
        length += 1
        current = tax.kinds.get(current.is_a) if current.is_a else None
    return length


def _relations(tax: Taxonomy) -> list[str]:
    problems, names = [], set(tax.relations)
    for rel in tax.relations.values():
        where = f"relations.{rel.name}"
        if rel.family not in FAMILIES:
            problems.append(f"{where}.family: must be one of {', '.join(FAMILIES)}")
        if not rel.sources or not rel.targets:
            problems.append(f"{where}: needs both `from` and `to`")
        for end in rel.sources:
            if end not in tax.kinds:
                problems.append(f"{where}.from: names `{end}`, which is not a kind")
        for end in rel.targets:
            if end not in tax.kinds and end not in tax.anchors:
                problems.append(f"{where}.to: names `{end}`, which is neither a kind nor an anchor")
        if rel.inverse:
            if rel.inverse in names:
                problems.append(f"{where}.inverse: `{rel.inverse}` is already a relation name")
            names.add(rel.inverse)
        if rel.reciprocal not in (None, "required", "symmetric", "optional"):
            problems.append(f"{where}.reciprocal: must be required, symmetric or optional")
        if rel.reciprocal == "required" and not rel.inverse:
            problems.append(f"{where}.reciprocal: a required far half needs an `inverse` name")
        if rel.governing_end not in ("source", "target", "neither"):
            problems.append(f"{where}.governing_end: must be source, target or neither")
        state_facet = tax.facets.get(tax.facet_for_role("state") or "")
        if rel.set_state and (not state_facet or rel.set_state not in (state_facet.values or ())):
            problems.append(f"{where}.on_target.set_state: `{rel.set_state}` is not a state")
        problems += _invalid_when(tax, rel, f"{where}.invalid_when.both")
    return problems


def _invalid_when(tax: Taxonomy, rel: Relation, where: str) -> list[str]:
    """Each facet the condition names, and each value it names of a facet with declared values: a
    value no kind the relation joins admits (a state the lifecycle no longer has) can never hold,
    so the rule would silently never fire."""
    problems = []
    kinds = [end for end in (*rel.sources, *rel.targets) if end in tax.kinds]
    for facet, held in rel.invalid_when_both.items():
        if facet not in tax.facets:
            problems.append(f"{where}: names `{facet}`, which is not a facet")
            continue
        admitted = [tax.admitted_values(kind, facet) for kind in kinds]
        if not admitted or any(values is None for values in admitted):
            continue  # a kind that takes any value of the facet may hold it
        problems += [f"{where}.{facet}: names `{value}`, which no kind the relation joins admits"
                     for value in held if not any(value in values for values in admitted)]
    return problems


def _shelves(tax: Taxonomy) -> list[str]:
    problems = []
    for shelf in tax.shelves.values():
        where = f"shelves.{shelf.name}"
        if opening_wildcard(shelf.path):
            problems.append(f"{where}.path: `{shelf.path}` opens with a wildcard, and no literal segment bounds it")
        problems += [f"{where}.{member}: {problem}" for member, text in (("path", shelf.path), ("layout", shelf.layout))
                     if text is not None and (problem := _unplain(text))]  # `new` writes where these say
        if shelf.homogeneous:
            if shelf.kind not in tax.kinds:
                problems.append(f"{where}.kind: names `{shelf.kind}`, which is not a kind")
            elif tax.kinds[shelf.kind].abstract:
                problems.append(f"{where}.kind: `{shelf.kind}` is abstract, and no document is")
        else:
            if not shelf.discriminator or shelf.discriminator not in tax.facets:
                problems.append(f"{where}.discriminator: a heterogeneous shelf needs a declared facet")
            for kind in shelf.kinds:
                if kind not in tax.kinds:
                    problems.append(f"{where}.kinds: names `{kind}`, which is not a kind")
                elif tax.kinds[kind].abstract:
                    problems.append(f"{where}.kinds: `{kind}` is abstract, and no document is")
    return problems


def _unplain(text: str) -> str | None:
    """Why a path written in the taxonomy is not one `new` may write at, or None."""
    try:
        normal = normalize(text)
    except OutsidePath:
        return f"`{text}` leaves the repository, and so would a document `new` placed by it"
    return None if normal == text else f"`{text}` reads as `{normal}`; write it so"


def _schemes(tax: Taxonomy) -> list[str]:
    problems, prefixes = [], {}
    for scheme in tax.schemes.values():
        where = f"identifier_schemes.{scheme.name}"
        if "{seq" not in scheme.pattern and "{slug}" not in scheme.pattern:
            problems.append(f"{where}.pattern: needs `{{seq:04d}}` or `{{slug}}`")
        leftover = PLACEHOLDER.sub("", scheme.pattern)
        if "{" in leftover or "}" in leftover:
            problems.append(f"{where}.pattern: only {{namespace}}, {{seq:0Nd}} and {{slug}} are placeholders")
        if not scheme.allocation.strip():
            problems.append(f"{where}.allocation: must name an allocation")
        if not scheme.namespace and "{namespace}" in scheme.pattern:
            problems.append(
                f"{where}: carries no namespace after resolution. Add "
                f"`identifier_schemes.{scheme.name}.namespace: <NS>` under `add:` in the overlay"
            )
        elif scheme.namespace and not NAMESPACE.match(scheme.namespace):
            problems.append(f"{where}.namespace: `{scheme.namespace}` must be letters and digits")
        prefix = scheme.fixed_prefix
        digits = not prefix and scheme.pattern.startswith("{seq")  # a bare number: `eip: 1559`
        for other, (other_prefix, other_digits) in prefixes.items():
            if _disjoint(prefix, digits, other_prefix, other_digits):
                continue
            if prefix.startswith(other_prefix) or other_prefix.startswith(prefix):
                problems.append(f"{where}: admits identifiers that `{other}` admits too")
        prefixes[scheme.name] = (prefix, digits)
    return problems


def _disjoint(prefix: str, digits: bool, other: str, other_digits: bool) -> bool:
    """A bare-number scheme and one whose identifiers open with a non-digit admit nothing alike."""
    return (digits and other[:1].isalpha()) or (other_digits and prefix[:1].isalpha())


def _regimes(tax: Taxonomy) -> list[str]:
    problems = []
    state_facet = tax.facets.get(tax.facet_for_role("state") or "")
    states = set(state_facet.values or ()) if state_facet else set()
    for life in tax.lifecycles.values():
        where = f"regimes.lifecycle.{life.name}"
        for state in [life.initial, *life.transitions, *(s for n in life.transitions.values() for s in n)]:
            if states and state not in states:
                problems.append(f"{where}: `{state}` is not a value of the state facet")
    for name, raw in (tax.raw.get("vocabularies") or {}).items():
        for entry in raw if isinstance(raw, list) else []:
            if isinstance(entry, dict) and entry.get("role") and entry["role"] not in STATE_ROLES:
                problems.append(f"vocabularies.{name}: `{entry['role']}` is not a state role")
    return problems
