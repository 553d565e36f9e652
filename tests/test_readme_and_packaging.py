"""The README's quick start runs verbatim, and the wheel carries everything the engine needs."""

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", (REPO / "README.md").read_text(), re.S)[:2]


def test_the_readme_opens_with_the_install_and_the_test_command():
    install, tests = readme_commands()
    assert "pip install ." in install and "headwater check" in install
    assert tests.endswith("python -m pytest")


def test_ci_runs_the_readme_commands_it_reads_from_the_readme_and_installs_nothing_of_its_own():
    ci = (REPO / ".ci/run").read_text()
    reader = re.search(r"^readme_block\(\) \{.*?^\}$", ci, re.S | re.M).group(0)
    read = [subprocess.run(["bash", "-c", f"{reader}\nreadme_block {n}"], cwd=REPO, capture_output=True,
                           text=True, check=True).stdout.rstrip("\n") for n in (1, 2)]
    assert read == readme_commands()
    assert "pip install" not in ci and "pytest" not in ci.replace("pytest collected no tests", "")
    first_command = ci.index('bash -c "$install"')
    assert first_command < ci.index('bash -c "$tests"') < ci.index("headwater check --strict")
    assert "git status --porcelain" in ci


def test_the_readme_quick_start_runs_verbatim_in_a_fresh_environment(tmp_path):
    """A real, non-editable install into a new venv: proves the wheel ships the embedded package."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    copy = tmp_path / "headwater"
    for name in listed:
        source = REPO / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    install, _ = readme_commands()
    ran = subprocess.run(["bash", "-c", install], cwd=copy, env=env, capture_output=True, text=True,
                         timeout=600)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    assert "headwater/standard" in ran.stdout


def test_the_packages_list_in_pyproject_names_every_package_in_the_tree():
    declared = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "headwater").rglob("__init__.py")}
    assert declared == found | {"headwater.embedded"}
