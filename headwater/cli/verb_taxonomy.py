"""`taxonomy resolve`, `taxonomy validate`, `taxonomy kinds`."""

from __future__ import annotations

from headwater import atomic, inplace, writelock
from headwater.cli.output import Result
from headwater.errors import Refusal
from headwater.reads.kinds import kinds
from headwater.render.reads import render
from headwater.taxonomy.declaration import LOCK
from headwater.taxonomy.lock import read_lock
from headwater.taxonomy.resolve import resolve


def run_resolve(invocation) -> Result:
    resolution = resolve(invocation.root)
    if resolution.problems:
        raise Refusal("the taxonomy does not validate, so no lock is written", *resolution.problems)
    text = resolution.lock_text()
    path = invocation.root / LOCK
    current = inplace.read(invocation.root, LOCK).decode("utf-8", "replace") if path.is_file() else None
    if invocation.args.check:
        if current == text:
            return Result(f"{LOCK} is what the sources resolve to\n")
        raise Refusal(f"{LOCK} is not what the sources resolve to", *_changed(invocation.root, resolution, current))
    with writelock.held(invocation.root):
        atomic.write_bytes(path, text.encode("utf-8"), root=invocation.root)
    lines = [f"wrote {LOCK}"] + [f"  from {source.label}" for source in resolution.sources]
    return Result("\n".join(lines) + "\n")


def _changed(root, resolution, current: str | None) -> list[str]:
    if current is None:
        return ["there is no lock yet; run `headwater taxonomy resolve`"]
    try:
        locked = {s.path: s.digest for s in read_lock(root).sources}
    except Refusal as refusal:
        return [refusal.sentence]
    from headwater.hashing import digest

    now = {s.label: digest(s.data) for s in resolution.sources}
    changed = [f"changed: {label}" for label in now if label in locked and locked[label] != now[label]]
    changed += [f"added: {label}" for label in now if label not in locked]
    changed += [f"removed: {label}" for label in locked if label not in now]
    return (changed or ["the lock's text differs from what the sources resolve to"]) + [
        "run `headwater taxonomy resolve` to write it again"]


def run_validate(invocation) -> Result:
    resolution = resolve(invocation.root)
    if resolution.problems:
        raise Refusal(f"the taxonomy has {len(resolution.problems)} problem(s)", *resolution.problems)
    text = (f"the taxonomy {resolution.package.name} {resolution.package.version} validates "
            f"({len(resolution.sources)} sources)\n")
    if invocation.args.verbose:
        inert = resolution.read_only
        text += (f"{len(inert)} construct(s) read with no effect here:\n" if inert
                 else "every construct it declares has an effect here\n")
        text += "".join(f"  {item.line()}\n" for item in inert)
    return Result(text)


def run_kinds(invocation) -> Result:
    lock = read_lock(invocation.root)
    return Result(render("json" if invocation.args.json else "text", kinds(lock)))
