"""`headwater init`: bind a repository to a taxonomy package, asking what the tree cannot say."""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass
from pathlib import Path

from headwater import atomic, writelock
from headwater.errors import Refusal
from headwater.paths import OutsidePath, normalize
from headwater.taxonomy.declaration import DECLARATION
from headwater.taxonomy.overlay import apply_overlay
from headwater.taxonomy.package import Package, find_package
from headwater.taxonomy.resolve import Source, _plain_of, bundle_order

OVERLAY = ".headwater/overlay.yml"
DEFAULT_PACKAGE = "headwater/standard"
NAMESPACE = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")


@dataclass(frozen=True)
class Binding:
    corpus: str
    corpus_reason: str
    package: Package
    bundles: tuple[str, ...]
    namespace: str | None
    schemes: tuple[str, ...]


def most_markdown(root: Path) -> tuple[str, str]:
    """The top-level directory holding the most Markdown files (`docs` when there is none)."""
    counts: dict[str, int] = {}
    for directory in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        total = 0
        for _, _, files in os.walk(directory):
            total += sum(1 for name in files if name.lower().endswith(".md"))
        if total:
            counts[directory.name] = total
    if not counts:
        return "docs", "no directory holds Markdown yet, so the corpus root is `docs`"
    best = max(counts.items(), key=lambda item: (item[1], [-ord(c) for c in item[0]]))
    return best[0], f"`{best[0]}` holds the most Markdown files ({best[1]})"


def schemes_of(package: Package, bundles: tuple[str, ...]) -> tuple[str, ...]:
    base = _plain_of(Source(package.source_label(package.taxonomy_file),
                            (package.directory / package.taxonomy_file).read_bytes()))
    tree = copy.deepcopy(base)
    for name in bundle_order(package, bundles):
        path = package.directory / package.bundle_file(name)
        plain = _plain_of(Source(package.source_label(package.bundle_file(name)), path.read_bytes()))
        apply_overlay(tree, {"add": plain.get("add") or {}}, name)
    return tuple((tree.get("identifier_schemes") or {}).keys())


def plan(root: Path, corpus: str | None, package_name: str | None, bundles: list[str],
         namespace: str | None) -> Binding:
    if (root / DECLARATION).exists() or (root / OVERLAY).exists():
        raise Refusal(f"this repository is already bound: {DECLARATION} exists. Edit it, or remove it to start over")
    if namespace is not None and not NAMESPACE.match(namespace):
        raise Refusal(f"`--namespace` takes letters and digits, starting with a letter, and `{namespace}` is not that")
    package = find_package(root, package_name or DEFAULT_PACKAGE)
    known = package.bundle_names()
    for bundle in bundles:
        if bundle not in known:
            listed = ", ".join(known) or "none"
            raise Refusal(f"the package {package.name} has no bundle `{bundle}` (bundles: {listed})")
    chosen, reason = (corpus, "given with `--corpus`") if corpus else most_markdown(root)
    try:
        chosen = normalize(chosen) or "."
    except OutsidePath:
        raise Refusal(f"`--corpus {corpus}` leaves the repository") from None
    ordered = tuple(sorted(set(bundles)))
    return Binding(chosen, reason, package, ordered, namespace, schemes_of(package, ordered))


def declaration_text(binding: Binding) -> str:
    bundles = "[" + ", ".join(binding.bundles) + "]"
    return (
        "# Binds this repository to a taxonomy package. `headwater taxonomy resolve` reads it\n"
        "# and writes .headwater/taxonomy.lock, which every other verb reads.\n"
        "taxonomy:\n"
        f"  package: {binding.package.name}\n"
        f"  version: {binding.package.version}\n"
        f"  bundles: {bundles}\n"
        f"  overlay: {OVERLAY}\n"
        "corpus:\n"
        f"  root: {binding.corpus}\n"
        "  # exclude:\n"
        f'  #   - {{path: "{binding.corpus}/archive/**", reason: "frozen material we no longer govern"}}\n'
    )


def overlay_text(binding: Binding) -> str:
    head = (f"# This repository's own layer over {binding.package.name}: add, override, remove,\n"
            "# add_to and remove_from, each on dotted addresses.\n")
    lines = [f"  identifier_schemes.{s}.namespace: {binding.namespace or 'ACME'}" for s in binding.schemes]
    if binding.namespace or not binding.schemes:
        return head + ("add:\n" + "\n".join(lines) + "\n" if lines else "add: {}\n")
    question = ("# QUESTION: which namespace opens this repository's identifiers (ACME in ACME-DR-0001)?\n"
                "# The package cannot know it. Replace `add: {}` below with, for your namespace:\n"
                "# add:\n" + "".join(f"#{line}\n" for line in lines))
    return head + question + "add: {}\n"


def write(root: Path, binding: Binding) -> list[str]:
    with writelock.held(root):
        atomic.create_exclusive(root / DECLARATION, declaration_text(binding).encode("utf-8"), root=root)
        try:
            atomic.create_exclusive(root / OVERLAY, overlay_text(binding).encode("utf-8"), root=root)
        except FileExistsError:
            atomic.remove(root / DECLARATION, root=root)
            raise Refusal(f"this repository is already bound: {OVERLAY} exists") from None
    return [DECLARATION, OVERLAY]


def report(binding: Binding, written: list[str]) -> str:
    lines = [f"wrote {path}" for path in written]
    lines += ["", "what this read off the tree",
              f"  corpus root {binding.corpus}: {binding.corpus_reason}",
              f"  package {binding.package.name} {binding.package.version} ({binding.package.label})"]
    if binding.bundles:
        lines.append(f"  bundles {', '.join(binding.bundles)}")
    asked = [] if binding.namespace else [f"  the identifier namespace of {', '.join(binding.schemes)}"]
    if asked:
        lines += ["", "what it cannot read off a tree, and asked instead", *asked,
                  f"Answer it in {OVERLAY}, then run `headwater taxonomy resolve`"]
    else:
        lines += (["", f"  namespace {binding.namespace} for {', '.join(binding.schemes)}"] if binding.schemes else [])
        lines += ["", "Next: run `headwater taxonomy resolve`"]
    return "\n".join(lines) + "\n"
