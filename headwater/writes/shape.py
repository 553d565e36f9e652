"""The shape of a new document, decided by the taxonomy: its facets (each with where its value
came from), its sections, and the text that carries them.

Facets are found by role, never by name. Keys are written in the document format's order:
`id`, the kind's required facets, the other facets with a role, the shelf's discriminator, the
facets given with `--facet`, `provenance`, `relations`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from headwater.clock import parse_date
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.taxonomy.canonical import scalar
from headwater.taxonomy.model import Shelf, Taxonomy
from headwater.textsafe import shown
from headwater.writes.inputs import COMMAND_LINE, Spelling

DATE_ROLES = ("state_entered", "created", "freshness")
SCENT_TODO = "TODO one sentence: what a reader learns here, which is what routing reads"
SECTION_TODO = "TODO write this section."


@frozen
class FacetValue:
    name: str
    value: str
    origin: str  # how the report says where the value came from
    supplied: bool  # decided by the engine, not typed by the author
    text: bool = True  # written so every YAML reader takes it as text (a date facet's value is not)


@frozen
class Shape:
    facets: tuple[FacetValue, ...]
    sections: tuple[str, ...]

    def value(self, facet: str) -> str | None:
        return next((f.value for f in self.facets if f.name == facet), None)


def decide(taxonomy: Taxonomy, kind: str, shelf: Shelf, title: str, summary: str | None,
           given: dict[str, str], today: dt.date, spelling: Spelling = COMMAND_LINE) -> Shape:
    chain_forbids = {f for link in taxonomy.chain(kind) for f in link.forbid}
    _check_given(taxonomy, kind, shelf, given, chain_forbids, spelling)
    names = list(taxonomy.required_facets(kind))
    names += [f.name for f in taxonomy.facets.values()
              if f.role and f.name not in names and f.name not in chain_forbids]
    discriminator = None if shelf.homogeneous else shelf.discriminator
    if discriminator and discriminator not in names:
        names.append(discriminator)
    names += [f.name for f in taxonomy.facets.values() if f.name in given and f.name not in names]
    values = [_value(taxonomy, kind, name, discriminator, title, summary, given, today, spelling) for name in names]
    dates = {f.name for f in taxonomy.facets.values() if f.type == "date"}
    return Shape(tuple(replace(v, text=v.name not in dates) for v in values if v is not None),
                 tuple(taxonomy.required_sections(kind)))


def undecided(taxonomy: Taxonomy, kind: str, shelf: Shelf) -> tuple[str, ...]:
    """The required facets `new` decides no value for, each of which needs `--facet`: those
    `_value` refuses when nothing is given (asked of it, so the two never drift apart)."""
    discriminator = None if shelf.homogeneous else shelf.discriminator
    needed = []
    for name in taxonomy.required_facets(kind):
        try:
            _value(taxonomy, kind, name, discriminator, "", None, {}, dt.date.min)
        except Refusal:
            needed.append(name)
    return tuple(needed)


def _check_given(taxonomy: Taxonomy, kind: str, shelf: Shelf, given: dict[str, str], forbids: set[str],
                 spelling: Spelling) -> None:
    flag = spelling.name("facets")
    for name, value in given.items():
        facet = taxonomy.facets.get(name)
        typed = shown(value)  # the value as a refusal quotes it
        if facet is None:
            raise Refusal(f"`{shown(name)}` is not a facet this taxonomy declares; the facets are "
                          f"{', '.join(taxonomy.facets)}")
        if name in forbids:
            raise Refusal(f"the kind `{kind}` forbids the facet `{name}`, so `{flag}` cannot set it")
        decided = facet.role and (facet.role != "state" or taxonomy.lifecycle_of(kind) is not None)
        if decided or (not shelf.homogeneous and name == shelf.discriminator):
            raise Refusal(f"`{name}` is decided by the taxonomy, not by `{flag}`; "
                          f"{_decided_by(facet.role, spelling)}")
        admitted = taxonomy.admitted_values(kind, name)
        if admitted is not None and value not in admitted:
            raise Refusal(f"`{typed}` is not a value `{name}` admits for `{kind}`; it admits {', '.join(admitted)}")
        if facet.type == "date" and parse_date(value) is None:
            raise Refusal(f"`{name}` takes a date as YYYY-MM-DD, and `{typed}` is not one")
        if facet.type == "integer" and not value.lstrip("-").isdigit():
            raise Refusal(f"`{name}` takes a whole number, and `{typed}` is not one")


def _decided_by(role: str | None, spelling: Spelling) -> str:
    return {
        "state": "a new document starts at its lifecycle's initial state",
        "name": f"give it with `{spelling.name('title')}`",
        "scent": f"give it with `{spelling.name('summary')}`",
    }.get(role or "", "it is the run date" if role in DATE_ROLES else "the shelf's discriminator names the kind")


def _value(taxonomy: Taxonomy, kind: str, name: str, discriminator: str | None, title: str,
           summary: str | None, given: dict[str, str], today: dt.date,
           spelling: Spelling = COMMAND_LINE) -> FacetValue | None:
    role = taxonomy.facets[name].role if name in taxonomy.facets else None
    lifecycle = taxonomy.lifecycle_of(kind)
    if role == "state" and lifecycle is not None:
        return FacetValue(name, lifecycle.initial,
                          f"{lifecycle.initial}, the initial state of the lifecycle `{lifecycle.name}`", True)
    if role == "state_entered" and lifecycle is None and name not in taxonomy.required_facets(kind):
        return None  # a kind with no lifecycle writes no state, so no date it entered one
    if role in DATE_ROLES:
        return FacetValue(name, today.isoformat(), f"{today.isoformat()}, the run date", True)
    if role == "name":
        return FacetValue(name, title, f"from {spelling.mention('title')}", False)
    if role == "scent":
        if summary:
            return FacetValue(name, summary, f"from {spelling.mention('summary')}", False)
        return FacetValue(name, SCENT_TODO, f"a TODO: pass {spelling.mention('summary')}, or write the sentence",
                          False)
    if name == discriminator:
        return FacetValue(name, kind, f"{kind}, the shelf's discriminator naming the kind", True)
    if name in given:
        return FacetValue(name, given[name], f"from {spelling.mention('facets')}", False)
    if name not in taxonomy.required_facets(kind):
        return None
    admitted = taxonomy.admitted_values(kind, name)
    unset = (f"the kind `{kind}` requires the facet `{name}` and nothing decides it; pass "
             f"`{spelling.giving('facets', f'{name}=<value>')}`")
    if admitted:
        raise Refusal(f"{unset}, one of {', '.join(admitted)}")
    declared = taxonomy.facets.get(name)
    raise Refusal(f"{unset} with {f'a {declared.type}' if declared else 'a value'}")


def front_matter(identifier: str | None, shape: Shape, relations: list[tuple[str, list[str]]],
                 key: str = "id") -> str:
    lines = ["---"] + ([f"{key}: {scalar(identifier)}"] if identifier else [])
    lines += [f"{f.name}: {text_scalar(f.value) if f.text else scalar(f.value)}" for f in shape.facets]
    lines.append("provenance: {warrant: asserted}")
    if relations:
        lines.append("relations:")
        for name, targets in relations:
            lines.append(f"  {name}:")
            lines += [f"    - {scalar(target)}" for target in targets]
    lines.append("---")
    return "\n".join(lines) + "\n"


# A plain scalar a YAML 1.1 reader (Jekyll, Hugo, js-yaml, PyYAML) takes for something other than
# text: null, a boolean, a number or a date. headwater reads every scalar as text; the site
# generator the corpus already feeds does not, so `new` quotes these where it writes text.
NOT_TEXT = re.compile(r"(?i:null|~|true|false|yes|no|y|n|on|off|[-+]?\.(?:inf|nan)|\.nan)"
                      r"|[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|0x[0-9a-f_]+|0o?[0-7_]+"
                      r"|\d{4}-\d\d?-\d\d?(?:[t ].*)?|[\d_]+(?::[0-5]?\d)+(?:\.\d*)?", re.I)


def text_scalar(text: str) -> str:
    """`text` as a scalar every YAML reader takes as that text."""
    written = scalar(text)  # quoted already unless every character is plain
    return f'"{text}"' if written == text and NOT_TEXT.fullmatch(text) else written


def body(title: str, sections: tuple[str, ...]) -> str:
    parts = [f"\n# {title}\n"]
    parts += [f"\n## {section}\n\n{SECTION_TODO}\n" for section in sections]
    return "".join(parts)
