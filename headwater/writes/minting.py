"""Identifier allocation and the claim store `.headwater/ids/<scheme>/<id>`.

A claim file holds the path of the document it was minted for, plus `\\n`. It is created
exclusively (no-clobber) before the document, so two runs racing for one number cannot both
win: the loser takes the next number. A claim is never removed, so a number stays spent after
its document is deleted (or after a run that claimed it failed to write its document): numbers
only grow, and a deleted identifier is never handed to a different document.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from headwater import atomic
from headwater.corpus.claims import CLAIMS, claim_text, read_claims
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.taxonomy.model import Scheme

ATTEMPTS = 1000  # more collisions than this in one run means something else is wrong


@frozen
class Minted:
    identifier: str
    sequence: int | None  # None for a scheme without `{seq}`
    highest: int  # the highest sequence seen among corpus ids and claims before minting
    claim: str  # repository-relative path of the claim file
    document: str  # the document path the claim holds


def claim_path(scheme: Scheme, identifier: str) -> str:
    return f"{CLAIMS}/{scheme.name}/{identifier}"


def claimed(root: Path, scheme: Scheme) -> list[str]:
    """The identifiers the scheme's store holds, read as every run reads it (never through a link)."""
    return [name for name, _ in read_claims(root, scheme.name) if not name.startswith(".")]


def highest_sequence(scheme: Scheme, identifiers: Iterable[str]) -> int:
    sequences = [scheme.sequence(i) for i in identifiers]
    return max((s for s in sequences if s is not None), default=0)


def has_sequence(scheme: Scheme) -> bool:
    return "{seq" in scheme.pattern


def first_candidate(root: Path, scheme: Scheme, corpus_ids: Iterable[str]) -> int:
    """One more than the highest sequence among the corpus's ids and the scheme's claims."""
    return highest_sequence(scheme, [*corpus_ids, *claimed(root, scheme)]) + 1


def mint(root: Path, scheme: Scheme, start: int, slug: str, taken: set[str],
         document_for: Callable[[int], str | None]) -> Minted:
    """Claim the first free identifier from sequence `start` on; `document_for(seq)` is the path
    the claim will hold (it may itself depend on the sequence), or None when that sequence is spent.

    `taken` holds identifiers the corpus already carries: a scheme without `{seq}` cannot step
    past one, so that is a refusal.
    """
    sequenced = has_sequence(scheme)
    for step in range(ATTEMPTS if sequenced else 1):
        sequence = start + step
        identifier = scheme.mint(sequence, slug)
        if identifier in taken:
            if sequenced:
                continue
            raise Refusal(f"the identifier `{identifier}` is already carried by a document, so `new` mints nothing")
        document = document_for(sequence)
        if document is None:
            continue
        held = claim_text(document)
        if held is None:
            raise Refusal(f"`{document}` holds a line break or blanks at an end, and a claim holds its document's "
                          "path on one line, so nothing was written; choose another directory")
        path = claim_path(scheme, identifier)
        try:
            atomic.create_exclusive(root / path, held.encode("utf-8"), root=root)
        except FileExistsError:
            if sequenced:
                continue
            raise Refusal(f"the identifier `{identifier}` was claimed before ({path}), "
                          "and a claim is never reused") from None
        return Minted(identifier, sequence if sequenced else None, start - 1, path, document)
    raise Refusal(f"no free identifier under `{scheme.name}` in {ATTEMPTS} tries from sequence {start}")
