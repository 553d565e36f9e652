"""`impact` of a change that refreshes a pin: the documents governing the pinned files it moved."""

from __future__ import annotations

import json
import subprocess

from headwater.hashing import digest
from tests.check.fixtures import IMPORTED
from tests.federation.conftest import DECISION


def commit(root) -> None:
    for command in (["add", "-A"], ["-c", "user.email=ci@example.com", "-c", "user.name=ci", "commit", "-qm", "c"]):
        subprocess.run(["git", *command], cwd=root, check=True)


def test_impact_names_the_decision_governing_code_an_import_refresh_moved(repos, hw):
    root = repos.decisions
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    commit(root)
    (repos.service / "src" / "app.py").write_text("print('the application, rewritten')\n", encoding="utf-8")
    assert hw("export", "--root", str(repos.service), "--anchors", "src/**").status == 0
    refreshed = (repos.service / ".headwater" / "anchors.json").read_bytes()
    declaration = root / ".headwater" / "taxonomy.yml"
    old = digest((root / IMPORTED).read_bytes())
    (root / IMPORTED).write_bytes(refreshed)
    declaration.write_text(declaration.read_text().replace(old, digest(refreshed)), encoding="utf-8")
    assert hw("change", "--root", str(root), "HEAD", str(root / "chg")).status == 0
    ran = hw("impact", "--root", str(root), str(root / "chg" / "manifest"), "--json")
    assert ran.status == 0, ran.err
    assert [(i["path"], i["paths"], i["reverified"]) for i in json.loads(ran.out)["impacted"]] == [
        (DECISION, ["svc:src/app.py"], False)]
    text = hw("impact", "--root", str(root), str(root / "chg" / "manifest")).out
    assert "governs svc:src/app.py" in text and "touches no path" not in text
