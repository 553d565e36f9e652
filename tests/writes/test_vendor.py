"""`taxonomy vendor <dir> --expect <digest>`: check every file, copy, pin; or name what differs
and write nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from headwater.taxonomy.package import embedded_root, release_digest, release_members
from headwater.writes.vendor import computed_digest


@pytest.fixture
def package(tmp_path) -> Path:
    """A publisher's copy of the standard package, with the release.yml a publish step writes."""
    directory = tmp_path / "published" / "headwater-standard"
    shutil.copytree(embedded_root() / "headwater-standard", directory,
                    ignore=shutil.ignore_patterns("__pycache__"))
    members = release_members(directory)
    lines = ["release:", "  format: 1", "  package: headwater/standard", "  version: 1.0.0",
             f'  digest: "{release_digest(members)}"', "  members:"]
    lines += [f'    - {{path: "{path}", digest: "{digest}"}}' for path, digest in members]
    (directory / "release.yml").write_text("\n".join(lines) + "\n")
    return directory


def _vendor(hw, root, directory, *flags):
    return hw("taxonomy", "vendor", str(directory), *flags, "--root", str(root))


def test_a_wrong_digest_names_each_changed_missing_and_extra_file_and_writes_nothing(hw, quickstart, package,
                                                                                      tree_bytes):
    expect = computed_digest(package)
    (package / "taxonomy.yml").write_text((package / "taxonomy.yml").read_text() + "# edited after release\n")
    (package / "bundles/diataxis/bundle.yml").unlink()
    (package / "NOTES.txt").write_text("not part of the release\n")
    before = tree_bytes(quickstart)
    ran = _vendor(hw, quickstart, package, "--expect", expect)
    assert ran.status == 1 and ran.out == ""
    first, *details = ran.err.splitlines()
    assert first.startswith(f"headwater: the package at {package} is not the release `{expect}`")
    assert details == ["  changed: taxonomy.yml", "  missing: bundles/diataxis/bundle.yml",
                       "  extra: NOTES.txt (not named in release.yml)"]
    assert tree_bytes(quickstart) == before


def test_a_wrong_digest_without_a_release_file_still_writes_nothing(hw, quickstart, package, tree_bytes):
    (package / "release.yml").unlink()
    before = tree_bytes(quickstart)
    ran = _vendor(hw, quickstart, package, "--expect", "sha256:" + "0" * 64)
    assert ran.status == 1 and ran.out == ""
    assert f"its files hash to `{computed_digest(package)}`" in ran.err
    assert tree_bytes(quickstart) == before


def test_vendoring_copies_the_package_pins_the_digest_and_resolve_reads_the_copy(hw, quickstart, package):
    declaration = quickstart / ".headwater/taxonomy.yml"
    before = declaration.read_text()
    expect = computed_digest(package)
    ran = _vendor(hw, quickstart, package, "--expect", expect)
    assert ran.status == 0, ran.err
    assert ran.out.splitlines()[:3] == [
        f"verified {expect} over 4 files of headwater/standard 1.0.0",
        "wrote .headwater/packages/headwater-standard/",
        "edited .headwater/taxonomy.yml (pinned the digest)"]
    assert declaration.read_text() == before.replace(
        "  overlay: .headwater/overlay.yml\n", f'  overlay: .headwater/overlay.yml\n  digest: "{expect}"\n')
    vendored = quickstart / ".headwater/packages/headwater-standard"
    assert computed_digest(vendored) == expect and (vendored / "release.yml").is_file()
    resolved = hw("taxonomy", "resolve", "--root", str(quickstart))
    assert resolved.status == 0, resolved.err
    assert "  from .headwater/packages/headwater-standard/taxonomy.yml" in resolved.out.splitlines()
    again = _vendor(hw, quickstart, package, "--expect", expect)
    assert again.status == 0 and "already holds these files" in again.out and "already pins" in again.out


def test_without_expect_the_refusal_tells_the_publisher_the_digest(hw, quickstart, package, tree_bytes):
    before = tree_bytes(quickstart)
    ran = _vendor(hw, quickstart, package)
    assert ran.status == 1 and f"hash to `{computed_digest(package)}`" in ran.err
    assert tree_bytes(quickstart) == before


def test_a_different_package_already_vendored_under_that_name_is_refused(hw, quickstart, package, tree_bytes):
    held = quickstart / ".headwater/packages/headwater-standard"
    held.mkdir(parents=True)
    (held / "package.yml").write_text("package: headwater/standard\nversion: 0.9.0\n")
    before = tree_bytes(quickstart)
    ran = _vendor(hw, quickstart, package, "--expect", computed_digest(package))
    assert ran.status == 1 and "already holds different files" in ran.err
    assert tree_bytes(quickstart) == before


def test_a_pin_for_another_release_is_refused(hw, quickstart, package, tree_bytes):
    declaration = quickstart / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace(
        "  bundles: []\n", '  digest: "sha256:' + "1" * 64 + '"\n  bundles: []\n'))
    before = tree_bytes(quickstart)
    ran = _vendor(hw, quickstart, package, "--expect", computed_digest(package))
    assert ran.status == 1 and "remove the `digest:` line first" in ran.err
    assert tree_bytes(quickstart) == before
