"""One diff, one answer, without a browser: static/linediff.js and static/compare.js, run unchanged under Node,
return exactly what linediff.py and compare.py return, on generated line lists, generated regions and real
snapshot pairs (the cases of diffcases.py).

One Node process serves the whole module (diff_harness.js: a JSON line in, a JSON line out), and each
Hypothesis example sends one batch of cases (2-6 line-diff cases of every shape, or 10-30 pass cases).
Example counts follow tests/test_properties.py: 30 batches by default, HYPOTHESIS_PROFILE=long
(HYPOTHESIS_EXAMPLES=n) for more; --hypothesis-show-statistics tells how often the reduced cap gave up.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diffcases import REAL_NAMES, check_blocks, check_passes, line_batches, pass_case, python_blocks, real_pair_cases
from dumptools import missing, outcome
from pypto_ir_trace import linediff
from test_properties import PROFILE

HARNESS = Path(__file__).with_name("diff_harness.js")
SCRIPTS = ("linediff.js", "compare.js")  # compare.js uses the line diff of linediff.js, as in the page


class Node:
    """The harness in a child process: call(operation, cases) -> one answer per case, or a JSError."""

    def __init__(self, executable: str):
        static = resources.files("pypto_ir_trace").joinpath("static")
        self.process = subprocess.Popen(
            [executable, str(HARNESS), *(str(static.joinpath(name)) for name in SCRIPTS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def call(self, operation: str, cases: list) -> list:
        self.process.stdin.write(json.dumps([operation, cases]) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"node exited ({self.process.poll()}) before answering"
        reply = json.loads(line)
        if "error" in reply:
            raise JSError(reply["error"], reply["message"])
        return reply["result"]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


class JSError(Exception):
    pass


def node_executable() -> str:
    """Node on PATH (Debian's is /usr/bin/node); missing, the tests here skip, or fail under CI=true."""
    found = shutil.which("node")
    if found is None:
        missing("the diff agreement test needs Node: no node on PATH (apt-get install nodejs)")
    return found


@pytest.fixture(scope="module")
def node():
    child = Node(node_executable())
    yield child
    child.close()


def js_diff(node):
    return lambda cases: node.call("diff", cases)


def js_compare(node):
    return lambda cases: node.call("compareIds", cases)


@PROFILE
@given(line_batches)
def test_line_diff_agrees(node, cases):
    check_blocks(js_diff(node), cases)


@PROFILE
@given(st.lists(pass_case(), min_size=10, max_size=30))
def test_region_pairing_agrees(node, cases):
    check_passes(js_compare(node), cases)


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_snapshot_pairs_agree(node, name):
    results = check_passes(js_compare(node), real_pair_cases(name))
    assert any(result["inserted"] or result["deleted"] for result in results)


def test_the_issue_example_gets_one_answer(node):
    """Issue 8: x0/x1 alternating against x1/x2/x0 repeating gave +333 −333 in Python and +998 −998 in the page."""
    a = [f"x{i % 2}" for i in range(1000)]
    b = [f"x{(i + 1) % 3}" for i in range(1000)]
    small = {"myers_max_cost": 5000}
    default, capped = node.call("diff", [[a, b, linediff.LIMITS], [a, b, small]])
    assert default == python_blocks(a, b, linediff.LIMITS)
    assert capped == python_blocks(a, b, small)
    assert capped[0] == [False, 0, 998, 0, 998]  # given up: all but the two shared last lines (x0, x1)


def test_the_scripts_have_no_limits_of_their_own(node):
    """Without the report's limits the line diff refuses rather than use limits that could disagree."""
    with pytest.raises(JSError, match="TypeError"):
        node.call("diff", [[[1], [2], None]])


@pytest.mark.parametrize("ci", [False, True])
def test_without_node_the_tests_skip_or_in_ci_fail_with_one_line(tmp_path, monkeypatch, ci):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no node
    monkeypatch.setenv("CI", "true" if ci else "")
    kind, reason = outcome(node_executable)
    assert kind == ("fail" if ci else "skip") and "\n" not in reason
    assert reason.endswith("the diff agreement test needs Node: no node on PATH (apt-get install nodejs)")
