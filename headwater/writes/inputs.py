"""How a caller names the inputs of `new`: the command line by its flags (`--title`), the MCP
tool by its arguments (`title`). A refusal names the input it concerns once, through a spelling,
and carries it, so the MCP server can report it as the error's `rejected_field`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

from headwater.errors import ArgumentRefused, Refusal
from headwater.frozen import frozen

T = TypeVar("T")

FLAGS = {"kind": "KIND", "title": "--title", "summary": "--summary", "relates": "--relates",
         "facets": "--facet", "directory": "--directory"}
ARRAYS = frozenset({"relates", "facets"})  # the MCP tool takes these as arrays of strings


@frozen
class Spelling:
    flags: bool  # the command line's flags; else the MCP tool's argument names

    def name(self, field: str) -> str:
        return FLAGS[field] if self.flags else field

    def mention(self, field: str) -> str:
        """`field` in an account's running text: a flag bare (--title), an argument quoted (`title`)."""
        return FLAGS[field] if self.flags else f"`{field}`"

    def giving(self, field: str, value: str) -> str:
        """`value` given for `field`, as this caller would write it (`--facet risk=low`,
        `"facets": ["risk=low"]`)."""
        if self.flags:
            return f'{FLAGS[field]} "{value}"' if " " in value else f"{FLAGS[field]} {value}"
        given = [value] if field in ARRAYS else value
        return f"{json.dumps(field)}: {json.dumps(given, ensure_ascii=False)}"

    def refused(self, field: str, sentence: str) -> ArgumentRefused:
        return ArgumentRefused(self.name(field), sentence)

    def about(self, field: str, decide: Callable[[], T]) -> T:
        """`decide()`, where every refusal of that step concerns `field`: it carries it."""
        try:
            return decide()
        except ArgumentRefused:
            raise
        except Refusal as refusal:
            raise self.refused(field, refusal.sentence) from None


COMMAND_LINE = Spelling(flags=True)
TOOL_ARGUMENTS = Spelling(flags=False)
