"""Following a function and the rough edges of real use (issue 10), in real headless Chromium by role and name."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from itertools import combinations

import pytest
from playwright.sync_api import expect

from dumptools import CONCISE, write_dump
from pagetools import reload
from pypto_ir_trace import render
from pypto_ir_trace.formats import FORMATS, pypto

pytestmark = pytest.mark.browser

FUNCTIONS = "viewer/functions"
EXPLICIT = "real/advanced_01_split_k_explicit"
FLASH = "real/models_03_flash_attention_concise"
INCORE = "_jit_flash_attention.flash_attention_incore_0"
AIV, AIC = INCORE + "_aiv", INCORE + "_aic"


# ---- helpers ----------------------------------------------------------------------------------


def nav(page):
    return page.get_by_role("navigation", name="Passes")


def current_label(page) -> str:
    return nav(page).locator("[aria-current='true'] .pass-label").inner_text()


def expect_current(page, label: str):
    page.wait_for_function(
        "label => (document.querySelector(\"nav [aria-current='true'] .pass-label\") || {}).textContent === label",
        arg=label,
    )


def select_pass(page, label: str):
    nav(page).get_by_role("button").filter(has_text=re.compile("^" + label)).click()
    expect_current(page, label)


def function(page):
    return page.get_by_role("combobox", name="Function")


def compare(page):
    return page.get_by_role("combobox", name="Compare with")


def status(page):
    return page.get_by_role("status")


def passes_of(report, case: str) -> list[dict]:
    """The passes as the report's model holds them (the viewer's input, read independently)."""
    return render.decode_data(report(case).read_text(encoding="utf-8"))["pipelines"][0]["passes"]


def after_scroller(page):
    return page.get_by_role("region", name="After").locator(".scroller")


def scroll_of(page) -> dict:
    return after_scroller(page).evaluate(
        "n => ({top: n.scrollTop, left: n.scrollLeft, max: n.scrollHeight - n.clientHeight, height: n.clientHeight})"
    )


# ---- 1. picking does not trap the keys ---------------------------------------------------------


def test_j_and_k_step_passes_right_after_picking_a_function(open_report):
    page = open_report(FUNCTIONS).page
    select_pass(page, "02")
    function(page).focus()
    function(page).select_option("tiny_add.kernel_add")  # the select keeps the focus, as after a mouse pick
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Function"
    page.keyboard.press("j")
    expect_current(page, "03")
    page.keyboard.press("k")
    expect_current(page, "02")
    assert function(page).input_value() == "tiny_add.kernel_add"  # the option did not change


def test_arrow_keys_on_the_focused_function_select_pick_a_function_then_j_changes_pass(open_report):
    """DESIGN: a focused select keeps the keys it owns; a keyboard user picks a function with them."""
    page = open_report(FUNCTIONS).page
    select_pass(page, "02")
    function(page).focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => location.hash.includes('fn=tiny_add.main')")  # picked, not only shown
    assert (function(page).input_value(), current_label(page)) == ("tiny_add.main", "02")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => location.hash.includes('fn=tiny_add.kernel_add')")
    page.keyboard.press("ArrowUp")
    page.wait_for_function("() => location.hash.includes('fn=tiny_add.main')")
    assert current_label(page) == "02"
    page.keyboard.press("j")  # the select still has the focus: letters stay shortcuts
    expect_current(page, "03")
    assert function(page).input_value() == "tiny_add.main"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Function"
    page.keyboard.press("k")
    expect_current(page, "02")


def test_j_and_k_step_passes_right_after_picking_a_compare_base(open_report):
    page = open_report(FUNCTIONS).page
    select_pass(page, "03")
    compare(page).focus()
    compare(page).select_option(index=1)  # the input snapshot
    page.keyboard.press("k")
    expect_current(page, "02")
    page.keyboard.press("ArrowDown")  # the select's own key: the next snapshot to compare with
    page.wait_for_function("() => document.querySelector('[aria-label=\"Compare with\"]').value === '1'")
    assert current_label(page) == "02"
    page.keyboard.press("j")
    expect_current(page, "03")


def test_keys_still_type_in_the_search(open_report):
    page = open_report(FUNCTIONS).page
    label = current_label(page)
    page.get_by_role("searchbox", name="Search all passes").fill("")
    page.get_by_role("searchbox", name="Search all passes").press("j")
    page.get_by_role("searchbox", name="Search all passes").press("ArrowDown")
    assert current_label(page) == label
    assert page.get_by_role("searchbox", name="Search all passes").input_value() == "j"


def test_code_panes_scroll_by_keyboard(open_report):
    page = open_report(FLASH, viewport=(1000, 600)).page
    select_pass(page, "32")  # InitMemRef: long lines, hundreds of rows
    page.get_by_role("button", name="Expand all").click()
    page.keyboard.press("Home")  # a pass opens at its first change: start from the top
    start = scroll_of(page)
    assert start["top"] == 0 and start["max"] > 600
    page.keyboard.press("PageDown")
    paged = scroll_of(page)
    assert paged["top"] == start["height"] - 40 > 100  # a page, less two lines kept in view
    page.keyboard.press("Alt+ArrowDown")
    assert scroll_of(page)["top"] == paged["top"] + 20
    page.keyboard.press("Alt+ArrowUp")
    page.keyboard.press("PageUp")
    assert scroll_of(page)["top"] == 0
    # the pass opened at column 0, and stays there until the reader scrolls sideways
    assert page.evaluate("() => [...document.querySelectorAll('.scroller')].every(n => n.scrollLeft === 0)")
    after = after_scroller(page).element_handle()  # the other pane follows on its scroll event: wait for it
    page.keyboard.press("Alt+ArrowRight")
    page.wait_for_function("n => n.scrollLeft > 0", arg=after)
    page.keyboard.press("Alt+ArrowLeft")
    page.wait_for_function("n => n.scrollLeft === 0", arg=after)
    page.keyboard.press("End")
    end = scroll_of(page)
    assert abs(end["top"] - end["max"]) <= 1
    page.keyboard.press("Home")
    assert scroll_of(page)["top"] == 0
    assert current_label(page) == "32"  # none of these moved to another pass
    before = page.get_by_role("region", name="Before").locator(".scroller")
    assert before.evaluate("n => n.scrollTop") == 0  # and the panes stayed in step
    page.keyboard.press("?")
    help_text = page.get_by_role("dialog", name="Keyboard shortcuts").inner_text()
    for keys in ("PageDown", "Home", "Alt+↓", "Alt+→", "Shift+J", "Shift+K"):
        assert keys in help_text


# ---- 2. Shift+J / Shift+K ----------------------------------------------------------------------


def test_shift_j_and_k_step_through_the_passes_that_change_the_function(open_report, report):
    page = open_report(FLASH).page
    passes = passes_of(report, FLASH)
    # 22 ExpandMixedKernel pairs AIV with the function it was split from: its history goes on before 22 under that name
    split = next(k for k, p in enumerate(passes) if any(x.get("beforeKey") == INCORE for x in p.get("pieces", [])))
    earlier = [p["label"] for p in passes[:split] if INCORE in (p.get("byRegion") or {})]
    changing = [p["label"] for p in passes[split:] if AIV in (p.get("byRegion") or {})]
    assert len(earlier) >= 2 and len(changing) >= 4
    page.keyboard.press("J")
    assert "Pick a function first" in status(page).inner_text()
    select_pass(page, changing[0])
    function(page).select_option(AIV)
    marked = nav(page).locator(".pass.touches .pass-label").all_inner_texts()
    assert marked == earlier + changing
    for label in changing[1:]:
        page.keyboard.press("Shift+J")
        expect_current(page, label)
    page.keyboard.press("Shift+J")
    expect_current(page, changing[-1])
    assert status(page).inner_text() == f"No later pass changes {AIV}."
    page.keyboard.press("Shift+K")
    expect_current(page, changing[-2])
    assert function(page).input_value() == AIV


def test_shift_j_shows_a_pass_the_filters_hide(open_report, report):
    page = open_report(FUNCTIONS).page
    select_pass(page, "02")
    function(page).select_option("tiny_add.main")
    page.get_by_role("checkbox", name="Changed").uncheck()  # the list now shows only no-op passes
    expect_current(page, "01")
    page.keyboard.press("Shift+J")
    expect_current(page, "02")
    assert page.get_by_role("checkbox", name="Changed").is_checked()


# ---- 3. the pass that adds or removes the function ---------------------------------------------


def test_the_pass_that_adds_the_function_shows_it_all_inserted(open_report):
    page = open_report(FLASH).page
    select_pass(page, "25")
    function(page).select_option(AIC)
    page.keyboard.press("Shift+K")
    expect_current(page, "23")
    page.keyboard.press("Shift+K")
    expect_current(page, "22")  # ExpandMixedKernel creates it (the function it splits is paired with AIV)
    assert function(page).input_value() == AIC
    after = page.get_by_role("region", name="After")
    assert after.locator(".row.ins").count() > 0 and after.locator(".row.eq").count() == 0
    assert page.get_by_role("region", name="Before").locator(".row.del, .row.eq").count() == 0
    assert page.get_by_text(f"This pass adds {AIC}: all its lines are inserted.").is_visible()


# ---- 4. pass names in full, a widenable sidebar ------------------------------------------------

CLIPPED_NAMES = """() => [...document.querySelectorAll("nav .pass")].filter(b => !b.parentElement.hidden).flatMap(button => {
  const name = button.querySelector(".pass-name"), box = name.getBoundingClientRect(), nav = button.closest("nav").getBoundingClientRect();
  const clipped = name.scrollWidth > name.clientWidth + 1 || box.right > nav.right + 0.5 || box.left < nav.left;
  return clipped ? [name.textContent] : [];
})"""


def test_pass_names_are_readable_in_full_with_counts_and_marks(open_report):
    page = open_report(FLASH, viewport=(1400, 860)).page
    page.get_by_role("searchbox", name="Search all passes").fill("tile")
    page.locator("#search-summary").wait_for(state="visible")
    select_pass(page, "33")
    function(page).select_option(AIV)
    expect(nav(page).locator(".hits")).to_have_count(34)  # the search's counts come from its worker: awaited
    assert nav(page).locator(".touches").count() > 0
    for name in ("MaterializeSemanticAliases", "ConvertTensorToTileOps", "ResolveBackendOpLayouts"):
        assert nav(page).get_by_role("button", name=re.compile(name)).count() == 1
    assert page.evaluate(CLIPPED_NAMES) == []
    # The two names seen cut in real use fit on one line at 1400 px.
    heights = (
        nav(page)
        .locator(".pass-name")
        .evaluate_all(
            "names => names.filter(n => /MaterializeSemanticAliases|AutoDeriveTaskDependencies/.test(n.textContent))"
            ".map(n => n.getClientRects().length)"
        )
    )
    assert heights and set(heights) == {1}


def test_the_sidebar_is_widened_by_keyboard_and_by_mouse_and_remembered(open_report):
    opened = open_report(EXPLICIT, viewport=(1024, 700))
    page = opened.page
    handle = page.get_by_role("separator", name="Resize pass list")
    width = lambda: round(nav(page).bounding_box()["width"])
    start = width()
    assert int(handle.get_attribute("aria-valuenow")) == start
    handle.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert width() == start + 48 and int(handle.get_attribute("aria-valuenow")) == start + 48
    page.keyboard.press("ArrowLeft")
    assert width() == start + 32
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + 200
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y, steps=4)
    page.mouse.up()
    assert abs(width() - (start + 92)) <= 1
    remembered = width()
    page.keyboard.press("Home")  # on the handle: the narrowest list, not the top of the code
    assert width() == int(handle.get_attribute("aria-valuemin"))
    page.keyboard.press("End")
    assert width() == int(handle.get_attribute("aria-valuemax")) <= 0.6 * 1024 + 1
    for _ in range(40):
        page.keyboard.press("ArrowLeft")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    remembered = width()
    reload(page)
    assert width() == remembered
    assert page.evaluate(CLIPPED_NAMES) == []


# ---- 5 and 7. no control overlaps another; the heading keeps its width --------------------------

CONTROLS = """() => {
  const leaves = document.querySelectorAll(
    ".passbar h2, .passbar .pass-counts, .passbar .label-text, .passbar select, " +
    ".toolbar button, .toolbar select, .toolbar .label-text, .toolbar input");
  return [...leaves].filter(n => n.getClientRects().length).map(n => {
    const r = n.getBoundingClientRect();
    return {name: n.getAttribute("aria-label") || n.textContent.trim().slice(0, 30), x: r.left, y: r.top, r: r.right, b: r.bottom};
  });
}"""


def overlaps(a, b) -> bool:
    return a["x"] < b["r"] - 0.5 and b["x"] < a["r"] - 0.5 and a["y"] < b["b"] - 0.5 and b["y"] < a["b"] - 0.5


@pytest.mark.parametrize("width", [1024, 1200, 1400])
def test_no_control_overlaps_another(open_report, width):
    page = open_report(FLASH, viewport=(width, 800)).page
    select_pass(page, "24")
    function(page).select_option(AIV)  # the longest label
    compare(page).select_option(index=2)
    boxes = page.evaluate(CONTROLS)
    names = {box["name"] for box in boxes}
    assert {"Expand all", "Collapse all", "Function", "Compare with", "Side by side", "Stacked"} <= names
    for a, b in combinations(boxes, 2):
        assert not overlaps(a, b), (a, b)
    for box in boxes:
        assert box["x"] >= 0 and box["r"] <= width and box["r"] > box["x"], box


@pytest.mark.parametrize("width", [600, 700])
def test_the_pass_heading_stays_readable_when_narrow(open_report, width):
    page = open_report(FLASH, viewport=(width, 800)).page
    select_pass(page, "33")  # MaterializeSemanticAliases
    heading = page.get_by_role("heading", name=re.compile("MaterializeSemanticAliases"))
    shape = heading.evaluate("h => ({w: h.clientWidth, sw: h.scrollWidth, r: h.getBoundingClientRect().right})")
    assert shape["w"] > 200 and shape["sw"] <= shape["w"] + 1 and shape["r"] <= width
    counts = page.locator("#pass-counts")
    assert counts.inner_text() == "+8 \u22128" and counts.bounding_box()["x"] + counts.bounding_box()["width"] <= width
    boxes = page.evaluate(CONTROLS)
    for a, b in combinations(boxes, 2):
        assert not overlaps(a, b), (a, b)
    assert all(box["r"] <= width + 0.5 for box in boxes)


# ---- 6. long labels keep their counts ------------------------------------------------------------


def test_function_labels_put_what_changed_first_and_show_it(open_report):
    page = open_report(FLASH, viewport=(1024, 700)).page
    select_pass(page, "24")
    labels = function(page).locator("option").all_inner_texts()
    assert f"\u25cf (+142 \u221269) {AIV}" in labels
    assert "\u25cf (removed) _jit_flash_attention.flash_attention_incore_0" not in labels  # 24 keeps it
    function(page).select_option(AIV)
    # The closed selector shows its label from the start: the counts must fit in its width.
    fits = function(page).evaluate("""s => {
      const probe = document.createElement("span");
      probe.style.cssText = "position: absolute; white-space: pre; font: " + getComputedStyle(s).font;
      probe.textContent = "\\u25cf (+142 \\u221269) _jit";
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      return s.clientWidth - 30 > need;  // the arrow and padding take about 30 px
    }""")
    assert fits


# ---- 8. printing ---------------------------------------------------------------------------------


def pdf_pages(page) -> int:
    data = page.pdf(format="A4")
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", data))


def test_print_shows_every_row_of_the_diff_wrapped_without_controls(open_report):
    page = open_report(FLASH).page
    select_pass(page, "32")
    page.get_by_role("button", name="Expand all").click()
    rows = after_scroller(page).evaluate("n => n.querySelector('.sizer').offsetHeight / 20")  # at most
    on_screen = page.get_by_role("region", name="After").locator(".row").count()
    assert rows > on_screen > 0  # the screen holds only some of them
    page.keyboard.press("End")
    after_scroller(page).evaluate("""scroller => new Promise(done => {  // the rows at the end are built
      const built = () => {
        const rows = Array.from(scroller.querySelectorAll(".row"), row => row.getBoundingClientRect().bottom);
        return Math.abs(Math.max(...rows) - scroller.querySelector(".sizer").getBoundingClientRect().bottom) < 2;
      };
      const check = () => (built() ? done() : requestAnimationFrame(check));
      check();
    })""")
    last = page.get_by_role("region", name="After").evaluate("""pane => {  // the row of the highest line number
      const rows = Array.from(pane.querySelectorAll(".row")).filter(row => row.querySelector(".ln").textContent);
      rows.sort((x, y) => Number(y.querySelector(".ln").textContent) - Number(x.querySelector(".ln").textContent));
      return [rows[0].querySelector(".code").textContent, Number(rows[0].querySelector(".ln").textContent)];
    }""")
    lines = page.get_by_role("region", name="Before").evaluate(
        "pane => Math.max(...Array.from(pane.querySelectorAll('.ln'), n => Number(n.textContent)))"
    )
    page.emulate_media(media="print")
    sheet = page.locator(".print-view")
    sheet.wait_for(state="attached")
    numbered = sheet.evaluate("""sheet => [0, 1].map(side => Array.from(sheet.querySelectorAll("tbody tr"),
      tr => tr.children[side].querySelector(".ln").textContent).filter(Boolean).length)""")
    assert numbered == [lines, last[1]] and sheet.locator("tbody tr").count() <= rows  # every line of both sides
    assert last[0] in sheet.locator("tbody tr").last.inner_text()
    style = page.evaluate("""() => ({
      sidebar: getComputedStyle(document.querySelector("nav")).display,
      toolbar: getComputedStyle(document.querySelector(".toolbar")).display,
      wrap: getComputedStyle(document.querySelector(".print-table .row")).whiteSpace,
      width: document.querySelector(".print-table").getBoundingClientRect().right <= innerWidth,
    })""")
    assert style == {"sidebar": "none", "toolbar": "none", "wrap": "pre-wrap", "width": True}
    assert page.get_by_role("heading", name=re.compile("InitMemRef")).is_visible()
    page.emulate_media(media="screen")
    sheet.wait_for(state="detached")  # the media query's change event arrives after the emulation call


def test_the_pdf_grows_with_the_rows(open_report):
    page = open_report(FLASH).page
    select_pass(page, "05")  # Simplify: a few rows
    short = pdf_pages(page)
    select_pass(page, "32")
    page.get_by_role("button", name="Expand all").click()
    long = pdf_pages(page)
    assert long > short + 3 and long >= 8
    assert page.locator(".print-view").count() == 0  # dropped after printing


# ---- 9. status messages ---------------------------------------------------------------------------


def test_status_messages_are_whole_and_stay_long_enough_to_read(open_report):
    page = open_report(FUNCTIONS, viewport=(1024, 700)).page
    search = page.get_by_role("searchbox", name="Search all passes")
    search.fill("def main")  # every snapshot has it once: no pass changes the count
    page.locator("#search-summary").wait_for(state="visible")
    # The message's timer runs on a clock the test moves, paused meanwhile: a slow machine adds no time to it.
    page.clock.install()
    page.clock.pause_at(time.time() + 60)
    search.press("Enter")
    message = status(page)
    assert message.inner_text() == "No visible pass changes the number of matching lines"
    shape = message.evaluate("""n => { const r = n.getBoundingClientRect();
      return {cut: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1,
              inside: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight}; }""")
    assert shape == {"cut": False, "inside": True}
    page.clock.run_for(9_000)
    shown = page.locator("#status")  # by id: once empty it has no box, and a query by role no longer finds it
    assert shown.text_content() == "No visible pass changes the number of matching lines"
    page.clock.run_for(2_000)
    assert shown.text_content() == ""  # it does go in the end: the clock drove its timer, so the 9 s above were real


# ---- 10. the dump level -----------------------------------------------------------------------------


def test_the_header_names_a_concise_dump_and_advises_explicit_where_tiles_change(open_report):
    page = open_report(FLASH).page
    badge = page.locator("header").get_by_text("CONCISE dump")
    assert badge.is_visible()
    assert "RunConfig(dump_passes=PassDumpLevel.EXPLICIT)" in badge.get_attribute("title")
    advice = page.get_by_text(re.compile(r"re-dump with RunConfig\(dump_passes=PassDumpLevel\.EXPLICIT\)"))
    select_pass(page, "11")  # ConvertTensorToTileOps: tile types appear
    assert advice.is_visible()
    select_pass(page, "04")  # ConvertToSSA: tensors only
    assert advice.count() == 0


def test_no_advice_where_only_addresses_and_buffers_change(open_report):
    """A real CONCISE dump: InitMemRef places each tile, AllocateMemoryAddr moves one (pl.const(0, ...) ->
    pl.const(32768, ...)); their tile types, and the layouts their EXPLICIT dump prints, stay as they were. The
    passes that change the types themselves get the advice."""
    page = open_report("real/advanced_01_split_k_concise").page
    advice = page.get_by_text(re.compile("re-dump with"))
    for label in ("32", "35"):  # InitMemRef, AllocateMemoryAddr
        select_pass(page, label)
        assert page.get_by_role("region", name="After").locator("ins").count() > 0  # they do change tile lines
        assert advice.count() == 0, label
    for label in ("11", "18"):  # ConvertTensorToTileOps, InferTileMemorySpace
        select_pass(page, label)
        assert advice.is_visible(), label


def test_the_advice_follows_the_lines_that_name_tile_types(open_report, tmp_path):
    """Which lines name a tile type is the model's (level.scm read at build time): a CONCISE pass that changes
    only tensor lines gets no advice, one that changes the tile line does, and so does a comparison spanning it."""
    page = open_report(str(write_dump(tmp_path, CONCISE).parent)).page
    assert page.locator("header").get_by_text("CONCISE dump").is_visible()
    advice = page.get_by_text(re.compile("re-dump with"))
    select_pass(page, "01")  # NameCall: a comment on a tensor line
    assert advice.count() == 0
    select_pass(page, "02")  # InferTileMemorySpace: the tile's type
    assert advice.is_visible()
    compare(page).select_option(label="01 NameCall")  # 01 against itself: no change at all
    select_pass(page, "01")
    assert advice.count() == 0
    compare(page).select_option(label="00 frontend")  # 00 -> 02 spans the tile line's change
    select_pass(page, "02")
    assert advice.is_visible()


def test_the_input_and_the_level_are_named_in_the_format_records_words(open_report, tmp_path, monkeypatch):
    """The viewer names no format: the input's name, the badge's words and the advice reach it from the record."""
    record = FORMATS["pypto"]
    assert record.level is not None
    level = replace(record.level, title=lambda level: f"printed at {level}", advice=lambda level: "see the layouts")
    monkeypatch.setitem(FORMATS, "pypto", replace(record, level=level))
    monkeypatch.setattr(pypto, "INPUT_NAME", "the start")  # the reader names the input
    page = open_report(str(write_dump(tmp_path, CONCISE).parent)).page
    assert page.locator("header").get_by_text("CONCISE dump").get_attribute("title") == "printed at CONCISE"
    assert compare(page).locator("option").all_inner_texts()[1] == "00 the start"
    select_pass(page, "02")  # InferTileMemorySpace: the tile's type
    assert page.get_by_text("see the layouts").is_visible()
    compare(page).select_option(label="00 the start")
    page.wait_for_function("() => /base=00(&|$)/.test(location.hash)")  # the input's label, from the dump


def test_an_explicit_dump_says_so_without_advice(open_report):
    page = open_report(EXPLICIT).page
    badge = page.locator("header").get_by_text("EXPLICIT dump")
    assert badge.is_visible() and "PassDumpLevel.EXPLICIT" in badge.get_attribute("title")
    select_pass(page, "11")
    assert page.get_by_text(re.compile("re-dump with")).count() == 0
