"""Pass effect's verdicts in real Chromium, by role and name: on two runs that differ by `exp` -> `exp2`
(fixtures/runs/exp2) the list marks only the passes whose edit differs, Pass effect opens both diffs at the change
that differs and n / p step both together; the filters and notes use the two-run words; a "Change k of N" status
goes with its pass and its view."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

FIXTURES = __import__("pathlib").Path(__file__).resolve().parents[2] / "fixtures"
EXP2 = ("runs/exp2/this", "--baseline", str(FIXTURES / "runs" / "exp2" / "baseline"))
SMALL = ("runs/small/this", "--baseline", str(FIXTURES / "runs" / "small" / "baseline"))


def passes(page):
    return page.get_by_role("navigation", name="Passes").get_by_role("button")


def labels(buttons) -> list[str]:
    return [buttons.nth(i).locator(".pass-label").inner_text() for i in range(buttons.count())]


def current_line(page, region: str) -> str:
    """The first line of the change n / p brought on screen in a pane (its gutter bar, aria-current)."""
    return page.get_by_role("region", name=region).locator("[aria-current='true']").inner_text()


def status(page) -> str:
    return page.locator("#status").inner_text()  # role status; an empty one is not rendered, so not found by role


def test_the_list_marks_only_the_passes_whose_edit_differs(open_report):
    page = open_report(*EXP2).page
    assert len(labels(passes(page))) == 5 and "=" not in page.get_by_role("navigation", name="Passes").inner_text()
    marked = page.get_by_role("navigation", name="Passes").get_by_role("button", name=re.compile("effect differs"))
    assert labels(marked) == ["01", "04"]  # exp -> exp2, and exp2's buffer placed elsewhere; not 02, 03, 05
    assert (
        "differ after 5 of 5 passes \u00b7 2 with a different effect (\u2260)" in page.locator("#summary").inner_text()
    )
    page.get_by_role("button", name="Pass effect", exact=True).click()
    assert labels(marked) == ["01", "04"]  # the same in both views: a property of the pass
    passes(page).nth(1).click()  # InitMemRef: the same annotation added to lines that already differed
    notes = page.locator("#notes").inner_text()
    assert "InitMemRef made the same change in both runs, to inputs that already differed" in notes
    passes(page).nth(3).click()
    assert "AllocateMemoryAddr did something different in the two runs: 1 of its changes differs" in (
        page.locator("#notes").inner_text()
    )


def test_pass_effect_opens_both_diffs_at_the_change_that_differs_and_n_p_step_both(open_report):
    page = open_report(*EXP2, fragment="#pass=04&view=effect").page
    # AllocateMemoryAddr's second change differs: exp2's buffer at 16384 here, exp's at 8192 in the baseline
    assert "e__tile" in current_line(page, "After") and "16384" in current_line(page, "After")
    assert "e__tile" in current_line(page, "Baseline pass output") and "8192" in current_line(
        page, "Baseline pass output"
    )
    page.keyboard.press("p")
    assert status(page) == "Change 1 of 2: the same edit in both runs"
    for region in ("Before", "After", "Baseline pass input", "Baseline pass output"):
        assert "m__tile:" in current_line(page, region), region
    page.keyboard.press("n")
    assert status(page) == "Change 2 of 2: a different edit in each run"
    assert "16384" in current_line(page, "After") and "8192" in current_line(page, "Baseline pass output")
    page.keyboard.press("n")
    assert status(page) == "No later change: this is change 2 of 2"


def test_n_and_p_step_the_same_edits_of_both_runs_together(open_report):
    page = open_report(*EXP2, fragment="#pass=03&view=effect").page  # MemoryReuse: two changes, both the same
    assert "a__tile" in current_line(page, "After") and "a__tile" in current_line(page, "Baseline pass output")
    page.keyboard.press("n")
    assert status(page) == "Change 2 of 2: the same edit in both runs"
    assert "y__tile" in current_line(page, "After") and "y__tile" in current_line(page, "Baseline pass output")


def test_a_change_only_the_baseline_makes_is_a_step_of_its_own(open_report):
    page = open_report(*SMALL, fragment="#pass=03&view=effect").page  # Canonicalize: the baseline also drops a sync
    assert "sync_all" in current_line(page, "Baseline pass input")  # opened on the change that differs
    assert page.get_by_role("region", name="Before").locator("[aria-current='true']").count() == 0
    page.keyboard.press("n")
    assert status(page) == "Change 3 of 3: the same edit in both runs"
    page.keyboard.press("p")
    assert status(page) == "Change 2 of 3: made in the baseline only"


def test_the_filters_and_the_function_notes_speak_of_two_runs(open_report):
    page = open_report(*EXP2, fragment="#pass=02&fn=softmax.kernel").page
    notes = page.locator("#notes")
    assert "softmax.kernel differs between the runs after 5 passes (01, 02, 03, 04, 05)" in notes.inner_text()
    page.get_by_role("button", name="Pass effect", exact=True).click()
    assert "softmax.kernel is changed by 5 of this run's passes (01, 02, 03, 04, 05)" in notes.inner_text()
    page.get_by_role("combobox", name="Function").select_option("softmax.main")
    assert "This run's pass leaves softmax.main unchanged." in notes.inner_text()
    page.get_by_role("button", name="Across runs", exact=True).click()
    assert "softmax.main is identical in both runs after this pass." in notes.inner_text()
    assert page.get_by_role("checkbox", name="Changed").count() == 0
    page.get_by_role("checkbox", name="Runs differ").uncheck()
    page.get_by_role("checkbox", name="Identical").uncheck()
    assert "Turn on \u201cRuns differ\u201d or \u201cIdentical\u201d" in page.locator("#empty-state").inner_text()


def test_a_change_status_goes_with_its_pass_and_its_view(open_report):
    page = open_report(*EXP2, fragment="#pass=04&fn=softmax.kernel").page  # Across runs: two changes
    page.keyboard.press("n")
    assert status(page) == "Change 2 of 2"
    page.keyboard.press("Shift+J")  # the next pass that changes softmax.kernel
    assert page.get_by_role("heading", name="05 Simplify").is_visible()
    assert status(page) == ""
    page.keyboard.press("n")
    assert status(page).startswith("Change 2 of")
    page.get_by_role("button", name="Pass effect", exact=True).click()
    assert status(page) == ""
    page.keyboard.press("n")  # Simplify made one change
    assert status(page) == "No later change: this is change 1 of 1"
    page.get_by_role("button", name="Across runs", exact=True).click()
    assert status(page) == ""


def test_across_runs_shows_the_ops_that_differ_between_the_runs_and_says_whose_ops_a_line_counts(open_report):
    """Issue 31: at 01 the runs differ by one line (exp against exp2): Across runs lists the ops that differ between
    the runs, not this run's own pass's deltas; Pass effect lists this run's pass's, each line saying which."""
    page = open_report(*EXP2, fragment="#pass=01").page
    assert "+1 \u22121 between the runs" in page.locator("#pass-counts").inner_text()
    ops = page.locator("#pass-ops")
    assert ops.inner_text() == "Ops, this run against the baseline: pl.tile.exp \u22121, pl.tile.exp2 +1"
    assert "this run's count minus the baseline's" in ops.get_attribute("title")
    page.get_by_role("button", name="Pass effect").click()
    assert ops.inner_text().startswith("Ops of this run's pass: pl.assemble \u22121, ")  # tensors became tiles
    assert "pl.tile.exp2 +1" in ops.get_attribute("title") and "pl.tile.exp \u22121" not in ops.get_attribute("title")
    page.get_by_role("button", name="Across runs").click()
    page.keyboard.press("j")  # 02 InitMemRef: the runs still differ by exp against exp2
    assert ops.inner_text() == "Ops, this run against the baseline: pl.tile.exp \u22121, pl.tile.exp2 +1"
