"""What `init` and `adopt` tell a team that keeps its records with adr-tools (npryce/adr-tools).

adr-tools reads a record's title off its first line (`head -1`, less the `# `) wherever it names
a record: `adr generate toc`, `adr generate graph`, `adr link`, and `adr new -s`/`-l`, which link
through `adr link`'s helper. Front matter opens a file on line 1, so once `adopt` writes it those
commands print `-` for the title. headwater's contract is front matter, and no line 1 serves both
(HW-DR-0065): the verbs say so, in so many words, where adr-tools keeps the records they touch.
Nothing here writes.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from pathlib import Path

from headwater import inplace
from headwater.frozen import frozen
from headwater.paths import OutsidePath, normalize

ADR_DIR = ".adr-dir"  # adr-tools' file naming the folder of records, relative to the folder holding it
DEFAULT_FOLDER = "doc/adr"  # where adr-tools keeps records when no `.adr-dir` names another
TITLE_LINE = re.compile(r"^# \d+\. \S")  # `# 7. Use MADR`, the first line adr-tools' template writes
HEADING = re.compile(r"^# \S")  # a first line adr-tools reads as a title (`head -1`, less the `# `)
TEMPLATE = "templates/template.md"  # where `adr new` finds a team's own template, in the folder of records
PLACEHOLDER = b"TITLE"  # what `adr new` replaces with the title in a team's template


@frozen
class TitleReaders:
    """adr-tools' folder of records, how it is known, and how many records there open with the
    title line that front matter would push down."""

    folder: str
    named: str
    records: int


def first_line(text: str) -> str:
    return text.removeprefix("\ufeff").split("\n", 1)[0].rstrip("\r")


def title_readers(root: Path, records: Iterable[tuple[str, str]]) -> TitleReaders | None:
    """adr-tools' reading of `records` ((path, first line) pairs) in this repository, or None where
    it is not adr-tools' or none of them lies in its folder opening with a title adr-tools reads.

    The repository is adr-tools' where `.adr-dir` names the folder, where the folder keeps a team's
    own template (whose line 1 may be `# TITLE`, so its records carry no number), or where a record
    there opens with adr-tools' own `# N. Title`."""
    found = _folder(root)
    if found is None:
        return None
    folder, named, marked = found
    lines = [line for path, line in records if posixpath.dirname(path) == folder]
    if not (marked or _template(root, folder) or any(TITLE_LINE.match(line) for line in lines)):
        return None
    count = sum(1 for line in lines if HEADING.match(line))
    return TitleReaders(folder, named, count) if count else None


def _folder(root: Path) -> tuple[str, str, bool] | None:
    """The folder adr-tools keeps this repository's records in, as it finds it from the root, the
    sentence saying how, and whether a `.adr-dir` named it (a mark only adr-tools leaves)."""
    try:
        named = inplace.read(root, ADR_DIR).decode("utf-8").strip()
    except FileNotFoundError:
        said = f"`{DEFAULT_FOLDER}` is adr-tools' folder of records where no `{ADR_DIR}` names another"
        return DEFAULT_FOLDER, said, False
    except (OSError, UnicodeDecodeError):
        return None  # a `.adr-dir` that does not read is no folder anyone's adr-tools uses
    try:
        folder = normalize(named)
    except OutsidePath:
        return None
    return folder, f"`{ADR_DIR}` names `{folder}`, adr-tools' folder of records", True


def named_folder(root: Path) -> str | None:
    """The folder a `.adr-dir` names, where one does: a folder of records whatever it is called."""
    found = _folder(root)
    return found[0] if found is not None and found[2] else None


def _template(root: Path, folder: str) -> bool:
    """Whether the folder keeps a template `adr new` fills in: a team's own, with its `TITLE`."""
    try:
        return PLACEHOLDER in inplace.read(root, f"{folder}/{TEMPLATE}")
    except OSError:
        return False


def said(readers: TitleReaders, writes: str, name_facet: str | None) -> tuple[str, ...]:
    """The paragraph the verbs print: which commands read line 1, what `writes` (`headwater adopt
    writes`, `this run wrote`) does to it, and what to do instead."""
    records = "record" if readers.records == 1 else "records"
    kept = f"each title stays in the front matter's `{name_facet}`; " if name_facet else ""
    return ("adr-tools reads a record's title off its first line",
            f"  {readers.named}: `adr generate toc`, `adr generate graph`, `adr link` and `adr new -s`/`-l` "
            "read a record's title there with `head -1`",
            f"  {writes} front matter on line 1 of {readers.records} {records} in `{readers.folder}`, so those "
            "commands then print `-` for their titles; `adr new` without `-s`/`-l` and `adr list` keep working",
            f"  instead: {kept}write links between records as `relations:` in front matter (`headwater new "
            "--relates` writes both ends, `headwater check` keeps them true), and after each `adr new` run "
            "`headwater adopt` (the new record's front matter and links), then `headwater check --fix` (the state "
            "of a record it superseded)")
