"""Three repositories in a temporary directory: a decisions corpus, a service with code, a platform tier.

The service exports its anchors; the decisions corpus imports them and governs the service's
code; it exports itself; the service and the platform harvest that export. Every step runs
through the CLI, as a CI job would.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from headwater.clock import run_date
from headwater.snapshot import load
from tests.check.fixtures import (
    APP,
    HARVESTED,
    IMPORTED,
    decision,
    doc,
    fixture,
    harvest_pin,
    import_pin,
    write,
)

DATE = "2026-11-01"
PLACEHOLDER = "sha256:" + "0" * 64
DECISION = "docs/decisions/0001-base.md"
WORKER = "def work():\n    return 'done'\n"


def governs(revision: str) -> str:
    return decision(relations=f"  governs:\n    - to: svc:src/app.py\n      verified_revision: \"{revision}\"")


@dataclass
class Repositories:
    service: Path
    decisions: Path
    platform: Path
    anchors: str
    export: str


def refresh_import(hw, service: Path, decisions: Path, relations_doc: str | None = None) -> str:
    """The CI step: export the service's anchors, copy them beside the consumer, pin the digest."""
    assert hw("export", "--root", str(service), "--anchors", "src/**").status == 0
    anchors = (service / ".headwater" / "anchors.json").read_text(encoding="utf-8")
    files = {IMPORTED: anchors, DECISION: relations_doc or governs(PLACEHOLDER)}
    write(decisions, fixture(files, pins=import_pin()))
    return anchors


def stamp(decisions: Path) -> None:
    """What `check --fix --change` would write: the revision the edge was verified at."""
    revision = load(decisions, run_date(DATE)).tree.revision(("svc:src/app.py",))
    (decisions / DECISION).write_text(governs(revision), encoding="utf-8")


def pinned_service(export: str, anchors: str) -> dict:
    return fixture({"src/app.py": APP, "src/worker.py": WORKER, HARVESTED: export}, base=False,
                   pins=harvest_pin() + "    here: svc\n", overlay_extra='  anchors.code_path.scope: ["src/**"]\n')


def platform_spec(export: str, anchors: str, pins: str | None = None) -> dict:
    spec = doc("specification", "ACME-SPEC-0001", relations="  constrained_by: decisions:ACME-DR-0001")
    return fixture({HARVESTED: export, IMPORTED: anchors, "docs/specifications/api.md": spec}, base=False,
                   pins=harvest_pin() + import_pin() if pins is None else pins)


@pytest.fixture
def repos(tmp_path, hw) -> Repositories:
    service, decisions, platform = tmp_path / "service", tmp_path / "decisions", tmp_path / "platform"
    write(service, fixture({"src/app.py": APP, "src/worker.py": WORKER}, base=False))
    anchors = refresh_import(hw, service, decisions)
    stamp(decisions)
    assert hw("export", "--root", str(decisions)).status == 0
    export = (decisions / ".headwater" / "export.json").read_text(encoding="utf-8")
    write(service, pinned_service(export, anchors))
    write(platform, platform_spec(export, anchors))
    return Repositories(service, decisions, platform, anchors, export)
