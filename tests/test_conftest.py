"""The Hypothesis profile that tests/conftest.py loads: derandomized exactly under CI=true."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dumptools import REPO, subprocess_env

# What a property test runs with: the active profile, and test_properties' settings built on it (that module
# reuses the name "ci" for its own profile: it must not undo the choice).
PROBE = (
    "import conftest, test_properties; from hypothesis import settings; "
    "print(settings.default.derandomize, settings.default.database, test_properties.PROFILE.derandomize, sep='|')"
)


@pytest.mark.parametrize("ci", [True, False])
def test_property_tests_are_derandomized_exactly_under_ci(ci):
    env = {key: value for key, value in subprocess_env().items() if key != "CI"}
    if ci:
        env["CI"] = "true"
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO / "tests", env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    derandomized, database, theirs = result.stdout.strip().split("|")
    assert (derandomized, theirs) == (str(ci), str(ci))
    assert (database == "None") == ci  # no example database in CI: a run does not depend on an earlier one
