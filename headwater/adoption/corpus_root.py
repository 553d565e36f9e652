"""The corpus root `init` proposes: the folder holding the records when there are any, else the
folder holding the most Markdown (`docs` when none holds any yet).

A top-level folder is the candidate, counted with everything below it; Markdown at the repository
root (a README, a changelog) is no folder of documentation. The chosen folder then narrows to the
one below it that holds all of its Markdown (`website` → `website/docs`), but never onto a single
folder of files (a shelf's), so the package's other shelves can stand beside it.
"""

from __future__ import annotations

from collections import Counter

# Folder names that say "documentation lives here": they break a tie of counts, earlier first.
DOC_FOLDERS = ("docs", "doc", "documentation", "adr", "adrs", "decisions", "architecture", "rfcs", "rfc",
               "keps", "design", "handbook")


def choose(paths: list[str], records: str | None) -> tuple[str, str]:
    """(corpus root, the sentence saying why) for the repository-relative Markdown `paths`;
    `records` is the folder of the records `init` found, if any."""
    held = Counter(p.split("/")[0] for p in paths if "/" in p)
    if records:
        root = _narrowed(paths, records.split("/")[0], records)
        return root, f"`{root}` holds the decision records in `{records}`" + _outside(held, root)
    if not held:
        return "docs", "no folder holds Markdown yet, so the corpus root is `docs`"
    ranked = sorted(held, key=lambda name: (-held[name], _rank(name), name))
    top, count = ranked[0], held[ranked[0]]
    said = f"`{top}` holds the most Markdown ({count} file{'' if count == 1 else 's'}"
    tied = sorted(name for name in ranked[1:] if held[name] == count)
    if tied:
        why = "is named as documentation" if _rank(top) < _rank(tied[0]) else "comes first by name"
        said += f"; as many as {', '.join(f'`{name}`' for name in tied)}, and `{top}` {why}"
    root = _narrowed(paths, top, None)
    return root, said + ")" + (f", all of it under `{root}`" if root != top else "") + _outside(held, root)


def _outside(held: Counter[str], root: str) -> str:
    """The other top-level folders holding Markdown, which the corpus root leaves out: a second
    documentation folder is otherwise never read, and nothing would say so."""
    others = sorted((name for name in held if name != root.split("/")[0]), key=lambda name: (-held[name], name))
    if not others:
        return ""
    first = others[0]
    named = ", ".join([f"`{first}` ({held[first]} Markdown file{'s' if held[first] != 1 else ''})",
                       *(f"`{name}` ({held[name]})" for name in others[1:3])])
    more = f" and {len(others) - 3} more folder{'s' if len(others) > 4 else ''}" if len(others) > 3 else ""
    lie, it = ("lies", "it") if len(others) == 1 else ("lie", "them")
    return f"; {named}{more} {lie} outside it, so `check` and `route` never read {it} (`--corpus` names another root)"


def _rank(name: str) -> int:
    return DOC_FOLDERS.index(name) if name in DOC_FOLDERS else len(DOC_FOLDERS)


def _narrowed(paths: list[str], folder: str, records: str | None) -> str:
    """`folder`, or the folder below it holding all of its Markdown: descended while it holds none
    of its own and one subfolder holds it all, stopping above a subfolder whose Markdown all lies
    directly in it, and above the records' folder (other shelves stand beside both)."""
    while True:
        below = [p[len(folder) + 1:] for p in paths if p.startswith(folder + "/")]
        children = {rest.split("/")[0] for rest in below if "/" in rest}
        if len(children) != 1 or any("/" not in rest for rest in below):
            return folder
        child = f"{folder}/{children.pop()}"
        if records is not None and not records.startswith(child + "/"):
            return folder
        if records is None and all(p.count("/") == child.count("/") + 1 for p in paths if p.startswith(child + "/")):
            return folder
        folder = child
