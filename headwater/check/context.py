"""What a rule may read: the snapshot, the run date and, when the run has one, the change manifest."""

from __future__ import annotations

import datetime as dt
import os
import sys
from functools import cached_property
from typing import Any

from headwater.announcements import PROBE
from headwater.check.change_manifest import Change
from headwater.corpus.census import Classifier
from headwater.corpus.document import Document
from headwater.frozen import frozen
from headwater.graph import Bound, Edge, Graph
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy

CLAIMS = ".headwater/ids"


@frozen
class Context:
    snapshot: Snapshot
    rule_ids: frozenset[str] = frozenset()  # every rule this engine carries
    change: Change | None = None  # the `--change` manifest; change-scoped rules are skipped without one

    # kept on first use: rules ask for these hundreds of thousands of times in a cold run
    @cached_property
    def taxonomy(self) -> Taxonomy:
        return self.snapshot.taxonomy

    @cached_property
    def graph(self) -> Graph:
        return self.snapshot.graph

    @cached_property
    def today(self) -> dt.date:
        return self.snapshot.today

    @cached_property
    def shelves(self) -> Classifier:
        """The shelves' patterns compiled once a run, each directory's matches kept: a rule asking
        which shelves hold a document (`shelf.placement_is_primary`) asks of thousands."""
        return Classifier(self.taxonomy)

    @cached_property
    def highest_sequences(self) -> dict[str, int]:
        """Each scheme's highest sequence among the corpus's identifiers, computed once a run."""
        highest: dict[str, int] = {}
        for scheme in self.taxonomy.schemes.values():
            used = (scheme.sequence(identifier) for identifier in self.graph.ids)
            highest[scheme.name] = max((s for s in used if s is not None), default=0)
        return highest

    @cached_property
    def proposed_ids(self) -> dict[str, str]:
        """The distinct identifier proposed for each document lacking one (`proposals`), once a run."""
        from headwater.check.proposals import proposed_identifiers

        return proposed_identifiers(self.snapshot)

    @cached_property
    def standing(self) -> dict[str, bool]:
        """Whether a file stands at a path outside the census, looked up once a run (`links.stands`)."""
        return {}

    @cached_property
    def memo(self) -> dict[str, Any]:
        """What rules derive alike from the document they judge (its prose runs), by what it is:
        the latest document's only, since the runner judges one document at a time."""
        return {}

    def document(self, path: str | None) -> Document | None:
        return self.graph.documents.get(path) if path else None

    def far(self, edge: Edge) -> Document | None:
        """The document an edge's target binds to, if it binds to one."""
        if edge.target.bound is Bound.DOCUMENT:
            return self.document(edge.target.path)
        return None

    def state(self, document: Document) -> str | None:
        return document.text_of(self.taxonomy.facet_for_role("state"))

    def label(self, document: Document) -> str:
        """How a message names a document: its identifier, else its path."""
        return f"`{document.id}`" if document.id else document.path

    def claim_path(self, scheme: str, identifier: str) -> str:
        return f"{CLAIMS}/{scheme}/{identifier}"

    def claim_exists(self, scheme: str, identifier: str) -> bool:
        claim = self.snapshot.root / self.claim_path(scheme, identifier)
        sys.audit(PROBE, claim)  # looked at again by a replay (HW-DR-0037)
        return os.path.lexists(claim)
