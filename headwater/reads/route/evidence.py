"""Why `route` offers a pointer: what reached it, as JSON and as the report's evidence line."""

from __future__ import annotations

from headwater.frozen import frozen


@frozen
class Evidence:
    """The path or identifier by which the task names the document, the anchors it governs (and
    its edges to them that are suspect), the task terms that reached it (and the fields each hit),
    or the terminal document it succeeds."""

    anchors: tuple[str, ...] = ()
    named: str = ""  # the path or identifier by which the task names this very document
    terms: tuple[str, ...] = ()
    fields: tuple[tuple[str, ...], ...] = ()  # per term, the fields it hit
    rank: int = 0
    of: int = 0
    succeeds: str = ""  # offered beside this terminal document, which it succeeds
    suspect: tuple[str, ...] = ()  # targets of its edges to `anchors` whose target moved since verified

    def as_json(self) -> dict:
        if self.named:
            return {"by": "named", "named": self.named}
        if self.anchors:
            return {"by": "anchor", "anchors": list(self.anchors)} | (
                {"suspect": list(self.suspect)} if self.suspect else {})
        if self.succeeds and not self.terms:
            return {"by": "successor", "succeeds": self.succeeds}
        found = {"by": "terms", "terms": list(self.terms),
                 "fields": [{"term": t, "fields": list(f)} for t, f in zip(self.terms, self.fields, strict=True)],
                 "rank": self.rank, "of": self.of}
        return found | ({"succeeds": self.succeeds} if self.succeeds else {})

    def line(self, corpus: str = "") -> str:
        """`corpus` names the pinned corpus a harvested pointer's succession is read in."""
        if self.named:
            return f"the task names it: {self.named}"
        if self.anchors:
            line = "governs " + " ".join(self.anchors)
            if self.suspect:
                line += "; suspect: the target of its edge to " + ", ".join(self.suspect) \
                        + " changed since the edge was verified"
            return line
        if self.succeeds and not self.terms:
            return f"succeeds {corpus + ':' if corpus else ''}{self.succeeds}"
        hits = ", ".join(f"{t} ({' '.join(f)})" for t, f in zip(self.terms, self.fields, strict=True))
        return f"rank {self.rank} of {self.of}, matched {hits}"
