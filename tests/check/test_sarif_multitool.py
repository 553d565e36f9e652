"""Microsoft's SARIF multitool validates our SARIF, where npm can install it (errors fail; its
style warnings, such as a whole-file finding without a region, do not)."""

import re
import shutil
import subprocess

import pytest

from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def multitool(tmp_path_factory):
    if shutil.which("npm") is None:
        pytest.skip("npm is not on this machine, so the SARIF multitool cannot be installed")
    prefix = tmp_path_factory.mktemp("sarif-multitool")
    try:
        subprocess.run(["npm", "install", "--silent", "--prefix", str(prefix), "@microsoft/sarif-multitool"],
                       check=True, capture_output=True, timeout=300)
    except (subprocess.SubprocessError, OSError) as error:
        pytest.skip(f"npm could not install @microsoft/sarif-multitool ({type(error).__name__})")
    tool = prefix / "node_modules" / ".bin" / "sarif-multitool"
    if not tool.exists():
        pytest.skip("the npm package carries no sarif-multitool binary for this platform")
    return tool


@pytest.mark.parametrize("fixture", ["quickstart", "check-all"])
def test_sarif_multitool_validate_finds_no_error(multitool, hw, tmp_path, fixture):
    report = hw("check", "--format", "sarif", "--no-cache", "--now", "2026-11-01",
                "--root", str(FIXTURES / fixture))
    log = tmp_path / f"{fixture}.sarif"
    log.write_text(report.out)
    ran = subprocess.run([str(multitool), "validate", str(log)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert not re.search(r"\berror SARIF\d+", ran.stdout), ran.stdout
