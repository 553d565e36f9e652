"""GitHub Actions workflow commands (`::warning file=…,title=…::message`), escaped as the runner unescapes them."""

from __future__ import annotations

DATA_ESCAPES = (("%", "%25"), ("\r", "%0D"), ("\n", "%0A"))
PROPERTY_ESCAPES = DATA_ESCAPES + ((":", "%3A"), (",", "%2C"))


def _escape(text: str, escapes: tuple[tuple[str, str], ...]) -> str:
    for raw, coded in escapes:  # `%` first, so no escape is escaped again
        text = text.replace(raw, coded)
    return text


def workflow_command(command: str, properties: tuple[tuple[str, str], ...], message: str) -> str:
    """`::<command> k=v,…::message`, each part escaped as the Actions runner unescapes it."""
    props = ",".join(f"{name}={_escape(value, PROPERTY_ESCAPES)}" for name, value in properties)
    return f"::{command} {props}::{_escape(message, DATA_ESCAPES)}"
