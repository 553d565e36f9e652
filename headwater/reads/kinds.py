"""`taxonomy kinds`: what a document can be here, and how to write one — from the lock alone."""

from __future__ import annotations

from headwater.frozen import frozen
from headwater.taxonomy.lock import Lock
from headwater.taxonomy.model import Taxonomy
from headwater.writes.shape import undecided

VERSION = "1.0"
NO_TRIGGER = ("the taxonomy declares no trigger for this kind; the answers of its purpose are "
              "what the lock states instead")
NO_TRIGGER_NO_ANSWERS = "the taxonomy declares no trigger for this kind, and its purpose declares no answers"


@frozen
class KindPurpose:
    name: str
    intent: str | None
    answers: tuple[str, ...]


@frozen
class KindShelf:
    name: str
    path: str
    discriminator: str | None  # None on a homogeneous shelf: placement alone names the kind


@frozen
class When:
    """When to write one: the taxonomy's own trigger, or a note saying it declares none."""

    declared: str | None = None
    note: str | None = None


@frozen
class KindEntry:
    name: str
    is_a: str | None
    purpose: KindPurpose | None
    shelves: tuple[KindShelf, ...]
    required_facets: tuple[str, ...]
    required_sections: tuple[str, ...]
    draft: str | None  # the `headwater new` line, when exactly one shelf can place one
    when: When


@frozen
class Kinds:
    """`taxonomy kinds`' answer: every concrete kind of the lock's package, and the abstract ones."""

    package: str
    package_version: str
    abstract: tuple[str, ...]
    kinds: tuple[KindEntry, ...]


def draft_line(tax: Taxonomy, kind: str) -> str | None:
    shelves = tax.shelves_carrying(kind)
    if len(shelves) != 1:
        return None
    facets = "".join(f" --facet {name}=<{'|'.join(tax.admitted_values(kind, name) or ('value',))}>"
                     for name in undecided(tax, kind, shelves[0]))
    return f'headwater new {kind} --title "<title>"{facets}'


def _when(tax: Taxonomy, kind: str) -> When:
    declared = tax.write_when_of(kind)
    if declared:
        return When(declared=declared)
    purpose = tax.purposes.get(tax.purpose_of(kind) or "") or {}
    return When(note=NO_TRIGGER if purpose.get("answers") else NO_TRIGGER_NO_ANSWERS)


def _entry(tax: Taxonomy, name: str) -> KindEntry:
    purpose_name = tax.purpose_of(name)
    purpose = tax.purposes.get(purpose_name or "") or {}
    return KindEntry(
        name, tax.kinds[name].is_a,
        None if purpose_name is None else KindPurpose(purpose_name, purpose.get("intent"),
                                                      tuple(purpose.get("answers") or ())),
        tuple(KindShelf(s.name, s.path, None if s.homogeneous else s.discriminator)
              for s in tax.shelves_carrying(name)),
        tuple(tax.required_facets(name)), tuple(tax.required_sections(name)),
        draft_line(tax, name), _when(tax, name))


def kinds(lock: Lock) -> Kinds:
    tax = lock.taxonomy
    return Kinds(lock.package, lock.version, tuple(tax.abstract_kinds),
                 tuple(_entry(tax, name) for name in tax.concrete_kinds))
