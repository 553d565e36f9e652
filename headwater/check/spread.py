"""Judging every subject on every core: all of it when a run has no cached verdicts for them
(`judge_all`), or serving it through the verdict cache when it has (`serve_all`).

A subject's sections read only the loaded snapshot, so a worker forked after the load judges
its share of the documents and edges exactly as the parent would, and sends its verdicts back
in the verdict cache's encoding, which decodes to what was judged (cached and uncached runs
print the same bytes, and the tests hold that). Judging all or serving, each share takes pieces
of subjects as it becomes free (`forked.Tickets`), so the shares end together however the
subjects' costs differ; judging all, the corpus's own sections, one subject judged once and the
costliest, are the first piece. The runner then takes each verdict, or each subject's summary,
instead of judging.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter

from headwater import forked
from headwater.check import cache as verdict_cache
from headwater.check.context import Context
from headwater.check.coverage_tally import Tally
from headwater.check.finding import Finding
from headwater.check.instances import Judged, Section, Subject, judge, subjects
from headwater.check.rule import Scope
from headwater.corpus import body
from headwater.frozen import frozen
from headwater.snapshot import Snapshot

WORTH_IT = 200  # documents per process before a fork pays for itself
# Serving from the cache is light work, and a worker copies every page it touches: at 10,000
# documents two processes took 1.22 s of wall against one's 1.31 s, for 1.44 s of CPU against
# 1.31 s; at 1,000 the wall was the same (0.24 s). So only large corpora serve across the cores.
WARM_WORTH_IT = 2_500  # documents per process before a fork pays on a run served from the cache

Unit = tuple[tuple[Section, ...], Subject]  # a subject with the sections judged of it


class Ahead:
    """Verdicts judged ahead, handed to the runner as it asks for each (`pop`, by section and
    subject identity): held per subject in section order, each distinct verdict once, for a
    dict entry per verdict cost more memory than the verdicts (about 20 MB at 10,000 documents)."""

    def __init__(self, units: list[Unit]) -> None:
        self.unit = {id(subject): index for index, (_, subject) in enumerate(units)}
        self.at = {id(section): at for sections, _ in units for at, section in enumerate(sections)}
        self.rows: list[list[Judged | None] | None] = [None] * len(units)

    def pop(self, key: tuple[int, int], default: Judged | None = None, /) -> Judged | None:
        section, subject = key
        index, at = self.unit.get(subject), self.at.get(section)
        row = self.rows[index] if index is not None and at is not None else None
        if row is None or row[at] is None:
            return default
        one, row[at] = row[at], None
        return one


def judge_all(ctx: Context, layout: dict[Scope, tuple[Section, ...]]) -> Ahead | None:
    """Every section's verdicts on every subject, judged across the cores; None when the
    documents are too few for that to pay (the runner then judges as it goes)."""
    documents = [(layout.get(Scope.DOCUMENT, ()), subject) for subject, _ in subjects(ctx, Scope.DOCUMENT)]
    workers = forked.workers_for(len(documents), WORTH_IT)
    if workers < 2:
        return None
    units: list[Unit] = [*documents, *((layout.get(Scope.EDGE, ()), edge) for edge, _ in subjects(ctx, Scope.EDGE)),
                         (layout.get(Scope.CORPUS, ()), None)]
    pieces = _judged_pieces(len(units))
    tickets = forked.Tickets(len(pieces))

    def share(_first: int, _step: int) -> list[tuple[int, list[Judged]]]:
        # subject by subject, as the runner goes (rules share what they derive from the latest one)
        alike: dict[tuple, Judged] = {}  # most verdicts find nothing, and are equal: one object each
        return [(index, [_one(judge(ctx, section, units[index][1]), alike) for section in units[index][0]])
                for ticket in tickets for index in pieces[ticket]]

    def pack(judged: list[tuple[int, list[Judged]]]) -> list[tuple[int, list[str]]]:
        encoded: dict[int, str] = {}  # each distinct verdict encoded once, and pickled once
        return [(index, [encoded[id(one)] if id(one) in encoded else
                         encoded.setdefault(id(one), verdict_cache.encode(one.verdicts)) for one in row])
                for index, row in judged]

    with tickets:
        mine, theirs = forked.in_shares(share, workers, pack)
    ahead = Ahead(units)
    for index, row in mine:
        ahead.rows[index] = list(row)
    decoded: dict[str, Judged | None] = {}
    for part in theirs:
        for index, raws in part:  # a verdict that does not decode is judged again by the runner
            ahead.rows[index] = [decoded[raw] if raw in decoded else decoded.setdefault(raw, verdict_cache.decode(raw))
                                 for raw in raws]
    return ahead


JUDGED_PIECE = 32  # subjects per piece judging all: about 10 ms at 10,000 generated documents


def _judged_pieces(units: int) -> list[range]:
    """The units (documents, edges, then the corpus) in the pieces the shares take as each becomes
    free: the corpus's own sections first, the largest unit (every claim file read), then runs of
    `JUDGED_PIECE` documents and edges; no more pieces than tickets fit."""
    last = units - 1
    size = forked.piece_size(last, JUDGED_PIECE, forked.Tickets.MOST - 1)
    return [range(last, units), *(range(start, min(start + size, last)) for start in range(0, last, size))]


def _one(judged: Judged, alike: dict[tuple, Judged]) -> Judged:
    return alike.setdefault(judged.verdicts, judged) if not judged.found else judged


Found = tuple[tuple[int, tuple[Finding, ...]], ...]  # a subject's findings by rule position (`Summary.found`)


@frozen
class Served:
    """What the runner takes of the subjects served across the cores: their instances, tallied in
    the shares, and the findings of each subject that found any, by kind, in subject order."""

    tally: Tally
    found: dict[Scope, list[tuple[int, Found]]]  # (subject index, its findings)


# a share's tally and findings (`Served`), the pieces it took (by ticket), the records it kept as
# stored (their keys, one per line) and those it made anew, and its ledger's change, hits and misses
Account = tuple[Served, list[int], str, dict[str, str], bool, int, int]
Piece = tuple[Scope, slice]  # subjects of one kind, by index, that a share serves at once
PIECE = 256  # subjects per piece: about 4 ms of serving, so the shares end within that of each other


def serve_all(records: verdict_cache.Records, meanwhile: Callable[[], object] | None = None) -> Served | None:
    """Every subject served through the verdict cache and tallied, its subjects shared across the
    cores; None when the documents are too few for that to pay (the runner then serves them as it
    goes).

    This process serves the corpus's own piece first (the largest: its claims read, which the
    replay's recorder hears here rather than have a worker spill them and this process parse
    them back), then calls `meanwhile`; then the shares take pieces of subjects as each becomes
    free (`forked.Tickets`), so a share slowed by an edited document's parse, the pages it
    copies, `meanwhile` or a busy core takes fewer and both end together. Each share accounts to
    its own ledger (`Verdicts.ledger`), which the cache then absorbs, so pieces served here after
    their worker died count their hits once. Each tallies what it served (`Tally.absorb` adds the
    tallies up as one tally of every subject would count), so what comes back is only the tally,
    the few subjects' findings and the records kept."""
    cache, ctx = records.cache, records.ctx
    workers = forked.workers_for(len(ctx.graph.census.documents), WARM_WORTH_IT)
    if cache is None or workers < 2:
        return None
    records.settled()  # the ids, the claim store's listing, the subjects: computed once, before the fork
    _parser_ready(ctx.snapshot)
    pieces = _pieces(records)
    own = 1 if pieces and pieces[0][0] is Scope.CORPUS else 0  # the corpus's piece, served here
    tickets = forked.Tickets(len(pieces) - own)

    def share(first: int, _step: int) -> list[Account]:
        accounts = []
        if first == 0:
            accounts.append(_served(records, enumerate(pieces[:own])))
            if meanwhile is not None:
                meanwhile()
        accounts.append(_served(records, ((own + ticket, pieces[own + ticket]) for ticket in tickets)))
        return accounts

    with tickets:
        mine, theirs = forked.in_shares(share, workers)
    out = Served(Tally(), {kind: [] for kind in records.layout})
    took: set[int] = set()
    for account in [*mine, *(account for accounts in theirs for account in accounts)]:
        took.update(_absorb(cache, out, account))
    left = [(ticket, piece) for ticket, piece in enumerate(pieces) if ticket not in took]
    if left:  # pieces a worker took and never answered for (it died): served here
        _absorb(cache, out, _served(records, left))
    for rows in out.found.values():
        rows.sort(key=itemgetter(0))
    return out


def _parser_ready(snapshot: Snapshot) -> None:
    """A front parsed afresh (an edited or a new document) means a body to parse while serving:
    that document's own, in the share that serves it, and again, for its headings, in a share
    serving a document whose links reach it. markdown-it is then imported here, once, before
    the fork, instead of in each share (about 20 ms each, and the pages its import copies)."""
    if snapshot.parses is not None and snapshot.parses.fronts_parsed:
        body.parse("", 1)  # imports the parser and builds it


def _pieces(records: verdict_cache.Records) -> list[Piece]:
    """Every subject in pieces of `PIECE`, the corpus's first; no more pieces than tickets fit."""
    kinds = sorted(records.layout, key=lambda kind: kind is not Scope.CORPUS)
    size = forked.piece_size(sum(len(records.listed(kind)) for kind in kinds), PIECE)
    return [(kind, slice(start, start + size)) for kind in kinds
            for start in range(0, len(records.listed(kind)), size)]


def _served(records: verdict_cache.Records, pieces: Iterable[tuple[int, Piece]]) -> Account:
    """One share's tally and findings of its pieces (each taken only as the last is done, in the
    order of their tickets), accounted to a ledger of its own."""
    ledger = records.cache.ledger()
    mine = records.sharing(ledger)
    served = Served(Tally(), {kind: [] for kind in records.layout})
    add, took = served.tally.add, []
    for ticket, (kind, part) in pieces:
        took.append(ticket)
        found = served.found[kind]
        for index, document, summary in mine.each(kind, part):
            if summary.found:
                found.append((index, summary.found))
            add(document, summary.reached, summary.skips, index)
    return served, took, "\n".join(ledger.used), ledger.learned, ledger.changed, ledger.hits, ledger.misses


def _absorb(cache: verdict_cache.Verdicts, out: Served, account: Account) -> list[int]:
    """A share's account taken into the run's: the pieces it took."""
    served, took, used, learned, changed, hits, misses = account
    cache.absorb(used.split("\n") if used else (), learned, changed, hits, misses)
    out.tally.absorb(served.tally)
    for kind, rows in served.found.items():
        out.found[kind] += rows
    return took
