"""The resolved taxonomy as typed, read-only declarations, with inheritance worked out.

Built from a validated resolved tree (the lock's `resolved:` block). The engine reads facets
by role, never by literal name.
"""

from __future__ import annotations

import re
from dataclasses import field
from functools import cached_property
from typing import Any

from headwater.frozen import frozen
from headwater.patterns import Pattern, compile_pattern
from headwater.taxonomy.assurance import Control, Obligation, Surface

FACET_ROLES = ("state", "state_entered", "created", "freshness", "scent", "name")
FAMILIES = ("succession", "derivation", "governance", "evidence", "composition", "association")
DEFAULT_GOVERNING = {"governance": "source", "succession": "source"}
STATE_ROLES = ("initial", "live", "terminal-retained", "terminal-removed")
# A section may stand in for a facet role where a document leaves the facet out: `scent`, the
# section that summarises the document (route reads it as the summary a scent facet would give).
SUMMARY_ROLE = "scent"
SECTION_ROLES = (SUMMARY_ROLE,)


def _list(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return (str(value),)


def _flag(value: Any) -> bool:
    return str(value).lower() == "true"


@frozen
class Facet:
    """A front-matter field a kind may carry: its role, type and constraints."""

    name: str
    type: str
    values: tuple[str, ...] | None
    value_roles: dict[str, str]
    required: bool
    role: str | None
    stale_after_days: int | None
    volatility: str | None  # "stable" | "mutable": a mutable value may not enter a pattern

    @staticmethod
    def of(name: str, raw: dict) -> Facet:
        values = raw.get("values")
        admitted, roles = None, {}
        if isinstance(values, list):
            admitted_list = []
            for entry in values:
                if isinstance(entry, dict):
                    admitted_list.append(str(entry.get("value")))
                    if entry.get("role"):
                        roles[str(entry.get("value"))] = str(entry["role"])
                else:
                    admitted_list.append(str(entry))
            admitted = tuple(admitted_list)
        stale = raw.get("stale_after_days")
        return Facet(
            name=name,
            type=str(raw.get("type", "string")),
            values=admitted,
            value_roles=roles,
            required=_flag(raw.get("required")),
            role=str(raw["role"]) if raw.get("role") else None,
            # a value that is not a whole number is `validate`'s to report, never a crash here
            stale_after_days=int(stale) if stale is not None and str(stale).isdigit() else None,
            volatility=str(raw["volatility"]) if raw.get("volatility") else None,
        )


def _expect(raw: dict) -> list:
    relations = raw.get("relations")
    expect = relations.get("expect") if isinstance(relations, dict) else None
    return expect if isinstance(expect, list) else []


@frozen
class Expectation:
    """A participation expectation: a document of the kind, in the `when` facet values, takes
    part in `relation` (toward `to_kind`) within `within` of the date its `since` role holds."""

    id: str
    relation: str
    to_kind: str | None
    when: dict[str, str]
    within: str
    since: str  # "created" | "state_entered"
    severity: str | None
    rationale: str

    @staticmethod
    def of(raw: dict) -> Expectation:
        when = raw.get("when") if isinstance(raw.get("when"), dict) else {}
        return Expectation(
            id=str(raw.get("id", "")),
            relation=str(raw.get("relation", "")),
            to_kind=str(raw["to_kind"]) if raw.get("to_kind") else None,
            when={str(k): str(v) for k, v in when.items()},
            within=str(raw.get("within", "")),
            since=str(raw.get("since", "")),
            severity=str(raw["severity"]) if raw.get("severity") else None,
            rationale=str(raw.get("rationale", "")),
        )


@frozen
class Kind:
    """A document kind: its parent, what it requires and forbids, its sections, scheme and lifecycle."""

    name: str
    abstract: bool
    is_a: str | None
    purpose: str | None
    scheme: str | None
    id_key: str | None  # the front-matter key that carries the identifier (`eip`), when not `id`
    lifecycle: str | None
    voice: str | None
    language: str | None
    require: tuple[str, ...]
    forbid: tuple[str, ...]
    narrowed: dict[str, tuple[str, ...]]
    sections: tuple[str, ...]
    optional_sections: tuple[str, ...]
    section_roles: dict[str, str]  # role → the section that plays it (`sections.roles`)
    write_when: str | None
    expectations: tuple[Expectation, ...]

    @staticmethod
    def of(name: str, raw: dict) -> Kind:
        facets = raw.get("facets") or {}
        sections = raw.get("sections") or {}
        identifier = raw.get("identifier") or {}
        return Kind(
            name=name,
            abstract=_flag(raw.get("abstract")),
            is_a=raw.get("is_a"),
            purpose=raw.get("purpose"),
            scheme=identifier.get("scheme") if isinstance(identifier, dict) else None,
            id_key=identifier.get("key") if isinstance(identifier, dict) else None,
            lifecycle=raw.get("lifecycle"),
            voice=raw.get("voice"),
            language=raw.get("language"),
            require=_list(facets.get("require")),
            forbid=_list(facets.get("forbid")),
            narrowed={k: _list(v) for k, v in (facets.get("values") or {}).items()},
            sections=_list(sections.get("require")),
            optional_sections=_list(sections.get("optional")),
            section_roles={str(k): str(v) for k, v in (sections.get("roles") or {}).items()}
            if isinstance(sections.get("roles"), dict) else {},
            write_when=raw.get("write_when"),
            expectations=tuple(Expectation.of(e) for e in _expect(raw) if isinstance(e, dict)),
        )


@frozen
class Relation:
    """A typed relation: its name, inverse, family and the kinds at each end."""

    name: str
    family: str
    sources: tuple[str, ...]  # `from`
    targets: tuple[str, ...]  # `to`
    inverse: str | None
    reciprocal: str | None  # "required" | "symmetric" | None
    set_state: str | None
    lifecycle_sensitive: bool
    invalid_when_both: dict[str, tuple[str, ...]]  # facet → the values (any one) each end must hold
    attributes: dict[str, dict]
    governing_end: str  # "source" | "target" | "neither"
    evidence_at: str  # the end that is the evidence: "to" (the default) or "from"
    key: str | None = None  # a top-level front-matter key the team writes it under (`requires: 2718, 2930`)
    inverse_key: str | None = None  # the same for its inverse (`superseded-by`)

    @staticmethod
    def of(name: str, raw: dict) -> Relation:
        on_target = raw.get("on_target") or {}
        invalid = (raw.get("invalid_when") or {}).get("both") or {}
        family = str(raw.get("family"))
        return Relation(
            name=name,
            family=family,
            sources=_list(raw.get("from")),
            targets=_list(raw.get("to")),
            inverse=raw.get("inverse"),
            reciprocal=raw.get("reciprocal"),
            set_state=on_target.get("set_state"),
            lifecycle_sensitive=_flag(raw.get("lifecycle_sensitive")),
            invalid_when_both={str(k): _list(v) for k, v in invalid.items()},
            attributes=dict(raw.get("attributes") or {}),
            governing_end=str(raw.get("governing_end") or DEFAULT_GOVERNING.get(family, "neither")),
            evidence_at=str(raw.get("evidence_at") or "to"),
            key=raw.get("key"),
            inverse_key=raw.get("inverse_key"),
        )


@frozen
class Shelf:
    """Where documents live: a path pattern and the kind (or kinds) it carries."""

    name: str
    path: str
    homogeneous: bool
    kind: str | None
    discriminator: str | None
    kinds: tuple[str, ...]
    layout: str | None
    title: str | None

    @property
    def pattern(self) -> Pattern:
        return compile_pattern(self.path)

    @property
    def carries(self) -> tuple[str, ...]:
        return (self.kind,) if self.homogeneous and self.kind else self.kinds

    @staticmethod
    def of(name: str, raw: dict) -> Shelf:
        return Shelf(
            name=name,
            path=str(raw.get("path")),
            homogeneous=_flag(raw.get("homogeneous", "true")),
            kind=raw.get("kind"),
            discriminator=raw.get("discriminator"),
            kinds=_list(raw.get("kinds")),
            layout=raw.get("layout"),
            title=raw.get("title"),
        )


PLACEHOLDER = re.compile(r"\{(namespace|slug|seq(?::0(\d+)d)?)\}")


@frozen
class Scheme:
    """How a kind's identifiers are spelled and minted."""

    name: str
    pattern: str
    namespace: str | None
    allocation: str

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self._regex_text(named=True))

    def _regex_text(self, named: bool) -> str:
        out, last = [], 0
        for match in PLACEHOLDER.finditer(self.pattern):
            out.append(re.escape(self.pattern[last : match.start()]))
            token = match.group(1)
            if token == "namespace":
                out.append(re.escape(self.namespace or "") if self.namespace else "[A-Za-z0-9]+")
            elif token == "slug":
                out.append("(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)" if named else "[a-z0-9-]+")
            else:
                width = match.group(2)
                digits = f"[0-9]{{{int(width)},}}" if width else "[0-9]+"
                out.append(f"(?P<seq>{digits})" if named else digits)
            last = match.end()
        out.append(re.escape(self.pattern[last:]))
        return "^" + "".join(out) + "$"

    @property
    def fixed_prefix(self) -> str:
        """The literal text every id of this scheme opens with (namespace filled in)."""
        filled = self.pattern.replace("{namespace}", self.namespace or "")
        cut = filled.find("{")
        return filled if cut < 0 else filled[:cut]

    def sequence(self, identifier: str) -> int | None:
        match = self.regex.match(identifier)
        if match and "seq" in match.groupdict() and match.group("seq"):
            return int(match.group("seq"))
        return None

    def mint(self, seq: int, slug: str = "") -> str:
        def fill(match: re.Match[str]) -> str:
            token = match.group(1)
            if token == "namespace":
                return self.namespace or ""
            if token == "slug":
                return slug
            width = match.group(2)
            return f"{seq:0{int(width)}d}" if width else str(seq)

        return PLACEHOLDER.sub(fill, self.pattern)

    @staticmethod
    def of(name: str, raw: dict) -> Scheme:
        return Scheme(
            name=name,
            pattern=str(raw.get("pattern")),
            namespace=raw.get("namespace"),
            allocation=str(raw.get("allocation", "reconcile-first")),
        )


@frozen
class Lifecycle:
    """A lifecycle regime: its initial state and allowed transitions."""

    name: str
    initial: str
    transitions: dict[str, tuple[str, ...]]
    retain_terminal: bool


@frozen
class RetiredTerm:
    """A term a language regime retires, why, and what replaces it."""

    term: str
    reason: str
    replacement: str | None


@frozen
class Permitted:
    """A relation a kind may declare, under the name it writes it with."""

    written_as: str
    relation: Relation
    inverse: bool  # written under the inverse name
    far_kinds: tuple[str, ...]


@frozen
class Taxonomy:
    """The resolved taxonomy (the lock's `resolved:` block), read by role."""

    raw: dict = field(repr=False)

    @property
    def package(self) -> str:
        return str(self.raw.get("taxonomy", ""))

    @property
    def version(self) -> str:
        return str(self.raw.get("version", ""))

    def _section(self, name: str) -> dict:
        value = self.raw.get(name)
        return value if isinstance(value, dict) else {}

    @cached_property
    def purposes(self) -> dict[str, dict]:
        return self._section("purposes")

    @cached_property
    def facets(self) -> dict[str, Facet]:
        return {n: Facet.of(n, r or {}) for n, r in self._section("facets").items()}

    @cached_property
    def kinds(self) -> dict[str, Kind]:
        return {n: Kind.of(n, r or {}) for n, r in self._section("kinds").items()}

    @cached_property
    def relations(self) -> dict[str, Relation]:
        return {n: Relation.of(n, r or {}) for n, r in self._section("relations").items()}

    @cached_property
    def anchors(self) -> dict[str, dict]:
        return self._section("anchors")

    @cached_property
    def shelves(self) -> dict[str, Shelf]:
        return {n: Shelf.of(n, r or {}) for n, r in self._section("shelves").items()}

    @cached_property
    def schemes(self) -> dict[str, Scheme]:
        return {n: Scheme.of(n, r or {}) for n, r in self._section("identifier_schemes").items()}

    @cached_property
    def obligations(self) -> dict[str, Obligation]:
        return {str(k): Obligation.of(str(k), r) for k, r in self._section("obligations").items()
                if isinstance(r, dict)}

    @cached_property
    def controls(self) -> dict[str, Control]:
        return {str(k): Control.of(str(k), r) for k, r in self._section("controls").items()
                if isinstance(r, dict)}

    @cached_property
    def surface(self) -> Surface:
        return Surface.of(self.raw.get("surface"))

    @cached_property
    def regimes(self) -> dict[str, dict]:
        return self._section("regimes")

    @cached_property
    def lifecycles(self) -> dict[str, Lifecycle]:
        out = {}
        for name, raw in (self.regimes.get("lifecycle") or {}).items():
            raw = raw or {}
            out[name] = Lifecycle(
                name=name,
                initial=str(raw.get("initial")),
                transitions={k: _list(v) for k, v in (raw.get("transitions") or {}).items()},
                retain_terminal=_flag(raw.get("retain_terminal")),
            )
        return out

    def voice_forbids(self, voice: str | None) -> tuple[str, ...]:
        raw = (self.regimes.get("voice") or {}).get(voice or "") or {}
        return _list(raw.get("forbid"))

    def language_regime(self, language: str | None) -> dict:
        raw = (self.regimes.get("language") or {}).get(language or "")
        return raw if isinstance(raw, dict) else {}

    def retired_terms(self, language: str | None) -> tuple[RetiredTerm, ...]:
        raw = self.language_regime(language)
        return tuple(
            RetiredTerm(str(t.get("term")), str(t.get("reason", "")), t.get("replacement"))
            for t in raw.get("retired_terms") or []
            if isinstance(t, dict)
        )

    @cached_property
    def function_words(self) -> frozenset[str]:
        """Words every language regime declares as grammar rather than subject."""
        words: set[str] = set()
        for raw in (self.regimes.get("language") or {}).values():
            words.update(str(w).lower() for w in (raw or {}).get("function_words") or [])
        return frozenset(words)

    # -- roles ---------------------------------------------------------------------------

    @cached_property
    def _roles(self) -> dict[str, str]:
        return {f.role: f.name for f in self.facets.values() if f.role}

    def facet_for_role(self, role: str) -> str | None:
        return self._roles.get(role)

    def state_role(self, state: str) -> str | None:
        facet = self.facets.get(self.facet_for_role("state") or "")
        return facet.value_roles.get(state) if facet else None

    def is_terminal(self, state: str | None) -> bool:
        return bool(state) and (self.state_role(state) or "").startswith("terminal")

    def is_live(self, state: str | None) -> bool:
        return bool(state) and self.state_role(state) in ("live", "initial")

    # -- inheritance ---------------------------------------------------------------------

    def chain(self, kind: str) -> tuple[Kind, ...]:
        """The kind first, then each ancestor up to the root (cycles are cut)."""
        return self._chains.get(kind, ())

    @cached_property
    def _chains(self) -> dict[str, tuple[Kind, ...]]:
        """Every kind's chain, walked once: rules and the census ask for one per document."""
        chains = {}
        for kind in self.kinds:
            out, seen = [], set()
            current = self.kinds.get(kind)
            while current is not None and current.name not in seen:
                out.append(current)
                seen.add(current.name)
                current = self.kinds.get(current.is_a) if current.is_a else None
            chains[kind] = tuple(out)
        return chains

    def is_a(self, kind: str, ancestor: str) -> bool:
        return any(k.name == ancestor for k in self.chain(kind))

    def _nearest(self, kind: str, attribute: str) -> Any:
        for link in self.chain(kind):
            value = getattr(link, attribute)
            if value:
                return value
        return None

    def purpose_of(self, kind: str) -> str | None:
        return self._nearest(kind, "purpose")

    def identifier_key(self, kind: str | None) -> str:
        """The key a document of this kind writes its identifier under: `id` unless the taxonomy says
        otherwise (a standards corpus numbers its proposals `eip: 1559`)."""
        return (self._nearest(kind, "id_key") if kind else None) or "id"

    def scheme_of(self, kind: str) -> Scheme | None:
        name = self._nearest(kind, "scheme")
        return self.schemes.get(name) if name else None

    def lifecycle_of(self, kind: str) -> Lifecycle | None:
        name = self._nearest(kind, "lifecycle")
        return self.lifecycles.get(name) if name else None

    def voice_of(self, kind: str) -> str | None:
        return self._nearest(kind, "voice")

    def language_of(self, kind: str) -> str | None:
        return self._nearest(kind, "language")

    def write_when_of(self, kind: str) -> str | None:
        return self._nearest(kind, "write_when")

    def expectations_of(self, kind: str) -> tuple[Expectation, ...]:
        """Every expectation the kind declares or inherits, the root's first."""
        return self._expectations.get(kind, ())

    @cached_property
    def _expectations(self) -> dict[str, tuple[Expectation, ...]]:
        """Every kind's expectations, gathered once: a rule asks for them of every document every run."""
        return {kind: tuple(e for link in reversed(self.chain(kind)) for e in link.expectations) for kind in self.kinds}

    def required_facets(self, kind: str) -> list[str]:
        """Facets declared `required: true`, then each `require` root first; forbids removed."""
        ordered = [f.name for f in self.facets.values() if f.required]
        chain = self.chain(kind)
        for link in reversed(chain):
            ordered.extend(link.require)
        forbidden = {f for link in chain for f in link.forbid}
        seen: list[str] = []
        for name in ordered:
            if name not in seen and name not in forbidden:
                seen.append(name)
        return seen

    def required_sections(self, kind: str) -> list[str]:
        seen: list[str] = []
        for link in reversed(self.chain(kind)):
            for section in link.sections:
                if section not in seen:
                    seen.append(section)
        return seen

    def section_for_role(self, kind: str, role: str) -> str | None:
        """The section that plays `role` for the kind: its own declaration, else the nearest ancestor's."""
        return next((link.section_roles[role] for link in self.chain(kind) if role in link.section_roles), None)

    def sections_for_role(self, role: str) -> tuple[str, ...]:
        """Every section some kind declares for `role`, sorted."""
        return tuple(sorted({k.section_roles[role] for k in self.kinds.values() if role in k.section_roles}))

    def admitted_values(self, kind: str | None, facet: str) -> tuple[str, ...] | None:
        for link in self.chain(kind) if kind else []:
            if facet in link.narrowed:
                return link.narrowed[facet]
        declared = self.facets.get(facet)
        return declared.values if declared else None

    @cached_property
    def concrete_kinds(self) -> list[str]:
        return [k.name for k in self.kinds.values() if not k.abstract]

    @cached_property
    def abstract_kinds(self) -> list[str]:
        return [k.name for k in self.kinds.values() if k.abstract]

    # -- relations -----------------------------------------------------------------------

    @cached_property
    def _relation_names(self) -> dict[str, tuple[Relation, bool]]:
        names: dict[str, tuple[Relation, bool]] = {}
        for relation in self.relations.values():
            names[relation.name] = (relation, False)
            if relation.inverse:
                names.setdefault(relation.inverse, (relation, True))
        return names

    @cached_property
    def relation_keys(self) -> tuple[tuple[Relation, str, bool], ...]:
        """(relation, top-level front-matter key, whether the key writes the inverse), in declaration order."""
        out = []
        for relation in self.relations.values():
            out += [(relation, relation.key, False)] if relation.key else []
            out += [(relation, relation.inverse_key, True)] if relation.inverse_key else []
        return tuple(out)

    def relation_named(self, written: str) -> tuple[Relation, bool] | None:
        """The relation a name denotes, and whether it is the inverse spelling."""
        return self._relation_names.get(written)

    def end_admits(self, ends: tuple[str, ...], kind: str) -> bool:
        return any(self.is_a(kind, end) for end in ends)

    def permitted(self, kind: str) -> list[Permitted]:
        out = []
        for relation in self.relations.values():
            if self.end_admits(relation.sources, kind):
                out.append(Permitted(relation.name, relation, False, relation.targets))
        for relation in self.relations.values():
            if relation.inverse and self.end_admits(relation.targets, kind):
                out.append(Permitted(relation.inverse, relation, True, relation.sources))
        return out

    def governs_reading(self, relation: Relation, inverse: bool) -> str:
        end = relation.governing_end
        if inverse and end != "neither":
            return "target" if end == "source" else "source"
        return end

    def is_anchor_kind(self, name: str) -> bool:
        return name in self.anchors

    # -- shelves -------------------------------------------------------------------------

    def shelves_carrying(self, kind: str) -> list[Shelf]:
        return [s for s in self.shelves.values() if kind in s.carries]
