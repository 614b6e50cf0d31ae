"""tests/browser/conftest.py without Chromium: one clear line, a failure in CI and a skip elsewhere."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
A_BROWSER_TEST = REPO / "tests" / "browser" / "test_hostile.py"


def run_without_chromium(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env.update(PYTHONPATH=str(REPO / "src"), PYPTO_CHROMIUM=str(tmp_path / "no-such-chromium"))
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(A_BROWSER_TEST)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def playwright_present():
    pytest.importorskip("playwright.sync_api")


def test_missing_chromium_fails_ci_with_one_line(tmp_path, playwright_present):
    result = run_without_chromium(tmp_path, ci=True)
    assert result.returncode != 0, result.stdout
    lines = [line for line in result.stdout.splitlines() if "browser tests need Chromium" in line]
    assert len(lines) == 1, result.stdout
    assert "no-such-chromium" in lines[0] and "Traceback" not in result.stdout + result.stderr


def test_missing_chromium_skips_elsewhere_with_one_line(tmp_path, playwright_present):
    result = run_without_chromium(tmp_path, ci=False)
    assert result.returncode == 0, result.stdout
    assert " passed" not in result.stdout and "skipped" in result.stdout
    lines = [line for line in result.stdout.splitlines() if "browser tests need Chromium" in line]
    assert len(lines) == 1 and lines[0].startswith("SKIPPED"), result.stdout
