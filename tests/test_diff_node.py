"""One diff, one answer, without a browser: static/linediff.js and static/compare.js, run unchanged under Node,
return exactly what linediff.py and compare.py return, on generated line lists, generated regions and real
snapshot pairs (the cases of diffcases.py).

One Node process serves the whole module (diff_harness.js: a JSON line in, a JSON line out), and each
Hypothesis example sends one batch of cases (2-6 line-diff cases of every shape, or 10-30 pass cases).
Example counts follow tests/test_properties.py: 30 batches by default, HYPOTHESIS_PROFILE=long
(HYPOTHESIS_EXAMPLES=n) for more; --hypothesis-show-statistics tells how often the reduced cap gave up.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diffcases import REAL_NAMES, check_blocks, check_passes, line_batches, pass_case, python_blocks, real_pair_cases
from dumptools import outcome
from nodeharness import Harness, node_executable
from pypto_ir_trace import linediff
from test_properties import PROFILE

HARNESS = Path(__file__).with_name("diff_harness.js")
SCRIPTS = ("linediff.js", "compare.js")  # compare.js uses the line diff of linediff.js, as in the page


class JSError(Exception):
    pass


@pytest.fixture(scope="module")
def node():
    child = Harness(HARNESS, SCRIPTS)
    yield child
    child.close()


def call(node: Harness, operation: str, cases: list) -> list:
    """The harness's answer to one operation on a batch of cases, or the JSError it raised."""
    reply = node.ask([operation, cases])
    if "error" in reply:
        raise JSError(reply["error"], reply["message"])
    return reply["result"]


def js_diff(node):
    return lambda cases: call(node, "diff", cases)


def js_compare(node):
    return lambda cases: call(node, "compareIds", cases)


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
    b = [f"x{i % 2}" for i in range(1000)]
    a = [f"x{(i + 1) % 3}" for i in range(1000)]
    small = {"myers_max_cost": 5000}
    default, capped = call(node, "diff", [[b, a, linediff.LIMITS], [b, a, small]])
    assert default == python_blocks(b, a, linediff.LIMITS)
    assert capped == python_blocks(b, a, small)
    assert capped[0] == [False, 0, 998, 0, 998]  # given up: all but the two shared last lines (x0, x1)


def test_the_scripts_have_no_limits_of_their_own(node):
    """Without the report's limits the line diff refuses rather than use limits that could disagree."""
    with pytest.raises(JSError, match="TypeError"):
        call(node, "diff", [[[1], [2], None]])


@pytest.mark.parametrize("ci", [False, True])
def test_without_node_the_tests_skip_or_in_ci_fail_with_one_line(tmp_path, monkeypatch, ci):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no node
    monkeypatch.setenv("CI", "true" if ci else "")
    kind, reason = outcome(node_executable)
    assert kind == ("fail" if ci else "skip") and "\n" not in reason
    assert reason.endswith("under Node: no node on PATH (apt-get install nodejs)")
