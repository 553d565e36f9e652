"""`headwater change <base-rev> <out-dir> [--verified DOC]… [--verified-edge DOC TARGET]…`."""

from __future__ import annotations

from pathlib import Path

from headwater.cli.output import Result
from headwater.clock import run_date
from headwater.corpus.census import Outcome
from headwater.errors import Refusal
from headwater.paths import OutsidePath, normalize
from headwater.reads.target import find_row
from headwater.snapshot import load
from headwater.textsafe import shown
from headwater.writes.change_capture import Manifest, collect, write


def _once(values: list[str], flag: str) -> None:
    seen = set()
    for value in values:
        if not value.strip():
            raise Refusal(f"`{flag}` takes a value, and one was empty")
        if value in seen:
            raise Refusal(f"`{flag} {shown(value)}` is named twice")
        seen.add(value)


def _documents(root: Path, arguments: list[str]) -> dict[str, str]:
    """{argument: document path} for every `--verified` document (a path or an identifier)."""
    if not arguments:
        return {}
    snapshot = load(root, run_date(None))
    found = {}
    for argument in arguments:
        row = find_row(snapshot, argument, "change")
        if row.outcome is not Outcome.TYPED:
            raise Refusal(f"`{shown(argument)}` is not a document ({row.label}), so there is no re-read to state")
        found[argument] = row.path
    return found


def _target(text: str) -> str:
    """A target as the graph writes it (`./src/x/` → `src/x`), so it compares with `Target.text`."""
    try:
        return normalize(text)
    except OutsidePath:
        raise Refusal(f"`--verified-edge` target `{shown(text)}` leaves the repository") from None


def run(invocation) -> Result:
    args = invocation.args
    edges = [(doc, _target(target)) for doc, target in args.verified_edge]
    _once(args.verified, "--verified")
    _once([f"{doc} {target}" for doc, target in edges], "--verified-edge")
    if any(not doc.strip() or not target for doc, target in edges):
        raise Refusal("`--verified-edge` takes a document and a target, and one was empty")
    documents = _documents(invocation.root, args.verified + [doc for doc, _ in edges])
    out_dir = Path(args.out_dir)
    manifest = collect(invocation.root, args.base_rev, out_dir,
                       [documents[a] for a in args.verified],
                       [(documents[doc], target) for doc, target in edges])
    # stdout stays the manifest's path alone, so `check --change "$(headwater change …)"` reads it
    return Result(f"{write(out_dir, manifest)}\n", (_account(args.base_rev, manifest),))


def _account(base: str, manifest: Manifest) -> str:
    """What the manifest captured, in one line: a user sees whether the change is the one meant."""
    counts = [(len(manifest.added), "added path", "added paths"),
              (len(manifest.prior), "prior version", "prior versions"),
              (len(manifest.verified), "verified document", "verified documents"),
              (len(manifest.verified_edges), "verified edge", "verified edges")]
    said = ", ".join(f"{n} {one if n == 1 else many}" for n, one, many in counts)
    return f"headwater: captured {said} against `{base}`"
