"""`export`: write the corpus's export and descriptor, or an anchors snapshot; `--check` compares."""

from __future__ import annotations

from pathlib import Path

from headwater import atomic, writelock
from headwater.cli.output import Result
from headwater.clock import run_date
from headwater.corpus.tree import SourceTree
from headwater.errors import Refusal
from headwater.federation import formats
from headwater.hashing import digest
from headwater.inplace import read_regular
from headwater.paths import inside
from headwater.patterns import opening_wildcard
from headwater.reads import export
from headwater.snapshot import load
from headwater.taxonomy.declaration import DECLARATION, read_declaration
from headwater.taxonomy.staleness import refuse_stale
from headwater.textsafe import shown


def run(invocation) -> Result:
    root, args = invocation.root, invocation.args
    outputs = _anchors(root, args.anchors) if args.anchors else _corpus(root)
    if args.check:
        return _check(root, outputs)
    with writelock.held(root):  # one writer at a time; a symlink on the way is refused by atomic
        for path, data in outputs:
            atomic.write_bytes(root / path, data, root=root)
    return Result("".join(f"wrote {path} {digest(data)}\n" for path, data in outputs))


def _corpus(root: Path) -> list[tuple[str, bytes]]:
    snapshot = load(root, run_date(None))
    refuse_stale(snapshot)  # an export names its lock: one its sources moved past would mislead
    exported = formats.encode(export.export_document(snapshot))
    described = formats.encode(export.descriptor(snapshot, digest(exported)))
    return [(formats.EXPORT_PATH, exported), (formats.DESCRIPTOR_PATH, described)]


def _anchors(root: Path, raws: list[str]) -> list[tuple[str, bytes]]:
    """Needs no corpus: a service repository may have none. Each pattern must match a file, so a
    mistyped one fails the CI job that refreshes a pin instead of pinning an empty snapshot."""
    if not root.is_dir():
        raise Refusal(f"{root} is not a directory, so there is nothing to export")
    patterns = tuple(_pattern(raw) for raw in raws)
    exclusions = read_declaration(root).exclusions if (root / DECLARATION).is_file() else ()
    tree = SourceTree(root, exclusions)
    for raw, pattern in zip(raws, patterns, strict=True):
        if not tree.matches(pattern):
            raise Refusal(f"`--anchors {shown(raw)}` matches nothing in this repository, so no snapshot is written")
    return [(formats.ANCHORS_PATH, formats.encode(export.anchors_document(tree, patterns)))]


def _pattern(raw: str) -> str:
    pattern = inside(raw)
    if not pattern:
        raise Refusal(f"`--anchors {shown(raw)}` is not a pattern inside this repository")
    if opening_wildcard(pattern):
        raise Refusal(f"`--anchors {shown(raw)}` opens with a wildcard, and no literal segment bounds it")
    return pattern


def _check(root: Path, outputs: list[tuple[str, bytes]]) -> Result:
    flags = " --anchors …" if outputs[0][0] == formats.ANCHORS_PATH else ""
    missing = [path for path, _ in outputs if _committed(root, path) is None]
    if missing:  # nothing exported yet is not a stale export
        raise Refusal(f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing; run "
                      f"`headwater export{flags}` and commit the result")
    stale = [path for path, data in outputs if _committed(root, path) != data]
    if stale:
        raise Refusal(f"{' and '.join(stale)} {'is' if len(stale) == 1 else 'are'} not what the corpus "
                      f"exports today; run `headwater export{flags}` and commit the result")
    return Result("".join(f"{path} is what the corpus exports ({digest(data)})\n" for path, data in outputs))


def _committed(root: Path, path: str) -> bytes | None:
    try:
        return read_regular(root / path)
    except OSError:
        return None

