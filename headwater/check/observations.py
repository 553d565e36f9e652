"""`.headwater/observations.yml`: what the adopter's process observed of controls and verifications.

    observations:
      - {kind: control, control: CT-REL-1, commit: 3f2a9c1}
      - {kind: verification, document: ACME-AC-0001, criterion: ACME-REQ-0001,
         criterion_digest: "sha256:<hex of the criterion's bytes when it was verified>", commit: 3f2a9c1}

The file is provenance the engine checks for form (`control.observation.invalid`); a
verification's digest is compared with the criterion's bytes today
(`relation.target.verification.suspect`). Absent, it reads as no observations.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from functools import cached_property
from pathlib import Path

from headwater.announcements import PROBE
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.yaml.files import load_file
from headwater.yaml.nodes import Map, Node, Scalar, Seq

OBSERVATIONS = ".headwater/observations.yml"
KINDS = {"control": ("control", "commit"), "verification": ("document", "criterion", "criterion_digest", "commit")}
COMMIT = re.compile(r"^[0-9a-f]{7,40}$")
DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")


@frozen
class Entry:
    line: int
    column: int
    fields: dict[str, str]
    problem: str | None  # why the entry does not read, or None

    @property
    def kind(self) -> str:
        return self.fields.get("kind", "")


@frozen
class Observations:
    problem: str | None  # why the file does not read, or None
    line: int
    entries: tuple[Entry, ...]

    @cached_property
    def verifications(self) -> dict[tuple[str, str], Entry]:
        """The first well-formed verification of each (document, criterion): every edge asks, every run."""
        found: dict[tuple[str, str], Entry] = {}
        for entry in self.entries:
            if entry.problem is None and entry.kind == "verification":
                found.setdefault((entry.fields["document"], entry.fields["criterion"]), entry)
        return found

    def verification(self, document: str, criterion: str) -> Entry | None:
        return self.verifications.get((document, criterion))


def read_observations(root: Path) -> Observations:
    path = root / OBSERVATIONS
    sys.audit(PROBE, path)  # looked at again by a replay (HW-DR-0037)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return Observations(None, 0, ())
    except OSError as error:
        return Observations(f"`{OBSERVATIONS}` cannot be read: {error.strerror}", 0, ())
    if not stat.S_ISREG(mode):
        return Observations(f"`{OBSERVATIONS}` is not a regular file (a link or a special file is never read)", 0, ())
    try:
        top = load_file(path, OBSERVATIONS)
    except Refusal as refusal:
        return Observations(refusal.sentence, 0, ())
    listed = top.get("observations") if isinstance(top, Map) else None
    if not isinstance(listed, Seq):
        return Observations(f"`{OBSERVATIONS}` must hold `observations:`, a list of entries", 1, ())
    return Observations(None, 0, tuple(_entry(item) for item in listed.items))


def _entry(node: Node) -> Entry:
    if not isinstance(node, Map):
        return Entry(node.line, node.column, {}, "an observation must be a mapping")
    fields = {k.text: v.text.strip() for k, v in node.entries if isinstance(v, Scalar)}
    kind = fields.get("kind", "")
    if kind not in KINDS:
        return Entry(node.line, node.column, fields,
                     f"`kind: {kind}` is not an observation kind ({', '.join(KINDS)})" if kind
                     else "the observation names no `kind`")
    missing = [m for m in KINDS[kind] if not fields.get(m)]
    if missing:
        return Entry(node.line, node.column, fields, f"the {kind} observation has no {', '.join(missing)}")
    if not COMMIT.match(fields["commit"]):
        return Entry(node.line, node.column, fields, f"`commit: {fields['commit']}` is not a commit reference")
    if kind == "verification" and not DIGEST.match(fields["criterion_digest"]):
        return Entry(node.line, node.column, fields, "`criterion_digest` is not a `sha256:` digest")
    return Entry(node.line, node.column, fields, None)
