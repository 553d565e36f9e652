"""Validation of the reference-dialect members beyond the base declarations.

Facet volatility and severity, relation descriptors, language profiles, participation
expectations, `core.requires`, obligations, controls and the consumer surface — each problem
one line naming its address, like the rest of `validate`.
"""

from __future__ import annotations

import re
from typing import Any

from headwater.clock import parse_days
from headwater.taxonomy.model import FACET_ROLES, FAMILIES, Taxonomy

ENUMS = {
    ("facets", "volatility"): ("stable", "mutable"),
    ("facets", "severity"): ("error", "warn", "info"),
    ("relations", "created_by"): ("author", "scaffold", "generator", "hook", "agent", "import"),
    ("relations", "cardinality"): ("one", "many"),
    ("relations", "nuclearity"): ("multinuclear", "nucleus-satellite"),
    ("relations", "nucleus"): ("from", "to"),
    ("relations", "evidence_at"): ("from", "to"),
}
SCALARS = (("shelves", "group_by"), ("anchors", "pattern"), ("identifier_schemes", "allocation"))
SOURCE_FORMS = ("unconstrained", "one_line_per_block")
SEVERITIES = ("error", "warn", "info")
OBLIGATION = {"statement": None, "rationale": None, "class": ("cohesion", "coherence"),
              "prevents": None, "severity": ("high", "medium", "low")}
CONTROL = {"mechanism": None, "discharges": None, "trigger": None,
           "posture": ("advisory", "blocking"), "acts": ("preventive", "detective", "corrective", "adaptive")}
PROMOTIONS = {"criteria": ("window", "threshold", "sample"), "final_posture": ("reasoning",),
              "permanently_advisory": ("reasoning",), "produces_facts": ("reasoning",)}
SURFACE = ("archive", "integration_points", "prerequisites", "companions", "adopter_documents",
           "local_roots", "commands")
EXPECTATION = ("id", "relation", "to_kind", "when", "within", "since", "severity", "rationale")
RETIRED_TERM = ("term", "reason", "replacement")
TOKEN = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::[^}]*)?\}")


def dialect_problems(tax: Taxonomy) -> list[str]:
    return (_scalars(tax) + _enums(tax) + _volatile_patterns(tax) + _languages(tax) + _expectations(tax) + _core(tax)
            + _obligations(tax) + _controls(tax) + _surface(tax) + _lists(tax))


def admitting(admitted: tuple[str, ...]) -> str:
    """What a problem about an unknown key ends with, so the author sees the spelling meant."""
    return f"; it admits {', '.join(admitted)}"


def unknown_keys(where: str, mapping: dict, admitted: tuple[str, ...]) -> list[str]:
    """One line per key `admitted` does not hold, naming its address and what is admitted there."""
    return [f"{where}.{key}: is not a key this mapping may hold{admitting(admitted)}"
            for key in mapping if key not in admitted]


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def _scalars(tax: Taxonomy) -> list[str]:
    """Members the reference types as one string, where a list or a mapping is a mistake."""
    problems = [] if _is_scalar(tax.raw.get("extends")) else ["extends: must be a single value"]
    for section, member in SCALARS:
        problems += [f"{section}.{name}.{member}: must be a single value"
                     for name, raw in (tax.raw.get(section) or {}).items()
                     if isinstance(raw, dict) and member in raw and not _is_scalar(raw[member])]
    for name, raw in (tax.regimes.get("language") or {}).items():
        problems += [f"regimes.language.{name}.{member}: must be a single value"
                     for member in ("tag", "controlled", "profile") if not _is_scalar(raw.get(member))]
    return problems


def _enums(tax: Taxonomy) -> list[str]:
    problems = []
    for (section, member), allowed in ENUMS.items():
        for name, raw in (tax.raw.get(section) or {}).items():
            value = raw.get(member) if isinstance(raw, dict) else None
            if value is not None and str(value) not in allowed:
                problems.append(f"{section}.{name}.{member}: must be one of {', '.join(allowed)}")
    return problems


def _volatile_patterns(tax: Taxonomy) -> list[str]:
    """A mutable facet's value moves, so an identifier, a path or a file name may not hold it."""
    mutable = {f.name for f in tax.facets.values() if f.volatility == "mutable"}
    places = [(f"identifier_schemes.{s.name}.pattern", s.pattern) for s in tax.schemes.values()]
    places += [(f"shelves.{s.name}.path", s.path) for s in tax.shelves.values()]
    places += [(f"shelves.{s.name}.layout", s.layout) for s in tax.shelves.values() if s.layout]
    return [f"{where}: names the mutable facet `{token}`, whose value moves"
            for where, text in places for token in TOKEN.findall(text) if token in mutable]


def _languages(tax: Taxonomy) -> list[str]:
    problems = []
    for name, raw in (tax.regimes.get("language") or {}).items():
        form = raw.get("source_form")
        if form is not None and form not in SOURCE_FORMS:
            problems.append(f"regimes.language.{name}.source_form: must be one of {', '.join(SOURCE_FORMS)}")
        outside = raw.get("outside_root")
        if outside is not None and not isinstance(outside, (str, list)):
            problems.append(f"regimes.language.{name}.outside_root: must be a pattern or a list of patterns")
        terms = raw.get("retired_terms")
        problems += [p for index, term in enumerate(terms if isinstance(terms, list) else [])
                     if isinstance(term, dict)
                     for p in unknown_keys(f"regimes.language.{name}.retired_terms[{index}]", term, RETIRED_TERM)]
    return problems


def _expectations(tax: Taxonomy) -> list[str]:
    problems = []
    for kind in tax.kinds.values():
        raw = tax.raw["kinds"][kind.name].get("relations")
        where = f"kinds.{kind.name}.relations"
        if raw is None:
            continue
        if not isinstance(raw, dict) or set(raw) - {"expect"} or not isinstance(raw.get("expect", []), list):
            problems.append(f"{where}: holds one member, `expect`, a list of expectations")
            continue
        for index, item in enumerate(raw.get("expect") or []):
            problems += _expectation(tax, f"{where}.expect[{index}]", item)
    return problems


def _expectation(tax: Taxonomy, where: str, item: Any) -> list[str]:
    if not isinstance(item, dict):
        return [f"{where}: must be a mapping"]
    problems = unknown_keys(where, item, EXPECTATION)
    problems += [f"{where}: needs `{m}`" for m in ("id", "relation", "within", "since", "rationale")
                 if not item.get(m)]
    if item.get("relation") and tax.relation_named(str(item["relation"])) is None:
        problems.append(f"{where}.relation: names `{item['relation']}`, which is not a relation")
    if item.get("to_kind") and item["to_kind"] not in tax.kinds:
        problems.append(f"{where}.to_kind: names `{item['to_kind']}`, which is not a kind")
    if item.get("within") and parse_days(str(item["within"])) is None:
        problems.append(f"{where}.within: `{item['within']}` is not a duration such as 90d or 12w")
    if item.get("since") and item["since"] not in ("created", "state_entered"):
        problems.append(f"{where}.since: must be created or state_entered")
    if item.get("severity") and item["severity"] not in SEVERITIES:
        problems.append(f"{where}.severity: must be one of {', '.join(SEVERITIES)}")
    when = item.get("when") or {}
    problems += [f"{where}.when: names `{facet}`, which is not a facet"
                 for facet in (when if isinstance(when, dict) else {}) if facet not in tax.facets]
    return problems


def _core(tax: Taxonomy) -> list[str]:
    """`core.requires`: what any taxonomy built on the base must still hold after every layer."""
    core = tax.raw.get("core")
    if core is None:
        return []
    requires = core.get("requires") if isinstance(core, dict) else None
    if not isinstance(requires, list):
        return ["core.requires: must be a list of requirements"]
    return [p for index, item in enumerate(requires) for p in _requirement(tax, f"core.requires[{index}]", item)]


def _requirement(tax: Taxonomy, where: str, item: Any) -> list[str]:
    if not isinstance(item, dict):
        return [f"{where}: must be a mapping"]
    if "facet_role" in item:
        role = item["facet_role"]
        if role not in FACET_ROLES:
            return [f"{where}.facet_role: `{role}` is not a role"]
        return [] if tax.facet_for_role(role) else [f"{where}: no facet holds the `{role}` role"]
    if "purpose" in item:
        return [] if item["purpose"] in tax.purposes else [f"{where}: the purpose `{item['purpose']}` is gone"]
    if "identifier_scheme" in item:
        name = item["identifier_scheme"]
        return [] if name in tax.schemes else [f"{where}: the identifier scheme `{name}` is gone"]
    if "relation_family" in item:
        return _family_requirement(tax, where, item)
    return [f"{where}: names no requirement (facet_role, purpose, relation_family, identifier_scheme)"]


def _family_requirement(tax: Taxonomy, where: str, item: dict) -> list[str]:
    family = item["relation_family"]
    if family not in FAMILIES:
        return [f"{where}.relation_family: `{family}` is not a family"]
    members = [r for r in tax.relations.values() if r.family == family]
    if str(item.get("lifecycle_sensitive", "false")).lower() == "true":
        members = [r for r in members if r.lifecycle_sensitive or r.set_state]
        if not members:
            return [f"{where}: no `{family}` relation is lifecycle-sensitive"]
    return [] if members else [f"{where}: no relation of the `{family}` family is declared"]


def _members(where: str, raw: Any, required: dict) -> list[str]:
    if not isinstance(raw, dict):
        return [f"{where}: must be a mapping"]
    problems = [f"{where}: needs `{m}`" for m in required if raw.get(m) in (None, "")]
    return problems + [f"{where}.{m}: must be one of {', '.join(allowed)}" for m, allowed in required.items()
                       if allowed and raw.get(m) is not None and str(raw[m]) not in allowed]


def _one_of(where: str, raw: Any, shapes: dict[str, tuple[str, ...]], required: dict[str, tuple]) -> list[str]:
    """Exactly one key of `shapes`, its mapping carrying the members `required` names."""
    if not isinstance(raw, dict) or len(raw) != 1 or next(iter(raw)) not in shapes:
        return [f"{where}: must be exactly one of {', '.join(shapes)}"]
    key, body = next(iter(raw.items()))
    if not isinstance(body, dict):
        return [f"{where}.{key}: must be a mapping"]
    unknown = [f"{where}.{key}.{m}: is not a member it may have" for m in body if m not in shapes[key]]
    return unknown + [f"{where}.{key}: needs `{m}`" for m in required[key] if not body.get(m)]


def _obligations(tax: Taxonomy) -> list[str]:
    problems = []
    allowed = (*OBLIGATION, "disposition")
    for key, raw in (tax.raw.get("obligations") or {}).items():
        where = f"obligations.{key}"
        problems += _members(where, raw, OBLIGATION)
        if isinstance(raw, dict):
            problems += [f"{where}.{m}: is not a member an obligation may have" for m in raw if m not in allowed]
            if "disposition" in raw:
                problems += _one_of(f"{where}.disposition", raw["disposition"],
                                    {"gap": ("owner", "target"), "unverifiable": ("reasoning",)},
                                    {"gap": ("owner",), "unverifiable": ("reasoning",)})
    return problems


def _controls(tax: Taxonomy) -> list[str]:
    problems = []
    allowed = (*CONTROL, "handoff", "promotion")
    for key, raw in (tax.raw.get("controls") or {}).items():
        where = f"controls.{key}"
        problems += _members(where, raw, CONTROL)
        if not isinstance(raw, dict):
            continue
        problems += [f"{where}.{m}: is not a member a control may have" for m in raw if m not in allowed]
        if not isinstance(raw.get("discharges", []), list):
            problems.append(f"{where}.discharges: must be a list of obligations")
        problems += [f"{where}.discharges: names `{o}`, which is not an obligation"
                     for o in tax.controls[str(key)].discharges if o not in tax.obligations]
        if "promotion" in raw:
            problems += _one_of(f"{where}.promotion", raw["promotion"], PROMOTIONS, PROMOTIONS)
    return problems


def _surface(tax: Taxonomy) -> list[str]:
    raw = tax.raw.get("surface")
    if raw is None:
        return []
    if not isinstance(raw, dict):
        return ["surface: must be a mapping"]
    problems = [f"surface.{m}: is not a member the surface may have" for m in raw if m not in SURFACE]
    return problems + [f"surface.{m}: must be a list" for m in SURFACE
                       if m != "integration_points" and m in raw and not isinstance(raw[m], list)]


def _lists(tax: Taxonomy) -> list[str]:
    return [f"{root}: must be a list" for root in ("projections", "mappings")
            if root in tax.raw and not isinstance(tax.raw[root], list)]
