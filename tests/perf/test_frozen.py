"""`@frozen` makes the class `dataclass(frozen=True)` makes, for one compile and a cheaper `__init__`."""

from __future__ import annotations

import builtins
import dataclasses
import inspect
import pickle
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import headwater
from headwater.frozen import frozen

SHAPES = {
    "no field": "    pass\n",
    "one field": "    a: int\n",
    "defaults and factories": (
        "    a: int\n"
        "    b: str = 'x'\n"
        "    c: tuple = field(default_factory=tuple)\n"
        "    d: object = field(default=None, compare=False, repr=False)\n"
        "    e: dict = field(init=False, default_factory=dict, compare=False)\n"
        "    g: int = field(init=False, default=4)\n"
        "    h: int = field(default=5, hash=False)\n"
    ),
    "post-init": (
        "    a: int\n"
        "    b: int = 0\n\n"
        "    def __post_init__(self):\n"
        "        object.__setattr__(self, 'b', self.a * 2)\n"
    ),
    "its own repr": "    a: int\n\n    def __repr__(self):\n        return 'own'\n",
    "its own eq": (
        "    a: int\n\n    def __eq__(self, other):\n"
        "        return type(other) is type(self) and other.a == self.a\n"
    ),
    # both its own: `dataclass` keeps the class's hash
    "its own eq and hash": (
        "    a: int\n\n    def __eq__(self, other):\n"
        "        return type(other) is type(self) and other.a == self.a\n\n"
        "    def __hash__(self):\n        return 7\n"
    ),
    "unhashable": "    a: int\n    __hash__ = None\n",
    # a field neither `__init__` nor a default sets, before one that `__init__` does
    "a field left to post-init": (
        "    a: int\n"
        "    b: int = field(init=False)\n"
        "    c: int = 0\n\n"
        "    def __post_init__(self):\n"
        "        object.__setattr__(self, 'b', self.a + self.c)\n"
    ),
}
ARGUMENTS = {"no field": (), "post-init": (3,), "a field left to post-init": (1, 2)}


def made(shape: str, decorator, name: str) -> type:
    """A class of `shape` made by `decorator`, kept in this module so pickle finds it."""
    scope = {"field": field, "decorator": decorator, "__name__": __name__}
    exec(f"@decorator\nclass {name}:\n    '''A class.'''\n{SHAPES[shape]}", scope)
    cls = scope[name]
    cls.__qualname__ = name
    globals()[name] = cls
    return cls


CASES = [(shape, slots) for shape in SHAPES for slots in (False, True)]


@pytest.mark.parametrize(("shape", "slots"), CASES, ids=[f"{s}{', slots' if k else ''}" for s, k in CASES])
def test_a_frozen_class_is_the_one_dataclass_frozen_makes_field_for_field(shape, slots):
    label = re.sub(r"\W", "_", shape) + ("_slots" if slots else "")
    theirs = made(shape, dataclass(frozen=True, slots=slots), f"Theirs_{label}")
    ours = made(shape, frozen(slots=True) if slots else frozen, f"Ours_{label}")
    arguments = ARGUMENTS.get(shape, (1,))
    a, b = theirs(*arguments), ours(*arguments)

    assert dataclasses.is_dataclass(ours)
    assert repr(ours.__dataclass_params__) == repr(theirs.__dataclass_params__)
    assert [(f.name, f.init, f.compare, f.repr) for f in dataclasses.fields(ours)] == [
        (f.name, f.init, f.compare, f.repr) for f in dataclasses.fields(theirs)]
    assert [(p.name, repr(p.default), p.kind) for p in inspect.signature(ours).parameters.values()] == [
        (p.name, repr(p.default), p.kind) for p in inspect.signature(theirs).parameters.values()]
    assert dataclasses.astuple(b) == dataclasses.astuple(a)
    assert repr(b) == repr(a).replace("Theirs_", "Ours_")
    assert hashed(b) == hashed(a)  # the same values: what a set of them holds orders alike
    assert (b == ours(*arguments)) == (a == theirs(*arguments))
    assert (b == 7) == (a == 7)
    assert (b == a) is False  # another class, as with `dataclass`
    assert pickle.loads(pickle.dumps(b)) == b
    assert dataclasses.replace(b) == b
    # (setting a name no field has on a slotted instance fails in `dataclass`'s own refusal)
    for name in [f.name for f in dataclasses.fields(ours)] + ([] if slots else ["other"]):
        for change, arguments in ((setattr, (name, 1)), (delattr, (name,))):
            with pytest.raises(dataclasses.FrozenInstanceError) as ours_refused:
                change(b, *arguments)
            with pytest.raises(dataclasses.FrozenInstanceError) as theirs_refused:
                change(a, *arguments)
            assert str(ours_refused.value) == str(theirs_refused.value)
    assert hasattr(b, "__dict__") is hasattr(a, "__dict__")


def hashed(instance: object) -> int | None:
    """The instance's hash; None for an unhashable one."""
    try:
        return hash(instance)
    except TypeError:
        return None


@pytest.mark.parametrize("slots", [False, True])
def test_instances_that_differ_in_a_compared_field_are_unequal_and_in_a_field_not_compared_equal(slots):
    theirs = made("defaults and factories", dataclass(frozen=True, slots=slots), f"Theirs_compared_{slots}")
    ours = made("defaults and factories", frozen(slots=True) if slots else frozen, f"Ours_compared_{slots}")
    for cls in (theirs, ours):
        assert cls(1) != cls(2) and cls(1, c=(1,)) != cls(1)
        assert cls(1, d="x") == cls(1, d="y") and hash(cls(1, d="x")) == hash(cls(1, d="y"))
        assert cls(1, h=6) != cls(1) and hash(cls(1, h=6)) == hash(cls(1))  # compared, not hashed


@pytest.mark.parametrize("slots", [False, True])
@pytest.mark.parametrize("method", ["__setattr__", "__delattr__"])
def test_a_class_that_makes_its_own_assignment_or_deletion_is_refused_as_dataclass_refuses_it(method, slots):
    cls = type("Own", (), {"__annotations__": {"a": int}, method: lambda self, *args: None})
    with pytest.raises(TypeError, match=f"^cannot overwrite attribute {method} in class Own$"):
        frozen(slots=slots)(cls)


def test_a_subclass_of_a_frozen_class_sets_its_own_attributes_but_not_the_fields():
    ours = made("one field", frozen, "Ours_parent")
    child = type("Child", (ours,), {})(1)
    child.note = "kept"
    assert child.note == "kept" and child == child and child != ours(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        child.a = 2
    del child.note
    assert not hasattr(child, "note")
    with pytest.raises(dataclasses.FrozenInstanceError, match="^cannot delete field 'a'$"):
        del child.a
    grandchild = frozen(type("Grandchild", (ours,), {"__annotations__": {"b": int}}))(1, 2)
    assert (grandchild.a, grandchild.b) == (1, 2) and grandchild.__dataclass_params__.frozen
    with pytest.raises(dataclasses.FrozenInstanceError):
        grandchild.b = 3


def test_frozen_compiles_one_function_a_class_where_dataclass_compiles_six(monkeypatch):
    bare = made("defaults and factories", lambda cls: cls, "Bare")
    compiled = []
    real_exec = builtins.exec
    monkeypatch.setattr(builtins, "exec", lambda *args: compiled.append(args[0]) or real_exec(*args))
    frozen(type("Ours", (), dict(bare.__dict__)))
    ours = len(compiled)
    dataclass(frozen=True)(type("Theirs", (), dict(bare.__dict__)))
    assert (ours, len(compiled) - ours) == (1, 6)
    assert ".__setattr__" not in compiled[0]  # `object.__setattr__` bound once, not looked up per field


def test_the_package_makes_its_frozen_value_classes_with_frozen():
    package = Path(headwater.__file__).parent
    made_by_dataclass = [f"{path.relative_to(package)}:{number}"
                         for path in sorted(package.rglob("*.py"))
                         for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                         if re.match(r"@(dataclasses\.)?dataclass\(frozen=True(, slots=True)?\)$", line.strip())]
    assert made_by_dataclass == [], "make a frozen value class with `headwater.frozen.frozen` (HW-DR-0080)"
