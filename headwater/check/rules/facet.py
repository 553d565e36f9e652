"""Facets: a document's declared facets against its kind — required, permitted, blank, fresh."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Severity, Skip
from headwater.check.rule import Scope, rule
from headwater.check.rules.hits import hit, ticked
from headwater.clock import parse_date
from headwater.corpus.document import Document
from headwater.yaml.nodes import Map, Node, Scalar


def _declared(ctx: Context, doc: Document) -> list[tuple[str, Scalar, Node]]:
    """(facet, key, value) for every front-matter key the taxonomy declares as a facet."""
    return [(key.text, key, value) for key, value in doc.front.entries if key.text in ctx.taxonomy.facets]


@rule("facet.required.missing", 1, Scope.DOCUMENT, Severity.ERROR,
      short="A facet the document's kind requires is absent.",
      full="Every document must declare each facet its kind requires, down the `is_a` chain.",
      help="""
The kind of a document (and every kind it inherits from) names facets each of its documents
must carry in front matter. This finding is about the whole file: add the facet with a value
the taxonomy admits. `headwater explain <path>` lists what the kind requires.
""",
      tags=("shape", "facet"),
      routes=lambda ctx, doc: bool(ctx.taxonomy.required_facets(doc.kind)))
def facet_required_missing(ctx: Context, doc: Document):
    return [
        hit(doc, None, f"the kind `{doc.kind}` requires the facet `{name}`, and this document "
             "does not declare it", f"add `{name}:` to the front matter, with its value", name)
        for name in ctx.taxonomy.required_facets(doc.kind) if name not in doc.front
    ]


def _routes_values(ctx: Context, doc: Document) -> bool:
    return any(ctx.taxonomy.admitted_values(doc.kind, name) for name, _, _ in _declared(ctx, doc))


@rule("facet.value.not_permitted", 2, Scope.DOCUMENT, Severity.ERROR,
      short="A facet's value is outside the set the taxonomy admits.",
      full="A facet with a closed set of values (narrowed per kind) carries a value outside it.",
      help="""
Facets such as the state facet declare the values they admit, and a kind may narrow them.
The message lists the values admitted here; write one of them.
""",
      tags=("shape", "facet"),
      routes=_routes_values)
def facet_value_not_permitted(ctx: Context, doc: Document):
    hits = []
    for name, _, value in _declared(ctx, doc):
        admitted = ctx.taxonomy.admitted_values(doc.kind, name)
        if not admitted or not isinstance(value, Scalar) or not value.text.strip():
            continue
        if value.text.strip() not in admitted:
            hits.append(hit(doc, value, f"`{name}: {value.text.strip()}` is not a value `{name}` admits "
                             f"for `{doc.kind}`; it admits {ticked(admitted)}",
                             f"write one of {ticked(admitted)}", name))
    return hits


def _blank_problem(ctx: Context, name: str, value: Node) -> str | None:
    facet = ctx.taxonomy.facets[name]
    if not isinstance(value, Scalar):
        shape = "a list" if not isinstance(value, Map) else "a mapping"
        return f"`{name}` is {shape}, and the taxonomy declares it a single {facet.type}"
    if not value.text.strip():
        return f"`{name}` is declared empty"
    if facet.type == "date" and parse_date(value.text.strip()) is None:
        return f"`{name}: {value.text.strip()}` is not a calendar date written YYYY-MM-DD"
    return None


@rule("facet.value.blank", 1, Scope.DOCUMENT, Severity.ERROR,
      short="A facet is declared empty, in the wrong shape, or as a malformed date.",
      full="A declared facet has no value, a list or mapping where a single value is declared, "
           "or a `date` facet that is not a YYYY-MM-DD calendar date.",
      help="""
A facet written with no value says nothing, and a list where the taxonomy declares one value
cannot be read. Date facets are calendar dates written `YYYY-MM-DD`.
""",
      tags=("shape", "facet"),
      routes=lambda ctx, doc: bool(_declared(ctx, doc)))
def facet_value_blank(ctx: Context, doc: Document):
    hits = []
    for name, key, value in _declared(ctx, doc):
        problem = _blank_problem(ctx, name, value)
        if problem:
            facet = ctx.taxonomy.facets[name]
            example = "a date such as 2026-01-31" if facet.type == "date" else f"one {facet.type} value"
            where = value if isinstance(value, Scalar) and value.text.strip() else key
            hits.append(hit(doc, where, problem, f"write `{name}:` as {example}, or delete the key", name))
    return hits


def _freshness(ctx: Context):
    name = ctx.taxonomy.facet_for_role("freshness")
    facet = ctx.taxonomy.facets.get(name or "")
    return facet if facet is not None and facet.stale_after_days is not None else None


def _ages(ctx: Context, doc: Document) -> bool:
    """A terminal document is history: nobody re-verifies a superseded record against today."""
    facet = _freshness(ctx)
    return facet is not None and facet.name in doc.front and not ctx.taxonomy.is_terminal(ctx.state(doc))


@rule("facet.freshness.stale", 2, Scope.DOCUMENT, Severity.WARN,
      short="A live document was last verified longer ago than its freshness window allows.",
      full="The facet in the `freshness` role is older, at the run date, than its "
           "`stale_after_days`. A document at a terminal state is history and does not go stale.",
      help="""
A document says when someone last checked it against what it describes. Once that date is
older than the window the taxonomy sets, re-read the document, correct it, and move the date.
A superseded or deprecated document records what held, so its date never goes stale.
""",
      tags=("shape", "facet", "freshness"),
      routes=_ages,
      reads_clock=True)
def facet_freshness_stale(ctx: Context, doc: Document):
    facet = _freshness(ctx)
    value = doc.value(facet.name)
    written = parse_date(value.text.strip()) if isinstance(value, Scalar) else None
    if written is None:
        return Skip(f"the `{facet.name}` date does not read, which `facet.value.blank` reports")
    age = (ctx.today - written).days
    if age <= facet.stale_after_days:
        return []
    return [hit(doc, value, f"`{facet.name}` is {written.isoformat()}, {age} days before "
                 f"{ctx.today.isoformat()}, and it goes stale after {facet.stale_after_days} days",
                 f"re-read the document against what it describes, correct it, then set "
                 f"`{facet.name}` to the date you did", facet.name)]


RULES = (facet_required_missing, facet_value_not_permitted, facet_value_blank, facet_freshness_stale)
