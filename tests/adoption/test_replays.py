"""Adoption replayed on real repositories: from nothing to a green `check --strict` in three
commands, then every format, `new`, `explain`, `route` over tasks written for each corpus, and
the MCP tools. The figures these tests hold are the ones BENCHMARKS.md "Adoption" reports."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from adoption_harness import NOW, headwater


@dataclass(frozen=True)
class Corpus:
    name: str
    records: int  # the records on the record shelf, counted by hand from the archive
    shelf: str
    next_record: str  # what `new decision --title "Adopt headwater"` writes
    supersessions: tuple[tuple[str, str], ...]  # (newer id, older id) the records state
    tasks: tuple[tuple[str, str], ...]  # (route task, the record it should reach)
    tolerated: int  # findings after adoption that are not true problems (each judged in BENCHMARKS.md)
    known: str = "ADR-0001"  # a record's identifier after adoption


CORPORA = (
    Corpus("madr", 19, "docs/decisions", "docs/decisions/0019-adopt-headwater.md", (),
           (("why do we use yaml front matter for metadata", "0013-use-yaml-front-matter-for-meta-data.md"),
            ("why use dashes in filenames", "0005-use-dashes-in-filenames.md")), 0),
    Corpus("adr-tools", 9, "doc/adr", "doc/adr/0010-adopt-headwater.md", (),
           (("why are the tools implemented as shell scripts", "0002-implement-as-shell-scripts.md"),
            ("why use iso 8601 format for dates", "0008-use-iso-8601-format-for-dates.md")), 0),
    Corpus("log4brains", 9, "docs/adr", "docs/adr/20261130-adopt-headwater.md",
           (("ADR-20201016-use-the-adr-slug-as-its-unique-id", "ADR-20200926-use-the-adr-number-as-its-unique-id"),),
           (("why did we choose lunr for search", "20201103-use-lunr-for-search.md"),
            ("why use the adr slug as its unique id", "20201016-use-the-adr-slug-as-its-unique-id.md")), 0,
           "ADR-20200924-use-markdown-architectural-decision-records"),
)


@pytest.fixture(scope="module")
def adopted(unpacked):
    """Each corpus after the three commands, with what each command answered."""
    done = {}
    for corpus in CORPORA:
        root = unpacked(corpus.name)
        below = root / corpus.shelf  # a team starts wherever it stands; verbs find the root
        steps = [headwater(root, "init"), headwater(below, "adopt"), headwater(below, "check", "--strict")]
        done[corpus.name] = (root, steps)
    return done


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda c: c.name)
def test_three_commands_take_a_real_corpus_to_a_green_strict_check(adopted, corpus):
    root, (init, adopt, strict) = adopted[corpus.name]
    assert init.status == 0, init.err
    assert f"  shelf decisions: {corpus.records} records in `{corpus.shelf}`" in init.out
    assert adopt.status == 0 and f"front matter into {corpus.records} records" in adopt.out, adopt.err
    assert strict.status == 0, strict.out + strict.err


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda c: c.name)
def test_every_record_is_typed_and_every_supersession_is_a_relation(adopted, corpus):
    root, _ = adopted[corpus.name]
    report = headwater(root, "check", "--json", "--now", NOW).json
    assert report["coverage"]["classified"] == report["coverage"]["checked"] == corpus.records
    for newer, older in corpus.supersessions:
        assert f"to {newer} superseded_by" in headwater(root, "explain", older).out
        assert f"to {older} supersedes" in headwater(root, "explain", newer).out


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda c: c.name)
def test_after_inference_at_most_one_finding_in_ten_documents_is_not_a_true_problem(adopted, corpus):
    root, _ = adopted[corpus.name]
    findings = headwater(root, "check", "--json", "--now", NOW).json["findings"]
    assert len(findings) == corpus.tolerated and corpus.tolerated * 10 <= corpus.records


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda c: c.name)
@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "markdown"])
def test_check_answers_in_every_format(adopted, corpus, fmt):
    root, _ = adopted[corpus.name]
    ran = headwater(root, "check", "--format", fmt, "--strict", "--now", NOW)
    assert ran.status == 0 and ran.out
    if fmt in ("json", "sarif"):
        json.loads(ran.out)


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda c: c.name)
def test_route_reaches_the_record_a_task_is_about(adopted, corpus):
    root, _ = adopted[corpus.name]
    for task, record in corpus.tasks:
        pointers = headwater(root, "route", task, "--json").json["pointers"]
        assert pointers and pointers[0]["path"].endswith(record), (task, pointers)


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda c: c.name)
def test_the_mcp_tools_answer_over_the_adopted_corpus(adopted, corpus):
    root, _ = adopted[corpus.name]
    calls = [("kinds", {"format": "text"}), ("resolve_identifier", {"id": corpus.known}),
             ("explain", {"target": corpus.known}), ("related", {"target": corpus.known}),
             ("route", {"task": corpus.tasks[0][0]}), ("check", {"format": "json"})]
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}]
    lines += [{"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": name, "arguments": args}}
              for n, (name, args) in enumerate(calls, 1)]
    ran = headwater(root / corpus.shelf, "mcp", "--now", NOW,
                    stdin=b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    answers = [json.loads(line) for line in ran.out.splitlines()]
    assert ran.status == 0 and len(answers) == len(calls) + 1
    assert all(answer["result"]["isError"] is False for answer in answers[1:]), answers
    assert answers[2]["result"]["content"][0]["text"].startswith(corpus.shelf)


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda c: c.name)
def test_new_writes_the_next_record_in_the_teams_own_numbering_and_it_explains(adopted, corpus):
    root, _ = adopted[corpus.name]
    ran = headwater(root, "new", "decision", "--title", "Adopt headwater", "--now", NOW,
                    "--summary", "The records are governed by headwater.")
    assert ran.status == 0 and f"wrote {corpus.next_record}" in ran.out, ran.err
    explained = headwater(root, "explain", corpus.next_record)
    assert explained.status == 0 and "kind decision" in explained.out
    assert headwater(root, "adopt").out.startswith("nothing to migrate")
