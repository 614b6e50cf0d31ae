"""tests/browser/conftest.py without Playwright or without Chromium: one clear line, a failure in CI and a
skip elsewhere, never a crash of the whole run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
A_BROWSER_TEST = REPO / "tests" / "browser" / "test_hostile.py"


def run_a_browser_test(
    tmp_path: Path, ci: bool, pythonpath: list[Path] = (), **extra: str
) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env.update(PYTHONPATH=os.pathsep.join(map(str, [*pythonpath, REPO / "src"])), **extra)
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


def run_without_chromium(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess:
    return run_a_browser_test(tmp_path, ci, PYPTO_CHROMIUM=str(tmp_path / "no-such-chromium"))


def run_without_playwright(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess:
    """Python started with a sitecustomize that makes `import playwright` fail, as when it is not installed."""
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text("import sys\nsys.modules['playwright'] = None\n", encoding="utf-8")
    return run_a_browser_test(tmp_path, ci, [shim])


def the_line(result: subprocess.CompletedProcess, reason: str) -> str:
    """The one line of the output that gives the reason, and no traceback anywhere."""
    lines = [line for line in result.stdout.splitlines() if reason in line]
    assert len(lines) == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def playwright_present():
    pytest.importorskip("playwright.sync_api")


def test_missing_chromium_fails_ci_with_one_line(tmp_path, playwright_present):
    result = run_without_chromium(tmp_path, ci=True)
    assert result.returncode != 0, result.stdout
    assert "no-such-chromium" in the_line(result, "browser tests need Chromium")


def test_missing_chromium_skips_elsewhere_with_one_line(tmp_path, playwright_present):
    result = run_without_chromium(tmp_path, ci=False)
    assert result.returncode == 0, result.stdout
    assert " passed" not in result.stdout and "skipped" in result.stdout
    assert the_line(result, "browser tests need Chromium").startswith("SKIPPED")


def test_missing_playwright_fails_ci_with_one_line(tmp_path):
    result = run_without_playwright(tmp_path, ci=True)
    assert result.returncode != 0, result.stdout
    assert "pip install playwright" in the_line(result, "browser tests need Playwright")


def test_missing_playwright_skips_elsewhere_with_one_line(tmp_path):
    result = run_without_playwright(tmp_path, ci=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " passed" not in result.stdout and " error" not in result.stdout and "skipped" in result.stdout
    assert the_line(result, "browser tests need Playwright").startswith("SKIPPED")
