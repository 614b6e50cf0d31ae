"""The LLVM filters in a report of two runs, in real Chromium: a build with debug info (`-g`) against the same build
without. Either run's switches are offered; each decides every row again on the filtered texts, as an oracle
computed from the two dump files alone says (tests/llvmoracle.py: which dumps of the two runs print the same lines
once filtered): with debug info and metadata hidden the runs print identical IR after every pass. Pass effect
shows both runs' passes filtered, and the switches stay in the link."""

from __future__ import annotations

import re

import pytest

from dumptools import FIXTURES
from llvmoracle import dumps
from pagetools import pass_ops

pytestmark = pytest.mark.browser

G, PLAIN = FIXTURES / "llvm" / "lz4-renorm-O2-g.txt", FIXTURES / "llvm" / "lz4-renorm-O2.txt"
RUNS = ("llvm/lz4-renorm-O2-g.txt", "--baseline", str(PLAIN))
DEBUG, METADATA = "Hide debug info", "Hide attributes and metadata"


def _rows(page) -> dict[str, str]:
    """row label -> its text in the pass list (`=` for runs identical after it, else the counts)."""
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button", name=re.compile(r"^\d+\s"))
    return {text.split()[0]: text for text in buttons.all_text_contents()}


def _hidden(page, fragment_hide: str) -> None:
    page.get_by_role("status").filter(has_text="Hidden:").wait_for(timeout=30000)
    page.wait_for_function("() => !document.querySelector('#filter-toggles[aria-busy]')")
    page.wait_for_function(f"() => location.hash.includes('hide={fragment_hide}')")


def _identical_by_oracle(hide: tuple[str, ...]) -> dict[str, bool]:
    """dump number -> whether the two runs' dumps print the same lines once filtered (one dump a pass, in order)."""
    ours, theirs = dumps(G, hide), dumps(PLAIN, hide)
    assert [header for header, _ in ours] == [header for header, _ in theirs]  # the same passes, in order
    return {str(k + 1): mine == other for k, ((_, mine), (_, other)) in enumerate(zip(ours, theirs))}


@pytest.mark.parametrize("hide", [("debug",), ("metadata",), ("debug", "metadata")], ids=".".join)
def test_the_runs_are_identical_after_exactly_the_passes_whose_filtered_dumps_are(open_report, hide):
    page = open_report(*RUNS, fragment=f"#pass=3&hide={'.'.join(hide)}").page
    _hidden(page, ".".join(hide))
    rows = _rows(page)
    oracle = _identical_by_oracle(hide)
    assert {label: text.endswith("=") for label, text in rows.items()} == oracle
    summary = page.locator("#summary").inner_text()
    if all(oracle.values()):
        assert summary == "The two runs print identical IR after every pass."
        assert not any("effect" in text for text in rows.values())  # no pass with a different effect left
    else:
        assert f"differ after {sum(not same for same in oracle.values())} of {len(oracle)} passes" in summary


def test_hiding_debug_info_leaves_fewer_passes_with_a_different_effect(open_report):
    page = open_report(*RUNS).page
    effects = re.compile(r"(\d+) with a different effect")
    shown = int(effects.search(page.locator("#summary").inner_text())[1])
    marked = sum("effect" in text for text in _rows(page).values())
    assert marked == shown > 0
    page.get_by_role("checkbox", name=DEBUG).check()
    _hidden(page, "debug")
    hidden = int(effects.search(page.locator("#summary").inner_text())[1])
    assert 0 < hidden < shown and sum("effect" in text for text in _rows(page).values()) == hidden
    page.get_by_role("checkbox", name=DEBUG).uncheck()  # the unfiltered report: back at once
    page.get_by_role("status").filter(has_text="Nothing hidden").wait_for()
    assert int(effects.search(page.locator("#summary").inner_text())[1]) == shown


def test_either_runs_switches_are_offered_and_a_pypto_pair_offers_none(open_report):
    page = open_report(*RUNS).page  # the baseline has no debug info, this run has
    assert page.get_by_role("checkbox", name=DEBUG).is_visible()
    assert page.get_by_role("checkbox", name=METADATA).is_visible()
    swapped = open_report(str(PLAIN), "--baseline", str(G)).page
    assert swapped.get_by_role("checkbox", name=DEBUG).is_visible()
    pypto = open_report("runs/exp2/this", "--baseline", str(FIXTURES / "runs" / "exp2" / "baseline")).page
    assert pypto.get_by_role("group", name="What to hide").count() == 0


def test_pass_effect_shows_both_runs_passes_filtered(open_report):
    page = open_report(*RUNS, fragment="#pass=9&view=effect").page  # SROAPass: #dbg_value records and !dbg
    this_run = page.get_by_role("region", name="After")
    assert this_run.get_by_text("#dbg_").count() > 0
    page.get_by_role("checkbox", name=DEBUG).check()
    _hidden(page, "debug")
    page.get_by_role("heading", level=2).filter(has_text="SROAPass").wait_for()
    assert page.get_by_role("button", name="Pass effect", exact=True).get_attribute("aria-pressed") == "true"
    text = this_run.inner_text()
    assert "#dbg_" not in text and "!dbg" not in text and "!tbaa" in text
    baseline = page.get_by_role("region", name="Baseline pass output").inner_text()
    assert "!tbaa" in baseline
    page.get_by_role("checkbox", name=METADATA).check()
    page.get_by_role("status").filter(has_text="Hidden: debug info, attributes and metadata").wait_for(timeout=30000)
    notes = page.locator("#notes").inner_text()
    assert "After it both runs print identical IR" in notes and "SROAPass made the same change in both runs" in notes


def test_in_two_runs_the_op_counts_of_a_pass_leave_out_the_ops_of_the_lines_hidden(open_report):
    """llc's x86-isel emits DBG_VALUE instructions beside the code: Pass effect counts them in this run's pass,
    and with debug info hidden counts the code's ops alone, as a single run's report does."""
    llc = FIXTURES / "llvm" / "lz4-llc-setstreamdecode-O2-g.txt"
    page = open_report(str(llc), "--baseline", str(llc), fragment="#pass=31&view=effect").page
    page.get_by_role("heading", level=2).filter(has_text="x86-isel").wait_for()
    shown = pass_ops(page)
    assert shown["DBG_VALUE"] > 0
    page.get_by_role("checkbox", name=DEBUG).check()
    _hidden(page, "debug")
    page.get_by_role("heading", level=2).filter(has_text="x86-isel").wait_for()
    hidden = pass_ops(page)
    assert "DBG_VALUE" not in hidden and hidden == {op: n for op, n in shown.items() if op != "DBG_VALUE"}
