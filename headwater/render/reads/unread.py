"""A pin that binds nothing, as a read names it beside its answer: what `check` reports as
`harvest.pin.unread` or `import.pin.unread`, said where the answer could be missing what it binds."""

from __future__ import annotations

from headwater.federation.pinned import Unread
from headwater.taxonomy.pins import Family


def unread_pin(unread: Unread) -> dict:
    """The JSON entry: the pin's address in the declaration, the corpus name it reads under, and why."""
    return {"pin": unread.pin.address, "corpus": unread.pin.name, "reason": unread.reason}


def unread_pin_line(unread: Unread) -> str:
    pin = unread.pin
    unknown = (f"what the documents of `{pin.name}` govern" if pin.family is Family.HARVEST
               else f"the files of `{pin.name}`")
    return f"`{pin.address}` binds nothing, so {unknown} cannot be read here: {unread.reason}"


def unread_pin_note(unread: tuple[Unread, ...]) -> str:
    """The note an edge's line ends with when its target is spelled under such a pin."""
    return "".join(f" [`{u.pin.address}` binds nothing]" for u in unread)
