"""The graph: documents, anchors, typed edges with target outcomes, the identifier index."""

import re

from headwater.clock import run_date
from headwater.federation.pinned import Federation, Pinned, RemoteDocument, Unread
from headwater.graph import Bound, ProblemKind, build
from headwater.snapshot import load
from headwater.taxonomy.pins import Family, Pin

TODAY = run_date("2026-11-01")


def edge_map(snapshot):
    return {(e.source.rsplit("/", 1)[1], e.written_as, e.target.text): e for e in snapshot.graph.edges}


def test_edges_bind_to_documents_and_anchors(quickstart):
    edges = edge_map(load(quickstart, TODAY))
    supersedes = edges[("0002-deliver-at-least-once.md", "supersedes", "ACME-DR-0001")]
    assert supersedes.target.bound is Bound.DOCUMENT
    assert supersedes.target.path == "docs/decisions/0001-store-attempts-in-postgres.md"
    governs = edges[("queue-retries.md", "governs", "src/queue/backoff.py, src/queue/retry.py")]
    assert governs.target.bound is Bound.ANCHOR
    assert governs.target.anchor.matched == ("src/queue/backoff.py", "src/queue/retry.py")
    assert edges[("queue-retries.md", "traces_to", "ACME-DR-0002")].attribute("cue") == \
        "why a duplicate delivery is acceptable"


def test_an_inverse_name_folds_onto_its_relation(quickstart):
    edges = edge_map(load(quickstart, TODAY))
    half = edges[("0001-store-attempts-in-postgres.md", "superseded_by", "ACME-DR-0002")]
    assert half.relation.name == "supersedes" and half.inverse


def test_unbound_targets_say_why(quickstart):
    doc = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    doc.write_text(doc.read_text().replace(
        "  constrains: ACME-SPEC-0002\n",
        "  constrains: [ACME-DR-0042, docs/specifications/ingest-api.md]\n"
        "  traces_to: [src/nowhere/**, ../escape.py]\n"))
    edges = edge_map(load(quickstart, TODAY))
    name = "0003-rate-limit-per-tenant.md"
    assert edges[(name, "constrains", "ACME-DR-0042")].target.reason == "no document carries `ACME-DR-0042`"
    assert "write `ACME-SPEC-0002`" in edges[(name, "constrains", "docs/specifications/ingest-api.md")].target.reason
    assert edges[(name, "traces_to", "src/nowhere/**")].target.reason.endswith("matches nothing in the repository")
    assert edges[(name, "traces_to", "../escape.py")].target.bound is Bound.UNBOUND


def test_building_records_problems_with_their_lines(quickstart):
    one = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    one.write_text(one.read_text().replace("id: ACME-DR-0003", "id: ACME-DR-0002").replace(
        "  constrains: ACME-SPEC-0002\n",
        "  rhymes_with: ACME-DR-0001\n  traces_to:\n    - cue: no target\n"
        "    - ACME-DR-0001\n    - ACME-DR-0001\n"))
    problems = {(p.kind, p.path.rsplit("/", 1)[1], p.line) for p in load(quickstart, TODAY).graph.problems}
    assert (ProblemKind.UNKNOWN_RELATION, "0003-rate-limit-per-tenant.md", 11) in problems
    assert (ProblemKind.ENTRY_WITHOUT_TO, "0003-rate-limit-per-tenant.md", 13) in problems
    assert (ProblemKind.DUPLICATE_TARGET, "0003-rate-limit-per-tenant.md", 15) in problems
    assert (ProblemKind.DUPLICATE_ID, "0002-deliver-at-least-once.md", 2) in problems
    assert (ProblemKind.DUPLICATE_ID, "0003-rate-limit-per-tenant.md", 2) in problems


def test_an_untyped_file_with_an_id_is_a_near_miss(quickstart):
    note = quickstart / "docs/notes/meeting-2026-09.md"
    note.write_text("---\nid: ACME-DR-0099\n---\n" + note.read_text())
    graph = load(quickstart, TODAY).graph
    assert graph.near_miss == {"ACME-DR-0099": "docs/notes/meeting-2026-09.md"}
    assert "ACME-DR-0099" not in graph.ids


def test_the_networkx_index_holds_every_bound_edge(quickstart):
    graph = load(quickstart, TODAY).graph
    bound = [e for e in graph.edges if e.target.bound is not Bound.UNBOUND]
    assert graph.nx.number_of_edges() == len(bound)
    assert graph.nx.nodes["docs/decisions/0002-deliver-at-least-once.md"]["kind"] == "decision"


def test_a_document_named_bare_or_under_to_binds_alike_and_twice_is_a_duplicate(quickstart):
    """An entry naming an identifier a document carries binds without the long way (HW-DR-0045):
    bare or under `to:`, with its attributes, and the second naming of it is still a duplicate."""
    doc = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    doc.write_text(doc.read_text().replace(
        "  constrains: ACME-SPEC-0002\n",
        "  constrains:\n    - to: ' ACME-SPEC-0002 '\n      cue: the ingest contract\n    - ACME-SPEC-0002\n"
        "  rhymes_with: ACME-DR-0001\n  echoes: ACME-DR-0002\n"))
    graph = load(quickstart, TODAY).graph
    name = "0003-rate-limit-per-tenant.md"
    constrains = [e for e in graph.edges if e.source.endswith(name) and e.written_as == "constrains"]
    assert len(constrains) == 1
    (edge,) = constrains
    assert (edge.target.bound, edge.target.raw, edge.target.id) == (Bound.DOCUMENT, "ACME-SPEC-0002", "ACME-SPEC-0002")
    assert edge.target.path == graph.ids["ACME-SPEC-0002"] and edge.attribute("cue") == "the ingest contract"
    assert (edge.line, edge.column) == (12, 7)
    problems = [(p.kind, p.line, p.subject) for p in graph.problems if p.path.endswith(name)]
    assert (ProblemKind.DUPLICATE_TARGET, 14, "ACME-SPEC-0002") in problems
    assert [line for kind, line, _ in problems if kind is ProblemKind.UNKNOWN_RELATION] == [15, 16]


def test_every_target_that_binds_nothing_says_why_in_its_own_words(quickstart):
    """Each way a target fails to bind, and what an identifier that is no single value costs."""
    doc = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    doc.write_text(doc.read_text().replace("  constrains: ACME-SPEC-0002\n", (
        "  constrains:\n    - ACME-DR-0042\n    - other:ACME-DR-0001\n    - ACME-DR-0099\n    - \"\"\n"
        "    - [a, b]\n    - docs/specifications/ingest-api.md\n"
        "  traces_to:\n    - [src/queue/*.py, src/queue/retry.py]\n    - [\"*.py\"]\n    - ../escape.py\n    - ./\n"
        "    - [1, {a: b}]\n    - ACME-SPEC-0099\n")))
    note = quickstart / "docs/notes/meeting-2026-09.md"
    note.write_text("---\nid: ACME-DR-0099\n---\n" + note.read_text())
    other = quickstart / "docs/decisions/0002-deliver-at-least-once.md"
    other.write_text(other.read_text().replace("id: ACME-DR-0002", "id: [ACME-DR-0002, again]", 1))
    graph = load(quickstart, TODAY).graph
    bound = [(e.written_as, e.target.bound, e.target.text, e.target.reason, e.line)
             for e in graph.edges if e.source == "docs/decisions/0003-rate-limit-per-tenant.md"]
    unbound = Bound.UNBOUND
    assert bound[1:] == [
        ("constrains", unbound, "ACME-DR-0042", "no document carries `ACME-DR-0042`", 12),
        ("constrains", unbound, "other:ACME-DR-0001",
         "no document carries `other:ACME-DR-0001`, and no harvest is named `other`", 13),
        ("constrains", unbound, "ACME-DR-0099",
         "`ACME-DR-0099` is carried by docs/notes/meeting-2026-09.md, which is untyped", 14),
        ("constrains", unbound, "", "an empty target names nothing", 15),
        ("constrains", unbound, "docs/specifications/ingest-api.md",
         "`docs/specifications/ingest-api.md` is a path; a document target is an identifier: write `ACME-SPEC-0002`",
         17),
        ("traces_to", Bound.ANCHOR, "src/queue/*.py, src/queue/retry.py", "", 19),
        ("traces_to", unbound, "*.py", "`*.py` opens with a wildcard, and no literal segment bounds the search", 20),
        ("traces_to", unbound, "../escape.py", "`../escape.py` climbs above the repository or is absolute", 21),
        ("traces_to", unbound, "./", "an empty anchor names nothing", 22),
        ("traces_to", unbound, "1", "a list whose every item must be a pattern", 23),
        ("traces_to", unbound, "ACME-SPEC-0099", "no document carries `ACME-SPEC-0099`", 24),
    ]
    anchor = next(e.target.anchor for e in graph.edges if e.line == 19 and e.target.anchor)
    assert anchor.patterns == ("src/queue/*.py", "src/queue/retry.py")
    assert anchor.matched == ("src/queue/backoff.py", "src/queue/retry.py", "src/queue/worker.py")
    assert [(p.kind, p.path, p.line, p.column, p.subject, p.message) for p in graph.problems] == [
        (ProblemKind.ID_NOT_A_SCALAR, "docs/decisions/0002-deliver-at-least-once.md", 2, 5, "id",
         "`id` is not a single value"),
        (ProblemKind.LIST_TARGET, "docs/decisions/0003-rate-limit-per-tenant.md", 16, 7, "constrains",
         "an entry under `constrains` is a list, and `constrains` reaches only documents, each named by one "
         "identifier"),
    ]
    assert "ACME-DR-0002" not in graph.ids and graph.near_miss == {"ACME-DR-0099": "docs/notes/meeting-2026-09.md"}
    assert graph.document_by_id("ACME-DR-0003").path == "docs/decisions/0003-rate-limit-per-tenant.md"
    assert graph.document_by_id("ACME-DR-0002") is None


DECISION = "docs/decisions/0003-rate-limit-per-tenant.md"


def _relations(quickstart, written: str):
    """The quickstart's third decision with its `constrains` line replaced by `written`."""
    doc = quickstart / DECISION
    doc.write_text(doc.read_text().replace("  constrains: ACME-SPEC-0002\n", written))
    return load(quickstart, TODAY).graph


def test_each_graph_problem_names_its_subject_where_it_is_written_and_says_why(quickstart):
    for name in ("0001-store-attempts-in-postgres.md", "0002-deliver-at-least-once.md"):
        other = quickstart / "docs/decisions" / name
        other.write_text(re.sub(r"id: ACME-DR-000[12]", "id: ACME-DR-0003", other.read_text(), count=1))
    graph = _relations(quickstart, "  rhymes_with: ACME-DR-0001\n  traces_to:\n    - cue: no target\n"
                                   "    - ACME-DR-0001\n    - ' ACME-DR-0001'\n")
    first, second = "docs/decisions/0001-store-attempts-in-postgres.md", "docs/decisions/0002-deliver-at-least-once.md"
    declared = "`ACME-DR-0003` is also declared by"
    assert [(p.kind, p.path, p.line, p.column, p.subject, p.message) for p in graph.problems] == [
        (ProblemKind.DUPLICATE_ID, first, 2, 5, "ACME-DR-0003", f"{declared} {second}, {DECISION}"),
        (ProblemKind.DUPLICATE_ID, second, 2, 5, "ACME-DR-0003", f"{declared} {first}, {DECISION}"),
        (ProblemKind.DUPLICATE_ID, DECISION, 2, 5, "ACME-DR-0003", f"{declared} {first}, {second}"),
        (ProblemKind.UNKNOWN_RELATION, DECISION, 11, 3, "rhymes_with",
         "`rhymes_with` is not a relation the taxonomy declares"),
        (ProblemKind.ENTRY_WITHOUT_TO, DECISION, 13, 7, "traces_to", "an entry under `traces_to` has no `to`"),
        (ProblemKind.DUPLICATE_TARGET, DECISION, 15, 7, "ACME-DR-0001", "`traces_to` names `ACME-DR-0001` twice"),
    ]
    assert graph.ids["ACME-DR-0003"] == first  # the first by path


def test_a_relations_block_that_is_no_mapping_is_one_problem_at_the_block(quickstart):
    doc = quickstart / DECISION
    text = doc.read_text()
    doc.write_text(text.replace(text[text.index("relations:\n"):text.index("---\n\n")],
                                "relations:\n  - governs\n  - ACME-SPEC-0002\n"))
    graph = load(quickstart, TODAY).graph
    assert [(p.kind, p.path, p.line, p.column, p.subject, p.message) for p in graph.problems] == [
        (ProblemKind.RELATIONS_NOT_A_MAPPING, DECISION, 10, 3, "relations",
         "`relations:` must map relation names to targets")]
    assert not [e for e in graph.edges if e.source == DECISION]


def test_a_document_without_an_identifier_leaves_the_others_indexed(quickstart):
    first = quickstart / "docs/decisions/0001-store-attempts-in-postgres.md"
    first.write_text(first.read_text().replace("id: ACME-DR-0001\n", "", 1))
    note = quickstart / "docs/notes/meeting-2026-09.md"
    note.write_text("---\nowner: j.doe\n---\n" + note.read_text())
    graph = load(quickstart, TODAY).graph
    assert sorted(graph.ids) == ["ACME-DR-0002", "ACME-DR-0003", "ACME-SPEC-0001", "ACME-SPEC-0002"]
    assert graph.near_miss == {}  # an untyped file carrying no identifier is no near miss
    assert graph.document_by_id("ACME-DR-0001") is None


def test_an_entry_keeps_its_scalar_attributes_and_not_its_target(quickstart):
    graph = _relations(quickstart, "  constrains:\n    - to: ACME-SPEC-0002\n      cue: the contract\n"
                                   "      tags: [a, b]\n      weight: {x: 1}\n")
    (edge,) = [e for e in graph.edges if e.source == DECISION and e.written_as == "constrains"]
    assert [(name, value.text) for name, value in edge.attributes] == [("cue", "the contract")]


def test_each_target_records_how_it_bound_and_the_anchor_it_made(quickstart):
    graph = _relations(quickstart, "  traces_to:\n    - src/queue/retry.py\n    - src/queue/nothing.py\n"
                                   "    - [src/a.py, ../up.py]\n    - [1, 2, {a: b}]\n    - ACME-DR-draft\n"
                                   "    - [src/queue/retry.py, src/queue/backoff.py]\n")
    targets = [(e.target.bound, e.target.raw, e.target.path, e.target.id, e.target.reason)
               for e in graph.edges if e.source == DECISION and e.written_as == "traces_to"]
    assert targets == [
        (Bound.ANCHOR, "src/queue/retry.py", None, None, ""),
        (Bound.UNBOUND, "src/queue/nothing.py", None, None, "`src/queue/nothing.py` matches nothing in the repository"),
        (Bound.UNBOUND, "src/a.py, ../up.py", None, None, "`../up.py` climbs above the repository or is absolute"),
        (Bound.UNBOUND, "1, 2", None, None, "a list whose every item must be a pattern"),
        (Bound.UNBOUND, "ACME-DR-draft", None, None, "no document carries `ACME-DR-draft`"),
        (Bound.ANCHOR, "src/queue/retry.py, src/queue/backoff.py", None, None, ""),
    ]
    anchored = {e.target.raw: e.target.anchor for e in graph.edges if e.source == DECISION and e.target.anchor}
    assert {raw: (a.kind, a.patterns, a.matched) for raw, a in anchored.items()} == {
        "src/queue/retry.py": ("code_path", ("src/queue/retry.py",), ("src/queue/retry.py",)),
        "src/queue/nothing.py": ("code_path", ("src/queue/nothing.py",), ()),
        "src/ingest/rate_limit.py": ("code_path", ("src/ingest/rate_limit.py",), ("src/ingest/rate_limit.py",)),
        "src/queue/retry.py, src/queue/backoff.py": ("code_path", ("src/queue/backoff.py", "src/queue/retry.py"),
                                                     ("src/queue/backoff.py", "src/queue/retry.py")),
    }
    assert graph.nx.nodes[("code_path", ("src/queue/retry.py",))]["type"] == "anchor"


def _pin(name: str) -> Pin:
    return Pin(Family.HARVEST, name, f".headwater/harvested/{name}.json", None, None, 1, 1)


def test_a_target_in_another_corpus_binds_to_its_export_or_says_which_pin_lacks_it(quickstart):
    remote = RemoteDocument("platform", "docs/decisions/0100-deliver.md", "decision", "ACME-DR-0100", "Deliver",
                            "rationale", None, "current", False, "asserted", "0" * 64)
    federation = Federation((Pinned(_pin("platform"), {}, {"platform:ACME-DR-0100": remote}),),
                            (Unread(_pin("later"), "the pin has no `digest`"),))
    _relations(quickstart, "  constrains:\n    - platform:ACME-DR-0100\n    - platform:ACME-DR-0999\n"
                           "    - platform:ACME:1\n    - later:ACME-DR-0001\n    - other:ACME-DR-0001\n")
    snapshot = load(quickstart, TODAY)
    graph = build(snapshot.taxonomy, snapshot.census, snapshot.tree, federation)
    targets = [(e.target.bound, e.target.raw, e.target.id, e.target.remote, e.target.reason)
               for e in graph.edges if e.source == DECISION and e.written_as == "constrains"]
    assert targets == [
        (Bound.DOCUMENT, "platform:ACME-DR-0100", "platform:ACME-DR-0100", remote, ""),
        (Bound.UNBOUND, "platform:ACME-DR-0999", None, None,
         "the pinned export `platform` carries no document `ACME-DR-0999`"),
        (Bound.UNBOUND, "platform:ACME:1", None, None, "the pinned export `platform` carries no document `ACME:1`"),
        (Bound.UNBOUND, "later:ACME-DR-0001", None, None,
         "the pin `later` binds nothing, so `ACME-DR-0001` cannot be read there"),
        (Bound.UNBOUND, "other:ACME-DR-0001", None, None,
         "no document carries `other:ACME-DR-0001`, and no harvest is named `other`"),
    ]


def test_a_relation_and_its_inverse_to_one_target_are_two_halves_and_an_inverse_reaches_its_sources(quickstart):
    graph = _relations(quickstart, "  constrains: ACME-DR-0001\n  traces_to: ACME-DR-0001\n  traced_by:\n"
                                   "    - ACME-DR-0001\n    - src/queue/retry.py\n")
    edges = [(e.written_as, e.inverse, e.target.bound, e.target.reason)
             for e in graph.edges if e.source == DECISION and e.written_as != "governs"]
    assert edges == [
        ("constrains", False, Bound.DOCUMENT, ""),
        ("traces_to", False, Bound.DOCUMENT, ""),
        ("traced_by", True, Bound.DOCUMENT, ""),
        ("traced_by", True, Bound.UNBOUND, "no document carries `src/queue/retry.py`"),  # only documents trace
    ]
    assert not graph.problems
