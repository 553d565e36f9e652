"""What `init` reads off an existing tree: where the records are, how they are numbered, which
metadata they already carry and in which words, and what sits beside them that is not a record.

The result is a set of overlay operations plus one sentence per inference, so a team sees why
each line of its overlay is there. Nothing here writes.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

from headwater import inplace
from headwater.adoption import adr_tools, corpus_root, forms
from headwater.adoption.site import SiteRoot, site_root
from headwater.corpus.frontmatter import FrontMatterRefusal, split
from headwater.frozen import frozen
from headwater.reads.route.ignored import ignored
from headwater.yaml.nodes import Map, Scalar

SKIP = {"node_modules", "vendor", "third_party", "site-packages", "dist", "build", "target"}
# How records are numbered: the file (or folder) name pattern and the layout `new` writes.
NUMBERINGS = (
    # three or four digits then a dash, but not a date's year (`2023-05-01-title.md` is the last
    # numbering); the layout is the names' own, as wide as they write the number
    (re.compile(r"^(\d{3,4})-(?!\d\d-\d\d-)[^/]+\.md$"), "", "NNNN-slug.md"),
    (re.compile(r"^(\d{8})-[^/]+\.md$"), "{entered:yyyymmdd}-{slug}.md", "YYYYMMDD-slug.md"),
    (re.compile(r"^(\d+)-[^/]+/README\.md$"), "{seq}-{slug}/README.md", "NNN-slug/README.md"),
    (re.compile(r"^(\d{4}-\d\d-\d\d)-[^/]+\.md$"), "{entered}-{slug}.md", "YYYY-MM-DD-slug.md"),
    # a word, then a zero-padded number (`ADR-001-x.md`, `adr-0001-x.md`): the layout is the names' own
    (re.compile(r"^([A-Za-z]+-\d{3,})-[^/]+\.md$"), "", "ADR-NNN-slug.md"),
)
NUMBERED = re.compile(r"^(?:([A-Za-z]+)-)?(\d+)-")
# The roles common status words play; a word not here is a live state.
STATUS_ROLES = {
    "proposed": "initial", "draft": "initial", "provisional": "initial", "implementable": "live",
    "accepted": "live", "approved": "live", "current": "live", "active": "live", "implemented": "live",
    "final": "live", "living": "live", "on hold": "live", "review": "initial", "last call": "live",
    "superseded": "terminal-retained", "deprecated": "terminal-retained", "rejected": "terminal-retained",
    "withdrawn": "terminal-retained", "obsolete": "terminal-retained", "stagnant": "terminal-retained",
    "declined": "terminal-retained", "replaced": "terminal-retained", "removed": "terminal-retained",
    "deferred": "live",
}
RECORD_FOLDERS = {"adr", "adrs", "decisions", "decision-records", "architecture-decisions"}  # say "records here"
# A template numbered 0 to sort first (Rust's `0000-template.md`, a KEP's `0000-cloud-provider-template/`):
# named like a record, it is a page beside them that a new record copies, and no record to adopt.
NUMBERED_TEMPLATE = re.compile(r"(?:^|/)0+-(?:[^/]*-)?template(?:-[^/]*)?(?:\.md|/README\.md)$", re.I)
PAGE_NAMES = re.compile(r"^(readme|index|template|adr-template|_template|toc|summary)(\.[a-z]+)?\.md$", re.I)


@frozen
class Record:
    path: str  # repository-relative
    keys: dict[str, str]  # front-matter keys with scalar values
    derived: forms.Derived
    headings: tuple[str, ...]  # second-level headings
    voices: frozenset[str]  # the voice categories its prose uses (`future_intent`, …)
    first_line: str = ""  # where adr-tools reads its title, and front matter would open


@frozen
class RecordShelf:
    folder: str  # repository-relative, no trailing slash
    layout: str
    numbering: str
    records: tuple[Record, ...]
    pages: tuple[str, ...]  # index/template/README pages beside the records
    glob: str  # the shelf's path pattern
    template: str | None = None  # the template page beside the records that offers statuses
    offered: tuple[str, ...] = ()  # the statuses it offers, in its order
    below: tuple[str, ...] = ()  # Markdown in folders below flat records, neither a record nor a page
    prefix: str | None = None  # the word the records' names open with (`ADR` in `ADR-001-x.md`)


@frozen
class Inference:
    corpus: str
    corpus_reason: str
    shelf: RecordShelf | None
    markdown: tuple[str, ...] = ()  # every Markdown file of the tree, repository-relative
    site_root: SiteRoot | None = None


def _markdown_under(root: Path) -> list[str]:
    """Every Markdown file but those in a hidden, vendored or build folder, or one git ignores:
    nobody governs a generated site or a dependency's README."""
    found = []
    for top, dirs, files in os.walk(root):
        relative = os.path.relpath(top, root)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP
                         and not ignored(root, d if relative == "." else f"{relative}/{d}", folder=True))
        found += [name if relative == "." else f"{relative}/{name}" for name in sorted(files)
                  if name.lower().endswith(".md")]
    return found


def _record_folders(paths: list[str], named: str | None) -> list[tuple[str, int, int]]:
    """(folder, numbering index, how many records) for every folder holding two or more records, or
    one in a folder named for records or the folder `named` by adr-tools' `.adr-dir`: `adr init`
    starts its folder with a single record, while one `2024-roadmap.md` elsewhere is no numbering."""
    counts: Counter[tuple[str, int]] = Counter()
    for path in paths:
        for index, (pattern, _, _) in enumerate(NUMBERINGS):
            parts = path.split("/")
            depth = 2 if index == 2 else 1
            if len(parts) > depth and pattern.match("/".join(parts[-depth:])):
                counts["/".join(parts[:-depth]), index] += 1
                break
    return sorted(((folder, index, n) for (folder, index), n in counts.items()
                   if n >= 2 or folder == named or folder.rsplit("/", 1)[-1].lower() in RECORD_FOLDERS),
                  key=lambda item: (-item[2], item[0]))


def _read(root: Path, path: str) -> Record | None:
    try:
        text = inplace.read(root, path).decode("utf-8").removeprefix("\ufeff")
        parts = split(text)
    except (OSError, UnicodeDecodeError, FrontMatterRefusal):
        return None
    keys = {}
    if isinstance(parts.front, Map):
        keys = {k.text: v.text.strip() for k, v in parts.front.entries if isinstance(v, Scalar)}
    derived = forms.derive(parts.body, forms.sidecar_beside(root, path))
    return Record(path, keys, derived, forms.headings(parts.body), _voices(parts.body), adr_tools.first_line(text))


def _voices(body: str) -> frozenset[str]:
    from headwater.check.rules.voice import VOICE  # the patterns `voice.forbidden_construction` matches

    prose = "\n".join(line for line in forms.prose_lines(body) if not line.lstrip().startswith((">", "    ")))
    return frozenset(row[0] for row in VOICE if row[2].search(prose))  # (category, says, pattern, …)


def _offered(root: Path, pages: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """The first template page whose status line offers statuses, and those statuses: the states a
    team declared for its records, whether or not a record has reached one yet."""
    for page in pages:
        if "template" not in page.rsplit("/", 1)[-1].lower():
            continue
        try:
            offered = forms.offered_statuses(inplace.read(root, page).decode("utf-8").removeprefix("\ufeff"))
        except (OSError, UnicodeDecodeError):
            continue
        if offered:
            return page, offered
    return None, ()


def _common(folders: list[str]) -> str:
    parts = [f.split("/") for f in folders]
    common = []
    for segments in zip(*parts, strict=False):
        if len(set(segments)) != 1:
            break
        common.append(segments[0])
    return "/".join(common)


def infer(root: Path) -> Inference:
    paths = _markdown_under(root)
    site = site_root(root, paths)
    folders = _record_folders(paths, adr_tools.named_folder(root))
    if not folders:
        corpus, reason = corpus_root.choose(paths, None)
        return Inference(corpus, reason, None, tuple(paths), site)
    folder, index, _ = folders[0]
    _, layout, numbering = NUMBERINGS[index]
    pattern = NUMBERINGS[index][0]
    if index == 2:  # folder records (`NNNN-slug/README.md`) spread over sibling folders, as KEPs per SIG
        held = [f for f, i, _ in folders if i == 2]
        # a folder beside those holding a single record (a SIG with one KEP) is one of them too
        beside = {f.rsplit("/", 1)[0] for f in held if "/" in f}
        lone = {p.rsplit("/", 2)[0] for p in paths if p.count("/") > 2 and pattern.match("/".join(p.split("/")[-2:]))}
        folder = _common([*held, *(f for f in lone if f.rsplit("/", 1)[0] in beside)]) or folder
        inside = [p for p in paths if p.startswith(folder + "/") and p.endswith("/README.md")]
        record_paths = [p for p in inside if pattern.match("/".join(p.split("/")[-2:]))]
        pages = tuple(p for p in [*inside, f"{folder}/README.md"] if p not in record_paths and p in paths)
        glob = f"{folder}/**/README.md"
        others: tuple[str, ...] = ()
    else:
        below = [p for p in paths if p.startswith(folder + "/")]
        depth = folder.count("/") + 1
        record_paths = [p for p in below if p.count("/") == depth and pattern.match(p.rsplit("/", 1)[-1])]
        # a page at any depth: adr-tools keeps a team's own template in `templates/template.md` below
        # the records, which `adopt` must not number
        pages = tuple(p for p in below if p not in record_paths and PAGE_NAMES.match(p.rsplit("/", 1)[-1]))
        # a flat folder holds its records directly: notes in a folder below are no record to number
        others = tuple(p for p in below if p.count("/") > depth and p not in pages)
        glob = f"{folder}/*" if others else f"{folder}/**"
    prefix = None
    if not layout:  # read off every name the numbering matched, a template numbered 0 among them
        prefix, width = _numbered(record_paths)
        opening = f"{prefix}-" if prefix else ""
        layout, numbering = f"{opening}{{seq:0{width}d}}-{{slug}}.md", f"{opening}{'N' * width}-slug.md"
    pages = (*pages, *(p for p in record_paths if NUMBERED_TEMPLATE.search(p)))
    record_paths = [p for p in record_paths if p not in pages]
    records = tuple(r for r in (_read(root, p) for p in record_paths) if r is not None)
    corpus, reason = corpus_root.choose(paths, folder)
    pages = tuple(sorted(set(pages)))
    shelf = RecordShelf(folder, layout, numbering, records, pages, glob, *_offered(root, pages), below=others,
                        prefix=prefix)
    return Inference(corpus, reason, shelf, tuple(paths), site)


def _numbered(paths: list[str]) -> tuple[str | None, int]:
    """The word (if any) and the number's width most of the records' names are written with:
    (`ADR`, 3) for `ADR-001-x.md`, (None, 4) for `0001-x.md`."""
    spelled = Counter((m.group(1), len(m.group(2))) for p in paths if (m := NUMBERED.match(p.rsplit("/", 1)[-1])))
    return spelled.most_common(1)[0][0]


def namespace_for(folder: str) -> str:
    """The prefix a team's own record numbers are spoken with: KEP-2527, RFC-12, else ADR-0007."""
    segments = {segment.lower() for segment in folder.split("/")}
    return next((ns for ns, names in (("KEP", {"keps", "kep"}), ("RFC", {"rfcs", "rfc"}), ("PEP", {"peps"}))
                 if segments & names), "ADR")
