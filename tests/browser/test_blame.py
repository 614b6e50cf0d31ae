"""Where a line came from, in the page: the Line history panel, the Blame gutter and following a name, by role and
name, on a generated pipeline whose every line's history is known (blamecases.py), on qwen3 decode EXPLICIT and
on an MLIR dump with Ignore renumbering off and on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from blamecases import Pipeline
from dumptools import write_dump
from pagetools import open_link

QWEN3 = "models_qwen3_decode_explicit/passes_dump"
MLIR = "mlir/affine_matmul/variant_tree_dir_after_change"


def history(page):
    return page.get_by_role("region", name="Line history")


def bring_line(page, pane: str, line: int):
    """Scroll a pane (no folds in a no-op pass: row = line) until line's number button is built, and return it."""
    page.locator(f"#scroll-{pane}").evaluate("(node, top) => { node.scrollTop = top; }", max(0, (line - 8) * 20))
    button = page.get_by_role("button", name=f"Line {line} ({pane}): its history")
    button.wait_for()
    return button


def click_word(page, code, word: str):
    """A click in the middle of the first place the painted code shows `word` (its text, across the marks),
    scrolled sideways to it first, as a reader would."""
    box = code.evaluate(
        """async (code, word) => {
          const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
          const spot = () => {
            const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
            const nodes = [];
            for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
            let at = nodes.map(node => node.data).join("").indexOf(word) + Math.floor(word.length / 2);
            for (const node of nodes) {
              if (at < node.data.length) {
                const range = document.createRange();
                range.setStart(node, at);
                range.setEnd(node, at + 1);
                return range.getBoundingClientRect();
              }
              at -= node.data.length;
            }
            return null;
          };
          const scroller = code.closest(".scroller"), pane = scroller.getBoundingClientRect();
          scroller.scrollLeft += spot().left - (pane.left + pane.width / 2);
          await frame(); await frame();
          const r = spot();
          return {x: r.left + r.width / 2, y: r.top + r.height / 2};
        }""",
        word,
    )
    page.mouse.click(box["x"], box["y"])


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    pipeline = Pipeline(3)
    return pipeline, write_dump(tmp_path_factory.mktemp("blame") / "dump", pipeline.files())


def test_t__tile_1_walked_back_through_qwen3(open_report, real_dumps):
    """The walk of the issue: t__tile_1's row_sum line in the last snapshot, back to the pass that inserted it;
    each step opens its pass with the line picked; its name followed to the passes that change its line."""
    page = open_report(str(real_dumps / QWEN3), viewport=(1400, 900), fragment="#pass=49").page
    bring_line(page, "after", 266).click()
    panel = history(page)
    assert panel.get_by_role("heading").inner_text() == "Line 266 of 49_after_MaterializeValidShapeSymbols.py"
    assert panel.locator(".history-summary").inner_text() == (
        "This exact text since 35 AllocateMemoryAddr; changed by 4 more passes before; inserted by 09 OutlineIncoreScopes."
    )
    steps = panel.get_by_role("listitem")
    assert [button.inner_text() for button in steps.get_by_role("button").all()] == [
        "35 AllocateMemoryAddr", "34 MemoryReuse", "32 InitMemRef", "29 LowerPipelineLoops",
        "11 ConvertTensorToTileOps", "09 OutlineIncoreScopes",
    ]  # fmt: skip
    # each step marks the words its pass changed: 35 placed the buffer at 32896, 32 gave it mem_vec_8
    assert steps.nth(0).locator("ins").all_inner_texts() == ["32896"]
    assert "mem_vec_8" in "".join(steps.nth(2).locator("ins").all_inner_texts())
    assert steps.nth(5).inner_text().endswith("t__tmp_v27: pl.Tensor[[16, 1], pl.FP32] = pl.tensor.row_sum(t__tmp_v26)")

    panel.get_by_role("button", name="Open 34 MemoryReuse at line 422").click()
    assert page.get_by_role("heading", level=2).inner_text().startswith("34 MemoryReuse")
    picked = page.get_by_role("region", name="After").locator(".row.picked")
    assert picked.locator(".ln").inner_text() == "422" and "t__tile_1" in picked.inner_text()
    assert panel.is_visible()  # the panel stays: the next step is one click away

    panel.get_by_role("button", name="Follow t__tile_1").click()
    names = page.get_by_role("region", name="Passes changing t__tile_1")
    assert [b.inner_text() for b in names.get_by_role("listitem").get_by_role("button").all()] == [
        "11 ConvertTensorToTileOps", "29 LowerPipelineLoops", "30 CanonicalizeIOOrder", "32 InitMemRef",
        "34 MemoryReuse", "35 AllocateMemoryAddr",
    ]  # fmt: skip  # 34 and 35 change no line's count of t__tile_1: search's ▲ / ▼ cannot see them
    for pane in ("Before", "After"):  # every occurrence marked, as a name (t__tile_10 is not t__tile_1)
        marks = page.get_by_role("region", name=pane).locator("mark")
        assert marks.count() > 0 and set(marks.all_inner_texts()) == {"t__tile_1"}
    click_word(page, picked.locator(".code"), "mem_vec_8")  # a name clicked in the code: followed alike
    assert page.get_by_role("region", name="Passes changing mem_vec_8").is_visible()
    names = page.get_by_role("region", name="Passes changing mem_vec_8")
    names.get_by_role("button", name="Search all passes for mem_vec_8").click()
    assert page.get_by_role("searchbox").input_value() == r"/\bmem_vec_8\b/"
    page.get_by_role("region", name="Line history").get_by_role("button", name="Follow t__tile_1").click()
    names = page.get_by_role("region", name="Passes changing t__tile_1")
    names.get_by_role("button", name="Search all passes for t__tile_1").click()
    assert page.get_by_role("searchbox").input_value() == r"/\bt__tile_1\b/"
    expect_summary = page.locator("#search-summary")
    expect_summary.wait_for()
    assert "snapshots" in expect_summary.inner_text()


@pytest.mark.parametrize("layout", ["Side by side", "Stacked", "Unified"])
def test_blame_gutter_names_the_pass_that_last_changed_each_line(open_report, generated, layout):
    pipeline, dump = generated
    last = len(pipeline.snapshots) - 1
    page = open_report(str(dump), fragment=f"#pass={last:02d}").page
    page.get_by_role("button", name=layout).click()
    page.get_by_role("checkbox", name="Blame").check()
    page.wait_for_function("() => location.hash.includes('blame=1')")  # kept in the link
    pane = page.get_by_role("region", name="Diff" if layout == "Unified" else "After")
    rows = pane.locator(".row:not(.filler):not(.del):not(.fold-row)")
    rows.first.wait_for()
    truth = pipeline.truth()[last]
    checked = 0
    for row in rows.all():
        number = row.locator(".ln[role=button]").last.inner_text()
        if number:
            origin = truth[int(number) - 1][0][0]
            label = row.locator(".bl")
            assert label.inner_text() == ("00" if origin < 0 else f"{origin + 1:02d}")
            assert label.get_attribute("title").startswith("Unchanged since" if origin < 0 else "Last changed by")
            checked += 1
    assert checked > 10
    # a link with blame=1 opens with the gutter on; without it, off
    open_link(page, "#pass=01&blame=1")
    page.get_by_role("region", name="After").locator(".bl").first.wait_for()
    assert page.get_by_role("checkbox", name="Blame").is_checked()


def test_keys_open_the_history_of_the_current_line_and_follow_its_name(open_report, generated):
    pipeline, dump = generated
    page = open_report(str(dump), fragment="#pass=02").page
    page.keyboard.press("?")
    help_text = page.get_by_role("dialog", name="Keyboard shortcuts").inner_text()
    assert "History of the current line" in help_text and "Follow a name" in help_text
    page.keyboard.press("?")
    page.keyboard.press("b")  # the current change's first line
    panel = history(page)
    heading = panel.get_by_role("heading").inner_text()
    line = int(re.match(r"Line (\d+) of (02_after_Pass2\.py|01_after_Pass1\.py)", heading).group(1))
    side_snapshot = 2 if "02_after" in heading else 1
    truth = pipeline.truth()[side_snapshot][line - 1]
    assert [b.inner_text() for b in panel.get_by_role("listitem").get_by_role("button").all()] == [
        "00 frontend" if p < 0 else f"{p + 1:02d} Pass{p + 1}" for p, _, _ in truth
    ]
    page.keyboard.press("*")  # the current line's first name
    assert page.get_by_role("region", name=re.compile("^Passes changing ")).is_visible()
    assert page.get_by_role("region", name="After").locator("mark").count() > 0
    # Compare with the input: the Before pane is the input, whose lines come from nowhere earlier
    page.get_by_role("combobox", name="Compare with").select_option(label="00 frontend")
    before = page.get_by_role("region", name="Before")
    before.get_by_role("button", name=re.compile(r"^Line \d+ \(before\)")).first.click()
    assert panel.locator(".history-summary").inner_text() == "In the frontend unchanged (00_frontend.py)."


def test_ignore_renumbering_follows_renamed_lines_as_equal(open_report):
    """MLIR: lower-affine renumbers `%6 = arith.mulf %3, %4`; shown, it changed the line; ignored, the line keeps
    the pass that inserted it and the step says it was renumbered."""
    page = open_report(MLIR, fragment="#pass=3").page
    line = page.get_by_role("region", name="After").get_by_role("button", name="Line 30 (after): its history")
    line.click()
    assert history(page).locator(".history-summary").inner_text().startswith("This exact text since 3 lower-affine")
    # a click on %6, whose digit the change marks apart from its %, follows the whole value
    click_word(page, page.get_by_role("region", name="After").locator(".row.picked .code"), "%6")
    assert page.get_by_role("region", name="Passes changing %6").is_visible()
    marked = page.get_by_role("region", name="After").locator(".row.picked mark").all_inner_texts()
    assert "".join(marked) == "%6"  # one name, in marks the change cut in two
    page.get_by_role("checkbox", name="Ignore renumbering").check()
    line.click()
    summary = history(page).locator(".history-summary").inner_text()
    assert summary == "Inserted by 1 affine-loop-tile and unchanged since."
    step = history(page).get_by_role("listitem")
    assert step.count() == 1 and "(line 14; renumbered since by 3 lower-affine, ignored)" in step.inner_text()
    assert step.locator(".history-code").inner_text() == "%3 = arith.mulf %0, %1 : f32"  # as 1 inserted it


def test_two_runs_say_where_line_history_does_not_apply(open_report):
    """Rows of two runs pair passes of two pipelines: the panel says so, Blame is off; a name is still followed."""
    baseline = str(Path(__file__).resolve().parents[2] / "fixtures" / "runs" / "exp2" / "baseline")
    page = open_report("runs/exp2/this", "--baseline", baseline, fragment="#pass=04&view=effect").page
    assert page.get_by_role("checkbox", name="Blame").is_disabled()
    page.get_by_role("region", name="Baseline pass output").get_by_role(
        "button", name=re.compile(r"^Line \d+")
    ).first.click()
    assert "follows the passes of one run" in history(page).inner_text()
    page.keyboard.press("*")
    assert page.get_by_role("region", name=re.compile("^Passes changing ")).is_visible()
