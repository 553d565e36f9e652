"""`headwater adopt`: migrate records that keep their metadata in the body into front matter, once.

For every file on a homogeneous shelf, what its body form says (`forms`) and what its kind needs
become front-matter edits: the status and the date it was entered (under the taxonomy's own
facet names), an identifier with its claim (the file's own number first), and both halves of
every supersession its links state. Every other byte of the file stays. The batch is planned in
memory and written by `--fix`'s writer: all of it lands, or none.
"""

from __future__ import annotations

import datetime as dt
import itertools
import posixpath
import re
from dataclasses import replace
from pathlib import Path

from headwater import inplace, writelock
from headwater.adoption import adr_tools, forms
from headwater.check.adoption_tasks import ADOPTION, HEADER, hold, task_text
from headwater.check.finding import Finding
from headwater.check.fix import Planned, plan, write
from headwater.check.patches import AddToList, Create, Edit, Patch, SetScalar
from headwater.check.proposals import own_identifier, propose
from headwater.check.superseded_since import superseded_since
from headwater.corpus.adoption_file import Task, tasks_in
from headwater.corpus.census import Classifier, Outcome, is_markdown
from headwater.corpus.claims import claim_text
from headwater.corpus.frontmatter import FrontMatterRefusal, foreign, split
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.hashing import digest
from headwater.inplace import read_regular
from headwater.snapshot import Snapshot
from headwater.textsafe import shown
from headwater.writes.minting import claim_path
from headwater.yaml.files import decode, load_text
from headwater.yaml.nodes import Map, Scalar, Seq

ADOPT = "`headwater adopt`"  # the verb its batch refusals name
SPOKEN_NUMBER = re.compile(r"[A-Za-z]+-(\d+)")
BASELINE = "`headwater adopt --baseline`"


@frozen
class Found:
    path: str
    kind: str
    expects: str
    keys: frozenset[str]  # front-matter keys already there
    identifier: str | None
    derived: forms.Derived
    declared: frozenset[tuple[str, str]]  # (relation, target) already under `relations:`
    first_line: str  # where adr-tools reads its title, and front matter would open
    restated: str | None = None  # a front-matter status naming the successor, which adopt splits in two


@frozen
class Adoption:
    patches: tuple[Patch, ...]
    lines: tuple[str, ...]  # one per adopted record: what was written
    left: tuple[str, ...] = ()  # one per record left alone, and why
    title_readers: adr_tools.TitleReaders | None = None  # adr-tools' title line, for the records it edits

    def planned(self, snapshot: Snapshot) -> list[Planned]:
        grouped: dict[str, list[Patch]] = {}
        for patch in self.patches:
            grouped.setdefault(patch.path, []).append(patch)
        return plan(snapshot.root, dict(sorted(grouped.items())), ADOPT)


def _records(snapshot: Snapshot) -> tuple[list[Found], list[str]]:
    """The records adopt may edit, and a sentence for each it leaves alone: a record the census could
    not read (or would not follow) and one with foreign front matter."""
    classifier = Classifier(snapshot.taxonomy)
    found, left = [], []
    templates = forms.template_titles(snapshot.root, (
        row.path for row in snapshot.census.rows
        if row.outcome is Outcome.EXCLUDED and is_markdown(row.path) and "template" in row.path.lower()))
    for row in snapshot.census.rows:
        unread = row.outcome is Outcome.UNREADABLE or (row.outcome is Outcome.UNWALKABLE and is_markdown(row.path))
        if row.outcome not in (Outcome.TYPED, Outcome.UNTYPED) and not unread:
            continue
        shelves = classifier.matching_shelves(row.path)
        if len(shelves) != 1 or not shelves[0].homogeneous or not shelves[0].kind:
            continue
        if unread:  # said, or "nothing to migrate" would vouch for a record nobody read
            left.append(f"left {row.path} alone: {row.reason}")
            continue
        try:
            data = read_regular(snapshot.root / row.path)
            text = data.decode("utf-8").removeprefix("\ufeff")
            parts = split(text)
        except (OSError, UnicodeDecodeError, FrontMatterRefusal):
            continue  # the census reports what does not read; adopt writes nothing there
        written = foreign(text)
        if written:  # YAML above a site's TOML or JSON front matter would turn it into page text
            left.append(f"left {row.path} alone: its front matter is written in {written}, which headwater "
                        "does not read; write it as YAML between `---` lines to adopt it")
            continue
        front = parts.front if isinstance(parts.front, Map) else Map((), 1, 1)
        node = front.get(snapshot.taxonomy.identifier_key(shelves[0].kind))
        identifier = node.text.strip() if isinstance(node, Scalar) and node.text.strip() else None
        derived = forms.derive(parts.body, forms.sidecar_beside(snapshot.root, row.path), templates)
        status = front.get(snapshot.taxonomy.facet_for_role("state") or "")
        named = forms.named_successor(status.text) if isinstance(status, Scalar) else None
        if named:  # MADR's `status: superseded by ADR-0013`: the state, and the relation to its successor
            derived = replace(derived, status=named[0], superseded_by=(*derived.superseded_by, *named[1]))
        found.append(Found(row.path, shelves[0].kind, digest(data), frozenset(k.text for k, _ in front.entries),
                           identifier, derived, _declared(front), adr_tools.first_line(text),
                           status.text.strip() if named else None))
    return found, left


def _declared(front: Map) -> frozenset[tuple[str, str]]:
    relations = front.get("relations")
    pairs = set()
    for key, value in relations.entries if isinstance(relations, Map) else ():
        items = value.items if isinstance(value, Seq) else [value]
        pairs |= {(key.text, item.text.strip()) for item in items if isinstance(item, Scalar)}
    return frozenset(pairs)


def _succession(snapshot: Snapshot) -> tuple[str, str] | None:
    """The relation whose target's state it sets (supersedes) and its inverse (superseded_by)."""
    return next(((r.name, r.inverse) for r in snapshot.taxonomy.relations.values() if r.set_state and r.inverse),
                None)


def _minted_note(minted: str, own: str | None) -> str:
    """Why an identifier is not the one the file's own number makes: a reader relies on the match."""
    if minted == own:
        return ""
    if own is None:
        return " (the next free number: the file's name carries none)"
    return f" (the next free number: {own}, from the file's name, is another document's)"


def _pictured_note(path: str, name_facet: str, alt: str) -> str:
    """Why a record whose first heading is an image gets no title: its alt text is no title a reader sees."""
    shown = f" (alt text `{alt}`)" if alt else ""
    return (f"left {path} without `{name_facet}`: its first heading shows an image{shown}, not a title a reader "
            f"sees; write `{name_facet}` yourself")


def _unread_note(path: str, state: str, written: str) -> str:
    """Why a record whose form writes a status gets none: what it wrote names no one status."""
    choices = " (a template's choices, left as they were)" if "|" in written else ""
    return (f"left {path} without `{state}`: its status is written `{shown(written)}`, which names no one "
            f"status{choices}; write `{state}` yourself")


def _identifiers(snapshot: Snapshot, records: list[Found]) -> dict[str, str]:
    ids = {r.path: r.identifier for r in records if r.identifier}
    classifier = Classifier(snapshot.taxonomy)
    for _, scheme in sorted(snapshot.taxonomy.schemes.items()):
        lacking = sorted(r.path for r in records if not r.identifier and snapshot.taxonomy.scheme_of(r.kind) is scheme)
        ids.update(propose(snapshot, classifier, scheme, lacking))
    return ids


def _target(record: str, href: str, paths: set[str], numbered: dict[str, str]) -> str | None:
    """The record a link or a sidecar entry names: a relative link, a repository path such as
    `/keps/sig-x/583-y` (a folder means its README), or a bare number; a URL names none."""
    href = href.split("#")[0].strip()
    if not href or "://" in href:
        return None
    spoken = SPOKEN_NUMBER.fullmatch(href)  # `ADR-0013`, as MADR's status names a successor
    if href.isdigit() or spoken:
        digits = spoken.group(1) if spoken else href
        return numbered.get(digits.lstrip("0") or "0")
    joined = href.lstrip("/") if href.startswith("/") else posixpath.join(posixpath.dirname(record), href)
    target = posixpath.normpath(joined)
    for candidate in (target, f"{target}/README.md"):
        if candidate in paths:
            return candidate
    return None


def _pairs(records: list[Found]) -> set[tuple[str, str]]:
    """(newer, older) for every supersession a record states, from either end."""
    paths = {r.path for r in records}
    numbered = {}
    for path in sorted(paths):
        digits = next((p.split("-")[0] for p in reversed(path.split("/")) if p.split("-")[0].isdigit()), None)
        if digits:
            numbered.setdefault(digits.lstrip("0") or "0", path)
    pairs = set()
    for record in records:
        for href in record.derived.supersedes:
            target = _target(record.path, href, paths, numbered)
            if target and target != record.path:
                pairs.add((record.path, target))
        for href in record.derived.superseded_by:
            target = _target(record.path, href, paths, numbered)
            if target and target != record.path:
                pairs.add((target, record.path))
    return pairs


def _successor_dates(records: list[Found], pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """For each record another supersedes, the dates its successors carry (none for an undated one):
    it left its state on one of those days, which its own `Date:` (when it was written) is not."""
    dates = {r.path: r.derived.date for r in records}
    found: dict[str, list[str]] = {}
    for newer, older in pairs:
        found.setdefault(older, []).extend(filter(None, [dates.get(newer)]))
    return found


def _since(record: Found, successors: list[str] | None, terminal: bool, entered: str) -> tuple[str | None, str]:
    """The date a record entered its state, and what its line says of it: a terminal record that
    a successor replaced entered it on the successor's day (as `check --fix` dates it), and on
    none where no successor is dated; any other on the date its body gives."""
    if not terminal or successors is None:
        date = record.derived.date
        return date, f"{entered} {date}" if date else ""
    since = superseded_since(successors, record.derived.date)
    if since is None:
        return None, (f"{entered} not written: no record that superseded it carries a date, so the day is "
                      "unknown; write it")
    return since, f"{entered} {since}" + (" (the date of the record that superseded it)"
                                          if since != record.derived.date else "")


def adoption(snapshot: Snapshot) -> Adoption:
    taxonomy = snapshot.taxonomy
    records, left = _records(snapshot)
    ids = _identifiers(snapshot, records)
    classifier = Classifier(taxonomy)
    state, entered = taxonomy.facet_for_role("state"), taxonomy.facet_for_role("state_entered")
    name_facet = taxonomy.facet_for_role("name")
    succession = _succession(snapshot)
    relations: dict[str, list[tuple[str, str]]] = {}
    pairs = sorted(_pairs(records)) if succession else []
    successor_dates = _successor_dates(records, pairs)
    for newer, older in pairs:
        relations.setdefault(newer, []).append((succession[0], ids.get(older, older)))
        relations.setdefault(older, []).append((succession[1], ids.get(newer, newer)))
    patches, lines, edited = [], [], []
    for record in records:
        edits: list[Edit] = []
        said: list[str] = []
        if (state and (state not in record.keys or record.restated) and record.derived.status
                and taxonomy.lifecycle_of(record.kind)):
            edits.append(SetScalar((state,), record.derived.status))
            said.append(f"{state} {record.derived.status}" + (f" (was `{record.restated}`)" if record.restated else ""))
        elif state and state not in record.keys and record.derived.unread and taxonomy.lifecycle_of(record.kind):
            left.append(_unread_note(record.path, state, record.derived.unread))
        if entered and entered not in record.keys:
            since, told = _since(record, successor_dates.get(record.path),
                                 taxonomy.is_terminal(record.derived.status), entered)
            edits += [SetScalar((entered,), since)] if since else []
            said += [told] if told else []
        if name_facet and name_facet not in record.keys and record.derived.title:
            edits.append(SetScalar((name_facet,), record.derived.title))
            said.append(f"{name_facet}")
        elif name_facet and name_facet not in record.keys and record.derived.pictured is not None:
            left.append(_pictured_note(record.path, name_facet, record.derived.pictured))
        scheme = taxonomy.scheme_of(record.kind)
        minted = ids.get(record.path) if not record.identifier else None
        if minted and scheme is not None:
            key = taxonomy.identifier_key(record.kind)
            edits.append(SetScalar((key,), minted))
            said.append(f"{key} {minted}{_minted_note(minted, own_identifier(classifier, scheme, record.path))}")
            claim, held = claim_path(scheme, minted), claim_text(record.path)
            if held is not None and not (snapshot.root / claim).exists():  # else check asks for a rename
                patches.append(Patch(claim, None, (Create(held),)))
        for name, target in relations.get(record.path, []):
            if (name, target) in record.declared:
                continue
            edits.append(AddToList(("relations", name), target))
            said.append(f"{name} {target}")
        if edits:
            patches.append(Patch(record.path, record.expects, tuple(edits)))
            lines.append(f"adopted {record.path}: {', '.join(said)}")
            edited.append((record.path, record.first_line))
    return Adoption(tuple(patches), tuple(lines), tuple(left), adr_tools.title_readers(snapshot.root, edited))


def adopt(snapshot: Snapshot, dry_run: bool) -> Adoption:
    """Plan every edit, then (unless a dry run) write them as one batch; what it planned."""
    found = adoption(snapshot)
    if dry_run or not found.patches:
        found.planned(snapshot)  # a dry run still says whether every edit fits
        return found
    with writelock.held(snapshot.root):  # one writer at a time; an interrupt puts back the batch
        write(snapshot.root, found.planned(snapshot), ADOPT)
    return found


def baseline(snapshot: Snapshot, findings: list[Finding], owner: str, until: dt.date, statement: str) -> list[str]:
    """Hold every live finding under a new adoption task in `.headwater/adoption.yml`.

    The file is read, and the task's id and findings decided, under the write lock: another run's
    task written since the snapshot was loaded is kept, and holds what it holds already."""
    with writelock.held(snapshot.root):
        before, text, tasks = _adoption_now(snapshot.root)
        held = [f for f in hold(findings, tasks, snapshot.today) if f.live]
        if not held:
            return ["nothing to hold: the corpus has no live finding"]
        taken = {task.id for task in tasks}
        task_id = next(f"AD-{n}" for n in itertools.count(len(tasks) + 1) if f"AD-{n}" not in taken)
        after = _appended(text, task_text(task_id, statement, owner, until, held), tasks, task_id)
        write(snapshot.root, [Planned(ADOPTION, before, after.encode("utf-8"), 1)], BASELINE)
    return [f"wrote {ADOPTION}: the adoption task {task_id}, owned by {owner}, until {until.isoformat()}, "
            f"holds {len(held)} finding{'s' if len(held) != 1 else ''}; `check` reports "
            f"{'them' if len(held) != 1 else 'it'} as not reported (migration-pending)"]


EMPTY_TASKS = re.compile(r"^tasks:[ \t]*(?:\[[ \t]*\]|null|~)?[ \t]*\n", re.MULTILINE)


def _appended(text: str, task: str, tasks: tuple[Task, ...], task_id: str) -> str:
    """The adoption file's text with `task` appended to its `tasks` block list; an empty list
    written inline (`tasks: []`) becomes that block. Refused, writing nothing, where the result
    would not read as the tasks there were and this one after them: appending never breaks the file."""
    if not tasks:
        text = EMPTY_TASKS.sub("", text) + "tasks:\n"
    after = text + task
    try:
        read_back = [t.id for t in tasks_in(load_text(after, ADOPTION))]
    except Refusal:
        read_back = []
    if read_back != [*(t.id for t in tasks), task_id]:
        raise Refusal(f"{ADOPTION} does not end in its `tasks` list written as a block, so {BASELINE} cannot "
                      "append a task to it and wrote nothing; make `tasks:` its last key, one `- id:` entry a task")
    return after


def _adoption_now(root: Path) -> tuple[bytes | None, str, tuple[Task, ...]]:
    """The adoption file's bytes as they are (None: absent), the text a task is appended to, and its tasks."""
    try:
        before = inplace.read(root, ADOPTION)
    except FileNotFoundError:
        return None, HEADER + "tasks:\n", ()
    except OSError as error:
        raise Refusal(f"{ADOPTION} cannot be read ({error.strerror or error}), so {BASELINE} wrote nothing") from None
    text = decode(before, ADOPTION)
    if not text.strip():  # what `touch` leaves: written as a file `--baseline` had written itself
        return before, HEADER + "tasks:\n", ()
    tasks = tasks_in(load_text(text, ADOPTION))
    return before, text if text.endswith("\n") else text + "\n", tasks
