"""Identifiers: the claim store agrees with the documents that hold the identifiers it records."""

from __future__ import annotations

import os
import stat

from headwater.check.context import CLAIMS, Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Reads, Scope, rule


def _claims(ctx: Context) -> list[tuple[str, str, str]]:
    """(scheme, identifier, claim path) for every entry of the store, by path."""
    found = []
    for scheme in sorted(ctx.taxonomy.schemes):
        directory = ctx.snapshot.root / CLAIMS / scheme
        if directory.is_dir() and not directory.is_symlink():
            found += [(scheme, name, ctx.claim_path(scheme, name)) for name in sorted(os.listdir(directory))]
    return found


def _claimant(ctx: Context, claim: str) -> str | None:
    """The path a claim file records, or None when it is empty, unreadable or not a regular file."""
    # one open that refuses a symlink and one fstat: every run reads every claim, so pathlib's costs add up
    try:
        fd = os.open(os.path.join(ctx.snapshot.root, claim), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        text = b"".join(iter(lambda: os.read(fd, 1 << 16), b"")).decode("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)
    return text.splitlines()[0].strip() if text else None


@rule("identifier.claim.stale", 1, Scope.CORPUS, Severity.WARN,
      short="A claim of the identifier store names a path its identifier is not held at.",
      full="A claim file `.headwater/ids/<scheme>/<id>` records the path of the document that "
           "holds the identifier. It is empty, unreadable or not a regular file; or it names a "
           "path where no document holds the identifier while exactly one document of that "
           "scheme holds it elsewhere. A claim whose document was deleted is correct and kept.",
      help="""
The claim store is what a later allocator trusts about which identifiers are spent. After a
rename, write the document's new path into its claim file. A claim with no claimant should
hold the path of the document that was minted with it.
""",
      tags=("graph", "identifier"),
      reads=(Reads.UNSTATED,))  # it reads what each claim file holds, which no cache key states
def identifier_claim_stale(ctx: Context, _subject):
    hits = []
    for scheme, identifier, claim in _claims(ctx):
        named = _claimant(ctx, claim)
        if named is None:
            hits.append(Hit(claim, 0, 0, f"the claim of `{identifier}` is empty, unreadable or not a "
                            "regular file, so it names no claimant", f"write the path of the document "
                            f"that holds `{identifier}` into `{claim}`", identifier))
            continue
        holder = ctx.document(named)
        if holder is not None and holder.id == identifier:
            continue
        holders = [d for d in ctx.graph.census.documents if d.id == identifier
                   and (s := ctx.taxonomy.scheme_of(d.kind)) is not None and s.name == scheme]
        if len(holders) == 1:
            hits.append(Hit(claim, 0, 0, f"the claim of `{identifier}` names `{named}`, and the document "
                            f"that holds it is `{holders[0].path}`", f"write `{holders[0].path}` into "
                            f"`{claim}`", identifier))
    return hits


RULES = (identifier_claim_stale,)
