"""`headwater init`: bind a repository to a taxonomy package, asking what the tree cannot say."""

from __future__ import annotations

import copy
import re
from pathlib import Path

from headwater import atomic, writelock
from headwater.adoption import adr_tools, shelf_paths, site
from headwater.adoption.infer import Inference, infer, namespace_for
from headwater.adoption.overlay_inference import Inferred, facet_for_role, infer_overlay
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.paths import OutsidePath, normalize
from headwater.taxonomy.canonical import dump, scalar
from headwater.taxonomy.declaration import DECLARATION, LOCK
from headwater.taxonomy.overlay import apply_overlay
from headwater.taxonomy.package import Package, find_package
from headwater.taxonomy.resolve import _plain_of, bundle_order, package_source, resolve
from headwater.textsafe import shown
from headwater.writes.batch import BatchFailed, FileWrite, put_back, write_all

OVERLAY = ".headwater/overlay.yml"
INIT = "`headwater init`"
DEFAULT_PACKAGE = "headwater/standard"
OTHER_NAMESPACE = "DOC"  # other schemes, whose prefixes must not overlap `ADR-`
NAMESPACE = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")


@frozen
class Binding:
    corpus: str
    corpus_reason: str
    package: Package
    bundles: tuple[str, ...]
    namespace: str | None
    schemes: tuple[str, ...]
    inferred: Inferred | None = None  # what the records (or a site's pages) already on disk say
    namespace_reason: str = ""
    site_root: site.SiteRoot | None = None
    adr_tools: tuple[str, ...] = ()  # what `adopt` will do to adr-tools' reading of the records, if they are its


def package_tree(package: Package, bundles: tuple[str, ...]) -> dict:
    """The package with its selected bundles applied: what an overlay will be written against."""
    base = _plain_of(package_source(package, package.taxonomy_file))
    tree = copy.deepcopy(base)
    for name in bundle_order(package, bundles):
        plain = _plain_of(package_source(package, package.bundle_file(name)))
        apply_overlay(tree, {"add": plain.get("add") or {}}, name)
    return tree


def schemes_of(package: Package, bundles: tuple[str, ...]) -> tuple[str, ...]:
    return tuple((package_tree(package, bundles).get("identifier_schemes") or {}).keys())


def _refuse_bound(root: Path) -> None:
    """Refuse a repository holding any file `init` writes, naming those there and the way on: a
    declaration without its lock is an `init` that stopped short (or waits for its namespace)."""
    there = [path for path in (DECLARATION, OVERLAY, LOCK) if (root / path).exists()]
    if not there:
        return
    names = " and ".join(filter(None, (", ".join(there[:-1]), there[-1])))
    verb = "exists" if len(there) == 1 else "exist"
    them = "it" if len(there) == 1 else "them"
    if DECLARATION not in there:
        raise Refusal(f"this repository is not bound, yet {names} {verb}, left from an earlier binding; "
                      f"remove {them} and run `headwater init` again")
    if LOCK not in there:
        raise Refusal(f"this repository is half bound: {names} {verb}, but not {LOCK}. Run `headwater taxonomy "
                      f"resolve` to finish binding it, or remove {them} to start over")
    raise Refusal(f"this repository is already bound: {names} {verb}. Edit the declaration or the overlay and "
                  f"run `headwater taxonomy resolve`, or remove {them} to start over")


def plan(root: Path, corpus: str | None, package_name: str | None, bundles: list[str],
         namespace: str | None) -> Binding:
    _refuse_bound(root)
    if namespace is not None and not NAMESPACE.match(namespace):
        raise Refusal(f"`--namespace` takes ASCII letters and digits (A-Z, a-z, 0-9), starting with a letter, and "
                      f"`{shown(namespace)}` is not that")
    package = find_package(root, package_name or DEFAULT_PACKAGE)
    known = package.bundle_names()
    for bundle in bundles:
        if bundle not in known:
            listed = ", ".join(known) or "none"
            raise Refusal(f"the package {package.name} has no bundle `{shown(bundle)}` (bundles: {listed})")
    inference = infer(root)
    chosen, reason = (corpus, "given with `--corpus`") if corpus else (inference.corpus, inference.corpus_reason)
    try:
        chosen = normalize(chosen) or "."
    except OutsidePath:
        raise Refusal(f"`--corpus {shown(corpus)}` leaves the repository") from None
    ordered = tuple(sorted(set(bundles)))
    shelf = inference.shelf
    inside = shelf is not None and (chosen in (".", shelf.folder) or shelf.folder.startswith(chosen + "/"))
    tree = package_tree(package, ordered)
    inferred = infer_overlay(tree, inference, namespace is None) if inside else None
    said = ""
    if namespace is None and inferred is not None:  # records are named already; a namespace only prefixes
        namespace = shelf.prefix.upper() if shelf.prefix else namespace_for(shelf.folder)
        said = (f"`{namespace}` for the records and `{OTHER_NAMESPACE}` for other schemes (the records' names "
                "give their identifiers already; `--namespace` names one of your own)")
    if shelf is None:
        inferred = _typed_pages(root, tree, inference, chosen)
    inferred = shelf_paths.placed(tree, chosen, inference.markdown, inferred)
    inferred = shelf_paths.apart(tree, shelf if inside else None, inferred)
    readers = adr_tools.title_readers(root, [(r.path, r.first_line) for r in shelf.records]) if inside else None
    told = adr_tools.said(readers, "`headwater adopt` writes", facet_for_role(tree, "name")) if readers else ()
    return Binding(chosen, reason, package, ordered, namespace, schemes_of(package, ordered), inferred, said,
                   inference.site_root, told)


def _typed_pages(root: Path, tree: dict, inference: Inference, corpus: str) -> Inferred | None:
    """A site's pages no shelf of the package claims, typed by a kind of the team's overlay."""
    found = site.pages(root, list(inference.markdown), corpus, facet_for_role(tree, "name"),
                       facet_for_role(tree, "scent"), inference.site_root.roots if inference.site_root else ())
    proposed = site.overlay(tree, found) if found is not None else None
    if proposed is None:
        return None
    return Inferred(proposed.add, proposed.override, proposed.remove, (), proposed.said)


def _exclusions(binding: Binding) -> str:
    pages = binding.inferred.exclusions if binding.inferred else ()
    if not pages:
        return ("  # exclude:\n"
                f'  #   - {{path: "{binding.corpus}/archive/**", reason: "frozen material we no longer govern"}}\n')
    return "  exclude:\n" + "".join(f"    - {{path: {scalar(path)}, reason: {scalar(reason)}}}\n"
                                    for path, reason in pages)


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
        + _exclusions(binding)
        + (_site_roots(binding.site_root) if binding.site_root else "")
    )


def _site_roots(found: site.SiteRoot) -> str:
    roots = ", ".join(scalar(r) for r in found.roots)
    return ("  # where a link opening with `/` lands, as the site publishes it (read off the tree)\n"
            f"  site_roots: [{roots}]\n")


def _namespace(binding: Binding, scheme: str) -> str:
    if binding.namespace_reason and binding.inferred is not None and scheme != binding.inferred.scheme:
        return OTHER_NAMESPACE
    return binding.namespace or "ACME"


def overlay_text(binding: Binding) -> str:
    head = (f"# This repository's own layer over {binding.package.name}: add, override, remove,\n"
            "# add_to and remove_from, each on dotted addresses.\n")
    lines = [f"  identifier_schemes.{s}.namespace: {_namespace(binding, s)}" for s in binding.schemes]
    asked = binding.namespace is None and bool(binding.schemes)
    if binding.inferred is not None:  # the question's lines wait commented under `add:`, to uncomment in place
        question = (QUESTION + "# The package cannot know it. Uncomment the lines under `add:` below and write your "
                    "namespace in them.\n") if asked else ""
        return head + question + _inferred_text(binding.inferred, [f"  #{line[1:]}" for line in lines] if asked
                                                else lines)
    if not asked:
        return head + ("add:\n" + "\n".join(lines) + "\n" if lines else "add: {}\n")
    return head + _question(lines, "Replace `add: {}` below with") + "add: {}\n"


QUESTION = "# QUESTION: which namespace opens this repository's identifiers (ACME in ACME-DR-0001)?\n"


def _question(lines: list[str], how: str) -> str:
    return (QUESTION + f"# The package cannot know it. {how}, for your namespace:\n"
            "# add:\n" + "".join(f"#{line}\n" for line in lines))


def _inferred_text(inferred: Inferred, namespace_lines: list[str]) -> str:
    """The inferred operations, each preceded by the sentence that says why it is there."""
    out = ["# Read off the files already in this repository by `headwater init`:"]
    out += [f"#   {line}" for line in inferred.said]
    out.append("add:")
    out += namespace_lines
    out += _indented(inferred.add)
    if inferred.override:
        out += ["override:", *_indented(inferred.override)]
    if inferred.remove:
        out += ["remove:", *(f"  - {scalar(address)}" for address in inferred.remove)]
    return "\n".join(out) + "\n"


def _indented(operations: dict) -> list[str]:
    return [f"  {line}" for line in dump(operations).rstrip("\n").split("\n")] if operations else []


def write(root: Path, binding: Binding) -> list[str]:
    """Write the declaration, the overlay and (when the namespace is known) the lock: all of them,
    or, on a failure or an interrupt, none."""
    batch = [FileWrite(DECLARATION, None, declaration_text(binding).encode("utf-8")),
             FileWrite(OVERLAY, None, overlay_text(binding).encode("utf-8"))]
    with writelock.held(root):
        try:
            write_all(root, batch, lambda item: None)
        except BatchFailed as failed:
            if isinstance(failed.cause, FileExistsError):
                _refuse_bound(root)  # another `init` won the race: say what it left, as a rerun would
            if isinstance(failed.cause, writelock.Interrupted):
                raise Refusal(f"{failed.cause.sentence}, so {INIT} wrote nothing") from None
            raise failed.cause from None
        if binding.namespace is None and binding.schemes:
            return [DECLARATION, OVERLAY]  # the namespace question stands between these and a lock
        written = list(batch)
        try:
            resolution = resolve(root)
            if resolution.problems:  # an inference the package does not admit: leave nothing half-bound
                raise Refusal("the overlay read off this tree does not validate, so nothing was written; "
                              "pass `--corpus` to choose the corpus yourself", *resolution.problems)
            with writelock.steady():  # the lock and the note that it landed, together
                atomic.write_bytes(root / LOCK, resolution.lock_text().encode("utf-8"), root=root)
                written.append(FileWrite(LOCK, None, b""))
        except (OSError, Refusal) as error:
            with writelock.steady():
                put_back(root, written)
            if isinstance(error, writelock.Interrupted):
                raise Refusal(f"{error.sentence}, so {INIT} put back every file it had written") from None
            raise
    return [DECLARATION, OVERLAY, LOCK]


def report(binding: Binding, written: list[str], to_adopt: int = 0) -> str:
    """What was written and read off the tree, and the next verb: `adopt` while `to_adopt` records
    keep in their bodies or names what their front matter lacks, since until then `check` reports
    each of them (untyped, or without its identifier)."""
    lines = [f"wrote {path}" for path in written]
    lines += ["", "what this read off the tree",
              f"  corpus root {binding.corpus}: {binding.corpus_reason}",
              f"  package {binding.package.name} {binding.package.version} ({binding.package.label})"]
    if binding.site_root is not None:
        lines.append(f"  {binding.site_root.said}")
    if binding.inferred is not None:
        lines += [f"  {line}" for line in binding.inferred.said]
    if binding.namespace_reason:
        lines.append(f"  namespace {binding.namespace_reason}")
    if binding.bundles:
        lines.append(f"  bundles {', '.join(binding.bundles)}")
    lines += ["", *binding.adr_tools] if binding.adr_tools else []
    asked = [] if binding.namespace else [f"  the identifier namespace of {', '.join(binding.schemes)}"]
    if asked:
        lines += ["", "what it cannot read off a tree, and asked instead", *asked,
                  f"Answer it in {OVERLAY}, then run `headwater taxonomy resolve`"]
    else:
        named = binding.schemes and not binding.namespace_reason  # a defaulted namespace was said above
        lines += (["", f"  namespace {binding.namespace} for {', '.join(binding.schemes)}"] if named else [])
        lines += ["", _next(written, to_adopt)]
    return "\n".join(lines) + "\n"


def _next(written: list[str], to_adopt: int) -> str:
    if not written:  # a dry run
        return "Next: run `headwater init` without `--dry-run` to write these files"
    if LOCK not in written:
        return "Next: run `headwater taxonomy resolve`"
    if to_adopt:
        documents = "document" if to_adopt == 1 else "documents"
        return (f"Next: run `headwater adopt`, which writes into the front matter of {to_adopt} {documents} "
                "what the bodies and file names say (title, status, date, identifier), then `headwater check`")
    return "Next: run `headwater check`"


def dry_run(binding: Binding) -> str:
    """What `init` would write, file by file, then what it read off the tree; nothing is written."""
    parts = [f"# {DECLARATION}\n{declaration_text(binding)}", f"# {OVERLAY}\n{overlay_text(binding)}"]
    return "\n".join(parts) + "\n" + report(binding, []).lstrip("\n")
