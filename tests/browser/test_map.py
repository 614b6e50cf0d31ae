"""The pipeline map (issue 20) in real Chromium, by role and name: the grid of functions by passes, its cells' counts
against the diff view's, the keyboard (arrows, Enter, Escape), links, sorting and filters, the IR size chart's
text equivalent, the op counts' line, two runs' divergence, and an MLIR tree's functions."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

QWEN3 = "models_qwen3_decode_explicit/passes_dump"
PAIR = (
    "runs/variants_memory_planner_dsa_rp__03_LlamaMiniProgram_explicit/passes_dump",
    "--baseline",
    str(
        __import__("pathlib").Path(__file__).resolve().parents[2]
        / "fixtures"
        / "runs"
        / "variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit"
        / "passes_dump"
    ),
)
COUNTS = re.compile(r"\+(\d+) \u2212(\d+)")


def grid(page):
    return page.get_by_role("grid", name="Pipeline map")


def open_map(page):
    page.keyboard.press("m")
    assert page.get_by_role("button", name="Map", exact=True).get_attribute("aria-pressed") == "true"
    assert grid(page).is_visible()
    return grid(page)


def link_says(page, part, present=True):
    page.wait_for_function("([part, present]) => location.hash.includes(part) === present", arg=[part, present])


def test_the_map_of_a_real_dump_counts_what_the_diff_view_shows(open_report, real_dumps):
    """qwen3 decode (EXPLICIT): every function of the pipeline a row, outlined ones born at their pass; a cell
    opens its pass with its function picked, and the heading's counts are the cell's."""
    page = open_report(str(real_dumps / QWEN3), viewport=(1400, 900)).page
    assert "pl.tile.load +32" not in page.locator("#pass-ops").inner_text()  # 01 InlineFunctions changes no op
    map_ = open_map(page)
    link_says(page, "map=1")
    names = map_.get_by_role("rowheader").all_inner_texts()
    assert any(name.startswith("down_proj_residual_aic") for name in names)
    expand = map_.get_by_role("columnheader", name=re.compile(r"^22 ExpandMixedKernel, \+65 \u221231"))
    assert "ops: pl.func_attr +4" in expand.get_attribute("title")
    born = map_.get_by_role(
        "gridcell", name=re.compile(r"^22 ExpandMixedKernel, _jit_qwen3_decode\.down_proj_residual_aic, ")
    )
    assert "added" in born.get_attribute("aria-label")
    chart = page.get_by_role("img", name="IR size over the pipeline")
    described = page.locator("#" + chart.get_attribute("aria-describedby")).text_content()
    assert "225 lines in the input" in described and "largest step: 29 LowerPipelineLoops" in described
    cell = map_.get_by_role(
        "gridcell", name=re.compile(r"^11 ConvertTensorToTileOps, _jit_qwen3_decode\.gate_proj, \+")
    )
    inserted, deleted = COUNTS.search(cell.get_attribute("aria-label")).groups()
    cell.click()
    assert not grid(page).is_visible()
    assert page.get_by_role("heading", name="11 ConvertTensorToTileOps").is_visible()
    assert page.get_by_role("combobox", name="Function").input_value() == "_jit_qwen3_decode.gate_proj"
    assert page.locator("#pass-counts").inner_text() == f"+{inserted} \u2212{deleted}"
    assert page.locator("#pass-ops").inner_text().startswith("Ops: pl.tile.load +32")
    assert page.get_by_role("region", name="After").locator(".row.ins").first.is_visible()  # its first change on screen
    link_says(page, "map=1", present=False)


def test_the_map_by_keyboard_links_sorting_and_filters(open_report):
    page = open_report("viewer/functions", fragment="#pass=03&map=1").page
    map_ = grid(page)
    assert map_.is_visible()  # the link opened the map
    columns = map_.get_by_role("columnheader").count()
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert moved != focused and page.evaluate("document.activeElement.getAttribute('role')") == "gridcell"
    assert page.locator("#map-detail").inner_text() == moved  # what a focused cell holds, shown in words too
    pass_name, key = moved.split(", ")[:2]
    page.keyboard.press("Enter")  # opens that pass with that function
    assert page.get_by_role("heading", name=pass_name).is_visible()
    assert page.get_by_role("combobox", name="Function").input_value() == key
    open_map(page)
    page.keyboard.press("Escape")  # back to the diff
    assert not grid(page).is_visible()
    assert page.get_by_role("region", name="After").is_visible()
    open_map(page)
    page.get_by_role("combobox", name="Sort rows").select_option(label="Total change")
    labels = [header.get_attribute("aria-label") for header in map_.get_by_role("rowheader").all()]
    totals = [
        int(m.group(1).replace(",", "")) if (m := re.search(r"([\d,]+) lines? changed", label)) else 0
        for label in labels
    ]
    assert totals == sorted(totals, reverse=True) and totals[0] > 0
    page.get_by_role("checkbox", name="No-op").uncheck()  # no-op passes leave the map as they leave the list
    assert map_.get_by_role("columnheader").count() < columns


def test_two_runs_mark_where_they_first_differ(open_report):
    page = open_report(*PAIR).page
    map_ = open_map(page)
    header = map_.get_by_role("columnheader", name=re.compile(r"^34 AllocateMemoryAddr"))
    assert "the runs diverge first here" in header.get_attribute("aria-label")
    first = map_.get_by_role("gridcell", name=re.compile(r"^34 AllocateMemoryAddr, LlamaMiniProgram\.kernel_add, "))
    assert "runs differ after it: +2 \u22122, first divergence of this function" in first.get_attribute("aria-label")
    later = map_.get_by_role("gridcell", name=re.compile(r"^35 FoldNoOpReshape, LlamaMiniProgram\.kernel_add, "))
    assert "runs differ after it" in later.get_attribute("aria-label")
    assert "first divergence" not in later.get_attribute("aria-label")


def test_an_mlir_tree_maps_its_functions_and_counts_ops(open_report):
    page = open_report("mlir/multi_func/tree_dir").page
    map_ = open_map(page)
    rows = map_.get_by_role("rowheader").all_inner_texts()
    assert rows and all("@" in row for row in rows)
    ops = [h.get_attribute("title") for h in map_.get_by_role("columnheader").all()]
    assert any(re.search(r"ops: [a-z]+\.[a-z_]+ [+\u2212]\d", title or "") for title in ops)


def test_the_index_grid_shows_where_each_programs_runs_differ(browser, tmp_path):
    """Three programs, two edited from their 30th and 36th snapshots on, one at its 12th alone: the grid marks each program's
    first divergence, the summary row counts the programs per pass, passes order by that count, and a cell opens
    the program's report at its pass."""
    import shutil

    from pypto_ir_trace import cli

    fixtures = __import__("pathlib").Path(__file__).resolve().parents[2] / "fixtures" / "real"
    names = ("advanced_01_split_k_concise", "advanced_01_split_k_explicit", "models_03_flash_attention_concise")
    new, old = tmp_path / "new", tmp_path / "old"
    for name in names:
        for root in (new, old):
            shutil.copytree(fixtures / name, root / name)
    for at, name, only in ((29, names[1], False), (35, names[0], False), (11, names[2], True)):
        snapshots = sorted((new / name / "passes_dump").glob("*.py"))
        for snapshot in snapshots[at : at + 1 if only else None]:
            snapshot.write_text(snapshot.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out), "-q"]) == 0
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    problems = []
    try:
        page = context.new_page()
        page.on("console", lambda message: problems.append(message.text))
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto((out / "index.html").as_uri())
        grid_ = page.get_by_role("grid", name="Programs by pass")
        summary = grid_.get_by_role("rowheader", name="3 of 3 programs differ: how many after each pass")
        first = grid_.get_by_role(
            "gridcell", name=f"29 LowerPipelineLoops, {names[1]}: runs differ after it, 1 line, the first divergence"
        )
        assert first.is_visible()
        assert grid_.get_by_role(
            "gridcell", name=re.compile(r"^11 ConvertTensorToTileOps, all programs: 1 program differ")
        ).is_visible()
        summary.click()  # the summary row sorts the passes by its counts
        assert page.get_by_role("combobox", name="Order passes").input_value() == "count"
        tallest = grid_.get_by_role("columnheader").nth(1).get_attribute("aria-label")
        assert re.match(
            r"35 \w+: 2 programs differ after it", tallest
        )  # the first pass both edited programs differ after
        first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-ready='true']", state="attached")
        assert page.url.endswith(f"{names[1]}.html#pass=29&view=effect")  # its effect differs: Pass effect says how
        assert page.get_by_role("heading", name="29 LowerPipelineLoops").is_visible()
    finally:
        context.close()
    assert problems == []


def test_the_figure_beside_a_function_is_labelled_its_size_has_its_own_scale_and_the_toast_goes_with_the_map(
    open_report, real_dumps
):
    """Issue 31: the map's column of figures says they are lines changed (not sizes); the picked function's size line
    is drawn on a scale of its own (17 lines against the IR's 1,149 lay flat), the axis and the text equivalent
    saying so; the "Picked ..." message goes when Escape closes the map, not 10 s later over the code."""
    page = open_report(str(real_dumps / QWEN3), viewport=(1400, 900)).page
    map_ = open_map(page)
    corner = map_.get_by_role("columnheader").first
    assert corner.inner_text().split("\n") == ["Function", "lines changed"]
    silu = map_.get_by_role("rowheader", name=re.compile(r"silu, \d+ lines changed in all"))
    silu.click()
    status = page.locator("#status")
    assert status.inner_text().startswith("Picked _jit_qwen3_decode.silu")
    chart = page.get_by_role("img", name="IR size over the pipeline")
    dashed = chart.locator(".map-own").evaluate("path => path.getBBox().height")
    assert dashed > 0.5 * 64 - 8  # the function's own lines span its own scale, not a sliver of the IR's
    described = page.locator("#" + chart.get_attribute("aria-describedby")).text_content()
    assert re.search(r"silu, is drawn too, dashed, on its own scale up to \d+ lines", described)
    assert "dashed:" in page.locator(".map-axis-top").inner_text()
    page.keyboard.press("Escape")
    assert not grid(page).is_visible()
    assert status.inner_text() == ""


INDEX_NAMES = """grid => Array.from(grid.querySelectorAll('.pm-name bdi'), text => {  // what of each name shows
  const box = text.parentElement.getBoundingClientRect(), range = document.createRange();
  const char = at => { range.setStart(text.firstChild, at); range.setEnd(text.firstChild, at + 1); return range.getBoundingClientRect(); };
  const n = text.textContent.length;
  return {name: text.textContent, start: char(0).left >= box.left - 0.5, end: char(n - 1).right <= box.right + 0.5};
})"""


def luminance(rgb: str) -> float:
    channels = [int(x) / 255 for x in re.findall(r"\d+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_index_keeps_the_end_of_long_names_and_shows_a_one_line_difference_in_both_themes(
    browser, tmp_path, scheme
):
    """Issue 31: program names too long for the grid's column are cut at their start, so ..._concise and ..._explicit
    rows read apart; a cell of a 1-line difference stands out from the page (3:1) in the dark theme too."""
    import shutil

    from pypto_ir_trace import cli

    fixture = __import__("pathlib").Path(__file__).resolve().parents[2] / "fixtures" / "real" / "advanced_01_split_k"
    long = "variants_memory_planner_ptoas__01_a_program_whose_name_runs_past_the_column"
    new, old = tmp_path / "new", tmp_path / "old"
    for level in ("concise", "explicit"):
        for root in (new, old):
            shutil.copytree(f"{fixture}_{level}", root / f"{long}_{level}")
    for level, lines in (("concise", 1), ("explicit", 300)):  # 1 line against 300: the lightest shade
        for snapshot in sorted((new / f"{long}_{level}" / "passes_dump").glob("*.py"))[30:]:
            snapshot.write_text(snapshot.read_text(encoding="utf-8") + "# edited\n" * lines, encoding="utf-8")
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out), "-q"]) == 0
    context = browser.new_context(viewport={"width": 1024, "height": 768}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto((out / "index.html").as_uri())
        grid_ = page.get_by_role("grid", name="Programs by pass")
        shown = [found for found in grid_.evaluate(INDEX_NAMES) if found["name"].startswith(long)]
        assert [(found["start"], found["end"]) for found in shown] == [
            (False, True)
        ] * 2  # the end shows, not the start
        cell = grid_.locator(".hg-cell.d1").first
        colours = [
            cell.evaluate("c => getComputedStyle(c).backgroundColor"),
            page.evaluate("() => getComputedStyle(document.body).backgroundColor"),
        ]
        lighter, darker = sorted(map(luminance, colours), reverse=True)
        assert (lighter + 0.05) / (darker + 0.05) >= 3 if scheme == "dark" else lighter > darker
    finally:
        context.close()
