"""A federation pin that binds nothing: the finding the harvest and import pin rules share."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit
from headwater.taxonomy.declaration import DECLARATION
from headwater.taxonomy.pins import Family


def unread(ctx: Context, family: Family, remedy: str) -> list[Hit]:
    return [Hit(DECLARATION, u.pin.line, u.pin.column, f"`{u.pin.address}` binds nothing: {u.reason}",
                remedy.format(at=u.pin.at), u.pin.address)
            for u in ctx.snapshot.federation.unread_in(family)]
