"""`.headwater/taxonomy.yml`: which package, bundles and overlay; where the corpus is."""

from __future__ import annotations

import sys
from pathlib import Path

from headwater.announcements import PROBE
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.patterns import opening_wildcard
from headwater.statefolder import DECLARATION, refuse_linked
from headwater.taxonomy.pins import Pin, read_pins
from headwater.yaml.files import load_in_place
from headwater.yaml.nodes import Map, Node, Scalar, Seq

LOCK = ".headwater/taxonomy.lock"
UNBOUND = f"this repository is not bound to a taxonomy: {DECLARATION} is missing. Run `headwater init` to bind it"


@frozen
class Exclusion:
    """A path pattern the corpus leaves out, and why."""

    pattern: str
    reason: str


@frozen
class Declaration:
    """`.headwater/taxonomy.yml`: the package, bundles, overlay, corpus root and exclusions."""

    package: str
    version: str
    digest: str | None
    bundles: tuple[str, ...]
    overlay: str | None
    corpus_root: str
    exclusions: tuple[Exclusion, ...]
    pins: tuple[Pin, ...] = ()  # `harvests` and `imports`
    site_roots: tuple[str, ...] = ()  # where a link opening with `/` lands; none: the repository root


def read_declaration(root: Path) -> Declaration:
    path = root / DECLARATION
    refuse_linked(root)
    sys.audit(PROBE, path)  # what replays a run looks here again (HW-DR-0037)
    if not path.exists():
        raise Refusal(UNBOUND)
    node = load_in_place(root, DECLARATION)
    top = _map(node, "the file")
    taxonomy = _map(top.get("taxonomy"), "`taxonomy`")
    corpus = _map(top.get("corpus"), "`corpus`")
    return Declaration(
        package=_text(taxonomy, "package", "taxonomy.package"),
        version=_text(taxonomy, "version", "taxonomy.version"),
        digest=_optional_text(taxonomy, "digest"),
        bundles=tuple(_texts(taxonomy.get("bundles"), "taxonomy.bundles")),
        overlay=_optional_text(taxonomy, "overlay"),
        corpus_root=_corpus_root(corpus),
        exclusions=tuple(_exclusions(corpus.get("exclude"))),
        pins=read_pins(top, root, _where),
        site_roots=_site_roots(corpus.get("site_roots")),
    )


def _where(node: Node | None) -> str:
    return f"{DECLARATION} line {node.line}" if node is not None else DECLARATION


def _map(node: Node | None, what: str) -> Map:
    if not isinstance(node, Map):
        raise Refusal(f"{_where(node)}: {what} must be a mapping")
    return node


def _text(parent: Map, key: str, address: str) -> str:
    node = parent.get(key)
    if not isinstance(node, Scalar) or not node.text.strip():
        raise Refusal(f"{_where(node or parent)}: `{address}` must be a non-empty value")
    return node.text.strip()


def _optional_text(parent: Map, key: str) -> str | None:
    node = parent.get(key)
    if node is None:
        return None
    if not isinstance(node, Scalar):
        raise Refusal(f"{_where(node)}: `{key}` must be a single value")
    return node.text.strip() or None


def _texts(node: Node | None, address: str) -> list[str]:
    if node is None:
        return []
    if not isinstance(node, Seq) or not all(isinstance(i, Scalar) for i in node.items):
        raise Refusal(f"{_where(node)}: `{address}` must be a list of names")
    return [item.text for item in node.items]  # type: ignore[union-attr]


def _corpus_root(corpus: Map) -> str:
    from headwater.paths import OutsidePath, normalize

    raw = _text(corpus, "root", "corpus.root")
    try:
        return normalize(raw)
    except OutsidePath:
        raise Refusal(f"{_where(corpus.get('root'))}: `corpus.root` must stay inside the repository") from None


def _site_roots(node: Node | None) -> tuple[str, ...]:
    """The folders a static site generator publishes at `/` (Hugo's `content/en` and `static`), in
    the order a link opening with `/` is looked for under them."""
    from headwater.paths import OutsidePath, normalize

    roots = []
    for raw in _texts(node, "corpus.site_roots"):
        try:
            roots.append(normalize(raw))
        except OutsidePath:
            raise Refusal(f"{_where(node)}: the site root `{raw}` in `corpus.site_roots` must stay inside "
                          "the repository") from None
    return tuple(dict.fromkeys(roots))


def _exclusions(node: Node | None) -> list[Exclusion]:
    if node is None:
        return []
    if not isinstance(node, Seq):
        raise Refusal(f"{_where(node)}: `corpus.exclude` must be a list of {{path, reason}} entries")
    found = []
    for item in node.items:
        if not isinstance(item, Map):
            raise Refusal(f"{_where(item)}: each exclusion is a {{path, reason}} mapping")
        pattern = _text(item, "path", "corpus.exclude[].path")
        reason = item.get("reason")
        if not isinstance(reason, Scalar) or not reason.text.strip():
            raise Refusal(f"{_where(item)}: the exclusion `{pattern}` needs a `reason`")
        if opening_wildcard(pattern):
            raise Refusal(
                f"{_where(item)}: the exclusion `{pattern}` opens with a wildcard, "
                "and no literal segment bounds it"
            )
        found.append(Exclusion(pattern, reason.text.strip()))
    return found
