"""Reading a path a user or an agent typed: lexical normalization and confinement to the root."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from headwater.announcements import PROBE
from headwater.textsafe import by_its_start

NAME_MAX = 255  # bytes in one path component, on every file system headwater runs on
# a refusal repeats this much of a path that was typed: a component too long for any file system
# still shows whole, with the folders above it, and a path too long to look up shows its start
QUOTED = 2 * NAME_MAX


class OutsidePath(ValueError):
    """The path leaves the repository, or is not a path it can read."""


def normalize(text: str) -> str:
    """`\\` → `/`, each segment trimmed of the whitespace around it, drop empty and `.` segments,
    resolve `..` lexically; refuse a climb or an absolute path. The result is repository-relative,
    or "" for the root itself, and normalizing it again gives it back (a trailing space hidden
    before a `/` is trimmed as one at the end is)."""
    if "\x00" in text:
        raise OutsidePath(text)
    cleaned = text.strip().replace("\\", "/")
    if cleaned.startswith("/"):
        raise OutsidePath(text)
    parts: list[str] = []
    for segment in (part.strip() for part in cleaned.split("/")):
        if segment in ("", "."):
            continue
        if segment == "..":
            if not parts:
                raise OutsidePath(text)
            parts.pop()
        else:
            parts.append(segment)
    return "/".join(parts)


def quoted(text: str) -> str:
    """A typed path as a refusal repeats it (`QUOTED`)."""
    return by_its_start(text, QUOTED)


def inside(text: str) -> str:
    """`normalize`, with "" for a path that climbs out or is absolute: "" names no path inside."""
    try:
        return normalize(text)
    except OutsidePath:
        return ""


def relative_to_root(text: str, root: Path) -> str:
    """A typed path as the repository-relative form the census uses.

    `./x`, `a/../x` and an absolute path under the root all mean `x`. Anything else that
    leaves the root (absolute elsewhere, `..` above it, `~`, a symlink leading out, NUL,
    undecodable bytes) or that the system cannot look up (too long, a loop of links) raises
    OutsidePath.
    """
    if not is_text(text):  # a NUL is `normalize`'s to refuse
        raise OutsidePath(text)
    candidate = text.strip().replace("\\", "/")
    if candidate.startswith("/"):
        candidate = _under_root(candidate, root)
    relative = normalize(candidate)
    if any(len(segment.encode("utf-8")) > NAME_MAX for segment in relative.split("/")):
        raise OutsidePath(text)  # no file system holds such a name, so nothing there can be read
    try:
        leaves = _leaves_through_symlink(relative, root)
    except OSError:
        raise OutsidePath(text) from None
    if leaves or _unnameable(relative, root):
        raise OutsidePath(text)
    return relative


def is_text(text: str) -> bool:
    """Whether a string is Unicode text: an undecodable byte (argv) or a `\\ud800` escape (JSON)
    arrives as a lone surrogate, which no file name, document or answer can carry."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _under_root(absolute: str, root: Path) -> str:
    lexical = os.path.normpath(absolute)
    for base in {os.path.abspath(root), os.path.realpath(root)}:
        if _within(lexical, base):
            return lexical[len(base.rstrip("/")) + 1 :]  # the root itself slices to ""
    raise OutsidePath(absolute)


def _leaves_through_symlink(relative: str, root: Path) -> bool:
    """True when some component of the path is a symlink whose target is outside the root. Every
    link on the way is judged: one that stays inside may lead to a folder holding one that leaves."""
    if not relative:
        return False
    real_root = os.path.realpath(root)
    current = Path(root)
    for segment in relative.split("/"):
        current = current / segment
        sys.audit(PROBE, current)  # what replays a run looks here again (HW-DR-0037)
        if current.is_symlink():
            if not _within(os.path.realpath(current), real_root):
                return True
        elif not current.exists():
            return False
    return False


def _unnameable(relative: str, root: Path) -> bool:
    """True when the system cannot look the path up at all: too long as a whole (ENAMETOOLONG),
    a loop of links on the way (ELOOP), a folder this user may not search (EACCES). Every later
    look at the path would fail the same way, so it is judged here, once. A path that names
    nothing yet (ENOENT, or ENOTDIR below a file) is still one the repository could hold."""
    full = os.path.join(root, relative)
    sys.audit(PROBE, full)  # what replays a run looks here again (HW-DR-0037)
    try:
        os.stat(full)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    return False


def _within(target: str, real_root: str) -> bool:
    return target == real_root or target.startswith(real_root.rstrip("/") + "/")


def symlink_on_the_way(relative: str, root: Path) -> str | None:
    """The first component of `relative` (itself included) that is a symlink, if any."""
    current = Path(root)
    walked: list[str] = []
    for segment in relative.split("/") if relative else []:
        current = current / segment
        walked.append(segment)
        sys.audit(PROBE, current)  # what replays a run looks here again (HW-DR-0037)
        if current.is_symlink():
            return "/".join(walked)
        if not current.exists():
            return None
    return None
