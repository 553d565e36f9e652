"""Reading a path-or-identifier argument into a census row, or one refusal sentence.

Shared by `explain`, `show`, `related` and the MCP tools, so they agree to the word.
"""

from __future__ import annotations

import os
import posixpath

from headwater.corpus.census import Outcome, Row, excluded_by
from headwater.errors import Refusal
from headwater.paths import OutsidePath, quoted, relative_to_root
from headwater.reads.identifiers import near_identifiers, other_declarers
from headwater.snapshot import Snapshot
from headwater.taxonomy.declaration import Exclusion

OUTSIDE = "is outside this repository, or is not a path it can read"


def outside_sentence(argument: str) -> str:
    return f"{quoted(argument)} {OUTSIDE}"


def _excluded(argument: str, exclusion: Exclusion) -> str:
    """With the declaration's reason, so a reader tells a deliberate exclusion from a wrong pattern."""
    return f"`{quoted(argument)}` is excluded by `{exclusion.pattern}`: {exclusion.reason}"


def find_row(snapshot: Snapshot, argument: str, verb: str, bytes_only: bool = False) -> Row:
    """The census row the argument names; refusals checked in the documented order. A verb that
    prints only the file's bytes (`bytes_only`) takes a file that does not read as a document."""
    row = _lookup(snapshot, argument)
    if row is None:
        raise Refusal(_missing(snapshot, argument))
    if row.outcome is Outcome.EXCLUDED and row.exclusion:
        raise Refusal(_excluded(argument, row.exclusion))
    if row.outcome is Outcome.UNWALKABLE:
        raise Refusal(f"`{row.path}` is {row.reason}, so `{verb}` prints nothing{_instead(snapshot, row.path)}")
    if row.outcome is Outcome.UNREADABLE and not bytes_only:
        raise Refusal(f"`{row.path}` could not be read as a document ({row.reason}), so `{verb}` prints nothing; "
                      "`headwater show` prints its bytes")
    return row


def _instead(snapshot: Snapshot, path: str) -> str:
    """The document a symlink points at, where one of this corpus stands there: the name to give
    instead (KEPs keep an old name as a link to the folder that replaced it)."""
    try:
        written = os.readlink(snapshot.root / path)
    except OSError:
        return ""
    lands = posixpath.normpath(posixpath.join(posixpath.dirname(path), written))
    row = snapshot.census.by_path.get(lands)
    if row is None or row.outcome not in (Outcome.TYPED, Outcome.UNTYPED):
        return ""
    return f"; name `{lands}`, the document it points at"


def _lookup(snapshot: Snapshot, argument: str) -> Row | None:
    rows = snapshot.census.by_path
    if argument in rows:
        return rows[argument]
    path = snapshot.graph.ids.get(argument.strip())
    if path:
        others = other_declarers(snapshot.graph, argument.strip())
        if others:  # answering the first declarer would pass a guess off as the document
            raise Refusal(f"`{quoted(argument)}` is declared by {len(others) + 1} documents "
                          f"({', '.join(sorted((path, *others)))}), so it names none of them for certain: "
                          "name the one you mean by its path")
        return rows[path]
    try:
        relative = relative_to_root(argument, snapshot.root)
    except OutsidePath:
        return None
    return rows.get(relative)


def _name_in(snapshot: Snapshot, folder: str) -> str:
    """What to name instead of a folder: its one document where it holds one (a KEP is linked to by
    its folder, `NNNN-slug/`, and its document is the README inside), else one of them."""
    inside = [row.path for row in snapshot.census.rows
              if row.outcome in (Outcome.TYPED, Outcome.UNTYPED) and row.path.rpartition("/")[0] == folder]
    if len(inside) == 1:
        return f"name the one document in it, `{inside[0]}`"
    return "name one of the documents in it"


def _missing(snapshot: Snapshot, argument: str) -> str:
    text = argument.strip()
    if not text:
        return "the target is empty: name a document by its identifier or its path"
    remote = snapshot.federation.documents.get(text)
    if remote is not None:
        return (f"`{quoted(argument)}` is {remote.path} of the harvested corpus `{remote.corpus}`, which this "
                "repository reads only through its pinned export; `resolve_identifier` gives its pointer")
    if "/" not in text and not text.endswith(".md"):  # shaped like an identifier, not a path
        near = near_identifiers(snapshot.graph, snapshot.taxonomy, text)
        if near:  # the same identifier in another case, or its number written another way
            return f"`{quoted(argument)}` names no document; did you mean {' or '.join(near)}?"
    for scheme in snapshot.taxonomy.schemes.values():
        if scheme.regex.match(text) or (scheme.fixed_prefix and text.startswith(scheme.fixed_prefix)):
            return f"`{quoted(argument)}` is shaped like an identifier of this corpus, and no document declares it"
    try:
        relative = relative_to_root(argument, snapshot.root)
    except OutsidePath:
        return outside_sentence(argument)
    if not relative:
        return f"`{quoted(argument)}` is the repository's root, not a document"
    if (snapshot.root / relative).is_dir():
        return f"`{quoted(argument)}` is a folder, not a document: {_name_in(snapshot, relative)}"
    root = snapshot.census.root
    inside = not root or relative == root or relative.startswith(root + "/")
    if not inside and "/" not in text and not text.endswith(".md") and not (snapshot.root / relative).exists():
        return f"`{quoted(argument)}` names no document: no document declares it, and no file is named so"
    if not inside:
        return f"`{quoted(argument)}` is outside every corpus root this repository declares"
    exclusion = excluded_by(relative, snapshot.declaration.exclusions)
    if exclusion:
        return _excluded(argument, exclusion)
    return f"`{quoted(argument)}` is a path of this corpus, with no document written there yet"
