"""Identifiers: a document's identifier against its scheme, and the claim store that spends them."""

from __future__ import annotations

import re

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity, Skip
from headwater.check.patches import Create, Patch, SetScalar
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.hits import hit, problem_hit
from headwater.corpus.claims import claim_text
from headwater.corpus.document import Document
from headwater.graph import ProblemKind
from headwater.taxonomy.model import PLACEHOLDER, Scheme
from headwater.yaml.nodes import Scalar


def _scheme(ctx: Context, doc: Document) -> Scheme | None:
    return ctx.taxonomy.scheme_of(doc.kind)


def _segments(scheme: Scheme) -> list[tuple[str, str]]:
    """The pattern as (regex, name) pieces, in order."""
    pieces, last = [], 0
    for match in PLACEHOLDER.finditer(scheme.pattern):
        if match.start() > last:
            literal = scheme.pattern[last:match.start()]
            pieces.append((re.escape(literal), f"the literal `{literal}`"))
        token = match.group(1)
        if token == "namespace":
            pieces.append((re.escape(scheme.namespace or ""), f"the namespace `{scheme.namespace}`"))
        elif token == "slug":
            pieces.append(("[a-z0-9]+(?:-[a-z0-9]+)*", "the lowercase slug"))
        else:
            width = int(match.group(2) or 1)
            pieces.append((f"[0-9]{{{width},}}", f"the {width}-digit sequence number"))
        last = match.end()
    if last < len(scheme.pattern):
        pieces.append((re.escape(scheme.pattern[last:]), f"the literal `{scheme.pattern[last:]}`"))
    return pieces


def failing_segment(scheme: Scheme, identifier: str) -> str:
    """The first piece of the scheme that the identifier does not satisfy."""
    pieces = _segments(scheme)
    for count, (_, name) in enumerate(pieces, start=1):
        prefix = "".join(p for p, _ in pieces[:count])
        tail = "$" if count == len(pieces) else ""
        if not re.match(prefix + tail, identifier):
            return name
    return "the end of the identifier"


_LAST_NUMBER = re.compile(r"(\d+)\D*$")
_DIGITS = re.compile(r"\d+")


def _claimants(ctx: Context, scheme: Scheme) -> dict[str, str | None]:
    """The path each claim of the scheme's store records, read once a run, not once a finding."""
    key = f"claimants {scheme.name}"
    if key not in ctx.memo:
        ctx.memo[key] = dict(ctx.snapshot.claims(scheme.name))
    return ctx.memo[key]


def _next_identifier(ctx: Context, scheme: Scheme) -> str:
    return scheme.mint(ctx.highest_sequences[scheme.name] + 1, "slug")


@rule("identifier.pattern.not_met", 2, Scope.DOCUMENT, Severity.ERROR,
      short="The document's `id` does not match its kind's identifier scheme.",
      full="The identifier does not match the pattern of the scheme the kind names; the "
           "message names the first segment that fails.",
      help="""
A kind with an identifier scheme gives every document an `id` of one shape, such as
`{namespace}-DR-{seq:04d}`. Rewrite the `id` in that shape, and update the documents that
name the old one. Where the identifier's own number, written in that shape, is carried by no
other document and claimed for no other path (`ACME-DR-12` → `ACME-DR-0012`), the remedy
names it; otherwise it names the next free identifier.
""",
      tags=("shape", "identifier"),
      routes=lambda ctx, doc: _scheme(ctx, doc) is not None,
      reads=(Reads.SUBJECT, Reads.IDS, Reads.CLAIMS))  # the remedy names a free identifier
def identifier_pattern_not_met(ctx: Context, doc: Document):
    scheme = _scheme(ctx, doc)
    node = doc.id_node
    if not isinstance(node, Scalar) or not node.text.strip():
        return Skip("the document has no usable `id`, which `identifier.unusable` reports")
    identifier = node.text.strip()
    if scheme.regex.match(identifier):
        return []
    own = _own_number(ctx, scheme, doc, identifier)
    remedy = (f"write the `{doc.id_key}` as `{own}`, its own number in the scheme's shape" if own else
              f"write the `{doc.id_key}` in the shape `{_next_identifier(ctx, scheme)}`")
    return [hit(doc, node, f"`{identifier}` does not match the scheme `{scheme.name}` "
                 f"(`{scheme.pattern}`): {failing_segment(scheme, identifier)} fails",
                 f"{remedy}, and update the documents that name it", doc.id_key)]


def _own_number(ctx: Context, scheme: Scheme, doc: Document, identifier: str) -> str | None:
    """The identifier's last number written in the scheme's shape, where no other document
    carries it and no claim names another path: a wrong width, not a new number."""
    found = _LAST_NUMBER.search(identifier)
    if found is None or "{slug" in scheme.pattern or "{seq" not in scheme.pattern:
        return None  # a slug is no number to keep, and a scheme with no sequence takes none
    candidate = scheme.mint(int(found.group(1)))
    if _DIGITS.sub("", candidate) != _DIGITS.sub("", identifier):
        return None  # more than the number's width differs (`ADR-0012-rev5`): no one number is its own
    claimed = _claimants(ctx, scheme).get(candidate, doc.path)
    carried = ctx.graph.ids.get(candidate, doc.path)
    return candidate if scheme.regex.match(candidate) and claimed == carried == doc.path else None


@rule("identifier.unusable", 2, Scope.DOCUMENT, Severity.ERROR,
      short="A document whose kind has an identifier scheme has no usable `id`.",
      full="A kind with an identifier scheme needs an `id` on every document; this one has none, "
           "an empty one, or one that is not a single value. A missing or empty one is proposed a "
           "distinct identifier (the file's own number where its shelf's layout carries one), and "
           "`--fix` writes it with its claim.",
      help="""
Other documents name this one by its identifier, so a kind with a scheme cannot do without
one. Every document lacking one is proposed its own: the number its file name carries where
the shelf's layout has `{seq}`, else the next free one. `headwater check --fix` writes the
`id` and its claim under `.headwater/ids/` (`headwater new` mints one for new documents).
""",
      tags=("shape", "identifier", "graph"),
      routes=lambda ctx, doc: _scheme(ctx, doc) is not None or doc.id_node is not None,
      reads=(Reads.SUBJECT, Reads.IDS, Reads.CLAIMS),  # the remedy names a free identifier
      patch=True)
def identifier_unusable(ctx: Context, doc: Document):
    key = doc.id_key
    refused = [problem_hit(p, f"write one identifier after `{key}:`")
               for p in ctx.graph.problems if p.kind is ProblemKind.ID_NOT_A_SCALAR and p.path == doc.path]
    scheme = _scheme(ctx, doc)
    if refused or scheme is None:
        return refused
    node = doc.id_node
    if node is not None and not (isinstance(node, Scalar) and not node.text.strip()):
        return []
    proposed = ctx.proposed_ids.get(doc.path)
    if proposed is None:
        return [hit(doc, doc.front.key(key) if node is not None else None,
                    f"this `{doc.kind}` has no usable `{key}`, and no identifier of `{scheme.name}` is free for it",
                    f"write `{key}` in the shape `{scheme.pattern}`", key)]
    claim = ctx.claim_path(scheme.name, proposed)
    patch = Patch(doc.path, doc.digest, (SetScalar((key,), proposed),))
    held = claim_text(doc.path)
    if ctx.claim_exists(scheme.name, proposed):  # minted for this file before, then lost from it
        fix = {"patch": patch}
        suggestion = (f"add `{key}: {proposed}`, which `{claim}` claims for this file "
                      "(`headwater check --fix` writes it)")
    elif held is None:
        fix = {}
        suggestion = f"rename the file, then add `{key}: {proposed}` and its claim: {_UNHELD}"
    else:
        fix = {"patch": patch, "companion": Patch(claim, None, (Create(held),))}
        suggestion = f"add `{key}: {proposed}` and its claim `{claim}` (`headwater check --fix` writes both)"
    if node is None:
        return [hit(doc, None, f"this `{doc.kind}` has no `{key}`, and its scheme `{scheme.name}` "
                     "gives every one of them an identifier", suggestion, key, **fix)]
    return [hit(doc, doc.front.key(key), f"`{key}` is declared empty", suggestion, key, **fix)]


@rule("identifier.claimed_twice", 1, Scope.CORPUS, Severity.ERROR,
      short="Two documents declare one identifier.",
      full="An identifier names one document; when two declare it, each gets a finding.",
      help="""
Two documents carry the same `id`, so every relation and link that names it is ambiguous.
Keep the identifier on the document that had it first and give the other a fresh one.
""",
      tags=("graph", "identifier"),
      reads=(Reads.SUBJECT,))
def identifier_claimed_twice(ctx: Context, _subject):
    return [problem_hit(p, "keep the identifier on one document and give the other the next free one")
            for p in ctx.graph.problems if p.kind is ProblemKind.DUPLICATE_ID]


_UNHELD = "a claim holds its document's path on one line, and this path holds a line break or blanks at an end"


def _reconcile_first(ctx: Context, doc: Document):
    scheme = ctx.taxonomy.scheme_of(doc.kind)
    return scheme if scheme is not None and scheme.allocation == "reconcile-first" else None


@rule("identifier.claim.missing", 2, Scope.DOCUMENT, Severity.ERROR,
      short="A `reconcile-first` identifier has no claim file.",
      full="Identifiers of a `reconcile-first` scheme are claimed in `.headwater/ids/<scheme>/<id>` "
           "so two branches cannot mint the same one; this identifier has no claim.",
      help="""
A claim file records that an identifier is spent, so that branches reconcile before merging
instead of minting the same number twice. The fix creates the file, holding the document's path
on one line; a path holding a line break, or blanks at an end, cannot be held so, and is renamed first.
""",
      tags=("graph", "identifier"),
      routes=lambda ctx, doc: _reconcile_first(ctx, doc) is not None,
      patch=True, reads=(Reads.SUBJECT, Reads.CLAIMS))
def identifier_claim_missing(ctx: Context, doc: Document):
    scheme = _reconcile_first(ctx, doc)
    identifier = doc.id
    if identifier is None or not scheme.regex.match(identifier):
        return Skip("the document has no identifier of its scheme, which the identifier rules report")
    if ctx.claim_exists(scheme.name, identifier):
        return []
    claim = ctx.claim_path(scheme.name, identifier)
    held = claim_text(doc.path)
    if held is None:
        return [hit(doc, doc.id_node, f"`{identifier}` is spent, and `{claim}` does not claim it",
                    f"rename the file, then create `{claim}` holding its new path: {_UNHELD}", "id")]
    return [hit(doc, doc.id_node, f"`{identifier}` is spent, and `{claim}` does not claim it",
                f"create `{claim}` holding `{doc.path}`", "id", patch=Patch(claim, None, (Create(held),)))]


def _holders(ctx: Context) -> dict[tuple[str, str], list[Document]]:
    """The documents holding each (scheme, identifier), in path order: asked only where a claim
    names a path its identifier is not held at, and then once, not once per claim."""
    holders: dict[tuple[str, str], list[Document]] = {}
    for doc in ctx.graph.census.documents:
        scheme = ctx.taxonomy.scheme_of(doc.kind) if doc.id else None
        if scheme is not None:
            holders.setdefault((scheme.name, doc.id), []).append(doc)
    return holders


@rule("identifier.claim.stale", 2, Scope.CORPUS, Severity.WARN,
      short="A claim of the identifier store names a path its identifier is not held at.",
      full="A claim file `.headwater/ids/<scheme>/<id>` records the path of the document that "
           "holds the identifier. It is empty, unreadable or not a regular file; or it names a "
           "path where no document holds the identifier while exactly one document of that "
           "scheme holds it elsewhere; or it names a document that now declares another "
           "identifier while no document holds the claimed one (an orphan). A claim whose "
           "document was deleted is correct and kept.",
      help="""
The claim store is what a later allocator trusts about which identifiers are spent. After a
rename, write the document's new path into its claim file. A claim with no claimant should
hold the path of the document that was minted with it. A claim whose document took another
identifier points readers at a document that does not carry it: give the document its
identifier back, or, where it keeps the other one for good, delete the orphan claim, which
lets the identifier be minted again.
""",
      tags=("graph", "identifier"),
      reads=(Reads.UNSTATED,))  # it reads what each claim file holds, which no cache key states
def identifier_claim_stale(ctx: Context, _subject):
    hits, documents, holders = [], ctx.graph.documents, None
    for scheme in sorted(ctx.taxonomy.schemes):
        # every run reads every claim (a spread load, beside the corpus: `Snapshot.claims`)
        for identifier, named in ctx.snapshot.claims(scheme):
            holder = documents.get(named) if named is not None else None
            if holder is not None and holder.id == identifier:
                continue  # most claims: checked with no more than this
            claim = ctx.claim_path(scheme, identifier)
            if named is None:
                hits.append(Hit(claim, 0, 0, f"the claim of `{identifier}` is empty, unreadable or not a "
                                "regular file, so it names no claimant", f"write the path of the document "
                                f"that holds `{identifier}` into `{claim}`", identifier))
                continue
            holders = _holders(ctx) if holders is None else holders
            held = holders.get((scheme, identifier), [])
            if len(held) == 1:
                hits.append(Hit(claim, 0, 0, f"the claim of `{identifier}` names `{named}`, and the document "
                                f"that holds it is `{held[0].path}`", f"write `{held[0].path}` into "
                                f"`{claim}`", identifier))
            elif not held and holder is not None and holder.id is not None:
                hits.append(_orphan(claim, identifier, holder))
    return hits


def _orphan(claim: str, identifier: str, holder: Document) -> Hit:
    """A claim naming a live document that declares another identifier, which nobody else holds.
    A document with no identifier is left to `identifier.unusable`, whose remedy gives it this one."""
    return Hit(claim, 0, 0, f"the claim of `{identifier}` names `{holder.path}`, which declares "
               f"`{holder.id}`, and no document holds `{identifier}`",
               f"write `{holder.id_key}: {identifier}` back into `{holder.path}`, or, where it keeps "
               f"`{holder.id}` for good, delete `{claim}` (`{identifier}` may then be minted again)", identifier)


RULES = (
    identifier_pattern_not_met,
    identifier_unusable,
    identifier_claimed_twice,
    identifier_claim_missing,
    identifier_claim_stale,
)
