"""Every read's answer as a JSON document. `data` is the document as a value (what MCP sends as
`structuredContent`); `json` is its bytes, what `--json` prints."""

from __future__ import annotations

from functools import singledispatch

from headwater.corpus.document import Document
from headwater.federation.pinned import RemoteDocument, Unread
from headwater.jsonout import dumps
from headwater.reads import explain, identifiers, impact, kinds, related
from headwater.reads.explain import Explanation
from headwater.reads.governing import Governing
from headwater.reads.identifiers import Resolution
from headwater.reads.impact import Impact
from headwater.reads.kinds import KindEntry, Kinds
from headwater.reads.related import Neighbour, Related
from headwater.reads.route.answer import RouteAnswer
from headwater.render.reads import FOLDED, Layout
from headwater.render.reads.pointer import pointer, remote_pointer
from headwater.render.reads.route_text import route_text
from headwater.render.reads.unread import unread_pin
from headwater.taxonomy.model import Taxonomy


@singledispatch
def data(answer: object) -> dict:
    raise TypeError(f"no JSON document for {type(answer).__name__}")


@singledispatch
def json(answer: object, layout: Layout = FOLDED) -> str:
    return dumps(data(answer))


@json.register(RouteAnswer)
def _route_json(answer: RouteAnswer, layout: Layout = FOLDED) -> str:
    """The route document carries its folded, uncoloured text as well."""
    return dumps(data(answer) | {"text": route_text(answer)})


def _unread(unread: tuple[Unread, ...]) -> dict:
    """`unread_pins`, a member only where a pin binding nothing bears on the answer."""
    return {"unread_pins": [unread_pin(u) for u in unread]} if unread else {}


def _far(far: Document | RemoteDocument | None, tax: Taxonomy) -> dict | None:
    if isinstance(far, RemoteDocument):
        return remote_pointer(far)
    return None if far is None else pointer(far, tax)


def neighbour(found: Neighbour, tax: Taxonomy) -> dict:
    out = {"relation": found.relation, "inbound": found.inbound, "target": found.target,
           "targets": list(found.targets), "pointer": _far(found.far, tax)}
    if found.cue:
        out["cue"] = found.cue
        out["cue_is_declared"] = found.cue_is_declared
    out["governs"] = found.governs
    return out | _unread(found.unread)


@data.register(Related)
def _related(answer: Related) -> dict:
    return {"version": related.VERSION, "related": [neighbour(n, answer.taxonomy) for n in answer.neighbours]}


@data.register(Resolution)
def _resolution(answer: Resolution) -> dict:
    if answer.document is not None:
        found = [pointer(d, answer.taxonomy) for d in (answer.document, *answer.others)]
    else:
        found = [remote_pointer(answer.remote)] if answer.remote is not None else []
    near = {"near": list(answer.near)} if answer.near else {}
    return {"version": identifiers.VERSION, "pointers": found} | near | _unread(answer.unread)


@data.register(Governing)
def _governing(answer: Governing) -> dict:
    """Each pointer carries its lifecycle state, and a terminal one the live successor to read instead."""
    after, remote_after = answer.successors, answer.harvested_successors
    pointers = ([pointer(d, answer.taxonomy) | ({"successor": after[d.path]} if d.path in after else {})
                 for d in answer.documents]
                + [remote_pointer(d) | ({"successor": remote_after[d.corpus, d.path][1]}
                                        if (d.corpus, d.path) in remote_after else {}) for d in answer.harvested])
    return {"pointers": pointers} | _unread(answer.unread)


@data.register(Explanation)
def _explanation(answer: Explanation) -> dict:
    out: dict = {"version": explain.VERSION, "path": answer.path, "id": answer.id, "kind": answer.kind,
                 "derivation": list(answer.derivation)}
    if answer.kind is not None:
        purpose = answer.purpose
        out["purpose"] = None if purpose is None else {"name": purpose.name, "intent": purpose.intent}
        out["summary"] = answer.summary
        out["warrant"] = answer.warrant
    return out | {
        "facets": list(answer.facets),
        "sections": list(answer.sections),
        "permitted": [{"relation": p.relation, "to": list(p.to), "inverse": p.inverse} for p in answer.permitted],
        "related": [neighbour(n, answer.taxonomy) for n in answer.related],
    }


def _kind(kind: KindEntry) -> dict:
    purpose = kind.purpose
    return {
        "name": kind.name,
        "is_a": kind.is_a,
        "purpose": None if purpose is None else {
            "name": purpose.name, "intent": purpose.intent, "answers": list(purpose.answers)},
        "shelves": [{"name": s.name, "path": s.path, "discriminator": s.discriminator} for s in kind.shelves],
        "required_facets": list(kind.required_facets),
        "required_sections": list(kind.required_sections),
        "draft": kind.draft,
        "when": {"declared": kind.when.declared} if kind.when.declared else {"note": kind.when.note},
    }


@data.register(Kinds)
def _kinds(answer: Kinds) -> dict:
    return {"version": kinds.VERSION, "package": answer.package, "package_version": answer.package_version,
            "abstract": list(answer.abstract), "kinds": [_kind(k) for k in answer.kinds]}


@data.register(Impact)
def _impact(answer: Impact) -> dict:
    return {"version": impact.VERSION,
            "impacted": [{**pointer(i.document, answer.taxonomy), "paths": list(i.paths), "reverified": i.reverified}
                         for i in answer.items]}


@data.register(RouteAnswer)
def _route(routed: RouteAnswer) -> dict:
    """The route document without `text`."""
    from headwater.reads.route.router import VERSION as ROUTE_VERSION

    answer, tax = routed.route, routed.taxonomy
    silence = answer.silence
    return {
        "version": ROUTE_VERSION,
        "task": answer.task,
        "terms": list(answer.terms),
        "separating": list(answer.separating),
        "distinctive": list(answer.distinctive),
        "anchors": list(answer.anchors),
        "named": list(answer.named),
        "matched": [{"purpose": name, "score": score} for name, score in answer.matched],
        "pointers": [pointer(o.document, tax) | {"evidence": o.evidence.as_json()}
                     | ({"successor": o.successor} if o.successor else {}) for o in answer.pointers]
                    + [remote_pointer(h.document) | {"evidence": h.evidence.as_json()}
                       | ({"successor": h.successor} if h.successor else {}) for h in answer.harvested],
        "withheld": answer.withheld,
        "ungoverned": [entry.as_json() for entry in answer.ungoverned],
        "silence": None if silence is None else {"reason": silence.reason, "says": silence.says},
    } | _unread(answer.unread)
