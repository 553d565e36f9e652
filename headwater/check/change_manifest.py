"""A change, read from the manifest `headwater change` writes: what was added, what was there
before, and which re-reads the author states. The format is `headwater.manifest`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path

from headwater.corpus.census import Classifier, Outcome, Row
from headwater.corpus.frontmatter import FrontMatterRefusal, split
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.hashing import digest
from headwater.inplace import read_regular
from headwater.manifest import ADDED, HEADER, PRIOR, SHAPES, fields
from headwater.paths import OutsidePath, normalize, relative_to_root
from headwater.patterns import compile_pattern
from headwater.taxonomy.model import Taxonomy
from headwater.yaml.nodes import Map, scalar_text


@frozen
class Change:
    manifest: str  # the manifest's path as the user gave it
    added: frozenset[str]
    prior: Mapping[str, bytes] = field(compare=False)  # path -> the bytes at the base revision
    departed: frozenset[str]  # prior paths with nothing standing at them today
    verified_documents: frozenset[str]
    verified_edges: frozenset[tuple[str, str]]  # (document path, target as written)

    @property
    def touched(self) -> frozenset[str]:
        """Every path an `added` or `prior` line writes (departed ones included)."""
        return self.added | frozenset(self.prior)

    def as_json(self) -> dict:
        """The change account reports carry: what the manifest states, paths sorted."""
        return {"added": sorted(self.added),
                "changed": sorted(set(self.prior) - self.departed),
                "departed": sorted(self.departed),
                "verified": sorted(self.verified_documents),
                "verified_edges": [{"document": d, "target": t} for d, t in sorted(self.verified_edges)]}

    def prior_digest(self, path: str) -> str | None:
        data = self.prior.get(path)
        return None if data is None else digest(data)

    def prior_front(self, path: str) -> Map | None:
        """The front matter the file had at the base revision, or None when it had none that reads."""
        data = self.prior.get(path)
        if data is None:
            return None
        try:
            return split(data.decode("utf-8").removeprefix("\ufeff")).front
        except (UnicodeDecodeError, FrontMatterRefusal):
            return None

    def prior_row(self, path: str, taxonomy: Taxonomy) -> Row | None:
        """The path's base version as the census would have read it, or None when it had none."""
        data = self.prior.get(path)
        if data is None:
            return None
        try:
            text = data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            return Row(path, Outcome.UNREADABLE, "not UTF-8 text")
        return Classifier(taxonomy).classify(path, text, digest(data))

    def names_target(self, target_text: str) -> bool:
        """An `added` or `prior` line writes the target as the entry does, or a path it matches.

        `target_text` is `Target.text`: an identifier, or the anchor's patterns joined by ", ".
        """
        written = {target_text, *(p.strip() for p in target_text.split(", "))}
        patterns = [compile_pattern(p) for p in written if p]
        return any(path in written or any(p.matches(path) for p in patterns) for path in self.touched)

    def reverifies(self, doc_path: str, snapshot) -> bool:
        """The change adds the document, moves its freshness facet, or states a `verified` line."""
        if doc_path in self.added or doc_path in self.verified_documents:
            return True
        if doc_path not in self.prior:
            return False
        facet = snapshot.taxonomy.facet_for_role("freshness")
        document = snapshot.graph.documents.get(doc_path)
        before = self.prior_front(doc_path)
        if not facet or document is None:
            return False
        was = scalar_text(before.get(facet)) if before is not None else None
        return (was or "").strip() != (document.text_of(facet) or "")

    def restates_edge(self, doc_path: str, target_text: str, snapshot) -> bool:
        """Whether this change states a re-read of the edge (spec 02 §6): the document is
        re-verified and the target is named, or a `verified <doc> <target>` line names the edge."""
        if (doc_path, target_text) in self.verified_edges:
            return True
        return self.reverifies(doc_path, snapshot) and self.names_target(target_text)


def _fields(line: str, number: int, where: str) -> tuple[str, ...]:
    parts = fields(line)
    if (parts[0], len(parts)) not in SHAPES or not all(parts[1:]):
        raise Refusal(f"the change manifest `{where}` does not read: line {number} is not an "
                      "`added`, `prior` or `verified` line of TAB-separated fields")
    try:
        normalize(parts[1])  # a repository path: never above the root, never absolute
    except OutsidePath:
        raise Refusal(f"the change manifest `{where}` names `{parts[1]}` on line {number}, which is "
                      "outside this repository") from None
    return parts


def _read_prior(manifest: Path, name: str, where: str) -> bytes:
    """A prior copy lives beside the manifest: a name that leaves its folder is refused."""
    try:
        inside = relative_to_root(name, manifest.parent)
    except OutsidePath:
        raise Refusal(f"the change manifest `{where}` names the prior copy {name}, which is outside "
                      "the manifest's folder") from None
    try:
        return read_regular(manifest.parent / inside)
    except OSError as error:
        raise Refusal(f"the change manifest `{where}` names the prior copy {name}, which does not "
                      f"read ({error.strerror or error})") from None


def read_manifest(manifest: Path, root: Path, where: str | None = None) -> Change:
    """Read a manifest, or refuse in one sentence: unreadable, a wrong first line, a bad line."""
    where = where or str(manifest)
    try:
        text = manifest.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "it is not UTF-8 text"
        raise Refusal(f"the change manifest `{where}` does not read ({reason})") from None
    lines = text.split("\n")
    if lines[0].rstrip("\r") != HEADER:
        raise Refusal(f"the change manifest `{where}` does not open with `{HEADER}`; "
                      "write it with `headwater change`")
    added, prior, documents, edges = set(), {}, set(), set()
    for number, line in enumerate(lines[1:], start=2):
        line = line.rstrip("\r")
        if not line:
            continue
        parts = _fields(line, number, where)
        if parts[0] == ADDED:
            added.add(parts[1])
        elif parts[0] == PRIOR:
            prior[parts[1]] = _read_prior(manifest, parts[2], where)
        elif len(parts) == 2:
            documents.add(parts[1])
        else:
            edges.add((parts[1], parts[2]))
    departed = frozenset(p for p in prior if not (root / p).exists() and not (root / p).is_symlink())
    return Change(where, frozenset(added), prior, departed, frozenset(documents), frozenset(edges))
