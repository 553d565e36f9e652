"""`--fix`: every patch the live findings carry, written as one all-or-nothing batch.

Every file is read and checked against the digest its patches expect before the first write,
and every new text is computed in memory; only then does anything land, each file through a
temp file and an atomic rename (claims created exclusively), through the one batch writer
(`writes.batch`). A failed write restores every file already written, and the run refuses in
one sentence. The report that follows is of the
state after the writes: the snapshot is loaded again and the checks run again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from headwater import writelock
from headwater.check.finding import Finding
from headwater.check.patches import Patch, apply
from headwater.check.runner import Report
from headwater.corpus.frontmatter import FrontMatterRefusal, split
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.hashing import digest
from headwater.inplace import read_regular
from headwater.paths import OutsidePath, normalize, symlink_on_the_way
from headwater.snapshot import Snapshot, load
from headwater.writes.batch import BatchFailed, FileWrite, write_all
from headwater.writes.roundtrip import UnsafeEdit

BOM = "\ufeff"
FIX = "`--fix`"  # the verb a batch refusal names; `adopt` passes its own


@frozen
class Planned:
    path: str
    before: bytes | None  # None: the file is created
    after: bytes
    patches: int


def patches_by_file(findings: tuple[Finding, ...]) -> dict[str, list[Patch]]:
    """Live findings' patches grouped by file, in findings order; for a file to create, the first
    patch wins (two documents claiming one identifier is `identifier.claimed_twice`'s finding)."""
    out: dict[str, list[Patch]] = {}
    for finding in findings:
        for patch in (finding.patch, finding.companion) if finding.live else ():
            if patch is None or patch in out.get(patch.path, ()) or (patch.creates and patch.path in out):
                continue
            out.setdefault(patch.path, []).append(patch)
    return dict(sorted(out.items()))


def plan(root: Path, grouped: dict[str, list[Patch]], verb: str = FIX) -> list[Planned]:
    """Read every file and compute every new text, writing nothing; refuse on the first misfit."""
    return [_planned(root, path, patches, f"so {verb} wrote nothing") for path, patches in grouped.items()]


def _planned(root: Path, path: str, patches: list[Patch], nothing: str) -> Planned:
    _confine(root, path, nothing)
    before = _current(root, path, nothing)
    if patches[0].creates:
        if before is not None:
            raise Refusal(f"{path} appeared since this run read the corpus, {nothing}; run it again")
        return Planned(path, None, apply(patches, None).encode("utf-8"), len(patches))
    if before is None or any(digest(before) != p.expects for p in patches):
        raise Refusal(f"{path} changed since this run read it, {nothing}; run it again")
    try:
        text = before.decode("utf-8")
        bom = BOM if text.startswith(BOM) else ""
        after = apply(patches, text.removeprefix(BOM))
        split(after)  # the edited front matter must still read
    except (UnicodeDecodeError, UnsafeEdit, FrontMatterRefusal) as error:
        raise Refusal(f"the patch for {path} does not fit the file ({error}), {nothing}") from None
    return Planned(path, before, (bom + after).encode("utf-8"), len(patches))


def _confine(root: Path, path: str, nothing: str) -> None:
    """A patch lands on a repository-relative path with no symlink on the way, whoever made it."""
    try:
        inside = bool(path) and normalize(path) == path
    except OutsidePath:
        inside = False
    if not inside:
        raise Refusal(f"a patch names `{path}`, which is not a path under the repository root, {nothing}")
    link = symlink_on_the_way(path, root)
    if link:
        raise Refusal(f"`{link}` is a symlink, and the patch for {path} would write through it, {nothing}")


def _current(root: Path, path: str, nothing: str) -> bytes | None:
    target = root / path
    if not target.exists() and not target.is_symlink():
        return None
    try:
        return read_regular(target)
    except OSError as error:
        raise Refusal(f"{path} does not read ({error.strerror or error}), {nothing}") from None


def write(root: Path, planned: list[Planned], verb: str = FIX) -> None:
    """Write the batch; on any failure put back what was written and refuse."""
    def still(item: FileWrite) -> None:
        if _current(root, item.path, f"so {verb} wrote nothing") != item.before:
            raise Refusal(f"{item.path} changed while {verb} wrote the batch")

    try:
        write_all(root, [FileWrite(p.path, p.before, p.after) for p in planned], still)
    except BatchFailed as failed:
        error = failed.cause
        why = error.sentence if isinstance(error, Refusal) else f"{failed.item.path} could not be written ({error})"
        kept = f"; {', '.join(failed.unrestored)} could not be put back" if failed.unrestored else ""
        raise Refusal(f"{why}, so {verb} put back every file it had written{kept}") from None


def account(planned: list[Planned]) -> list[str]:
    return [f"headwater: fixed {p.path} ({p.patches} patch{'es' if p.patches != 1 else ''})" for p in planned]


def fix(snapshot: Snapshot, report: Report) -> list[str]:
    """Apply the report's patches; the account lines (none when nothing needed writing)."""
    grouped = patches_by_file(report.findings)
    if not grouped:
        return []
    with writelock.held(snapshot.root):
        planned = plan(snapshot.root, grouped)
        write(snapshot.root, planned)
    return account(planned)


def fixed_run(snapshot: Snapshot, run: Callable[[Snapshot], Report]) -> tuple[Snapshot, Report, list[str]]:
    """Run, fix, and when anything landed, load and run again: the state after the writes."""
    report = run(snapshot)
    lines = fix(snapshot, report)
    if lines:
        snapshot = load(snapshot.root, snapshot.today)
        report = run(snapshot)
    return snapshot, report, lines
