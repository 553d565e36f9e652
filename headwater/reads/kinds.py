"""`taxonomy kinds`: what a document can be here, and how to write one — from the lock alone."""

from __future__ import annotations

from headwater.jsonout import dumps
from headwater.taxonomy.lock import Lock
from headwater.taxonomy.model import Taxonomy

VERSION = "1.0"
NO_TRIGGER = ("the taxonomy declares no trigger for this kind; the answers of its purpose are "
              "what the lock states instead")
NO_TRIGGER_NO_ANSWERS = "the taxonomy declares no trigger for this kind, and its purpose declares no answers"


def draft_line(tax: Taxonomy, kind: str) -> str | None:
    shelves = tax.shelves_carrying(kind)
    if len(shelves) != 1:
        return None
    return f'headwater new {kind} --title "<title>"'


def _when(tax: Taxonomy, kind: str) -> dict:
    declared = tax.write_when_of(kind)
    if declared:
        return {"declared": declared}
    purpose = tax.purposes.get(tax.purpose_of(kind) or "") or {}
    return {"note": NO_TRIGGER if purpose.get("answers") else NO_TRIGGER_NO_ANSWERS}


def document(lock: Lock) -> dict:
    tax = lock.taxonomy
    kinds = []
    for name in tax.concrete_kinds:
        kind = tax.kinds[name]
        purpose_name = tax.purpose_of(name)
        purpose = tax.purposes.get(purpose_name or "")
        kinds.append({
            "name": name,
            "is_a": kind.is_a,
            "purpose": None if purpose_name is None else {
                "name": purpose_name,
                "intent": (purpose or {}).get("intent"),
                "answers": list((purpose or {}).get("answers") or []),
            },
            "shelves": [{"name": s.name, "path": s.path,
                         "discriminator": None if s.homogeneous else s.discriminator}
                        for s in tax.shelves_carrying(name)],
            "required_facets": tax.required_facets(name),
            "required_sections": tax.required_sections(name),
            "draft": draft_line(tax, name),
            "when": _when(tax, name),
        })
    return {"version": VERSION, "package": lock.package, "package_version": lock.version,
            "abstract": tax.abstract_kinds, "kinds": kinds}


def render_json(lock: Lock) -> str:
    return dumps(document(lock))


def _label(label: str, values: list[str]) -> list[str]:
    lines = []
    for index, value in enumerate(values):
        lines.append(f"  {(label if index == 0 else '').ljust(9)} {value}")
    return lines


def render_text(lock: Lock) -> str:
    doc = document(lock)
    count = len(doc["kinds"])
    header = f"{lock.package} {lock.version}: {count} kind{'s' if count != 1 else ''} a document can be"
    if doc["abstract"]:
        abstract = len(doc["abstract"])
        header += (f", and {abstract} abstract kind{'s' if abstract != 1 else ''} no document is: "
                   + ", ".join(doc["abstract"]))
    lines = [header]
    for kind in doc["kinds"]:
        purpose = kind.get("purpose")
        lines += ["", kind["name"]]
        lines += _label("is a", [kind["is_a"] or "(no parent)"])
        if purpose is None:
            lines += _label("purpose", ["(none declared)"])
        else:
            lines += _label("purpose", [f"{purpose['name']}: {purpose['intent']}" if purpose.get("intent")
                                        else purpose["name"]])
            if purpose["answers"]:
                lines += _label("answers", purpose["answers"])
        shelves = [f"{s['name']} ({s['path']}" + (f", where `{s['discriminator']}` names it)"
                                                  if s.get("discriminator") else ")") for s in kind["shelves"]]
        lines += _label("shelf", shelves or ["(no shelf carries this kind)"])
        lines += _label("facets", [", ".join(kind["required_facets"]) or "(none)"])
        lines += _label("sections", [", ".join(kind["required_sections"]) or "(none)"])
        lines += _label("draft", [kind["draft"] or "(no shelf can place one)"])
        when = kind["when"]
        lines += _label("when", [when.get("declared") or when.get("note")])
    return "\n".join(lines) + "\n"
