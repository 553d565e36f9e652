"""Finding a taxonomy package by name: vendored under `.headwater/packages/`, else embedded."""

from __future__ import annotations

import sys
from pathlib import Path

from headwater import inplace
from headwater.announcements import PROBE
from headwater.errors import Refusal
from headwater.frozen import frozen
from headwater.hashing import digest, sha256_hex
from headwater.statefolder import PACKAGES
from headwater.yaml.files import decode, load_text
from headwater.yaml.nodes import Map, to_plain

VENDORED = PACKAGES
EMBEDDED_LABEL = "embedded:"


def embedded_root() -> Path:
    """Where the packages shipped inside the installed engine are."""
    here = Path(__file__).resolve().parent.parent
    installed = here / "embedded"
    sys.audit(PROBE, installed)  # what replays a run looks here again (HW-DR-0037)
    return installed if installed.is_dir() else here.parent / "taxonomy"


@frozen
class Package:
    """A taxonomy package on disk: its name, version and where its files are."""

    name: str
    version: str
    directory: Path
    label: str  # how sources are named in the lock: repository-relative, or `embedded:<dir>`
    taxonomy_file: str
    bundles_dir: str

    def source_label(self, relative: str) -> str:
        return f"{self.label}/{relative}"

    def bundle_file(self, bundle: str) -> str:
        return f"{self.bundles_dir}/{bundle}/bundle.yml"

    def bundle_names(self) -> list[str]:
        directory = self.directory / self.bundles_dir
        sys.audit(PROBE, directory)
        if not directory.is_dir():
            return []
        return sorted(p.parent.name for p in directory.glob("*/bundle.yml"))

    def read(self, relative: str) -> bytes:
        return package_file(self.directory, self.label, relative)


def package_file(directory: Path, label: str, relative: str) -> bytes:
    """A file of a package; a vendored package's is read in place, since it is committed with the
    repository and a link in it must not lead a run elsewhere. Unreadable is a refusal."""
    try:
        if label.startswith(f"{VENDORED}/"):
            return inplace.read(directory, relative)
        return (directory / relative).read_bytes()
    except OSError as error:
        raise Refusal(f"{label}/{relative} cannot be read: {error.strerror or error}") from None


def read_package(directory: Path, label: str) -> Package:
    where = f"{label}/package.yml"
    manifest = load_text(decode(package_file(directory, label, "package.yml"), where), where)
    plain = to_plain(manifest) if isinstance(manifest, Map) else None
    if not isinstance(plain, dict) or not isinstance(plain.get("package"), str):
        raise Refusal(f"{label}/package.yml must be a mapping naming `package` and `version`")
    contents = plain.get("contents") if isinstance(plain.get("contents"), dict) else {}
    return Package(
        name=plain["package"],
        version=str(plain.get("version", "")),
        directory=directory,
        label=label,
        taxonomy_file=str(contents.get("taxonomy", "taxonomy.yml")),
        bundles_dir=str(contents.get("bundles", "bundles")).rstrip("/"),
    )


def candidates(root: Path) -> list[Package]:
    """Vendored packages first (sorted by directory), then the embedded ones."""
    found = []
    vendored = root / VENDORED
    sys.audit(PROBE, vendored)
    if vendored.is_dir():
        for manifest in sorted(vendored.glob("*/package.yml")):
            found.append(read_package(manifest.parent, f"{VENDORED}/{manifest.parent.name}"))
    for manifest in sorted(embedded_root().glob("*/package.yml")):
        found.append(read_package(manifest.parent, f"{EMBEDDED_LABEL}{manifest.parent.name}"))
    return found


def find_package(root: Path, name: str) -> Package:
    for package in candidates(root):
        if package.name == name:
            return package
    known = ", ".join(sorted({p.name for p in candidates(root)})) or "none"
    raise Refusal(
        f"no package named `{name}` is vendored under {VENDORED}/ or embedded in this engine "
        f"(known: {known})"
    )


def release_members(directory: Path) -> list[tuple[str, str]]:
    """(path, `sha256:<hex>`) for every file of a package except `release.yml`, by path."""
    members = []
    for path in sorted(directory.rglob("*")):
        sys.audit(PROBE, path)
        if path.is_file() and not path.is_symlink():
            relative = path.relative_to(directory).as_posix()
            if relative != "release.yml" and "__pycache__" not in relative:
                members.append((relative, digest(path.read_bytes())))
    return sorted(members)


def release_digest(members: list[tuple[str, str]]) -> str:
    """sha256 over `path<TAB>sha256:<hex>\\n` lines, sorted by path."""
    text = "".join(f"{path}\t{member}\n" for path, member in sorted(members))
    return "sha256:" + sha256_hex(text.encode("utf-8"))
