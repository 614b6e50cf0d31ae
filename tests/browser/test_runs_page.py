"""The two-run page (--baseline) in real Chromium, by role and name: the LlamaMini pair under two memory
planners opens on its first divergent pass; Across runs and Pass effect; j / k over aligned rows; links;
Ignore renumbering in both views of two MLIR runs."""

from __future__ import annotations

import re
import shutil

import pytest

from dumptools import INSERTED_OP, NUMBERED, PROGRAM, insert_op_at_top, write_dump
from pagetools import open_link
from pypto_ir_trace import render

pytestmark = pytest.mark.browser

FIXTURES = __import__("pathlib").Path(__file__).resolve().parents[2] / "fixtures"
THIS = "runs/variants_memory_planner_dsa_rp__03_LlamaMiniProgram_explicit"
BASELINE = str(FIXTURES / "runs" / "variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit")
PAIR = (THIS, "--baseline", BASELINE)


def current(page):
    return page.get_by_role("navigation", name="Passes").locator("button[aria-current='true']")


def link_says(page, *parts, without=()):
    """Wait until the address bar's fragment holds every part and none of `without` (links follow after a pause)."""
    page.wait_for_function(
        "([parts, without]) => parts.every(p => location.hash.includes(p)) && !without.some(p => location.hash.includes(p))",
        arg=[list(parts), list(without)],
    )


def pressed(page, name):
    return page.get_by_role("button", name=name, exact=True).get_attribute("aria-pressed")


def test_opens_on_the_first_divergent_pass_named_in_the_header(open_report):
    page = open_report(*PAIR).page
    assert re.search(r"\b34\b.*AllocateMemoryAddr", current(page).inner_text(), re.S)
    assert page.get_by_role("heading", name="34 AllocateMemoryAddr").is_visible()
    assert "the runs diverge first after 34 AllocateMemoryAddr" in page.locator("#summary").inner_text()
    assert (pressed(page, "Across runs"), pressed(page, "Pass effect")) == ("true", "false")
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button")
    names = [buttons.nth(i).get_attribute("aria-label") or buttons.nth(i).inner_text() for i in range(buttons.count())]
    assert len(names) == 48  # 48 passes in this run, 47 in the baseline, one of them added
    assert all("=" in name for name in names[:33]) and "added" in names[33] and "+56" in names[33]


def test_across_runs_diffs_the_baselines_snapshot_against_this_runs(open_report):
    page = open_report(*PAIR).page
    before, after = page.get_by_role("region", name="Before"), page.get_by_role("region", name="After")
    assert "33_after_MaterializeSemanticAliases.py" in before.inner_text()
    assert "34_after_AllocateMemoryAddr.py" in after.inner_text()
    assert page.locator("#pass-counts").inner_text() == "+56 \u221256 between the runs"
    assert before.locator("del").count() > 0 and after.locator("ins").count() > 0
    assert before.locator(".row.del").count() > 0 and after.locator(".row.ins").count() > 0
    page.keyboard.press("k")  # 33: the runs are still identical there
    assert page.get_by_role("heading", name="33 MaterializeSemanticAliases").is_visible()
    assert page.locator("#pass-counts").inner_text() == "identical in both runs"
    assert after.locator(".row.ins").count() == 0


def test_the_pages_diff_counts_what_the_model_counts(open_report, report):
    """Each row's Across diff, made in the page by compareIds, has the builder's counts and rebuilds this run's text."""
    data = render.decode_data(report(*PAIR).read_text(encoding="utf-8"))
    page = open_report(*PAIR).page
    found = page.evaluate(
        """data => {
      const pipeline = IRTraceModel.read(data).runs.pipeline;
      return pipeline.passes.map(pass => {
        const sum = (pass.pieces || []).reduce((n, piece) => [n[0] + piece.inserted, n[1] + piece.deleted], [0, 0]);
        const rebuilt = pass.pieces ? Array.from(IRTraceModel.applyPass(pipeline.ids(pass.before), pass)) : Array.from(pipeline.ids(pass.before));
        const target = Array.from(pipeline.ids(pass.after));
        return [sum[0], sum[1], rebuilt.length === target.length && rebuilt.every((id, i) => id === target[i])];
      });
    }""",
        data,
    )
    rows = data["runs"]["rows"]
    assert [(ins, dels) for ins, dels, _ in found] == [(row["inserted"], row["deleted"]) for row in rows]
    assert all(exact for _, _, exact in found)


def test_pass_effect_shows_each_runs_own_diff(open_report):
    page = open_report(*PAIR).page
    page.get_by_role("button", name="Pass effect", exact=True).click()
    assert (pressed(page, "Across runs"), pressed(page, "Pass effect")) == ("false", "true")
    assert "(no AllocateMemoryAddr in the baseline)" in page.locator("#runs-baseline").inner_text()
    assert (
        page.get_by_role("region", name="Baseline pass input").count() == 0
        or not page.get_by_role("region", name="Baseline pass input").is_visible()
    )
    assert "33_after_MaterializeSemanticAliases.py" in page.get_by_role("region", name="Before").inner_text()
    assert page.get_by_role("region", name="After").locator(".row.ins").count() > 0  # its own allocation
    page.keyboard.press("j")
    assert page.get_by_role("heading", name="35 FoldNoOpReshape").is_visible()
    baseline_before = page.get_by_role("region", name="Baseline pass input")
    baseline_after = page.get_by_role("region", name="Baseline pass output")
    assert baseline_before.is_visible() and baseline_after.is_visible()
    assert "34_after_FoldNoOpReshape.py" in baseline_after.inner_text()
    assert "34 FoldNoOpReshape" in page.locator("#runs-baseline").inner_text()
    assert "35_after_FoldNoOpReshape.py" in page.get_by_role("region", name="After").inner_text()
    assert page.locator("#pass-counts").inner_text() == "this run no-op \u00b7 baseline no-op"
    assert "FoldNoOpReshape changed nothing in either run" in page.locator("#notes").inner_text()
    link_says(page, "view=effect")
    page.get_by_role("button", name="Stacked", exact=True).click()  # layouts apply to both diffs
    assert "stacked" in page.locator("#diff-baseline").get_attribute("class")
    function = page.get_by_role("combobox", name="Function")
    key = function.locator("option").nth(1).get_attribute("value")
    function.select_option(key)  # a function, in both runs: both diffs show it
    assert baseline_after.is_visible()
    link_says(page, f"fn={key}", "view=effect")
    page.get_by_role("button", name="Across runs", exact=True).click()
    assert not baseline_after.is_visible()
    link_says(page, without=["view=effect"])


def test_pass_effect_says_whether_the_pass_changed_the_same_lines(open_report):
    page = open_report(*PAIR, fragment="#pass=37&view=effect").page  # DeriveCallDirections: +21 -21 in both
    assert page.locator("#pass-counts").inner_text() == "this run +21 \u221221 \u00b7 baseline +21 \u221221"
    assert "DeriveCallDirections made the same change in both runs" in page.locator("#notes").inner_text()
    assert page.get_by_role("region", name="Baseline pass output").locator(".row.ins").count() > 0


def test_j_and_k_walk_the_aligned_rows(open_report):
    page = open_report(*PAIR).page
    page.keyboard.press("j")
    assert page.get_by_role("heading", name="35 FoldNoOpReshape").is_visible()
    assert "34_after_FoldNoOpReshape.py" in page.get_by_role("region", name="Before").inner_text()  # not shifted
    page.keyboard.press("k")
    page.keyboard.press("k")
    assert page.get_by_role("heading", name="33 MaterializeSemanticAliases").is_visible()
    page.get_by_role("checkbox", name="Identical").uncheck()  # hide the rows where the runs are identical
    page.keyboard.press("k")
    assert page.get_by_role("heading", name="34 AllocateMemoryAddr").is_visible()


def test_a_deep_link_opens_the_same_row_and_view(open_report):
    page = open_report(*PAIR, fragment="#pass=40&view=effect").page
    assert (pressed(page, "Across runs"), pressed(page, "Pass effect")) == ("false", "true")
    assert re.search(r"\b40\b", current(page).inner_text())
    assert page.get_by_role("region", name="Baseline pass output").is_visible()
    assert page.evaluate("location.hash") == "#pass=40&view=effect"


def test_identical_runs_say_so(open_report):
    page = open_report(THIS, "--baseline", str(FIXTURES / THIS)).page
    assert page.locator("#summary").inner_text() == "The two runs print identical IR after every pass."
    assert page.locator("#pass-counts").inner_text() == "identical in both runs"


SMALL = ("runs/small/this", "--baseline", str(FIXTURES / "runs" / "small" / "baseline"))


def test_a_baseline_only_pass_a_different_effect_and_reconvergence(open_report):
    page = open_report(*SMALL).page
    summary = page.locator("#summary").inner_text()
    assert "the runs diverge first after 02 InferTileMemorySpace" in summary
    assert "identical again after 03 Canonicalize" in summary
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button")
    assert buttons.count() == 4
    assert "removed" in buttons.nth(2).inner_text() and "InsertSync" in buttons.nth(2).inner_text()
    assert "runs-reconverged" in buttons.nth(3).get_attribute("class")
    page.get_by_role("button", name="Pass effect", exact=True).click()
    assert "InferTileMemorySpace did something different in the two runs" in page.locator("#notes").inner_text()
    assert page.get_by_role("region", name="Baseline pass output").locator("ins").count() == 1  # Vec
    assert page.get_by_role("region", name="After").locator("ins").count() == 1  # Mat
    page.keyboard.press("j")  # InsertSync: the baseline only
    link_says(page, "#pass=b03&view=effect")
    assert "(no InsertSync in this run" in page.locator("#runs-this-title").inner_text()
    assert page.get_by_role("region", name="Baseline pass output").locator(".row.ins").count() == 1
    page.get_by_role("button", name="Across runs", exact=True).click()
    assert "InsertSync runs in the baseline only" in page.locator("#notes").inner_text()
    assert page.locator("#pass-counts").inner_text() == "+1 \u22122 between the runs"
    page.keyboard.press("j")
    assert page.locator("#pass-counts").inner_text() == "identical in both runs"


def test_search_marks_both_runs_in_pass_effect(open_report):
    page = open_report(*SMALL, fragment="#pass=b03&view=effect").page
    page.get_by_role("searchbox").fill("sync_all")
    marks = page.get_by_role("region", name="Baseline pass output").locator("mark")
    marks.first.wait_for()
    assert marks.count() == 1
    page.get_by_role("button", name="Across runs", exact=True).click()
    assert page.get_by_role("region", name="Before").locator("mark").count() == 1  # the baseline's line
    assert page.get_by_role("region", name="After").locator("mark").count() == 0  # this run never syncs


def test_compare_with_and_the_theme_in_both_views(open_report):
    page = open_report(*SMALL, fragment="#pass=03").page
    page.get_by_role("combobox", name="Compare with").select_option("0")  # this run's input against row 03
    assert page.locator("#pass-counts").inner_text().startswith("+1 \u22121 since 00_frontend.py")
    link_says(page, "base=00")
    page.get_by_role("button", name="Pass effect", exact=True).click()
    assert page.locator("#pass-counts").inner_text().startswith("+1 \u22121 since 00_frontend.py")
    link_says(page, "base=00", "view=effect")
    assert page.get_by_role("region", name="Baseline pass output").is_visible()
    page.get_by_role("button", name="Toggle dark theme").click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"


def test_the_unified_layout_works_in_both_views(open_report):
    """Unified: one Diff pane for this run, and one for the baseline's pass in Pass effect (no page error either way)."""
    page = open_report(*PAIR).page
    page.get_by_role("button", name="Unified").click()
    diff = page.get_by_role("region", name="Diff")
    assert diff.is_visible() and diff.locator("ins").count() > 0
    page.get_by_role("button", name="Pass effect", exact=True).click()
    page.keyboard.press("j")
    page.keyboard.press("j")
    page.keyboard.press("j")
    assert page.get_by_role("heading", name="37 DeriveCallDirections").is_visible()
    baseline = page.get_by_role("region", name="Baseline pass changes")
    assert baseline.is_visible() and diff.is_visible()
    assert not page.get_by_role("region", name="Baseline pass input").is_visible()
    assert not page.get_by_role("region", name="Baseline pass output").is_visible()
    assert "35_after_FuseCreateAssembleToSlice.py \u2192 36_after_DeriveCallDirections.py" in baseline.inner_text()
    assert baseline.locator(".row.del").count() > 0 and baseline.locator(".row.ins").count() > 0
    assert baseline.locator(".gutter .ln.old").count() > 0  # both line numbers, as git diff prints them
    # The baseline's diff opens at column 0 too, though its changes are far right: the viewer never scrolls sideways.
    assert page.evaluate("document.querySelector('#scroll-baseline-unified').scrollLeft") == 0
    page.get_by_role("button", name="Side by side").click()
    assert not baseline.is_visible() and page.get_by_role("region", name="Baseline pass output").is_visible()
    link_says(page, "#pass=37&view=effect", without=("layout",))  # written after a pause: not over the link below
    open_link(page, "#pass=37&view=effect&layout=unified")  # a link to the layout
    assert page.get_by_role("region", name="Baseline pass changes").is_visible()


def test_the_baselines_copy_buttons_copy_its_input_and_its_output(open_report):
    page = open_report(*PAIR, fragment="#pass=37&view=effect", permissions=["clipboard-read", "clipboard-write"]).page
    copied = {}
    for side, file in (
        ("input", "35_after_FuseCreateAssembleToSlice.py"),
        ("output", "36_after_DeriveCallDirections.py"),
    ):
        page.get_by_role("button", name=f"Copy full source (baseline {side})").click()
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Copied')")
        copied[side] = page.evaluate("() => navigator.clipboard.readText()")
        assert (
            FIXTURES / "runs" / "variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit" / "passes_dump" / file
        ).read_text(encoding="utf-8") == copied[side]
        page.evaluate("() => { document.querySelector('#status').textContent = ''; }")
    assert copied["input"] != copied["output"]


def test_the_pass_lists_marks_follow_the_view(open_report):
    """The ● of a picked function and the search counts' ▲ / ▼ say what each row's diff does in the view shown."""
    page = open_report(*PAIR, fragment="#pass=37&fn=LlamaMiniProgram.kernel_add_scores").page
    touched = lambda: page.evaluate("""() => [...document.querySelectorAll('#pass-list button.pass')]
      .filter(b => b.classList.contains('touches')).map(b => b.textContent.trim().split(/\\s+/)[0])""")
    listed = lambda counted: [
        label
        for label in re.search(counted + r" \(([^)]*)\)", page.locator("#notes").inner_text()).group(1).split(", ")
        if label != "\u2026"
    ]
    across = listed(r"differs between the runs after \d+ pass(?:es)?")  # what the note counts, in the view's words
    assert touched()[: len(across)] == across and "35" in touched()  # across: every row where the runs differ in it
    page.get_by_role("button", name="Pass effect", exact=True).click()
    effect = listed(r"is changed by \d+ of this run's passes")
    assert touched() == effect and "35" not in touched()  # effect: the passes of this run that change it
    page.get_by_role("searchbox").fill("pl.const(0, pl.INT64)")
    page.locator("#pass-list .hits").first.wait_for()
    moved = lambda: page.evaluate("""() => [...document.querySelectorAll('#pass-list button.pass')]
      .filter(b => b.querySelector('.hits.moved')).map(b => b.textContent.trim().split(/\\s+/)[0])""")
    assert "32" in moved() and "34" in moved() and "35" not in moved()  # this run's passes that change the count
    page.get_by_role("button", name="Across runs", exact=True).click()
    assert "32" not in moved() and moved()[:2] == ["34", "35"]  # the runs' counts differ from 34 on


def test_the_index_of_many_programs_fits_a_narrow_window(browser, tmp_path):
    """At 1024 px the index's table fits the window (long program names wrap), and a program opens its two-run report."""
    import shutil

    from pypto_ir_trace import cli

    long = "st_phase_fence_dep_compression__009_PartialReduceChainPhaseFence_explicit"  # the archive's longest name
    new, old = tmp_path / "new", tmp_path / "old"
    for root in (new, old):
        shutil.copytree(FIXTURES / "real" / "advanced_01_split_k_explicit", root / long)
        shutil.copytree(FIXTURES / "real" / "advanced_01_split_k_explicit", root / (long + "_2"))
    edited = new / long / "passes_dump" / "42_after_MaterializeCommDomainScopes.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out), "-q"]) == 0
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.goto((out / "index.html").as_uri())
        table = page.get_by_role("table", name="Programs whose runs differ")
        assert table.get_by_role("cell", name="42 MaterializeCommDomainScopes").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        table.get_by_role("link", name=long).click()
        page.wait_for_selector("body[data-ready='true']", state="attached")
        assert "the runs diverge first after 42 MaterializeCommDomainScopes" in page.locator("#summary").inner_text()
    finally:
        context.close()


def test_the_list_opens_with_the_rows_after_the_first_divergence_in_view(open_report):
    """The red line where the runs part is not left at the list's bottom edge: the rows after it show too."""
    page = open_report(*PAIR).page
    inside = page.evaluate("""() => {
      const list = document.querySelector('#pass-list').getBoundingClientRect();
      const next = document.querySelector("#pass-list button[aria-current='true']").closest('li').nextElementSibling.getBoundingClientRect();
      return next.top >= list.top && next.bottom <= list.bottom;
    }""")
    assert inside


def test_runs_whose_inputs_differ_open_on_the_inputs(open_report, tmp_path):
    """The runs differ from the start: an input row shows the baseline's input against this run's."""
    other = tmp_path / "other_input"  # this run with one comment more in its frontend text, nowhere else
    shutil.copytree(FIXTURES / "runs" / "small" / "this", other)
    frontend = other / "passes_dump" / "00_frontend.py"
    call = "= self.kernel(x)\n"
    assert frontend.read_text().count(call) == 1
    frontend.write_text(frontend.read_text().replace(call, "= self.kernel(x)  # from demo.py:12\n"))
    page = open_report("runs/small/this", "--baseline", str(other)).page
    assert "the runs differ already in their input" in page.locator("#summary").inner_text()
    assert page.get_by_role("heading", name="00 input").is_visible()
    page.wait_for_function("() => location.hash === '#pass=00'")  # the link follows after a pause
    assert page.locator("#pass-counts").inner_text() == "+1 \u22121 between the runs"
    before, after = page.get_by_role("region", name="Before"), page.get_by_role("region", name="After")
    assert "baseline: 00_frontend.py" in before.inner_text() and "this run: 00_frontend.py" in after.inner_text()
    assert "# from demo.py:12" in before.locator(".row.del").inner_text() and after.locator(".row.ins").count() == 1
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button")
    assert buttons.count() == 4 and "added" not in buttons.nth(0).inner_text()
    assert "runs-reconverged" in buttons.nth(1).get_attribute("class")  # identical again after InlineFunctions
    options = page.get_by_role("combobox", name="Compare with").locator("option").all_inner_texts()
    assert [o for o in options if o.startswith("00 ")] == ["00 frontend"]  # the input row is the input: once
    page.get_by_role("button", name="Pass effect", exact=True).click()
    assert "No pass ran: the two runs' inputs differ" in page.locator("#notes").inner_text()
    assert page.locator("#runs-this-title").inner_text().strip().endswith("(the input: no pass ran)")
    page.keyboard.press("j")
    assert page.get_by_role("heading", name="01 InlineFunctions").is_visible()
    assert page.get_by_role("region", name="Baseline pass output").is_visible()


def test_expand_all_reaches_the_baselines_folds_when_this_run_has_none(open_report):
    """Pass effect on a pass only the baseline runs: this run's side is a no-op without folds, the baseline's has folds."""
    reverse = ("runs/variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit", "--baseline", str(FIXTURES / THIS))
    page = open_report(*reverse, fragment="#pass=b34&view=effect").page
    folds = page.get_by_role("region", name="Baseline pass input").get_by_role(
        "button", name=re.compile("unchanged line")
    )
    assert folds.count() > 0
    expand = page.get_by_role("button", name="Expand all")
    assert expand.is_enabled()
    expand.click()
    assert folds.count() == 0


def test_printing_pass_effect_prints_both_runs_diffs(open_report):
    page = open_report(*PAIR, fragment="#pass=37&view=effect").page
    page.emulate_media(media="print")
    heads = lambda: page.evaluate("""() => [...document.querySelectorAll('.print-table')]
      .filter(table => table.offsetParent !== null).map(table => table.tHead.textContent)""")
    page.wait_for_function("() => document.querySelectorAll('.print-table').length > 0")
    shown = heads()
    assert len(shown) == 2, shown
    assert (
        "35_after_FuseCreateAssembleToSlice.py" in shown[0] and "36_after_DeriveCallDirections.py" in shown[0]
    )  # the baseline
    assert "36_after_FuseCreateAssembleToSlice.py" in shown[1] and "37_after_DeriveCallDirections.py" in shown[1]
    page.emulate_media(media="screen")
    page.get_by_role("button", name="Across runs", exact=True).click()
    page.emulate_media(media="print")
    page.wait_for_function("() => document.querySelectorAll('.print-table').length > 0")
    assert len(heads()) == 1  # Across runs: one diff


def test_n_and_p_step_the_baselines_changes_on_a_pass_this_run_does_not_change(open_report):
    reverse = ("runs/variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit", "--baseline", str(FIXTURES / THIS))
    page = open_report(*reverse, fragment="#pass=b34&view=effect").page
    page.keyboard.press("n")
    assert re.fullmatch(r"Change 2 of \d+", page.locator("#status").inner_text())
    current = page.get_by_role("region", name="Baseline pass output").locator("[aria-current='true']")
    assert current.count() > 0
    page.keyboard.press("p")
    assert re.fullmatch(r"Change 1 of \d+", page.locator("#status").inner_text())


def test_wrap_lines_wraps_the_baselines_diff_too(open_report):
    page = open_report(*PAIR, fragment="#pass=37&view=effect").page
    page.get_by_role("checkbox", name="Wrap lines").check()
    overflow = """() => [...document.querySelectorAll('#diff-baseline .scroller')].filter(s => s.offsetParent !== null)
      .map(s => s.scrollWidth - s.clientWidth)"""
    assert "wrap" in page.locator("#diff-baseline").get_attribute("class")
    assert all(extra <= 1 for extra in page.evaluate(overflow))  # no sideways scrolling left
    page.get_by_role("checkbox", name="Wrap lines").uncheck()
    assert any(extra > 1 for extra in page.evaluate(overflow))


# ---- Ignore renumbering: two MLIR runs, one with an op put at the top of every function ------------------

VALUE_NAME = re.compile(r"[%^][\w$.-]+")  # an SSA value or a block label, as a reader would mask it
RENAMED_COUNTS = re.compile(r"\+(\d+) \u2212(\d+), (\d+) renamed")


@pytest.fixture(scope="module")
def mlir_runs(tmp_path_factory) -> tuple[str, str, str]:
    """(this run, "--baseline", the baseline): multi_func's stream, and a copy whose later %N shift by one."""
    baseline = FIXTURES / "mlir" / "multi_func" / "stream.txt"
    this = tmp_path_factory.mktemp("renumbered") / "this.txt"
    this.write_text(insert_op_at_top(baseline.read_text(encoding="utf-8")), encoding="utf-8")
    return str(this), "--baseline", str(baseline)  # absolute: the report fixture's FIXTURES / path is this path


def renamed_rows(page, before: str = "Before", after: str = "After") -> list[tuple[str, str]]:
    """(before, after) code of each row the two panes show as renamed (their rows line up), folds expanded; the
    panes build the rows in view (and some around them): a tall window shows a short diff whole."""
    expand = page.get_by_role("button", name="Expand all")
    if expand.is_enabled():
        expand.click()
    code = "rows => rows.map(r => [r.className.split(' ').includes('renamed'), r.querySelector('.code')?.textContent ?? ''])"
    b = page.get_by_role("region", name=before).locator(".rows .row").evaluate_all(code)
    a = page.get_by_role("region", name=after).locator(".rows .row").evaluate_all(code)
    assert len(b) == len(a) and all(x[0] == y[0] for x, y in zip(b, a))
    return [(x[1], y[1]) for x, y in zip(b, a) if x[0]]


def names_only(pairs: list[tuple[str, str]]) -> bool:
    return all(old != new and VALUE_NAME.sub("%", old) == VALUE_NAME.sub("%", new) for old, new in pairs)


def test_ignore_renumbering_across_runs_leaves_only_the_inserted_op(open_report, mlir_runs):
    page = open_report(*mlir_runs, fragment="#pass=1", viewport=(1400, 2000)).page  # its 48 lines, whole
    toggle = page.get_by_role("checkbox", name="Ignore renumbering")
    assert toggle.is_visible() and not toggle.is_checked()
    counts = page.locator("#pass-counts")
    plain = re.fullmatch(r"\+(\d+) \u2212(\d+) between the runs", counts.inner_text())
    assert plain, counts.inner_text()
    ins, dels = map(int, plain.groups())
    button = current(page)
    assert f"+{ins}" in button.inner_text() and f"\u2212{dels}" in button.inner_text()
    assert renamed_rows(page) == []
    toggle.check()
    found = RENAMED_COUNTS.fullmatch(counts.inner_text().removesuffix(" between the runs"))
    assert found and counts.inner_text().endswith(" between the runs"), counts.inner_text()
    left_ins, left_del, renamed = map(int, found.groups())
    assert renamed > 0 and (left_ins, left_del) == (ins - renamed, dels - renamed)
    rows = renamed_rows(page)
    assert len(rows) == renamed and names_only(rows)
    # What is left is the inserted op alone, once per function; the list's counts follow.
    inserted = page.get_by_role("region", name="After").locator(".row.ins .code").all_inner_texts()
    assert len(inserted) == left_ins and {line.strip() for line in inserted} == {INSERTED_OP}
    assert page.get_by_role("region", name="Before").locator(".row.del").count() == 0
    assert f"+{left_ins}" in button.inner_text() and "\u22120" in button.inner_text()
    assert "renamed" in button.locator(".count.del").get_attribute("title")
    toggle.uncheck()
    assert counts.inner_text() == f"+{ins} \u2212{dels} between the runs"
    assert renamed_rows(page) == [] and f"+{ins}" in button.inner_text()


def test_ignore_renumbering_in_pass_effect_uses_each_runs_own_pass(open_report, report, mlir_runs):
    data = render.decode_data(report(*mlir_runs).read_text(encoding="utf-8"))
    ours, theirs = data["pipelines"]
    p = next(k for k, entry in enumerate(ours["passes"]) if entry["label"] == "33")  # reconcile-unrealized-casts
    page = open_report(*mlir_runs, fragment="#pass=33&view=effect").page
    page.get_by_role("checkbox", name="Ignore renumbering").check()
    for entry, counts, panes in (
        (theirs["passes"][p], "#runs-baseline-counts", ("Baseline pass input", "Baseline pass output")),
        (ours["passes"][p], "#runs-this-counts", ("Before", "After")),
    ):
        n = len(entry["renamed"])
        assert n > 0
        assert (
            page.locator(counts).inner_text() == f"+{entry['inserted'] - n} \u2212{entry['deleted'] - n}, {n} renamed"
        )
        rows = renamed_rows(page, *panes)
        assert 0 < len(rows) <= n and names_only(rows)
    page.get_by_role("checkbox", name="Ignore renumbering").uncheck()
    assert renamed_rows(page, "Baseline pass input", "Baseline pass output") == renamed_rows(page) == []
    assert (
        page.locator("#runs-this-counts").inner_text()
        == f"+{ours['passes'][p]['inserted']} \u2212{ours['passes'][p]['deleted']}"
    )


def test_ignore_renumbering_is_kept_across_views_and_links_and_off_for_compare_with(open_report, mlir_runs):
    page = open_report(*mlir_runs, fragment="#pass=1").page
    toggle = page.get_by_role("checkbox", name="Ignore renumbering")
    toggle.check()
    page.get_by_role("button", name="Pass effect", exact=True).click()
    page.get_by_role("button", name="Across runs", exact=True).click()
    page.evaluate("location.hash = '#pass=33'")
    page.get_by_role("heading", name="33 reconcile-unrealized-casts").wait_for()
    assert toggle.is_checked() and "renamed between the runs" in page.locator("#pass-counts").inner_text()
    page.get_by_role("combobox", name="Compare with").select_option(label="32 convert-to-llvm")
    assert toggle.is_disabled() and renamed_rows(page) == []
    assert page.get_by_text(re.compile("not to \u201cCompare with\u201d")).is_visible()
    page.get_by_role("combobox", name="Compare with").select_option(value="")
    assert toggle.is_enabled() and len(renamed_rows(page)) > 0


def test_pypto_runs_have_no_renumbering_switch(open_report):
    page = open_report(*PAIR).page
    assert page.get_by_role("checkbox", name="Ignore renumbering").count() == 0


def test_runs_that_differ_by_value_names_only_say_so(open_report, tmp_path_factory):
    baseline = FIXTURES / "mlir" / "multi_func" / "stream.txt"
    this = tmp_path_factory.mktemp("renamed") / "this.txt"  # every %N one higher: the same IR, other names
    this.write_text(
        NUMBERED.sub(lambda m: f"%{int(m.group(1)) + 1}", baseline.read_text(encoding="utf-8")), encoding="utf-8"
    )
    page = open_report(str(this), "--baseline", str(baseline), fragment="#pass=1").page
    counts = page.locator("#pass-counts")
    assert not counts.inner_text().startswith("+0")
    page.get_by_role("checkbox", name="Ignore renumbering").check()
    assert re.fullmatch(r"\+0 \u22120, \d+ renamed between the runs", counts.inner_text()), counts.inner_text()
    assert page.get_by_text("Only value names differ between the runs (Ignore renumbering is on).").is_visible()
    assert "+0" in current(page).inner_text() and "\u22120" in current(page).inner_text()


def test_two_runs_of_one_program_are_named_apart_in_the_header(open_report, tmp_path):
    """runB/prog and real/prog: the header names the program once and each run by the part of its path that
    differs, or as the user named them."""
    for run, side in (("runB", "this"), ("real", "baseline")):
        shutil.copytree(FIXTURES / "runs" / "small" / side, tmp_path / run / "prog")
    this, baseline = (str(tmp_path / run / "prog" / "passes_dump") for run in ("runB", "real"))
    page = open_report(this, "--baseline", baseline).page
    heading = page.get_by_role("heading", level=1)
    assert heading.inner_text() == "IR Trace prog/passes_dump: runB against the baseline real"
    assert page.locator(".dump-title").get_attribute("title") == "prog/passes_dump\nthis run: runB\nbaseline: real"
    page = open_report(this, "--baseline", baseline, "--label", "patched", "--baseline-label", "main").page
    assert (
        page.get_by_role("heading", level=1).inner_text()
        == "IR Trace prog/passes_dump: patched against the baseline main"
    )


def test_a_summary_names_the_first_passes_the_runs_are_identical_again_after_and_counts_the_rest(open_report, tmp_path):
    """Runs that differ after every odd pass and are identical again after every even one (five times): the
    header names the first three, as a real -O3 against -O2 whose 81 would push the report's title off it."""
    baseline, this = {"00_frontend.py": PROGRAM}, {"00_frontend.py": PROGRAM}
    for k in range(1, 11):
        text = PROGRAM.replace("return y\n", f"return y  # step {k}\n", 1)
        baseline[f"{k:02d}_after_Step{k}.py"] = text
        this[f"{k:02d}_after_Step{k}.py"] = text.replace("# step", "# this run, step") if k % 2 else text
    base_dir = write_dump(tmp_path / "baseline", baseline)
    page = open_report(str(write_dump(tmp_path / "this", this)), "--baseline", str(base_dir)).page
    summary = page.locator("#summary").inner_text()
    assert "identical again after 02 Step2, 04 Step4, 06 Step6 and 2 more" in summary
    assert "08 Step8" not in summary and "differ after 5 of 10 passes" in summary
    reconverged = page.locator("#pass-list .runs-reconverged .pass-label").all_inner_texts()
    assert reconverged == ["02", "04", "06", "08", "10"]  # the list marks them all
    assert page.get_by_role("banner").get_by_text("against the baseline").is_visible()  # the title still shows


def test_a_long_summary_is_cut_beside_the_title_and_whole_in_its_tooltip(open_report):
    """At 900 px the -g build's summary against the build without does not fit beside the title: both are cut with
    an ellipsis, the title keeping room for itself, and the whole summary is the tooltip."""
    page = open_report(*LLVM_G, viewport=(900, 700)).page
    summary, brand = page.locator("#summary"), page.locator(".brand")
    widths = page.evaluate(WIDTHS)
    assert widths["summary"] < widths["summaryWhole"] and widths["brand"] >= 16 * 14 * 0.9  # both cut, the title 16em
    assert summary.get_attribute("title") == summary.inner_text()
    assert summary.inner_text().startswith("the runs diverge first after 1 Annotation2MetadataPass")
    assert brand.inner_text().startswith("IR Trace")


LLVM_G = ("llvm/lz4-renorm-O2-g.txt", "--baseline", str(FIXTURES / "llvm" / "lz4-renorm-O2.txt"))
WIDTHS = """() => { const summary = document.querySelector('#summary');
  return { summary: summary.clientWidth, summaryWhole: summary.scrollWidth,
           brand: document.querySelector('.brand').getBoundingClientRect().width }; }"""
