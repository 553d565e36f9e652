"""The claim store `.headwater/ids/<scheme>/<id>` as a run reads it: each claim's bytes, and the
path it records (`headwater.writes.minting` creates claims; the census's forked reader reads them
beside the corpus, and `identifier.claim.stale` judges them)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from headwater.announcements import LISTING, READS

CLAIMS = ".headwater/ids"


# (identifier, the path its claim records) for every entry of a scheme's store, by name
Claims = list[tuple[str, "str | None"]]


def claim_text(path: str) -> str | None:
    """What a claim file holds for the document at `path`: the path on one line; None where a
    claim cannot hold it, the path holding a line break or blanks at an end, which the reader
    (`_claimant`: the first line, trimmed) would not give back."""
    return path + "\n" if path.splitlines() == [path] and path.strip() == path else None


def read_claims(root: Path, scheme: str) -> Claims:
    """(identifier, the path its claim records) for every entry of a scheme's store, by name. The
    scheme's directory is opened once (never through a link) and each claim relative to it, so the
    kernel resolves one name per claim and no claim is read through a link or out of the root.
    What a replay finds again (HW-DR-0037) is announced once for the store: its listing, then the
    bytes of every claim read."""
    folder = os.path.join(root, CLAIMS, scheme)
    try:
        directory = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:  # no store for the scheme, or a link where its directory should be
        return []
    try:
        with os.scandir(directory) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
        sys.audit(LISTING, folder, entries)
        claims = [(entry.name, _claim(directory, entry.name)) for entry in entries]
        sys.audit(READS, folder, [(name, data) for name, data in claims if data is not None])
    finally:
        os.close(directory)
    return [(name, _claimant(data)) for name, data in claims]


def _claim(directory: int, name: str) -> bytes | None:
    """A claim file's bytes, or None when it is unreadable or not a regular file (a link, a
    folder, a fifo: opened without blocking and never read)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=directory)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, 1 << 16)  # a claim is one line: one read holds it, and the rest is read if not
        if len(data) == 1 << 16:
            data += b"".join(iter(lambda: os.read(fd, 1 << 16), b""))
        return data
    except OSError:
        return None
    finally:
        os.close(fd)


def _claimant(data: bytes | None) -> str | None:
    """The path a claim's bytes record, or None when there are none or they are empty or not UTF-8."""
    try:
        text = data.decode("utf-8").strip() if data is not None else ""
    except UnicodeDecodeError:
        return None
    return text.splitlines()[0].strip() if text else None
