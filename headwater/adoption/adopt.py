"""`headwater adopt`: migrate records that keep their metadata in the body into front matter, once.

For every file on a homogeneous shelf, what its body form says (`forms`) and what its kind needs
become front-matter edits: the status and the date it was entered (under the taxonomy's own
facet names), an identifier with its claim (the file's own number first), and both halves of
every supersession its links state. Every other byte of the file stays. The batch is planned in
memory and written by `--fix`'s writer: all of it lands, or none.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from headwater.adoption import forms
from headwater.check.fix import Planned, plan, write
from headwater.check.patches import AddToList, Create, Edit, Patch, SetScalar
from headwater.check.proposals import propose
from headwater.corpus.census import Classifier, Outcome, read_regular
from headwater.corpus.frontmatter import FrontMatterRefusal, split
from headwater.hashing import digest
from headwater.snapshot import Snapshot
from headwater.writes.minting import claim_path
from headwater.yaml.nodes import Map, Scalar


@dataclass(frozen=True)
class Found:
    path: str
    kind: str
    expects: str
    keys: frozenset[str]  # front-matter keys already there
    identifier: str | None
    derived: forms.Derived


@dataclass(frozen=True)
class Adoption:
    patches: tuple[Patch, ...]
    lines: tuple[str, ...]  # one per adopted record: what was written

    def planned(self, snapshot: Snapshot) -> list[Planned]:
        grouped: dict[str, list[Patch]] = {}
        for patch in self.patches:
            grouped.setdefault(patch.path, []).append(patch)
        return plan(snapshot.root, dict(sorted(grouped.items())))


def _records(snapshot: Snapshot) -> list[Found]:
    classifier = Classifier(snapshot.taxonomy)
    found = []
    for row in snapshot.census.rows:
        if row.outcome not in (Outcome.TYPED, Outcome.UNTYPED):
            continue
        shelves = classifier.matching_shelves(row.path)
        if len(shelves) != 1 or not shelves[0].homogeneous or not shelves[0].kind:
            continue
        try:
            data = read_regular(snapshot.root / row.path)
            parts = split(data.decode("utf-8").removeprefix("\ufeff"))
        except (OSError, UnicodeDecodeError, FrontMatterRefusal):
            continue  # the census reports what does not read; adopt writes nothing there
        front = parts.front if isinstance(parts.front, Map) else Map((), 1, 1)
        node = front.get("id")
        identifier = node.text.strip() if isinstance(node, Scalar) and node.text.strip() else None
        found.append(Found(row.path, shelves[0].kind, digest(data), frozenset(k.text for k, _ in front.entries),
                           identifier, forms.read(parts.body)))
    return found


def _succession(snapshot: Snapshot) -> tuple[str, str] | None:
    """The relation whose target's state it sets (supersedes) and its inverse (superseded_by)."""
    return next(((r.name, r.inverse) for r in snapshot.taxonomy.relations.values() if r.set_state and r.inverse),
                None)


def _identifiers(snapshot: Snapshot, records: list[Found]) -> dict[str, str]:
    ids = {r.path: r.identifier for r in records if r.identifier}
    classifier = Classifier(snapshot.taxonomy)
    for _, scheme in sorted(snapshot.taxonomy.schemes.items()):
        lacking = sorted(r.path for r in records if not r.identifier and snapshot.taxonomy.scheme_of(r.kind) is scheme)
        ids.update(propose(snapshot, classifier, scheme, lacking))
    return ids


def _pairs(records: list[Found]) -> set[tuple[str, str]]:
    """(newer, older) for every supersession a record's links state, from either end."""
    paths = {r.path for r in records}
    pairs = set()
    for record in records:
        here = posixpath.dirname(record.path)
        for href in record.derived.supersedes:
            target = posixpath.normpath(posixpath.join(here, href.split("#")[0]))
            if target in paths:
                pairs.add((record.path, target))
        for href in record.derived.superseded_by:
            target = posixpath.normpath(posixpath.join(here, href.split("#")[0]))
            if target in paths:
                pairs.add((target, record.path))
    return pairs


def adoption(snapshot: Snapshot) -> Adoption:
    taxonomy = snapshot.taxonomy
    records = _records(snapshot)
    ids = _identifiers(snapshot, records)
    state, entered = taxonomy.facet_for_role("state"), taxonomy.facet_for_role("state_entered")
    succession = _succession(snapshot)
    relations: dict[str, list[tuple[str, str]]] = {}
    for newer, older in sorted(_pairs(records)) if succession else ():
        relations.setdefault(newer, []).append((succession[0], ids.get(older, older)))
        relations.setdefault(older, []).append((succession[1], ids.get(newer, newer)))
    patches, lines = [], []
    for record in records:
        edits: list[Edit] = []
        said: list[str] = []
        if state and state not in record.keys and record.derived.status and taxonomy.lifecycle_of(record.kind):
            edits.append(SetScalar((state,), record.derived.status))
            said.append(f"{state} {record.derived.status}")
        if entered and entered not in record.keys and record.derived.date:
            edits.append(SetScalar((entered,), record.derived.date))
            said.append(f"{entered} {record.derived.date}")
        scheme = taxonomy.scheme_of(record.kind)
        minted = ids.get(record.path) if not record.identifier else None
        if minted and scheme is not None:
            edits.append(SetScalar(("id",), minted))
            said.append(f"id {minted}")
            claim = claim_path(scheme, minted)
            if not (snapshot.root / claim).exists():
                patches.append(Patch(claim, None, (Create(record.path + "\n"),)))
        for name, target in relations.get(record.path, []):
            edits.append(AddToList(("relations", name), target))
            said.append(f"{name} {target}")
        if edits:
            patches.append(Patch(record.path, record.expects, tuple(edits)))
            lines.append(f"adopted {record.path}: {', '.join(said)}")
    return Adoption(tuple(patches), tuple(lines))


def adopt(snapshot: Snapshot, dry_run: bool) -> list[str]:
    """Plan every edit, then (unless a dry run) write them as one batch; the account lines."""
    found = adoption(snapshot)
    planned = found.planned(snapshot)
    if not dry_run:
        write(snapshot.root, planned)
    return list(found.lines)
