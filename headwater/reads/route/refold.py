"""What each document gave route's index before the corpus-wide means, kept beside the reader so
that after an edit only the edited documents are counted again (HW-DR-0052).

A document's row (`rank.Folded`: per field its stems' ids and counts, and its lengths) is a
function of its bytes at its path and of what the reader's key names besides the documents (the
tokenizer, the lock, the code): so a row is reused where a document's (path, digest) is the one
it was counted under, and counted through the parse cache where it is not. Rows whose document
left are dropped, and a stem no document holds any more reaches no IDF (`Scorer.over`). The
sums are then made again from every row, as a fresh build makes them: BM25F's length
normalisation moves with any document, and the same rows in the same order give the same floats.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate

from headwater.corpus.document import Document
from headwater.frozen import frozen
from headwater.reads.route.index import FIELDS, Entry
from headwater.reads.route.rank import Folded, fold

WIDTH = len(FIELDS)


@frozen
class Rows:
    """`Folded` without its documents: each row named by its document's (path, digest)."""

    keys: tuple[tuple[str, str], ...]
    stems: list[str]
    ids: array  # of "i"
    counts: array  # of "i"
    sizes: array  # of "i"
    lengths: tuple[array, ...]  # of "q"

    @staticmethod
    def of(folded: Folded, held: Callable[[str], bool]) -> Rows:
        """`folded`'s rows, with only the stems some document holds (`held`), ids renumbered."""
        keys = tuple((d.path, d.digest) for d in folded.documents)
        stems, ids = folded.stems, folded.ids
        if not all(map(held, stems)):
            renumbered = list(accumulate((held(s) for s in stems), initial=0))
            ids = array("i", map(renumbered.__getitem__, ids))
            stems = [s for s in stems if held(s)]
        return Rows(keys, stems, ids, folded.counts, folded.sizes, folded.lengths)

    def shaped(self) -> bool:
        """Whether all but the ids and counts are of the shape `refolded` reads (a sealed file
        of this code's making always is; this is checked, not assumed)."""
        count = len(self.keys) if isinstance(self.keys, tuple) else -1
        arrays = (self.ids, self.counts, self.sizes, *self.lengths) if isinstance(self.lengths, tuple) else ()
        return (count >= 0 and bool(arrays) and all(isinstance(a, array) for a in arrays)
                and isinstance(self.stems, list) and all(isinstance(s, str) for s in self.stems)
                and all(isinstance(k, tuple) and len(k) == 2 for k in self.keys)
                and [a.typecode for a in (self.ids, self.counts, self.sizes)] == ["i", "i", "i"]
                and len(self.sizes) == WIDTH * count and len(self.lengths) == WIDTH
                and all(a.typecode == "q" and len(a) == count for a in self.lengths))

    def whole(self) -> bool:
        """Whether the rows are shaped, a stem id and a count for each of a row's sizes, each id a stem's."""
        return (self.shaped() and len(self.ids) == len(self.counts) == sum(self.sizes)
                and (not self.sizes or min(self.sizes) >= 0)
                and (not self.ids or max(_unsigned(self.ids)) < len(self.stems)))


def _unsigned(ids: array) -> memoryview:
    """The ids read as unsigned, so a negative one is past every stem: both ends checked by one
    `max` (about 800,000 ids at 10,000 documents, 17 → 10 ms)."""
    return memoryview(ids).cast("B").cast("I")


def refolded(rows: Rows, documents: tuple[Document, ...],
             entries: Callable[[tuple[Document, ...]], Iterable[Entry]]) -> Folded:
    """The census's `Folded`: each document's row copied from `rows` where its (path, digest)
    is there, else folded from its entry (`entries` counts the documents given, in order)."""
    at = {key: position for position, key in enumerate(rows.keys)}
    found = [at.get((d.path, d.digest)) for d in documents]
    counted = iter(entries(tuple(d for d, p in zip(documents, found, strict=True) if p is None)))
    known = {stem: i for i, stem in enumerate(rows.stems)}
    stems = list(rows.stems)
    into = (array("i"), array("i"), array("i"), tuple(array("q") for _ in FIELDS))
    starts = list(accumulate(map(sum, _rows_of(rows.sizes)), initial=0))
    for first, end in _runs(found):
        if first is None:
            fold(next(counted), known, stems, into)
            continue
        ids, counts, sizes, lengths = into
        ids.extend(rows.ids[starts[first]:starts[end]])
        counts.extend(rows.counts[starts[first]:starts[end]])
        sizes.extend(rows.sizes[WIDTH * first:WIDTH * end])
        for length, kept in zip(lengths, rows.lengths, strict=True):
            length.extend(kept[first:end])
    return Folded(documents, stems, *into)


def _rows_of(sizes: array) -> Iterator[array]:
    return (sizes[at:at + WIDTH] for at in range(0, len(sizes), WIDTH))


def _runs(found: list[int | None]) -> Iterator[tuple[int | None, int]]:
    """Consecutive kept positions as (first, end) runs; each document to count as (None, 0)."""
    first: int | None = None
    end = 0
    for position in found:
        if position is not None and first is not None and position == end:
            end += 1
            continue
        if first is not None:
            yield first, end
        first, end = (None, 0) if position is None else (position, position + 1)
        if first is None:
            yield None, 0
    if first is not None:
        yield first, end
