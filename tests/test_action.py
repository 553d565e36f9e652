"""The GitHub Action's scripts, run against a temporary git repository with a base and a head
commit, as the runner would run them: annotations, SARIF, outputs, a bounded summary, PR impact."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.conftest import check_all_tally, copy_tree

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "corpus_fixtures"
COMMAND = re.compile(r"^::(error|warning|notice) ((?:[a-z]+=[^,:\r\n]*)(?:,[a-z]+=[^,:\r\n]*)*)::([^\r\n]*)$")
NOT_REVERIFIED = ("docs/decisions/0002-deliver-at-least-once.md", "docs/decisions/0003-rate-limit-per-tenant.md")
GIT = ["git", "-c", "user.name=headwater test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"]


def git(root: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=root, capture_output=True, text=True, check=True).stdout.strip()


def repository(tmp_path: Path, fixture: str, folder: str = "") -> tuple[Path, str]:
    """A repository holding `fixture` (in `folder` of it) at the base, and a head commit that edits
    governed code: one file under `src/ingest/` and one under `src/queue/`, with the ingest spec
    re-verified."""
    top = tmp_path / "repo"
    root = copy_tree(FIXTURES / fixture, top / folder)
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-qm", "base")
    base = git(top, "rev-parse", "HEAD")
    with (root / "src/ingest/rate_limit.py").open("a") as handle:
        handle.write("# a tenant's burst is counted too\n")
    with (root / "src/queue/worker.py").open("a") as handle:
        handle.write("# the worker yields between attempts\n")
    spec = root / "docs/specifications/ingest-api.md"
    spec.write_text(spec.read_text().replace("last_verified: 2026-10-01", "last_verified: 2026-11-20"))
    git(root, "commit", "-qam", "head")
    return root, base


def run_action(tmp_path: Path, root: Path, base: str = "", max_bytes: int = 60000) -> tuple[subprocess.CompletedProcess,
                                                                                              dict, str]:
    runner = tmp_path / "runner"
    runner.mkdir(exist_ok=True)
    summary, outputs = runner / "summary.md", runner / "outputs"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "HEADWATER_ROOT": str(root), "HEADWATER_SARIF": str(runner / "headwater.sarif"),
           "HEADWATER_BASE": base, "HEADWATER_SUMMARY_MAX_BYTES": str(max_bytes),
           "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs), "RUNNER_TEMP": str(runner)}
    ran = subprocess.run(["bash", str(REPO / "action" / "run.sh")], env=env, capture_output=True, text=True,
                         timeout=300)
    assert ran.returncode == 0, ran.stderr
    values = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    return ran, values, summary.read_text(encoding="utf-8")


@pytest.fixture
def pull_request(tmp_path):
    return repository(tmp_path, "quickstart")


def test_on_a_pull_request_the_impact_names_the_touched_documents_and_flags_those_not_re_verified(
        tmp_path, pull_request):
    root, base = pull_request
    ran, outputs, summary = run_action(tmp_path, root, base)
    assert outputs["impacted"] == "3" and outputs["not-reverified"] == "2"
    assert set(flagged_files(ran.stdout)) == set(NOT_REVERIFIED)
    rows = [line for line in summary.splitlines() if line.startswith("| ")]
    assert "| yes | `docs/specifications/ingest-api.md` (ACME-SPEC-0002) | `src/ingest/rate_limit.py` |" in rows
    assert "| **no** | `docs/decisions/0002-deliver-at-least-once.md` (ACME-DR-0002) | `src/queue/worker.py` |" in rows
    assert summary.index("## Governed documents this change touches") < summary.index("## `headwater check`")


def flagged_files(stdout: str) -> list[str]:
    """The `file` of each annotation the impact report made, in the order written."""
    return [dict(p.split("=", 1) for p in m.group(2).split(","))["file"]
            for m in map(COMMAND.match, stdout.splitlines()) if m and "title=not re-verified" in m.group(2)]


def test_in_a_folder_of_the_repository_the_impact_annotations_name_each_document_from_its_top(tmp_path):
    root, base = repository(tmp_path, "quickstart", "handbook")
    ran, outputs, _ = run_action(tmp_path, root, base)
    assert outputs["not-reverified"] == "2"
    assert set(flagged_files(ran.stdout)) == {f"handbook/{path}" for path in NOT_REVERIFIED}


def test_the_impact_annotations_come_before_the_check_s_which_could_use_up_github_s_ten_a_step(tmp_path):
    """GitHub shows the first 10 warning and 10 error annotations of a step: a corpus with more
    warnings of its own would hide every document the pull request did not re-verify."""
    root, base = repository(tmp_path, "quickstart")
    for n in range(11):
        (root / f"docs/decisions/{50 + n:04d}-draft.md").write_text("---\nstatus: bogus\n---\n# Draft\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "drafts")
    ran, outputs, _ = run_action(tmp_path, root, base)
    commands = [line for line in ran.stdout.splitlines() if COMMAND.match(line)]
    impact = [n for n, line in enumerate(commands) if "title=not re-verified" in line]
    checks = [n for n, line in enumerate(commands) if "title=not re-verified" not in line]
    assert impact and len(checks) > 10 and max(impact) < min(checks)


def test_every_annotation_line_is_a_workflow_command_and_the_sarif_and_outputs_are_written(tmp_path, pull_request):
    root, base = pull_request
    ran, outputs, _ = run_action(tmp_path, root, base)
    commands = [line for line in ran.stdout.splitlines() if line.startswith("::")]
    assert commands and all(COMMAND.match(line) for line in commands)
    sarif = json.loads(Path(outputs["sarif"]).read_text())
    assert sarif["version"] == "2.1.0" and outputs["errors"] == "0"
    assert outputs["category"] == "headwater"


def test_each_root_of_one_repository_uploads_under_a_category_of_its_own(tmp_path):
    """Code scanning keeps one analysis per category and commit: two roots under one category
    would close each other's alerts on every upload."""
    top = tmp_path / "monorepo"
    roots = [copy_tree(FIXTURES / "quickstart", top / folder) for folder in ("services/api/docs", "handbook")]
    git(top, "init", "-q")
    categories = {run_action(tmp_path, root)[1]["category"] for root in roots}
    assert categories == {"headwater/services/api/docs", "headwater/handbook"}
    action = YAML(typ="safe").load((REPO / "action.yml").read_text())
    [upload] = [step for step in action["runs"]["steps"] if step.get("uses", "").startswith("github/codeql-action/")]
    assert upload["with"]["category"] == "${{ steps.run.outputs.category }}"


def test_without_a_base_there_is_no_impact_section(tmp_path, pull_request):
    root, _ = pull_request
    ran, outputs, summary = run_action(tmp_path, root)
    assert "impacted" not in outputs and "## Governed documents" not in summary
    assert summary.startswith("## `headwater check`")


def test_the_summary_stays_within_its_bound_and_counts_what_it_left_out(tmp_path):
    root = tmp_path / "repo"
    copy_tree(FIXTURES / "check-all", root)
    ran, outputs, summary = run_action(tmp_path, root, max_bytes=3000)
    tally = check_all_tally()
    assert len(summary.encode()) <= 3000 and int(outputs["errors"]) == tally.errors
    assert re.search(r"_\d+ findings are not in this report, which stops short of [\d,]+ bytes", summary)
    assert sum(1 for line in ran.stdout.splitlines() if COMMAND.match(line)) == tally.live


@pytest.mark.parametrize(("env", "status"), [
    ({"STRICT": "true", "ERRORS": "2"}, 1),
    ({"STRICT": "false", "ERRORS": "2"}, 0),
    ({"STRICT": "true", "ERRORS": "0"}, 0),
    ({"FAIL_ON_IMPACT": "true", "NOT_REVERIFIED": "1"}, 1),
    ({"FAIL_ON_IMPACT": "true", "NOT_REVERIFIED": ""}, 0),
])
def test_the_last_step_fails_the_job_only_when_the_inputs_ask_for_it(env, status):
    ran = subprocess.run(["bash", str(REPO / "action" / "decide.sh")], env={**os.environ, **env},
                         capture_output=True, text=True)
    assert ran.returncode == status and (ran.stderr.startswith("headwater: ") == bool(status))


def test_action_yml_is_a_composite_action_whose_steps_run_the_tested_scripts():
    action = YAML(typ="safe").load((REPO / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    runs = [step.get("run", "") for step in action["runs"]["steps"]]
    assert any("action/run.sh" in r for r in runs) and any("action/decide.sh" in r for r in runs)
    assert any('pip install --quiet "$GITHUB_ACTION_PATH"' in r for r in runs)
    uses = [step.get("uses", "") for step in action["runs"]["steps"]]
    assert "github/codeql-action/upload-sarif@v3" in uses
    used = set(re.findall(r"inputs\.([a-z-]+)", (REPO / "action.yml").read_text()))
    assert used == set(action["inputs"])


def test_the_guide_s_workflow_grants_what_the_sarif_upload_needs_in_a_private_repository():
    """upload-sarif writes the analysis (`security-events`) and reads the workflow run it came
    from (`actions`), which a private repository's token lacks unless the workflow grants it."""
    guide = (REPO / "docs" / "guides" / "code-scanning.md").read_text(encoding="utf-8")
    workflow = YAML(typ="safe").load(re.search(r"```yaml\n(.*?)```", guide, re.DOTALL).group(1))
    assert workflow["permissions"] == {"contents": "read", "security-events": "write", "actions": "read"}
    [job] = workflow["jobs"].values()
    assert any(step.get("uses", "").endswith("/headwater@main") for step in job["steps"])
