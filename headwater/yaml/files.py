"""Loading a whole YAML file strictly, with refusals that name the file and the line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from headwater import inplace
from headwater.errors import Refusal
from headwater.yaml.nodes import Node
from headwater.yaml.strict import YamlRefusal, load


def load_text(text: str, label: str) -> Node | None:
    try:
        return load(text)
    except YamlRefusal as refusal:
        raise Refusal(f"{label} line {refusal.line}: {refusal.problem}") from None


def load_file(path: Path, label: str) -> Node | None:
    """`label` is how the user knows the file (usually its repository-relative path)."""
    return _load(path.read_bytes, label)


def load_in_place(root: Path, relative: str) -> Node | None:
    """A committed file of the repository, read in place: never through a symlink (headwater.inplace)."""
    return _load(lambda: inplace.read(root, relative), relative)


def _load(read: Callable[[], bytes], label: str) -> Node | None:
    try:
        data = read()
    except FileNotFoundError:
        raise Refusal(f"{label} does not exist") from None
    except OSError as error:
        raise Refusal(f"{label} cannot be read: {error.strerror}") from None
    return load_text(decode(data, label), label)


def decode(data: bytes, label: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refusal(f"{label} is not UTF-8 text (byte {error.start})") from None
    return text.removeprefix("\ufeff")
