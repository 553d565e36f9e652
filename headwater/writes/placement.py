"""Where `new` puts a document: the kind must be concrete and carried by exactly one shelf; the
directory is the shelf's literal prefix (or `--directory`, on the shelf); the name comes from
the shelf's `layout`, else `<slug>.md`."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.paths import OutsidePath, normalize
from headwater.taxonomy.model import Shelf, Taxonomy
from headwater.textsafe import shown
from headwater.writes.inputs import COMMAND_LINE, Spelling

LAYOUT_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::0?(\d+)d|:(yyyymmdd))?\}")


@frozen
class Placement:
    kind: str
    shelf: Shelf
    directory: str


# Latin letters that no decomposition splits into a plain letter and its marks.
SPELLED_OUT = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th",
                             "ı": "i"})


def slug(title: str) -> str:
    """Lowercase, each Latin letter without its accents (`Café über Straße` → `cafe-uber-strasse`);
    each run of characters that are then not ASCII letters or digits becomes one `-`."""
    plain = unicodedata.normalize("NFKD", title.lower().translate(SPELLED_OUT))
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")


def _listed(names: list[str]) -> str:
    return ", ".join(names) if names else "none"


def check_kind(taxonomy: Taxonomy, kind: str) -> None:
    declared = taxonomy.kinds.get(kind)
    if declared is None:
        raise Refusal(f"`{shown(kind)}` is not a kind this taxonomy declares; the kinds are "
                      f"{_listed(taxonomy.concrete_kinds)}")
    if declared.abstract:
        below = [k for k in taxonomy.concrete_kinds if taxonomy.is_a(k, kind)]
        raise Refusal(f"`{kind}` is abstract and no document is one; write one of its kinds instead "
                      f"({_listed(below)})")


def place(taxonomy: Taxonomy, kind: str, directory: str | None, spelling: Spelling = COMMAND_LINE) -> Placement:
    check_kind(taxonomy, kind)
    shelves = taxonomy.shelves_carrying(kind)
    if not shelves:
        raise Refusal(f"no shelf carries the kind `{kind}`, so `new` has nowhere to put one; "
                      f"add a shelf for it in the overlay and run `headwater taxonomy resolve`")
    if len(shelves) > 1:
        names = ", ".join(f"`{s.name}`" for s in shelves)
        raise Refusal(f"the kind `{kind}` is carried by the shelves {names}, and `new` places a "
                      "document only where exactly one shelf carries its kind")
    shelf = shelves[0]
    if directory is None:
        return Placement(kind, shelf, shelf.pattern.literal_prefix)
    try:
        chosen = normalize(directory)
    except OutsidePath:
        raise spelling.refused("directory", f"`{spelling.name('directory')}` takes a folder inside the repository, "
                                            f"and `{shown(directory)}` is not one") from None
    return Placement(kind, shelf, chosen)


def file_name(placement: Placement, title_slug: str, sequence: int | None, facets: dict[str, str],
              spelling: Spelling = COMMAND_LINE) -> str:
    """The shelf's layout filled in (`{seq:04d}`, `{slug}`, or a facet's value), else `<slug>.md`."""
    layout = placement.shelf.layout
    if not layout:
        return f"{title_slug}.md"

    def fill(match: re.Match[str]) -> str:
        name, width = match.group(1), match.group(2)
        if name == "slug":
            return title_slug
        value: int | str | None = sequence if name == "seq" else facets.get(name)
        if value is None:
            raise Refusal(f"the shelf `{placement.shelf.name}` names files `{layout}`, and nothing here gives "
                          f"`{name}`" + (f"; pass `{spelling.giving('facets', f'{name}=<value>')}`"
                                         if name != "seq" else ""))
        if match.group(3):  # a date facet written compactly, as records named YYYYMMDD-slug.md are
            return str(value).replace("-", "")
        if width:
            if not str(value).isdigit():
                raise Refusal(f"the layout `{layout}` takes a number for `{name}`, and `{value}` is not one")
            return f"{int(value):0{int(width)}d}"
        return str(value)

    return LAYOUT_FIELD.sub(fill, layout)


def document_path(placement: Placement, name: str) -> str:
    return f"{placement.directory}/{name}" if placement.directory else name


def named_slug(layout: str | None, path: str) -> str | None:
    """The file's whole name less `.md`, where the layout writes the slug into the file's own name
    without a sequence and that name is itself a slug (`{entered:yyyymmdd}-{slug}.md` →
    `20201016-use-slugs`): what a scheme without `{seq}` names the document by, as log4brains does.
    None where the layout numbers the file, puts the slug in a folder (`{slug}/README.md`), or the
    name is no slug."""
    if not layout or "{seq" in layout or "{slug}" not in layout.rsplit("/", 1)[-1]:
        return None
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    return stem if slug(stem) == stem else None


def own_number(shelves: Iterable[Shelf], path: str) -> int | None:
    """The number the file's own name carries under the first of `shelves` (those matching it)
    whose layout numbers it: what `adopt` and `--fix` give it, and what `new` steps past."""
    return next((n for shelf in shelves if (n := layout_sequence(shelf.layout, path)) is not None), None)


def layout_sequence(layout: str | None, path: str) -> int | None:
    """The `{seq}` a file's own name carries under `layout` (`0007-x.md` → 7), or None.

    The layout is matched against as many trailing path segments as it has, so a layout such as
    `{seq:04d}-{slug}/README.md` reads the number off the folder."""
    if not layout or "{seq" not in layout:
        return None
    pieces, last = [], 0
    for match in LAYOUT_FIELD.finditer(layout):
        pieces.append(re.escape(layout[last:match.start()]))
        name = match.group(1)
        pieces.append("(?P<seq>[0-9]+)" if name == "seq" and "(?P<seq>" not in "".join(pieces) else "[^/]+")
        last = match.end()
    pieces.append(re.escape(layout[last:]))
    tail = "/".join(path.split("/")[-(layout.count("/") + 1):])
    found = re.fullmatch("".join(pieces), tail)
    return int(found.group("seq")) if found else None
