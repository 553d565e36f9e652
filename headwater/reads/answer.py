"""What a read hands the CLI and the MCP tools alike: text, and a structured form if it has one."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Answer:
    text: str  # the plain text, ending in a newline
    structured: dict | None = None  # the MCP `structuredContent`, when the tool sends one
    refused: bool = False  # the text is a refusal sentence, not an answer
