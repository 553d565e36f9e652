"""Where `init` puts each shelf of the package that no inference placed: on the folder the tree
already keeps under the shelf's name inside the corpus root (`docs/decisions/**` →
`website/docs/decisions/**`), else under the corpus root when it lies outside (`docs/specifications/**`
→ `doc/specifications/**`), since the census never reads outside the root and `new` could write
nothing there that `check` would see. Then, where a shelf so placed stands below the folder the
records lie directly in, the records' shelf claims only the files directly in it. Nothing here
writes.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import replace

from headwater.adoption.infer import RecordShelf
from headwater.adoption.overlay_inference import Inferred, record_shelf
from headwater.patterns import is_wild


def placed(tree: dict, corpus: str, markdown: tuple[str, ...], inferred: Inferred | None) -> Inferred | None:
    """`inferred` with an override and a sentence for each shelf of `tree` that moves."""
    done = set(inferred.override) if inferred is not None else set()
    within = [p for p in markdown if corpus == "." or p.startswith(corpus + "/")]
    said, override = [], {}
    for name, declared in sorted((tree.get("shelves") or {}).items()):
        path = str((declared or {}).get("path", ""))
        if f"shelves.{name}.path" in done or "/" not in path:
            continue
        kept = _kept(path, within)
        if kept is not None and kept[0] != path:
            override[f"shelves.{name}.path"] = kept[0]
            said.append(f"shelf {name}: `{kept[0]}`, on the `{kept[1]}` folder the tree already holds "
                        f"(the package puts it at `{path}`)")
        elif kept is None and corpus != "." and path != corpus and not path.startswith(corpus + "/"):
            moved = f"{corpus}/{path.split('/', 1)[1]}"
            override[f"shelves.{name}.path"] = moved
            said.append(f"shelf {name}: `{moved}`, under the corpus root (the package puts it at `{path}`)")
    if not override:
        return inferred
    if inferred is None:
        return Inferred({}, override, (), (), tuple(said))
    return replace(inferred, override={**inferred.override, **override}, said=inferred.said + tuple(said))


def _kept(path: str, markdown: list[str]) -> tuple[str, str] | None:
    """(the shelf's path on the folder holding Markdown whose path ends as the shelf's does after its
    first segment, that folder's name) when there is one: the one holding the most Markdown, then
    the shallowest, then the first by name. The first segment (`docs`) is where the package
    guessed the documentation lives; what follows it (`decisions`) names the shelf's own folder."""
    rest = path.split("/", 1)[1].split("/")
    literal = []
    for segment in rest:
        if is_wild(segment):
            break
        literal.append(segment)
    named = "/".join(literal)
    if not named:
        return None
    held = Counter(folder for p in markdown for folder in _folders(p)
                   if folder == named or folder.endswith("/" + named))
    if not held:
        return None
    folder = min(held, key=lambda f: (-held[f], f.count("/"), f))
    return folder + path.split("/", 1)[1][len(named):], named


def _folders(path: str) -> list[str]:
    """The folders holding `path`, the deepest first."""
    out = []
    folder = posixpath.dirname(path)
    while folder:
        out.append(folder)
        folder = posixpath.dirname(folder)
    return out


def apart(tree: dict, records: RecordShelf | None, inferred: Inferred | None) -> Inferred | None:
    """`inferred` with the records' shelf narrowed from `adr/**` to `adr/*` where another shelf now
    stands below `adr`: records directly in a top-level folder make it the corpus root, so the
    package's other shelves go below them. `adr/**` would claim those shelves' files too (only
    specificity would keep them apart) and read any page below the records, a template or notes,
    as a record that `adopt` writes an identifier into."""
    found = record_shelf(tree)
    if records is None or inferred is None or found is None:
        return inferred
    address = f"shelves.{found[0]}.path"
    if inferred.override.get(address) != f"{records.folder}/**":
        return inferred  # records in numbered folders (`keps/**/README.md`) claim only their README
    others = {name: str(inferred.override.get(f"shelves.{name}.path", (declared or {}).get("path", "")))
              for name, declared in sorted((tree.get("shelves") or {}).items()) if name != found[0]}
    below = [f"{name} (`{path}`)" for name, path in others.items() if path.startswith(records.folder + "/")]
    if not below:
        return inferred
    narrowed = f"{records.folder}/*"
    said = (f"shelf {found[0]}: `{narrowed}`, the files directly in `{records.folder}`, where the records lie: "
            f"the shelves {', '.join(below)} stand in folders below it, which `{records.folder}/**` would claim "
            "as records too")
    return replace(inferred, override={**inferred.override, address: narrowed}, said=inferred.said + (said,))
