"""What a reader derives from a document's bytes (route's stem counts), kept beside the parse cache.

`check` parses every body anyway, so it derives the values there (in the process that parsed the
body) and keeps them in `.headwater/cache/derived`, one line per content digest:
`<digest>\\t<JSON value>`, the value empty when there was no body to derive from. The file is
sealed like every cache file, and its header names both the parse cache's header (what shaped
the bodies) and the derivation's key (what shaped the values, e.g. a tokenizer's version and stop
words): a file written under another parser or key reads as empty. A reader that finds no value
derives it from the body itself, so what it answers never depends on the file being there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from headwater import cachedir
from headwater.corpus.body import Body
from headwater.frozen import frozen
from headwater.yaml.nodes import Map

DERIVED_FILE = "derived"


@frozen
class Derivation:
    """`of` gives a JSON value from a document's front matter and body (both its bytes' alone,
    never its path: two paths may share a digest); `key` names everything besides those bytes
    that shapes it, so a value derived otherwise is never read as this one."""

    key: str
    of: Callable[[Map, Body], object]

    def encoded(self, front: Map, body: Body) -> bytes:
        # no sort_keys: a mapping reads back in the order it was derived in, as if derived afresh
        return json.dumps(self.of(front, body), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def header(parsed_header: str, key: str) -> str:
    return f"headwater derived {key} from {parsed_header}"


def read(root: Path, parsed_header: str, key: str) -> dict[str, bytes]:
    """Each digest's encoded value ({} when the file is missing, foreign or of another key)."""
    payload = cachedir.read(root, DERIVED_FILE, header(parsed_header, key)) or b""
    found = {}
    for line in payload.split(b"\n"):
        digest, tab, value = line.partition(b"\t")
        if tab:
            found[digest.decode("utf-8", "replace")] = value
    return found


def present(root: Path) -> bool:
    """Whether the file is there at all (a stat, not a read: whether it can be trusted is `read`'s)."""
    return (root / cachedir.CACHE_DIR / DERIVED_FILE).is_file()


def write(root: Path, parsed_header: str, key: str, values: dict[str, bytes]) -> str | None:
    """Write every digest's value (sorted); None, or the one-sentence reason it was not written."""
    payload = b"".join(digest.encode("utf-8") + b"\t" + values[digest] + b"\n" for digest in sorted(values))
    return cachedir.write(root, DERIVED_FILE, header(parsed_header, key), payload)


def values(stored: dict[str, bytes], digests: list[str]) -> Decoded:
    """Each digest's value, decoded when it is read, or None."""
    return Decoded(tuple(stored.get(digest) or b"null" for digest in digests))


@frozen
class Decoded(Sequence):
    """Encoded values, each decoded as it is read (a malformed one reads as None), so a reader
    that folds one document's value at a time never holds every document's decoded at once."""

    encoded: tuple[bytes, ...]

    def __len__(self) -> int:
        return len(self.encoded)

    def __getitem__(self, at):
        return Decoded(self.encoded[at]) if isinstance(at, slice) else _value(self.encoded[at])


def _value(encoded: bytes) -> object | None:
    try:
        return json.loads(encoded)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
