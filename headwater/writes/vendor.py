"""`taxonomy vendor <dir> --expect <digest>`: check a package against its release digest, copy it
into `.headwater/packages/<dirname>/`, and pin the digest in `.headwater/taxonomy.yml`.

Everything is checked before anything is written. The release digest covers every file except
`release.yml` (spec 01 §1); when the package carries a `release.yml`, its member list also names
each changed, missing or extra file, and its header must agree with `package.yml`, which the
digest does not cover. The copy lands in a temporary directory renamed into place, so a reader
sees the whole package or none of it.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

from headwater import atomic, inplace, writelock
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.hashing import digest
from headwater.taxonomy.declaration import DECLARATION, read_declaration
from headwater.taxonomy.package import VENDORED, Package, read_package, release_digest, release_members
from headwater.writes.roundtrip import UnsafeEdit, set_scalar
from headwater.yaml.files import load_file
from headwater.yaml.nodes import Map, to_plain

RELEASE = "release.yml"


@frozen
class Verified:
    package: Package
    digest: str
    members: tuple[tuple[str, str], ...]
    destination: str  # repository-relative: `.headwater/packages/<dirname>`


@frozen
class Vendored:
    verified: Verified
    copied: bool  # False when the same package was already there
    pinned: bool  # False when the pin was already this digest


def computed_digest(directory: Path) -> str:
    """The release digest of a package directory's files, as a publisher prints it."""
    return release_digest(release_members(directory))


def require_directory(directory: Path) -> None:
    if not directory.is_dir():
        raise Refusal(f"{directory} is not a directory, so there is no package to vendor")


def verify(directory: Path, expect: str) -> Verified:
    label = str(directory)
    require_directory(directory)
    package = read_package(directory, label)
    members = tuple(release_members(directory))
    actual = release_digest(list(members))
    problems = _against_release(directory, package, dict(members))
    if actual != expect or problems:
        if not problems:
            problems = [f"there is no {RELEASE} listing the members, so the changed files cannot be named"
                        if not (directory / RELEASE).is_file() else
                        f"every file matches {RELEASE}, so {RELEASE} itself is not the release you expect"]
        raise Refusal(f"the package at {label} is not the release `{expect}`: its files hash to `{actual}`, "
                      "so nothing is vendored", *problems)
    return Verified(package, actual, members, f"{VENDORED}/{directory.resolve().name}")


def _against_release(directory: Path, package: Package, actual: dict[str, str]) -> list[str]:
    path = directory / RELEASE
    if not path.is_file():
        return []
    node = load_file(path, f"{directory}/{RELEASE}")
    plain = to_plain(node) if isinstance(node, Map) else {}
    release = plain.get("release") if isinstance(plain.get("release"), dict) else plain
    listed = {str(m.get("path")): str(m.get("digest")) for m in release.get("members") or []
              if isinstance(m, dict)}
    problems = [f"changed: {p}" for p in sorted(listed) if p in actual and actual[p] != listed[p]]
    problems += [f"missing: {p}" for p in sorted(listed) if p not in actual]
    problems += [f"extra: {p} (not named in {RELEASE})" for p in sorted(actual) if p not in listed]
    for field in ("package", "version"):
        declared = release.get(field)
        if declared is not None and str(declared) != getattr(package, "name" if field == "package" else field):
            problems.append(f"{RELEASE} says {field} `{declared}`, and package.yml disagrees")
    stated = release.get("digest")
    if stated is not None and str(stated) != release_digest(sorted(listed.items())):
        problems.append(f"{RELEASE} states the digest `{stated}`, which its own member list does not hash to")
    return problems


def plan(root: Path, directory: Path, expect: str) -> Verified:
    verified = verify(directory, expect)
    declaration = read_declaration(root)
    if declaration.package != verified.package.name:
        raise Refusal(f"this repository is bound to {declaration.package}, and the package at {directory} is "
                      f"{verified.package.name}, so vendoring it would change nothing that is read")
    if declaration.digest and declaration.digest != verified.digest:
        raise Refusal(f"{DECLARATION} pins `{declaration.digest}`, and this release is `{verified.digest}`; "
                      "remove the `digest:` line first to vendor a different release")
    destination = root / verified.destination
    if destination.exists() and _contents(destination) != _contents(directory):
        raise Refusal(f"{verified.destination} already holds different files, and `vendor` never writes over them")
    _pinned_text(root, verified.digest)  # a dry run: refuses before the copy lands
    return verified


def _contents(directory: Path) -> list[tuple[str, str]]:
    release = directory / RELEASE
    extra = [(RELEASE, digest(release.read_bytes()))] if release.is_file() else []
    return sorted(release_members(directory) + extra)


def _pinned_text(root: Path, pin: str) -> bytes | None:
    """The declaration with `taxonomy.digest` set, or None when it already says so."""
    text = inplace.read(root, DECLARATION).decode("utf-8")
    try:
        edited = set_scalar(text, ("taxonomy", "digest"), pin)
    except UnsafeEdit as unsafe:
        raise Refusal(f"the pin cannot be written into {DECLARATION} ({unsafe}); add "
                      f"`digest: {pin}` under `taxonomy:` by hand") from None
    return None if edited == text else edited.encode("utf-8")


def install(root: Path, directory: Path, verified: Verified) -> Vendored:
    with writelock.held(root):
        destination = root / verified.destination
        copied = not os.path.lexists(destination)
        if copied:
            _copy(root, directory, destination, [p for p, _ in verified.members])
        pinned = _pinned_text(root, verified.digest)
        if pinned is not None:
            atomic.write_bytes(root / DECLARATION, pinned, root=root)
    return Vendored(verified, copied, pinned is not None)


def _copy(root: Path, source: Path, destination: Path, members: list[str]) -> None:
    """Stage the package beside its destination (every write confined), then rename it into place."""
    staged = f"{atomic.TEMP_PREFIX}{destination.name}.{secrets.token_hex(4)}"
    staging = destination.parent / staged
    try:
        for relative in members + ([RELEASE] if (source / RELEASE).is_file() else []):
            atomic.write_bytes(staging / relative, (source / relative).read_bytes(), root=root)
        with atomic.directory_of(root, destination) as (parent, name):
            os.chmod(staged, 0o755, dir_fd=parent, follow_symlinks=False)
            os.rename(staged, name, src_dir_fd=parent, dst_dir_fd=parent)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def report(vendored: Vendored) -> str:
    verified = vendored.verified
    package = verified.package
    lines = [f"verified {verified.digest} over {len(verified.members)} files of {package.name} {package.version}"]
    lines.append(f"wrote {verified.destination}/" if vendored.copied
                 else f"{verified.destination}/ already holds these files")
    lines.append(f"edited {DECLARATION} (pinned the digest)" if vendored.pinned
                 else f"{DECLARATION} already pins this digest")
    lines += ["", "Next: run `headwater taxonomy resolve`"]
    return "\n".join(lines) + "\n"
