"""`@frozen`: a frozen dataclass, made for less at import and built for less per object.

`dataclasses.dataclass(frozen=True)` compiles six methods from generated source, one `exec` each
(about 0.5 ms a class here: some 45 ms of an edited `check`'s imports), and its `__init__` looks
up `object.__setattr__` for every field it sets. `frozen` leaves the fields to `dataclasses` (so
`fields`, `replace`, `asdict` and `is_dataclass` read the class as before, and its
`__dataclass_params__` say frozen), compiles only `__init__`, which sets each field by
`object.__setattr__` bound once (about half the time per object), and makes the rest from
closures over the fields' names. The class behaves as `dataclass(frozen=True)` makes it: the
same signature, defaults and `__post_init__`, equality over the compared fields of the same
class, the same hash values, the same repr, and `FrozenInstanceError` on assignment or deletion.
`@frozen(slots=True)` is `dataclass(frozen=True, slots=True)` so made (HW-DR-0080).
"""

import dataclasses
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError
from operator import attrgetter
from reprlib import recursive_repr
from typing import TypeVar, dataclass_transform

T = TypeVar("T", bound=type)


class _Factory:
    """The default of a field its factory fills, as `dataclass`'s signature shows it."""

    def __repr__(self) -> str:
        return "<factory>"


FACTORY = _Factory()


# type checkers and editors read a decorated class as `dataclass(frozen=True)` makes it: its
# signature, and assignment refused
@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, Field))
def frozen(cls: T | None = None, /, *, slots: bool = False) -> T | Callable[[T], T]:
    """`cls` as `dataclass(frozen=True, slots=slots)` would make it, made and constructed for
    less; `@frozen` or `@frozen(slots=True)`."""
    return _made(cls, slots) if cls is not None else lambda later: _made(later, slots)


def _made(cls: T, slots: bool) -> T:
    for name in ("__setattr__", "__delattr__"):
        if name in cls.__dict__:
            raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
    # with slots (or a dataclass base, whose frozenness `dataclass` checks) `dataclass` makes the
    # refusals, and a slotted class and how to pickle it, as it does for any frozen class;
    # otherwise the refusals are closures made here
    by_dataclass = slots or any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:])
    cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False, frozen=by_dataclass, slots=slots)
    params = cls.__dataclass_params__  # what the class is once the methods below are made, as readers ask
    params.init = params.repr = params.eq = params.frozen = True
    fields = dataclasses.fields(cls)
    compared = tuple(f.name for f in fields if f.compare)
    hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
    made = {
        "__init__": _init(cls, fields, slots),
        "__repr__": _repr(tuple(f.name for f in fields if f.repr)),
        "__eq__": _eq(_key(compared)),
        "__hash__": _hash(_key(hashed)),
    }
    if not by_dataclass:
        made.update(_refusing(cls, frozenset(f.name for f in fields)))
    hash_replaced = _eq_without_hash(cls)  # asked before `__eq__` is set below, as `dataclass` asks
    for name, method in made.items():
        if name not in cls.__dict__ or (name == "__hash__" and hash_replaced):
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    return cls


def _eq_without_hash(cls: type) -> bool:
    """A class that defines `__eq__` and no `__hash__` has None there, which `dataclass` replaces."""
    return "__eq__" in cls.__dict__ and cls.__dict__["__hash__"] is None


def _init(cls: type, fields: tuple[Field, ...], slots: bool) -> Callable:
    """`__init__` compiled from source as `dataclass` compiles it, each field set by
    `object.__setattr__` bound once (where `dataclass` looks it up for every field), or with
    slots by its slot's descriptor: half the time. Not by writing `self.__dict__`, which would
    make each instance a dictionary of its own: more memory, and slower reads of its fields.
    Names it needs are `_hw_`-prefixed, which no field's name is."""
    scope: dict[str, object] = {"_hw_FACTORY": FACTORY, "_hw_setattr": object.__setattr__}
    params, lines = [], []
    for f in fields:
        value = f.name
        if f.default_factory is not MISSING:
            scope[f"_hw_factory_{f.name}"] = f.default_factory
            if f.init:
                params.append(f"{f.name}=_hw_FACTORY")
                value = f"_hw_factory_{f.name}() if {f.name} is _hw_FACTORY else {f.name}"
            else:
                value = f"_hw_factory_{f.name}()"
        elif f.default is not MISSING:
            scope[f"_hw_default_{f.name}"] = f.default
            if f.init:
                params.append(f"{f.name}=_hw_default_{f.name}")
            elif slots:  # no class attribute holds it: the slot is set, as `dataclass` sets it
                value = f"_hw_default_{f.name}"
            else:
                continue  # the class attribute holds it, as `dataclass` leaves it
        elif f.init:
            params.append(f.name)
        else:
            continue
        if slots:
            scope[f"_hw_set_{f.name}"] = getattr(cls, f.name).__set__
            lines.append(f"_hw_set_{f.name}(self, {value})")
        else:
            lines.append(f"_hw_setattr(self, {f.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        lines.append("self.__post_init__()")
    body = "\n".join(f"    {line}" for line in lines) or "    pass"
    exec(f"def __init__(self, {', '.join(params)}) -> None:\n{body}\n", scope)  # noqa: S102 - source made above from field names
    return scope["__init__"]  # type: ignore[return-value]


def _key(names: tuple[str, ...]) -> Callable[[object], tuple]:
    """The tuple of `names`' values `dataclass`'s `__eq__` and `__hash__` build."""
    if not names:
        return lambda _: ()
    get = attrgetter(*names)
    return get if len(names) > 1 else lambda obj: (get(obj),)


def _eq(key: Callable[[object], tuple]) -> Callable[[object, object], object]:
    def __eq__(self: object, other: object) -> object:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Callable[[object], tuple]) -> Callable[[object], int]:
    def __hash__(self: object) -> int:
        return hash(key(self))

    return __hash__


def _repr(names: tuple[str, ...]) -> Callable[[object], str]:
    @recursive_repr()
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _refusing(cls: type, names: frozenset[str]) -> dict[str, Callable]:
    """`__setattr__` and `__delattr__` as a frozen dataclass has them: refused on the class itself
    and for its fields; a subclass's own attributes pass to the next class."""
    def __setattr__(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return {"__setattr__": __setattr__, "__delattr__": __delattr__}
