"""Record metadata written in the body, the way the common decision-record tools write it.

- adr-tools / Nygard: a `Date: 2016-02-12` line, a `## Status` section whose first words are the
  status and whose `Superseded by [..](..)` / `Supersedes [..](..)` lines link the chain;
- MADR / log4brains: bullets `- Status: accepted`, `* Date: 2020-10-16`, `- Supersedes [..](..)`;
- a sidecar metadata file beside the record (a KEP's `kep.yaml` beside its `README.md`): `status`,
  `last-updated` or `creation-date`, `replaces` and `superseded-by` (paths or numbers).

What this reads is what `headwater adopt` writes into front matter and what `init` learns the
team's status vocabulary from. Nothing here writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from headwater.frozen import frozen
from headwater.yaml.nodes import Map, Scalar, Seq, scalar_text
from headwater.yaml.strict import YamlRefusal, load

LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?[^)]*\)")
DATE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?date(?:\*\*)?\s*:\s*(?:\*\*)?\s*(\d{4}-\d{2}-\d{2})\b", re.I)
STATUS_LINE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?status(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.+)$", re.I)
# A template's status line, also as a comment in its front matter (MADR: `# status: "{proposed | …"`).
OFFERED_LINE = re.compile(r"^\s*(?:#\s*)?(?:[-*+]\s+)?(?:\*\*)?status(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.+\|.+)$", re.I)
DATE_VALUE = re.compile(r"^\d{4}-\d{2}-\d{2}")
SUPERSEDED_BY = re.compile(r"\bsuperseded\s+by\b", re.I)
SUPERSEDES = re.compile(r"^\s*(?:[-*+]\s+)?supersedes\b", re.I)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
NUMBERED_TITLE = re.compile(r"^\d+\.\s+")
FENCE = re.compile(r"^\s*(```|~~~)")
# An image, as HTML (`<img … alt="Dapr Docs">`) or Markdown (`![Dapr Docs](logo.png)`), and its alt text.
IMAGE = re.compile(r"<img\b[^>]*?(?:\balt\s*=\s*[\"']([^\"']*)[\"'][^>]*)?>|!\[([^\]]*)\]\([^)]*\)", re.I)
TAG = re.compile(r"</?[A-Za-z][^>]*>")
SIDECARS = ("kep.yaml", "metadata.yaml")  # metadata files a record folder keeps beside its README
SIDECAR_DATES = ("last-updated", "creation-date", "date")


@frozen
class Derived:
    """What a record's body says about it; every field is None or empty when the body is silent."""

    title: str | None
    status: str | None  # lowercased, link text dropped: `Superseded by [..](..)` → `superseded`
    date: str | None  # YYYY-MM-DD
    supersedes: tuple[str, ...]  # link targets, as written (relative to the record)
    superseded_by: tuple[str, ...]
    pictured: str | None = None  # the alt text of an image that is all the first heading shows: no title
    unread: str | None = None  # a status as written that names no one status (a template's `a|b|c`)

    @property
    def says_anything(self) -> bool:
        return bool(self.status or self.unread or self.date or self.supersedes or self.superseded_by)


def prose_lines(body: str) -> list[str]:
    """The body without fenced code, so an example inside a fence is never read as metadata."""
    kept, fenced = [], False
    for line in body.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        kept.append("" if fenced else line)
    return kept


def status_word(text: str) -> str | None:
    """`Superseded by [3. x](0003-x.md)` → `superseded`; `Accepted` → `accepted`; a template's
    `[draft | proposed | …]` or an empty line → None."""
    text = re.sub(r"<!--.*?-->", "", text).strip().strip("*_").strip()
    if not text or text.startswith("[") or text.startswith("{"):
        return None
    head = LINK.split(text, maxsplit=1)[0] if LINK.search(text) else text
    head = re.split(r"[\[(,;]|\s+by\b|\s+on\b\s+\d", head, maxsplit=1, flags=re.I)[0]
    word = " ".join(head.strip().strip(".:").lower().split())
    return word if word and len(word) <= 30 and re.fullmatch(r"[a-z][a-z -]*", word) else None


def named_successor(status: str) -> tuple[str, tuple[str, ...]] | None:
    """A front-matter status that also names the record's successor, as MADR's template offers it
    (`superseded by ADR-0123`, or a link to it): the state word and the successor as written. None
    for any other status, which is the team's word as it stands."""
    found = SUPERSEDED_BY.search(status)
    word = status_word(status) if found else None
    if word is None:
        return None
    after = status[found.end():].strip()
    return word, tuple(LINK.findall(after)) or tuple(after.split()[:1])


def offered_statuses(text: str) -> tuple[str, ...]:
    """The statuses a template offers on its status line, each as a record would carry it:
    `- Status: [draft | proposed | … | superseded by [xxx](yyyymmdd-xxx.md)]` (log4brains) or, commented
    in its front matter, `# status: "{proposed | rejected | … | superseded by ADR-0123"` (MADR)."""
    line = next((m.group(1) for m in map(OFFERED_LINE.match, prose_lines(text)) if m), None)
    if line is None:
        return ()
    choices = re.sub(r"<!--.*?-->", "", line).strip().strip("\"'").strip()
    choices = choices.removeprefix("[").removeprefix("{").removesuffix("]").removesuffix("}")
    words = (status_word(choice) for choice in choices.split("|"))  # `…` is no word
    return tuple(dict.fromkeys(word for word in words if word))


def headings(body: str, level: int = 2) -> tuple[str, ...]:
    """The headings of one level, as written, without a trailing HTML comment."""
    return tuple(m.group(2).split("<!--")[0].strip() for m in map(HEADING.match, prose_lines(body))
                 if m and len(m.group(1)) == level)


def read(body: str) -> Derived:
    every = prose_lines(body)
    lines = _head(every)
    first = next((m.group(2) for m in map(HEADING.match, lines) if m and m.group(1) == "#"), None)
    title = _plain(NUMBERED_TITLE.sub("", first)) if first else None
    pictured = _pictured(first) if first and title is None else None
    date = next((m.group(1) for m in map(DATE.match, lines) if m), None)
    status, unread, supersedes, superseded_by = None, None, [], []
    for line in _status_lines(lines):
        bullet = STATUS_LINE.match(line)
        text = bullet.group(1) if bullet else line
        if SUPERSEDED_BY.search(text):
            superseded_by += LINK.findall(text)
        elif SUPERSEDES.match(text):
            supersedes += LINK.findall(text)
        if status is None and not SUPERSEDES.match(text):
            status = status_word(text)
            unread = unread or (_unread(text) if bullet and status is None else None)
    # a `- Supersedes [..](..)` bullet may stand under a later `## Links` section too
    later = [line for line in every if line not in lines and SUPERSEDES.match(line)]
    supersedes += [href for line in later for href in LINK.findall(line)]
    return Derived(title, status, date, tuple(dict.fromkeys(supersedes)), tuple(superseded_by), pictured,
                   None if status else unread)


def _unread(text: str) -> str | None:
    """A status line's text that was written yet names no status, as it stands; None for a blank one."""
    shown = " ".join(re.sub(r"<!--.*?-->", "", text).split())
    return shown or None


def _plain(heading: str) -> str | None:
    """A heading as a title reads: the text a reader sees, a link by its text, images and other tags
    dropped. An image's alt text is what stands in for a picture, not a title shown on the page."""
    text = TAG.sub("", IMAGE.sub("", heading))
    text = " ".join(LINK.sub(lambda m: m.group(0)[1:m.group(0).index("]")], text).split())
    return text or None


def _pictured(heading: str) -> str | None:
    """The alt text of the image a heading shows in place of text, if it shows one."""
    found = IMAGE.search(heading)
    return " ".join((found.group(1) or found.group(2) or "").split()) if found else None


def _head(lines: list[str]) -> list[str]:
    """Where record tools put metadata: above the first section, and the `## Status` section itself.
    A `Status:` further down is prose about something else."""
    kept, in_status, seen_section = [], False, False
    for line in lines:
        heading = HEADING.match(line)
        if heading and len(heading.group(1)) >= 2:
            seen_section = True
            in_status = heading.group(2).strip().lower() == "status"
        if not seen_section or in_status:
            kept.append(line)
    return kept


def _status_lines(lines: list[str]) -> list[str]:
    """The lines that carry status and succession: a `Status:` bullet and the `Supersedes` bullets
    beside it, or the paragraphs of a `## Status` section."""
    found: list[str] = []
    in_section = False
    for line in lines:
        heading = HEADING.match(line)
        if heading:
            in_section = heading.group(2).strip().lower() == "status"
            continue
        if (in_section and line.strip()) or STATUS_LINE.match(line) or SUPERSEDES.match(line):
            found.append(line)
    return found


def sidecar_beside(root: Path, path: str) -> str | None:
    """The text of a sidecar metadata file in the record's own folder, when there is one."""
    folder = (root / path).parent
    for name in SIDECARS:
        candidate = folder / name
        if candidate.is_file() and not candidate.is_symlink():
            try:
                return candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return None
    return None


def _texts(node) -> tuple[str, ...]:
    if isinstance(node, Scalar):
        return tuple(t.strip() for t in node.text.split(",") if t.strip())  # `a, b` is a list too
    if isinstance(node, Seq):
        return tuple(t for item in node.items for t in _texts(item))
    return ()


def read_sidecar(text: str) -> Derived | None:
    """A sidecar's metadata; its `replaces` / `superseded-by` entries are kept as written
    (a repository path such as `/keps/sig-x/583-y`, or a number)."""
    try:
        node = load(text)
    except YamlRefusal:
        return None
    if not isinstance(node, Map):
        return None
    status = next(iter(_texts(node.get("status"))), None)
    word = status_word(status) if status else None
    date = next((d[:10] for key in SIDECAR_DATES for d in _texts(node.get(key)) if DATE_VALUE.match(d)), None)
    title = (scalar_text(node.get("title")) or "").strip() or None  # one text, commas and all
    return Derived(title, word, date, _texts(node.get("replaces")), _texts(node.get("superseded-by")),
                   unread=_unread(status) if status and word is None else None)


def derive(body: str, sidecar: str | None, template_titles: frozenset[str] = frozenset()) -> Derived:
    """What a sidecar beside the record says (the team keeps its metadata there), else the body. A
    sidecar with no title, or still the one its template's sidecar carries (`KEP Template`, copied
    and never renamed), leaves the title to the heading a reader sees."""
    from_sidecar = read_sidecar(sidecar) if sidecar is not None else None
    if from_sidecar is None or not from_sidecar.says_anything:
        return read(body)
    if from_sidecar.title and from_sidecar.title not in template_titles:
        return from_sidecar
    from_body = read(body)
    return replace(from_sidecar, title=from_body.title, pictured=from_body.pictured)


def template_titles(root: Path, templates: Iterable[str]) -> frozenset[str]:
    """The titles the sidecars beside these template pages carry: a record's sidecar that still
    says one was copied from the template, and names nothing."""
    read_ = (read_sidecar(text) for page in templates if (text := sidecar_beside(root, page)) is not None)
    return frozenset(derived.title for derived in read_ if derived is not None and derived.title)
