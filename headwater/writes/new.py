"""`headwater new`: a correctly shaped document of a kind, with a minted identifier.

Every refusal is decided before a byte is written: the kind and its shelf, the identifier
scheme, the facets, the edges, the path, and each far half as a dry run against the bytes the
snapshot read. Then, in order: the claim (exclusive), the document (exclusive, never over a
file), each far half (atomic, after checking the target still holds the bytes the snapshot
read), the capture-cost line. If a step after the claim fails, the run takes back what it wrote
— the document is removed and edited targets get their bytes back — except the claim: a claimed
number stays spent, like a deleted document's, so numbers only ever grow. The document and the far
halves go through the one batch writer `check --fix` uses (`writes.batch`).

The CLI verb and the MCP `new` tool both call `new_document`; it returns the account (the
report) and the artifact (the new document's text) separately.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable

from headwater import atomic, writelock
from headwater.corpus.census import Classifier, Outcome, excluded_by, is_markdown
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.hashing import digest
from headwater.inplace import read_regular
from headwater.paths import NAME_MAX, inside
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Scheme
from headwater.textsafe import shown
from headwater.writes import edges as edges_module
from headwater.writes import minting, placement, shape
from headwater.writes.batch import BatchFailed, FileWrite, put_back, write_all
from headwater.writes.edges import Proposed
from headwater.writes.inputs import COMMAND_LINE, Spelling
from headwater.writes.placement import Placement
from headwater.writes.roundtrip import UnsafeEdit, add_to_list, edit_front_matter
from headwater.writes.shape import Shape

CAPTURE_COST = ".headwater/capture-cost.jsonl"
RELATIONS = "relations"  # the document format's key, like `id`: not a taxonomy name


@frozen
class Written:
    account: str  # the report
    artifact: str  # the new document's text
    landed: bool  # whether any byte reached the disk
    paths: tuple[str, ...]  # repository-relative paths written or edited, in order


class Aborted(Refusal):
    """A step after the claim failed; what the run wrote was taken back, except `written`."""

    def __init__(self, sentence: str, written: tuple[str, ...]) -> None:
        super().__init__(sentence)
        self.written = written


@frozen
class Plan:
    snapshot: Snapshot
    title: str
    slug: str
    placement: Placement
    scheme: Scheme | None  # None: the kind declares no identifier scheme, so the document has no id
    shape: Shape
    edges: tuple[Proposed, ...]
    start: int
    spelling: Spelling  # how the caller names the inputs a refusal concerns

    @property
    def id_slug(self) -> str:
        """The slug the identifier is minted with: the title's, or for a scheme without `{seq}` the
        file's whole name where the layout writes the slug there, so the name and the id agree."""
        if self.scheme is None or minting.has_sequence(self.scheme):
            return self.slug
        return placement.named_slug(self.placement.shelf.layout, _path(self, self.start)) or self.slug


def pair(text: str, field: str, spelling: Spelling = COMMAND_LINE) -> tuple[str, str]:
    """`left=right` with neither side empty (for `relates` and `facets`)."""
    left, sep, right = text.partition("=")
    if not sep or not left.strip() or not right.strip():
        metavar = "REL=TARGET" if field == "relates" else "FACET=VALUE"
        raise spelling.refused(field, f"`{spelling.name(field)}` takes {metavar} with neither side empty, "
                                      f"and `{shown(text)}` is not that")
    return left.strip(), right.strip()


def _pairs(items: Iterable[tuple[str, str] | str], field: str, spelling: Spelling) -> list[tuple[str, str]]:
    return [pair(item, field, spelling) if isinstance(item, str) else (item[0], item[1]) for item in items]


def new_document(snapshot: Snapshot, kind: str, title: str,
                 relates: Iterable[tuple[str, str] | str] = (), summary: str | None = None,
                 facets: Iterable[tuple[str, str] | str] = (), directory: str | None = None,
                 spelling: Spelling = COMMAND_LINE) -> Written:
    plan = prepare(snapshot, kind, title, _pairs(relates, "relates", spelling), summary,
                   _pairs(facets, "facets", spelling), directory, spelling)
    with writelock.held(snapshot.root):
        return carry_out(plan)


# -- deciding ------------------------------------------------------------------------------


def prepare(snapshot: Snapshot, kind: str, title: str, relates: list[tuple[str, str]],
            summary: str | None, facets: list[tuple[str, str]], directory: str | None,
            spelling: Spelling = COMMAND_LINE) -> Plan:
    taxonomy = snapshot.taxonomy
    title = _one_line(title, "title", spelling)
    summary = _one_line(summary, "summary", spelling) if summary is not None and summary.strip() else None
    where = spelling.about("kind", lambda: placement.place(taxonomy, kind, directory, spelling))
    scheme = _scheme(snapshot, kind)
    slug = placement.slug(title)
    if not slug:
        raise spelling.refused("title", f"the title `{shown(title)}` has no Latin letters or digits to make a file "
                                        f"name from: add a few, as in "
                                        f"`{spelling.giving('title', 'Привет мир (hello world)')}`")
    given = dict(facets)
    if len(given) != len(facets):
        raise spelling.refused("facets", f"`{spelling.name('facets')}` names one facet twice")
    decided = spelling.about("facets", lambda: shape.decide(taxonomy, kind, where.shelf, title, summary, given,
                                                            snapshot.today, spelling))
    proposed = tuple(spelling.about("relates", lambda: edges_module.propose(snapshot, kind, relates, spelling)))
    corpus_ids = [d.id for d in snapshot.census.parsed if d.id]
    start = max(minting.first_candidate(snapshot.root, scheme, corpus_ids), _highest_named(snapshot, scheme) + 1) \
        if scheme else 0
    plan = Plan(snapshot, title, slug, where, scheme, decided, proposed, start, spelling)
    # a numbered path another run wrote since the snapshot only moves this one on, as in `carry_out`
    path = _unless_numbered_and_there(plan)(start) or _path(plan, start) if scheme else path_for(plan, None)
    if len(path.rpartition("/")[2].encode("utf-8")) > NAME_MAX - 20:  # room for a later, longer number
        raise spelling.refused("title", f"the title `{shown(title)}` makes a file name longer than a file system "
                                        "holds; give a shorter one")
    if scheme is None:
        _refuse_owed_halves(plan)
    else:
        _far_halves(plan, scheme.mint(start, plan.id_slug), path)  # a dry run: refuses now rather than after writing
    return plan


def _highest_named(snapshot: Snapshot, scheme: Scheme) -> int:
    """The highest number the scheme's documents carry in their file names (`0007-x.md` → 7). Until
    `adopt` writes a record's number into its front matter it is only in the name, and a number
    `new` took from under it would be carried twice once `adopt` ran."""
    if not minting.has_sequence(scheme):
        return 0
    classifier, taxonomy = Classifier(snapshot.taxonomy), snapshot.taxonomy

    def numbered(path: str, kind: str | None) -> int | None:
        shelves = classifier.matching_shelves(path)
        # a record with no front matter yet (bound by `init`, not adopted) is its shelf's kind
        kinds = {kind} if kind else {shelf.kind for shelf in shelves if shelf.kind}
        return placement.own_number(shelves, path) if any(taxonomy.scheme_of(k) == scheme for k in kinds) else None

    numbers = (numbered(row.path, row.kind) for row in snapshot.census.rows
               if row.outcome is Outcome.TYPED or (row.outcome is Outcome.UNTYPED and is_markdown(row.path)))
    return max((n for n in numbers if n is not None), default=0)


def _refuse_owed_halves(plan: Plan) -> None:
    """A document without an identifier cannot be named by a far half."""
    for edge in plan.edges:
        if edge.far_half and edge.path and not edge.symmetric:
            raise Refusal(f"the kind `{plan.placement.kind}` declares no identifier scheme, so no far half can "
                          f"name the new document, and `{edge.written_as}` owes one in {edge.path}")


def _one_line(text: str, field: str, spelling: Spelling) -> str:
    if not text.strip():
        raise spelling.refused(field, f"`{spelling.name(field)}` takes text, and it is empty")
    # every line end a reader may see, U+2028 too: one written into the front matter counts as a line
    if len(text.strip().splitlines()) > 1:
        raise spelling.refused(field, f"`{spelling.name(field)}` takes one line of text")
    return text.strip()


def _scheme(snapshot: Snapshot, kind: str) -> Scheme | None:
    scheme = snapshot.taxonomy.scheme_of(kind)
    if scheme is None:
        return None
    if "{namespace}" in scheme.pattern and not scheme.namespace:
        raise Refusal(
            f"the identifier scheme `{scheme.name}` has no namespace, so `new` cannot mint an id; add "
            f"`identifier_schemes.{scheme.name}.namespace: <NS>` under `add:` in .headwater/overlay.yml, "
            "then run `headwater taxonomy resolve`")
    return scheme


def path_for(plan: Plan, sequence: int | None) -> str:
    """The document's path for a sequence; refuses an existing file or a path off the shelf."""
    path = _path(plan, sequence)
    if os.path.lexists(plan.snapshot.root / path):
        raise Refusal(f"{path} already exists, and `new` never writes over a file")
    _on_shelf(plan, path)
    return path


def _path(plan: Plan, sequence: int | None) -> str:
    """Where the layout puts the document for a sequence, refused unless a plain path in the repository."""
    facets = {f.name: f.value for f in plan.shape.facets}
    name = placement.file_name(plan.placement, plan.slug, sequence, facets, plan.spelling)
    path = placement.document_path(plan.placement, name)
    if inside(path) != path:  # a facet's value written into the layout (`--facet team=../..`)
        raise Refusal(f"the shelf `{plan.placement.shelf.name}` names this document `{path}`, which is not a plain "
                      "path inside the repository, so nothing was written")
    return path


def _unless_numbered_and_there(plan: Plan) -> Callable[[int], str | None]:
    """`path_for`, but None for a path the layout numbers that is there already: another run wrote
    it under that number since this one read the corpus, so the number is spent, as a sequential
    run would have seen (an unnumbered path there is `path_for`'s refusal)."""
    numbered = minting.has_sequence(plan.scheme) and _path(plan, plan.start) != _path(plan, plan.start + 1)

    def document_for(sequence: int) -> str | None:
        there = numbered and os.path.lexists(plan.snapshot.root / _path(plan, sequence))
        return None if there else path_for(plan, sequence)

    return document_for


def _on_shelf(plan: Plan, path: str) -> None:
    snapshot, shelf = plan.snapshot, plan.placement.shelf
    corpus = snapshot.declaration.corpus_root
    off = f"{path} is not on the shelf `{shelf.name}` ({shelf.path})"
    if corpus not in ("", ".") and not path.startswith(corpus + "/"):
        raise Refusal(f"{path} is outside the corpus root `{corpus}`, so the census would never read it")
    exclusion = excluded_by(path, snapshot.declaration.exclusions)
    if exclusion:
        raise Refusal(f"{path} is excluded by `{exclusion.pattern}`, so the census would never type it")
    text = render(plan, plan.scheme.mint(plan.start, plan.id_slug) if plan.scheme else None)
    row = Classifier(snapshot.taxonomy).classify(path, text, "")
    if row.outcome is not Outcome.TYPED or row.kind != plan.placement.kind:
        raise Refusal(f"{off}, so the census would not type it `{plan.placement.kind}` ({row.reason or row.label})")


def render(plan: Plan, identifier: str | None) -> str:
    front = shape.front_matter(identifier, plan.shape, edges_module.grouped(list(plan.edges)),
                               plan.snapshot.taxonomy.identifier_key(plan.placement.kind))
    return front + shape.body(plan.title, plan.shape.sections)


def _far_halves(plan: Plan, identifier: str, source: str) -> dict[str, tuple[bytes, bytes]]:
    """For each target owed a far half: (the bytes the snapshot read, the edited bytes)."""
    out: dict[str, tuple[bytes, bytes]] = {}
    for edge in plan.edges:
        if edge.far_half is None or edge.path is None or edge.symmetric:
            continue
        before = out[edge.path][1] if edge.path in out else _as_read(plan.snapshot, edge.path)
        text = before.decode("utf-8")
        bom = "\ufeff" if text.startswith("\ufeff") else ""
        try:
            edited = edit_front_matter(text.removeprefix("\ufeff"),
                                       lambda t, e=edge: add_to_list(t, (RELATIONS, e.far_half), identifier))
        except UnsafeEdit as unsafe:
            raise Refusal(f"the far half `{edge.far_half}` cannot go into {edge.path} ({unsafe}); "
                          f"add `{edge.far_half}: [{identifier}]` under `relations:` there by hand, then "
                          f"write {source} without `{plan.spelling.name('relates')} {edge.written_as}`") from None
        original = out[edge.path][0] if edge.path in out else before
        out[edge.path] = (original, (bom + edited).encode("utf-8"))
    return out


def _as_read(snapshot: Snapshot, path: str) -> bytes:
    """The target's bytes, refused unless they are the bytes the snapshot read."""
    document = snapshot.graph.documents.get(path)
    try:
        data = read_regular(snapshot.root / path)
    except OSError:
        data = b""
    if document is None or digest(data) != document.digest:
        raise Refusal(f"{path} changed since this run read it, so its far half is not written; run `new` again")
    return data


# -- writing -------------------------------------------------------------------------------


def carry_out(plan: Plan) -> Written:
    """Write the plan; the caller holds the write lock, so the far halves' check-then-write is one step."""
    if plan.scheme is None:
        return _carry_out_unnamed(plan)
    minted = minting.mint(plan.snapshot.root, plan.scheme, plan.start, plan.id_slug, _taken(plan),
                          _unless_numbered_and_there(plan))
    artifact = render(plan, minted.identifier)
    taken_back = f"the document and its far halves were taken back, and {minted.identifier} stays claimed"
    try:
        far = _far_halves(plan, minted.identifier, minted.document)
        batch = [FileWrite(minted.document, None, artifact.encode("utf-8")),
                 *(FileWrite(path, original, edited) for path, (original, edited) in far.items())]
        _write(plan, batch, minted)
    except BatchFailed as failed:
        if isinstance(failed.cause, FileExistsError) and failed.item is batch[0]:
            raise Aborted(f"{minted.document} appeared while this run wrote it, and `new` never writes over a "
                          f"file; {minted.identifier} stays claimed", (minted.claim,)) from None
        raise Aborted(f"{_sentence(failed.cause)}; {taken_back}", (minted.claim,)) from None
    except Refusal as refusal:  # a far half that no longer fits: nothing but the claim was written
        raise Aborted(f"{refusal.sentence}; {taken_back}", (minted.claim,)) from None
    account = report(plan, minted, list(far))
    return Written(account, artifact, True, (minted.claim, *(item.path for item in batch), CAPTURE_COST))


def _carry_out_unnamed(plan: Plan) -> Written:
    """A kind without an identifier scheme: the document alone, created exclusively."""
    document = path_for(plan, None)
    artifact = render(plan, None)
    unnamed = minting.Minted("", None, 0, "", document)
    try:
        _write(plan, [FileWrite(document, None, artifact.encode("utf-8"))], unnamed)
    except BatchFailed as failed:
        if isinstance(failed.cause, FileExistsError):
            raise Refusal(f"{document} appeared while this run wrote it, and `new` never writes over a file") from None
        raise Refusal(f"{_sentence(failed.cause)}; the document was taken back") from None
    return Written(report(plan, unnamed, []), artifact, True, (document, CAPTURE_COST))


def _write(plan: Plan, batch: list[FileWrite], minted: minting.Minted) -> None:
    """The batch through the one writer, then the capture-cost line; a failed line takes the batch back."""
    root = plan.snapshot.root

    def still(item: FileWrite) -> None:
        if item.before is not None:  # a far half: its target must hold the bytes the snapshot read
            _as_read(plan.snapshot, item.path)

    write_all(root, batch, still)
    try:
        _append_cost(plan, minted)
    except (Refusal, OSError) as failure:
        with writelock.steady():
            unrestored = put_back(root, batch)
        raise BatchFailed(batch[-1], failure, unrestored) from None


def _sentence(cause: OSError | Refusal) -> str:
    return cause.sentence if isinstance(cause, Refusal) else f"a write failed ({cause})"


def _taken(plan: Plan) -> set[str]:
    return {d.id for d in plan.snapshot.census.parsed if d.id}


def costs(plan: Plan) -> dict[str, list[int]]:
    """`[supplied, total]`: what the engine decided for the author, out of what the run wrote."""
    fields = list(plan.shape.facets)
    far = sum(1 for e in plan.edges if e.far_half and e.path and not e.symmetric)
    sections = len(plan.shape.sections)
    return {
        "fields": [sum(1 for f in fields if f.supplied) + 1, len(fields) + 1],  # + provenance
        "sections": [sections, sections],
        "identifier": [1, 1] if plan.scheme else [0, 0],
        "edge_halves": [far, len(plan.edges) + far],
    }


def _append_cost(plan: Plan, minted: minting.Minted) -> None:
    record = {"lock": plan.snapshot.lock.digest, "date": plan.snapshot.today.isoformat(),
              "kind": plan.placement.kind, "document": minted.document, "id": minted.identifier or None}
    record = {key: value for key, value in record.items() if value is not None}
    line = (json.dumps(record | costs(plan), ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    root = plan.snapshot.root
    atomic.append(root / CAPTURE_COST, line, root=root)


# -- the account ---------------------------------------------------------------------------


def report(plan: Plan, minted: minting.Minted, edited: list[str]) -> str:
    shelf, scheme = plan.placement.shelf, plan.scheme
    lines = [f"wrote {minted.document}"] + [f"edited {path}" for path in edited]
    lines += ["", "what the taxonomy decided",
              f"  kind {plan.placement.kind}, on the shelf `{shelf.name}` ({shelf.path})",
              _identifier_line(plan.placement.kind, scheme, minted)]
    lines += [f"  {facet.name} — {facet.origin}" for facet in plan.shape.facets]
    lines.append("  provenance — warrant asserted: nobody has accepted it yet")
    lines += [f"  section `{section}` — the kind requires it" for section in plan.shape.sections]
    lines += ["", "the edges it proposed"]
    if not plan.edges:
        lines.append(f"  none; `{plan.spelling.giving('relates', 'rel=target')}` declares one")
    for edge in plan.edges:
        lines.append(f"  {edge.written_as} {edge.reached}")
        if edge.far_half and edge.path and not edge.symmetric:
            lines.append(f"    the far half `{edge.far_half}` went into {edge.path}")
        elif edge.symmetric:
            lines.append("    symmetric, so the target is not edited")
    lines += _undeclared(plan)
    lines += ["", "assisted fraction of this run", "  " + _fraction(costs(plan)),
              "", "Next: run `headwater check`"]
    return "\n".join(lines) + "\n"


def _identifier_line(kind: str, scheme: Scheme | None, minted: minting.Minted) -> str:
    if scheme is None:
        return f"  no identifier: the kind `{kind}` declares no identifier scheme"
    return (f"  identifier {minted.identifier} under `{scheme.name}`, allocation {scheme.allocation}"
            f" — {_allocation(minted)}; claimed in {minted.claim}")


def _allocation(minted: minting.Minted) -> str:
    if minted.sequence is None:
        return "from the title's slug"
    said = ("one more than the highest sequence among the corpus's identifiers, the numbers its file names "
            f"carry, and claims ({minted.highest})")
    meanwhile = minted.sequence - minted.highest - 1
    return said + (f", after {meanwhile} number(s) above it were claimed meanwhile" if meanwhile else "")


def _undeclared(plan: Plan) -> list[str]:
    used = {e.written_as for e in plan.edges}
    spare = [p for p in plan.snapshot.taxonomy.permitted(plan.placement.kind) if p.written_as not in used]
    if not spare:
        return []
    return ["", "what this document may also declare, and nobody did"] + [
        f"  {p.written_as} to {', '.join(p.far_kinds)}" for p in spare]


def _fraction(counts: dict[str, list[int]]) -> str:
    supplied = sum(counted[0] for counted in counts.values())
    total = sum(counted[1] for counted in counts.values())
    parts = ", ".join(f"{label} {counts[key][0]}/{counts[key][1]}" for key, label in (
        ("fields", "front matter"), ("sections", "sections"), ("identifier", "identifier"),
        ("edge_halves", "edge halves")))
    return f"{supplied} of {total} — {parts}"
