"""The graph: documents, anchors, typed edges with target outcomes, the identifier index."""

from headwater.clock import run_date
from headwater.graph import Bound, ProblemKind
from headwater.snapshot import load

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
