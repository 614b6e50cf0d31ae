"""The viewer in real headless Chromium: every control of the spec, found by role and accessible name."""

from __future__ import annotations

import difflib
import itertools
import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
REAL = "real/advanced_01_split_k_explicit"
FLASH = "real/models_03_flash_attention_concise"
FUNCTIONS = "viewer/functions"
FUNCTIONS_DUMP = FIXTURES / FUNCTIONS / "passes_dump"


# ---- helpers ----------------------------------------------------------------------------------


def nav(page):
    return page.get_by_role("navigation", name="Passes")


def pass_buttons(page):
    return nav(page).get_by_role("button")


def current(page):
    return nav(page).locator("[aria-current='true']")


def heading(page):
    return page.get_by_role("heading", level=2)


def pane(page, side: str):
    return page.get_by_role("region", name=side)


def combobox(page):
    return page.get_by_role("combobox", name="Function")


def select_pass(page, label: str):
    pass_buttons(page).filter(has_text=re.compile("^" + label)).click()
    expect_current(page, label)


def expect_current(page, label: str):
    page.wait_for_function(
        "label => (document.querySelector(\"nav [aria-current='true']\") || {}).textContent?.startsWith(label)",
        arg=label,
    )


def expect_fragment(page, fragment: str):
    """The address bar follows the view once the reader pauses (the viewer coalesces history writes)."""
    page.wait_for_function("fragment => location.hash === fragment", arg=fragment)


def code_text(page, side: str) -> str:
    return pane(page, side).locator(".rows").inner_text()


def counts(before: Path, after: Path) -> tuple[int, int]:
    a = before.read_text().splitlines()
    b = after.read_text().splitlines()
    ins = dele = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            dele += i2 - i1
            ins += j2 - j1
    return ins, dele


# ---- pass list --------------------------------------------------------------------------------


def test_pass_list_order_counts_and_badge(open_report):
    page = open_report(FUNCTIONS).page
    files = sorted(p.name for p in FUNCTIONS_DUMP.glob("*.py"))
    buttons = pass_buttons(page)
    assert buttons.count() == len(files) - 1
    for index, (before, after) in enumerate(itertools.pairwise(files)):
        label, name = re.match(r"(\d+)_after_(.+)\.py", after).groups()
        button = buttons.nth(index)
        accessible = button.evaluate("b => b.textContent")
        assert label in accessible and name in accessible
        ins, dele = counts(FUNCTIONS_DUMP / before, FUNCTIONS_DUMP / after)
        assert re.search(rf"\+{ins}\b", accessible) and re.search(rf"[−-]{dele}\b", accessible), (after, accessible)
        warned = (FUNCTIONS_DUMP / after).with_suffix(".log").exists()
        assert button.get_by_role("img", name="warning").count() == (1 if warned else 0), after
    assert buttons.filter(has=page.get_by_role("img", name="warning")).count() == 1


def test_accessible_names_name_index_and_pass(open_report):
    page = open_report(REAL).page
    button = nav(page).get_by_role("button", name=re.compile(r"07.*FlattenCallExpr"))
    assert button.count() == 1
    assert button.get_by_text(re.compile(r"^\+2$")).count() == 1


def test_first_changed_pass_is_selected_and_click_selects(open_report):
    page = open_report(FUNCTIONS).page
    assert current(page).count() == 1
    assert "ConvertToSSA" in current(page).inner_text() and current(page).inner_text().startswith("02")
    assert "ConvertToSSA" in heading(page).inner_text()
    select_pass(page, "03")
    assert current(page).count() == 1
    assert "OutlineIncoreScopes" in heading(page).inner_text()
    assert "def kernel_add_incore_0" in code_text(page, "After")
    assert "def kernel_add_incore_0" not in code_text(page, "Before")


def test_unchanged_pipeline_selects_first_pass_and_says_so(open_report):
    page = open_report("viewer/unchanged").page
    assert current(page).inner_text().startswith("01")
    assert page.get_by_text("The pipeline changed nothing").is_visible()
    # Nothing changed, so nothing is folded away: the whole text is there to read.
    assert page.get_by_role("button", name=re.compile("unchanged line")).count() == 0
    assert "def kernel_mul" in code_text(page, "After")
    page.keyboard.press("j")
    expect_current(page, "02")
    assert page.get_by_text("The pipeline changed nothing").is_visible()


# ---- filters ----------------------------------------------------------------------------------


def test_filters_are_independent_and_keep_a_visible_selection(open_report):
    page = open_report(FUNCTIONS).page
    changed = page.get_by_role("checkbox", name="Changed")
    noop = page.get_by_role("checkbox", name="No-op")
    assert changed.is_checked() and noop.is_checked()
    visible = pass_buttons(page)
    assert visible.count() == 6
    noop.uncheck()
    assert changed.is_checked()
    assert [b.inner_text()[:2] for b in visible.all()] == ["02", "03", "04", "05"]
    noop.check()
    select_pass(page, "04")
    changed.uncheck()
    assert noop.is_checked()
    assert [b.inner_text()[:2] for b in visible.all()] == ["01", "06"]
    expect_current(page, "06")  # 04 is hidden: the closest visible pass (06 is 2 away, 01 is 3)
    assert "Simplify" in heading(page).inner_text()


def test_all_passes_hidden_shows_an_empty_state(open_report):
    opened = open_report(FUNCTIONS)
    page = opened.page
    page.get_by_role("checkbox", name="Changed").uncheck()
    page.get_by_role("checkbox", name="No-op").uncheck()
    assert pass_buttons(page).count() == 0
    assert current(page).count() == 0
    assert page.get_by_text("No pass matches the filters").first.is_visible()
    assert not pane(page, "Before").is_visible() and not pane(page, "After").is_visible()
    assert "ConvertToSSA" not in heading(page).inner_text()
    assert combobox(page).is_disabled()
    page.keyboard.press("j")  # nothing to step to: no error
    page.get_by_role("checkbox", name="Changed").check()
    expect_current(page, "02")  # back where the reader was
    assert pane(page, "After").is_visible()


# ---- keys -------------------------------------------------------------------------------------


def test_keys_step_through_visible_passes(open_report):
    page = open_report(FUNCTIONS).page
    page.keyboard.press("j")
    expect_current(page, "03")
    page.keyboard.press("ArrowDown")
    expect_current(page, "04")
    page.keyboard.press("k")
    expect_current(page, "03")
    page.keyboard.press("ArrowUp")
    expect_current(page, "02")
    page.keyboard.press("k")
    expect_current(page, "01")
    page.get_by_role("checkbox", name="No-op").uncheck()
    expect_current(page, "02")
    page.keyboard.press("k")  # 01 is hidden: stays on the first visible pass
    expect_current(page, "02")
    for label in ("03", "04", "05", "05"):
        page.keyboard.press("j")  # the checkbox has focus: it is not a text field, keys still work
        expect_current(page, label)


def test_keys_are_ignored_while_typing(open_report):
    page = open_report(FUNCTIONS).page
    combobox(page).focus()
    page.keyboard.press("j")
    page.keyboard.press("k")
    assert current(page).inner_text().startswith("02")
    page.evaluate(
        "() => { const input = document.createElement('input'); input.id = 'probe';"
        " document.body.prepend(input); input.focus(); }"
    )
    page.keyboard.press("j")
    page.keyboard.press("ArrowDown")
    assert current(page).inner_text().startswith("02")
    assert page.locator("#probe").input_value() == "j"


def test_selected_pass_scrolls_into_view(open_report):
    page = open_report(REAL, viewport=(1000, 400)).page
    for _ in range(45):
        page.keyboard.press("j")
    expect_current(page, "49")
    box, list_box = current(page).bounding_box(), nav(page).bounding_box()
    assert list_box["y"] <= box["y"] and box["y"] + box["height"] <= list_box["y"] + list_box["height"] + 1


LIST_GEOMETRY = """() => {
  const list = document.getElementById('pass-list');
  const top = list.getBoundingClientRect().top + list.clientTop, bottom = top + list.clientHeight;
  const rows = [...list.children].filter(li => !li.hidden).map(li => li.getBoundingClientRect());
  const cut = rows.find(r => r.bottom > top + 0.5);
  const at = list.querySelector("[aria-current='true']").parentElement.getBoundingClientRect();
  return {top, bottom, selected: [at.top, at.bottom], firstTop: cut.top,
          atEnd: list.scrollTop >= list.scrollHeight - list.clientHeight - 1};
}"""


SETTLED = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))))"


@pytest.mark.parametrize(
    ("case", "fragment", "viewport"),
    [
        (FLASH, "#pass=30", (1400, 900)),
        (FLASH, "#pass=30", (1024, 768)),
        ("models_qwen3_decode_explicit", "#pass=35", (1024, 768)),  # rows off screen take their height late
        ("models_qwen3_decode_explicit", "#pass=45", (1024, 768)),
    ],
)
def test_a_pass_far_down_is_shown_whole_below_the_filters_with_no_row_cut_under_them(
    open_report, real_dumps, case, fragment, viewport
):
    """Rows differ in height (long names wrap), so the nearest scroll left the list's top row cut in half
    under the filters; the selected pass and the rows at the top edge are whole, also once the rows off screen
    have their real height (content-visibility) and scroll anchoring has moved the list (qwen3 at a link)."""
    path = case if case.startswith("real/") else str(real_dumps / case / "passes_dump")
    page = open_report(path, viewport=viewport, fragment=fragment).page
    for step in range(4):
        if step:
            page.keyboard.press("j")
        page.evaluate(SETTLED)
        geometry = page.evaluate(LIST_GEOMETRY)
        assert geometry["top"] - 0.5 <= geometry["selected"][0] and geometry["selected"][1] <= geometry["bottom"] + 0.5
        assert geometry["firstTop"] >= geometry["top"] - 0.5 or geometry["atEnd"], (step, geometry)
    assert page.get_by_role("checkbox", name="No-op").bounding_box()["y"] < geometry["top"]


def test_help_shows_the_keys(open_report):
    page = open_report(FUNCTIONS).page
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    assert not dialog.is_visible()
    page.keyboard.press("?")
    dialog.wait_for()
    assert "Next visible pass" in dialog.inner_text()
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    page.get_by_role("button", name="Keyboard shortcuts").click()
    dialog.wait_for()
    heading(page).click()  # a click elsewhere closes it
    dialog.wait_for(state="hidden")


# ---- layouts and scrolling --------------------------------------------------------------------


def scroll_of(page, side):
    return pane(page, side).locator(".scroller").evaluate("s => [s.scrollTop, s.scrollLeft]")


SHOWN_SCROLLERS = "[...document.querySelectorAll('.scroller')].filter(s => s.offsetParent !== null)"


def wait_synced(page, top, left, timeout=5000):
    page.wait_for_function(
        f"([top, left]) => {SHOWN_SCROLLERS}.every("
        "s => Math.abs(s.scrollTop - top) < 1 && Math.abs(s.scrollLeft - left) < 1)",
        arg=[top, left],
        timeout=timeout,
    )


PANES_AT_REST = f"""([quiet]) => {{
  const shown = {SHOWN_SCROLLERS};
  if (!window.__moved) {{
    window.__moved = performance.now();
    shown.forEach(s => s.addEventListener('scroll', () => {{ window.__moved = performance.now(); }}));
  }}
  const [first] = shown;
  const agree = shown.every(s => Math.abs(s.scrollTop - first.scrollTop) < 1 && Math.abs(s.scrollLeft - first.scrollLeft) < 1);
  return agree && performance.now() - window.__moved > quiet && [first.scrollTop, first.scrollLeft];
}}"""


def scroll_before(page, top, left=0, quiet_ms=300):
    """The reader scrolls Before to (top, left); returns where both panes came to rest, together. A function just
    picked is still being opened (the rows beyond the screen are built and measured once the reader pauses, and
    the view keeps the line at its top as their heights turn out): the view may move the reader's scroll by the
    rows measured above it, never sideways and never by more than a screen."""
    page.evaluate("() => { window.__moved = 0; }")
    page.locator("#scroll-before").evaluate("(s, [t, l]) => { s.scrollTop = t; s.scrollLeft = l; }", [top, left])
    try:
        rest = page.wait_for_function(PANES_AT_REST, arg=[quiet_ms], timeout=10000, polling=50).json_value()
    except PlaywrightTimeoutError:
        where = page.evaluate(f"() => {SHOWN_SCROLLERS}.map(s => [s.scrollTop, s.scrollLeft])")
        raise AssertionError(f"asked for {[top, left]}: the panes never came to rest together, at {where}") from None
    screen = page.locator("#scroll-before").evaluate("s => s.clientHeight")
    assert abs(rest[1] - left) < 1 and abs(rest[0] - top) <= screen, f"asked for {[top, left]}, rested at {rest}"
    return rest


def test_layout_buttons_and_scroll_sync_both_axes(open_report):
    page = open_report(REAL, "--context", "1000", viewport=(1000, 500)).page
    select_pass(page, "09")  # about 70 rows, some of them 200 characters wide
    split = page.get_by_role("button", name="Side by side")
    stacked = page.get_by_role("button", name="Stacked")
    for layout, other in ((split, stacked), (stacked, split), (split, stacked)):
        layout.click()
        assert layout.get_attribute("aria-pressed") == "true" and other.get_attribute("aria-pressed") == "false"
        for source, follower in (("Before", "After"), ("After", "Before")):
            # a pass opens at its first change: start from the top left so the wheel has room on both axes
            page.evaluate(f"() => {SHOWN_SCROLLERS}.forEach(s => {{ s.scrollTop = 0; s.scrollLeft = 0; }})")
            wait_synced(page, 0, 0)
            start, follower_start = scroll_of(page, source), scroll_of(page, follower)
            page.evaluate(
                "() => { window.__tops = []; const s = document.querySelectorAll('.scroller');"
                " s.forEach(p => p.addEventListener('scroll', () => window.__tops.push(p.scrollTop))); }"
            )
            box = pane(page, source).bounding_box()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.wheel(40, 60)
            page.wait_for_function(
                "([t, l]) => { const s = document.querySelectorAll('.scroller')[%d];"
                " return s.scrollTop > t && s.scrollLeft > l; }" % (source == "After"),
                arg=start,
            )
            top, left = scroll_of(page, source)
            if layout is split:  # the same rows: the same pixels
                wait_synced(page, top, left)
                assert scroll_of(page, follower) == [top, left]
            else:  # stacked panes list their own lines: the follower keeps the same line at its top, and the same left
                page.wait_for_function(
                    "([t, l]) => { const s = document.querySelectorAll('.scroller')[%d];"
                    " return s.scrollTop > t && Math.abs(s.scrollLeft - l) < 1; }" % (follower == "After"),
                    arg=[follower_start[0], left],
                )
            tops = page.evaluate("() => window.__tops")  # no feedback: positions only ever grow
            assert tops == sorted(tops), tops
    assert scroll_of(page, "Before")[0] > 0 and scroll_of(page, "Before")[1] > 0


TOP_LINE = """s => { const top = s.getBoundingClientRect().top;
  const row = [...s.querySelectorAll('.rows > .row')].find(r => r.getBoundingClientRect().bottom > top + 1);
  return row.querySelector('.ln').textContent.trim(); }"""


def test_layout_switch_keeps_pass_function_and_scroll(open_report):
    """Side by side -> Stacked -> Side by side: the same pass and function, the same line at the top of Before,
    and the reader's own sideways scroll, in both panes."""
    page = open_report(FLASH, "--context", "1000", viewport=(1000, 600)).page
    select_pass(page, "04")
    choice = "_jit_flash_attention.flash_attention"  # 51 lines, some 200 characters wide
    combobox(page).select_option(choice)
    before = page.locator("#scroll-before")
    scroll_before(page, 600, 40)  # well below the first change
    line = before.evaluate(TOP_LINE)
    page.get_by_role("button", name="Stacked").click()
    assert page.get_by_role("button", name="Stacked").get_attribute("aria-pressed") == "true"
    expect_current(page, "04")
    assert combobox(page).input_value() == choice
    page.wait_for_function(f"() => {SHOWN_SCROLLERS}.every(s => s.scrollLeft === 40)")
    assert before.evaluate(TOP_LINE) == line
    page.get_by_role("button", name="Side by side").click()
    top = before.evaluate("s => s.scrollTop")  # rows shown whole are measured as they are built: not 600 px again
    wait_synced(page, top, 40)
    assert before.evaluate(TOP_LINE) == line and combobox(page).input_value() == choice


def test_a_layout_switch_keeps_the_current_change_on_screen(open_report):
    """The first change is a long row shown whole: scrolled part-way into it, a switch to Stacked (wider rows,
    fewer wrapped lines) brings the change back on screen rather than keeping a pixel offset past it."""
    page = open_report(FLASH, "--context", "1000", viewport=(1000, 600)).page
    select_pass(page, "04")
    combobox(page).select_option("_jit_flash_attention.flash_attention")
    scroll_before(page, 60)
    page.get_by_role("button", name="Stacked").click()
    shown = """s => { const box = s.getBoundingClientRect(), row = s.querySelector('.rows > .row.current');
      const r = row.getBoundingClientRect(); return r.bottom > box.top + 1 && r.top < box.top + s.clientHeight - 1; }"""
    for side in ("Before", "After"):
        page.wait_for_function(f"() => ({shown})(document.querySelector('#scroll-{side.lower()}'))")


def test_line_numbers_and_change_markers(open_report):
    page = open_report(FUNCTIONS).page
    for side, marker in (("Before", "−"), ("After", "+")):
        rows = pane(page, side).locator(".row")
        numbers = [n for n in rows.locator(".ln").all_inner_texts() if n.strip()]
        assert numbers[:3] == ["5", "6", "7"]
        changed = rows.filter(has_text="ssa_v0" if side == "After" else "return d")
        # changed lines carry a +/− marker, not only a colour
        assert changed.first.locator(".mk").inner_text() == marker


# ---- function selector ------------------------------------------------------------------------


def options(page):
    """The selector's entries for the pass shown (those of the group "Not in this pass" left out)."""
    return combobox(page).locator(":scope > option").all_inner_texts()


def test_function_selector_scopes_and_is_retained(open_report):
    page = open_report(FUNCTIONS).page
    labels = options(page)
    assert labels[0] == "Whole file"
    assert [re.search(r"tiny_add\.\w+", x).group() for x in labels[1:]] == [
        "tiny_add.main",
        "tiny_add.kernel_add",
        "tiny_add.kernel_mul",
    ]
    # every function of the pipeline is offered: the one 03 adds, with the passes that have it
    elsewhere = combobox(page).locator("optgroup[label='Not in this pass'] > option").all_inner_texts()
    assert elsewhere == ["tiny_add.kernel_add_incore_0 (from 03)"]
    changed = [x for x in labels[1:] if x.startswith("●")]
    assert len(changed) == 2 and "kernel_mul" not in " ".join(changed)
    combobox(page).select_option("tiny_add.kernel_add")
    after = code_text(page, "After")
    assert "def kernel_add" in after and "def main" not in after and "def kernel_mul" not in after
    page.keyboard.press("Escape")
    page.locator("body").click(position={"x": 5, "y": 700})
    page.keyboard.press("j")
    expect_current(page, "03")
    assert combobox(page).input_value() == "tiny_add.kernel_add"
    assert "def kernel_add_incore_0" not in code_text(page, "After")
    select_pass(page, "04")  # changes kernel_mul only
    assert page.get_by_text("tiny_add.kernel_add is unchanged by this pass").is_visible()


def test_function_selector_shows_an_added_function_then_falls_back_with_a_note(open_report):
    page = open_report(FUNCTIONS).page
    select_pass(page, "04")
    combobox(page).select_option("tiny_add.kernel_add_incore_0")
    assert "def main" not in code_text(page, "After")
    select_pass(page, "03")  # the pass that adds it: still shown, all inserted
    assert combobox(page).input_value() == "tiny_add.kernel_add_incore_0"
    assert page.get_by_text(re.compile("This pass adds tiny_add.kernel_add_incore_0")).is_visible()
    assert "def main" not in code_text(page, "After") and "def kernel_add_incore_0" in code_text(page, "After")
    assert pane(page, "After").locator(".row.eq").count() == 0
    select_pass(page, "02")  # before it exists: the whole file, and the pass that adds it to open
    assert combobox(page).input_value() == "tiny_add.kernel_add_incore_0"  # still the one picked
    status = page.get_by_role("status").filter(has_text="is not in 02")
    assert status.inner_text().startswith("tiny_add.kernel_add_incore_0 is not in 02 ")
    assert "03 OutlineIncoreScopes adds it" in status.inner_text()
    assert "def main" in code_text(page, "After")
    status.get_by_role("button", name="Open 03 OutlineIncoreScopes").click()
    expect_current(page, "03")
    assert not status.is_visible()
    assert "def main" not in code_text(page, "After") and "def kernel_add_incore_0" in code_text(page, "After")


def test_function_selector_disabled_on_untrusted_structure(open_report):
    page = open_report("viewer/untrusted").page
    assert combobox(page).is_enabled()
    combobox(page).select_option("tiny_add.main")
    for label in ("02", "03"):
        select_pass(page, label)
        assert combobox(page).is_disabled()
        assert combobox(page).input_value() == ""
        note = page.get_by_text(re.compile("could not be parsed safely"))
        assert note.is_visible() and "syntax error at line 26" in note.inner_text()
        assert "def kernel_add" in code_text(page, "After")  # the whole-file diff
    select_pass(page, "04")
    assert combobox(page).is_enabled()
    assert combobox(page).input_value() == "tiny_add.main"


# ---- copy -------------------------------------------------------------------------------------

CAPTURE_COPY = """
window.__copied = [];
window.addEventListener('copy', event => {
  window.__copied.push(event.clipboardData.getData('text/plain'));
});
"""
NO_CLIPBOARD = "Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined});" + CAPTURE_COPY


@pytest.mark.parametrize("case,label", [(REAL, "09"), ("viewer/crlf", "01")])
def test_copy_fallback_without_clipboard_api_is_exact(open_report, case, label):
    page = open_report(case, init_script=NO_CLIPBOARD).page
    assert page.evaluate("() => navigator.clipboard") is None
    select_pass(page, label)
    dump = FIXTURES / case / "passes_dump"
    after = next(dump.glob(f"{label}_after_*.py"))
    before = sorted(dump.glob("*.py"))[int(label) - 1]
    for side, path in (("after", after), ("before", before)):
        page.get_by_role("button", name=f"Copy full source ({side})").click()
        page.get_by_role("status").filter(has_text="Copied").wait_for()
        assert path.name in page.get_by_role("status").inner_text()
        copied = page.evaluate("() => window.__copied.pop()")
        assert copied.encode("utf-8") == path.read_bytes()


def test_copy_with_clipboard_api_includes_folded_lines(open_report):
    page = open_report(REAL, permissions=["clipboard-read", "clipboard-write"]).page
    assert page.get_by_role("button", name=re.compile("unchanged line")).count() > 0  # some lines are folded
    page.get_by_role("button", name="Copy full source (before)").click()
    page.get_by_role("status").filter(has_text="Copied").wait_for()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.encode("utf-8") == (FIXTURES / REAL / "passes_dump" / "03_after_CtrlFlowTransform.py").read_bytes()


# ---- folding ----------------------------------------------------------------------------------


def test_folds_reveal_and_expand_collapse_all(open_report):
    page = open_report(FUNCTIONS).page
    select_pass(page, "04")  # only kernel_mul changed: everything above it folds
    folds = page.get_by_role("button", name=re.compile(r"\d+ unchanged lines?"))
    first = folds.first
    hidden = int(re.search(r"(\d+) unchanged", first.inner_text()).group(1))
    assert hidden == 34  # lines 1-34 of 46: kernel_mul changes from line 38, 3 lines of context
    assert "def kernel_add(" not in code_text(page, "After")
    first.click()
    assert "def kernel_add(" in code_text(page, "After")
    assert folds.count() == 0
    page.get_by_role("button", name="Collapse all").click()
    assert folds.count() == 1 and "def kernel_add(" not in code_text(page, "After")
    page.get_by_role("button", name="Expand all").click()
    assert folds.count() == 0 and "def kernel_add(" in code_text(page, "After")
    numbers = [int(n) for n in pane(page, "After").locator(".ln").all_inner_texts() if n.strip()]
    assert numbers == list(range(1, 47))


# ---- warnings, themes, looks ------------------------------------------------------------------


def test_warnings_panel_shows_the_log(open_report):
    page = open_report(FUNCTIONS).page
    panel = page.get_by_role("region", name="Warnings")
    log = (FUNCTIONS_DUMP / "02_after_ConvertToSSA.log").read_text()
    assert panel.is_visible()
    assert panel.locator("pre").inner_text().strip() == log.strip()
    select_pass(page, "03")
    assert not panel.is_visible()


def background(page):
    return page.evaluate("() => getComputedStyle(document.body).backgroundColor")


def is_dark(color: str) -> bool:
    r, g, b = (int(x) for x in re.findall(r"\d+", color)[:3])
    return r + g + b < 200


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_theme_follows_the_system_and_toggles(open_report, scheme):
    page = open_report(FUNCTIONS, color_scheme=scheme).page
    assert is_dark(background(page)) == (scheme == "dark")
    toggle = page.get_by_role("button", name="Toggle dark theme")
    assert toggle.get_attribute("aria-pressed") == str(scheme == "dark").lower()
    toggle.click()
    assert is_dark(background(page)) == (scheme != "dark")
    assert toggle.get_attribute("aria-pressed") == str(scheme != "dark").lower()


def test_long_pass_name_and_long_line_keep_the_layout(open_report):
    page = open_report(FUNCTIONS, viewport=(1100, 600)).page
    select_pass(page, "05")
    assert "MaterializeDistributedTensorContext" in heading(page).inner_text()
    overflow = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert overflow[0] <= overflow[1]
    width = page.viewport_size["width"]
    for target in (
        heading(page),
        current(page),
        page.get_by_role("button", name="Copy full source (after)"),
        pane(page, "After"),
    ):
        box = target.bounding_box()
        assert box["x"] + box["width"] <= width, target
    scroller = pane(page, "After").locator(".scroller")
    assert scroller.evaluate("s => s.scrollWidth > s.clientWidth")  # the 300-character line scrolls inside


@pytest.mark.parametrize(
    "case",
    sorted(
        p.parent.relative_to(FIXTURES).as_posix()
        for folder in ("real", "viewer")
        for p in FIXTURES.glob(f"{folder}/*/passes_dump")
        if any(p.glob("01_after_*.py"))
    ),
)  # a frontend-only dump has nothing to step
def test_every_fixture_steps_through_without_errors(open_report, case):
    opened = open_report(case)
    page = opened.page
    total = pass_buttons(page).count()
    for _ in range(total):
        page.keyboard.press("j")
    expect_current(page, pass_buttons(page).last.inner_text()[:2])
    page.get_by_role("button", name="Stacked").click()
    page.keyboard.press("k")
    assert current(page).count() == 1
    assert opened.requests and all(url.startswith("file:") for url in opened.requests)


# ---- deep links and function history ---------------------------------------------------------


def test_a_link_opens_the_same_view(open_report):
    opened = open_report(FUNCTIONS, fragment="#pass=04&fn=tiny_add.kernel_mul&layout=stacked")
    page = opened.page
    expect_current(page, "04")
    assert "ConvertToSSA" in heading(page).inner_text()
    assert combobox(page).input_value() == "tiny_add.kernel_mul"
    assert page.get_by_role("button", name="Stacked").get_attribute("aria-pressed") == "true"
    assert "def kernel_mul" in code_text(page, "After") and "def main" not in code_text(page, "After")


def test_the_fragment_follows_what_the_reader_does(open_report):
    page = open_report(FUNCTIONS).page
    expect_current(page, "02")
    expect_fragment(page, "#pass=02")
    combobox(page).select_option("tiny_add.main")
    page.keyboard.press("j")
    expect_current(page, "03")
    page.get_by_role("button", name="Stacked").click()
    expect_fragment(page, "#pass=03&fn=tiny_add.main&layout=stacked")


def test_a_link_to_an_unknown_pass_opens_the_first_changed_one(open_report):
    page = open_report(FUNCTIONS, fragment="#pass=99&fn=nothing").page
    expect_current(page, "02")
    assert combobox(page).input_value() == ""


def test_a_link_naming_no_function_of_the_pipeline_shows_the_whole_file_and_keeps_its_text_out(open_report):
    """A fragment is anyone's text: a function name of 200,000 characters reached the notes and the layout
    (seconds per switch). A function no snapshot defines is dropped, said in a short status."""
    long = "x" * 200_000
    page = open_report(FUNCTIONS, fragment=f"#pass=04&fn={long}").page
    expect_current(page, "04")
    assert combobox(page).input_value() == ""
    status = page.get_by_role("status").inner_text()
    assert "does not have (" + "x" * 60 + "\u2026): showing the whole file" in status
    assert long not in page.locator("body").inner_text()
    expect_fragment(page, "#pass=04")  # the link written back drops it too


def test_picking_a_function_marks_the_passes_that_change_it(open_report, report):
    from pypto_ir_trace import render

    data = render.decode_data(report(FUNCTIONS).read_text(encoding="utf-8"))["pipelines"][0]
    key = "tiny_add.kernel_add"
    expected = [p["label"] for p in data["passes"] if key in p.get("byRegion", {})]
    assert expected  # the fixture has passes that change it, and passes that do not
    assert len(expected) < len(data["passes"])
    page = open_report(FUNCTIONS).page
    assert nav(page).locator("button.touches").count() == 0
    combobox(page).select_option(key)
    marked = [text.split()[0] for text in nav(page).locator("button.touches").all_inner_texts()]
    assert marked == expected
    assert f"{key} is changed by {len(expected)} pass" in page.locator("#notes").inner_text()
    combobox(page).select_option("")
    assert nav(page).locator("button.touches").count() == 0


def test_a_dump_with_only_the_frontend_says_so(open_report):
    page = open_report("viewer/frontend_only").page
    assert pass_buttons(page).count() == 0
    assert page.get_by_text("The dump holds only 00_frontend.py: no pass snapshot follows it.").is_visible()
    assert combobox(page).is_disabled()
    assert not pane(page, "After").is_visible()
    page.keyboard.press("j")  # nothing to step to, and no script error (checked by the fixture)
    assert page.get_by_role("button", name="Lowering").is_disabled()  # no pass to show
    assert page.get_by_role("combobox", name="Find by name").is_disabled()
    page.keyboard.press("l")
    assert page.get_by_role("button", name="Lowering").get_attribute("aria-pressed") == "false"


# ---- search across every snapshot --------------------------------------------------------------


def searchbox(page):
    return page.get_by_role("searchbox", name="Search all passes")


def test_search_counts_matching_lines_in_every_pass(open_report):
    dump = FIXTURES / FLASH / "passes_dump"
    files = sorted(dump.glob("*.py"))
    count = {f.name[:2]: sum("tile.move" in line.lower() for line in f.read_text().splitlines()) for f in files}
    page = open_report(FLASH).page
    page.keyboard.press("/")
    searchbox(page).fill("tile.move")  # one query: typed letter by letter, an earlier prefix's answer may show first
    summary = page.locator("#search-summary")
    first = min(label for label, n in count.items() if n)
    page.wait_for_function(
        "text => document.querySelector('#search-summary').textContent.includes(text)", arg=f"first in {first} "
    )
    assert summary.is_visible()
    for button in pass_buttons(page).all():
        label = button.inner_text().split()[0]
        badge = button.locator(".hits").inner_text()
        arrow = (
            "\u25b2"
            if count[label] > count[f"{int(label) - 1:02d}"]
            else "\u25bc"
            if count[label] < count[f"{int(label) - 1:02d}"]
            else ""
        )
        assert badge == f"{arrow}{count[label]}", label


def test_enter_jumps_to_the_passes_that_change_the_count(open_report):
    page = open_report(FLASH).page
    searchbox(page).fill("tile.move")
    searchbox(page).press("Enter")
    expect_current(page, "18")
    searchbox(page).press("Enter")
    expect_current(page, "22")
    searchbox(page).press("Shift+Enter")
    expect_current(page, "18")
    assert page.locator(".rows mark").count() > 0  # the matches on screen are marked


def test_regex_search_and_escape(open_report):
    page = open_report(FLASH).page
    searchbox(page).fill("/(unclosed/")
    page.locator("#search-summary").wait_for(state="visible")
    assert searchbox(page).get_attribute("aria-invalid") == "true"
    assert "Not a regular expression" in page.locator("#search-summary").inner_text()
    searchbox(page).fill("/^\\s+return\\b/")
    page.wait_for_function("() => document.querySelector('#search-summary').textContent.startsWith('Lines match')")
    searchbox(page).press("Escape")
    assert searchbox(page).input_value() == ""
    assert nav(page).locator(".hits").count() == 0
    assert page.locator("#search-summary").is_hidden()


def test_warnings_point_at_their_lines(open_report):
    page = open_report(FUNCTIONS).page
    select_pass(page, "02")
    after = pane(page, "After")
    warned = after.locator(".row.warned")
    assert warned.count() == 2
    assert [row.locator(".ln").inner_text() for row in warned.all()] == ["9", "10"]
    assert "variable 'c' is reassigned" in warned.first.get_attribute("title")
    combobox(page).select_option("tiny_add.kernel_mul")  # a view without line 9 of the after file
    assert after.locator(".row.warned").count() == 0
    page.get_by_role("button", name=re.compile("variable 'c' is reassigned")).click()
    assert combobox(page).input_value() == ""  # back to the whole file, where the line is
    assert after.locator(".row.warned .ln").first.inner_text() == "9"


@pytest.mark.parametrize("context, first_fold", [("0", "7 unchanged lines"), ("5", "2 unchanged lines"), ("7", None)])
def test_context_sets_the_lines_kept_around_changes(open_report, context, first_fold):
    page = open_report(FUNCTIONS, "--context", context).page
    select_pass(page, "02")  # its first change is on line 8
    folds = pane(page, "Before").get_by_role("button", name=re.compile("unchanged line"))
    first_row = pane(page, "Before").locator(".row").first
    if first_fold is None:
        assert first_row.locator(".ln").inner_text() == "1"
    else:
        assert first_fold in folds.first.inner_text()
        assert "fold-row" in first_row.get_attribute("class")


# ---- marks: changed words and search matches ----------------------------------------------------


def test_changed_words_are_del_in_before_and_ins_in_after(open_report):
    page = open_report(FUNCTIONS).page
    select_pass(page, "02")  # ConvertToSSA: `c` becomes `c__ssa_v0`, `d` becomes `d__ssa_v0`
    before, after = pane(page, "Before"), pane(page, "After")
    row = before.locator(".row").filter(has_text="c: pl.Tensor[[64, 64], pl.FP32] = self.kernel_add(a, b)")
    assert row.locator("del").all_inner_texts() == ["c"]
    row = after.locator(".row").filter(has_text="c__ssa_v0: pl.Tensor[[64, 64], pl.FP32] = self.kernel_add(a, b)")
    assert row.locator("ins").all_inner_texts() == ["c__ssa_v0"]
    assert before.locator("ins").count() == 0 and after.locator("del").count() == 0
    assert before.locator(".row.eq del").count() == 0  # unchanged lines carry no word marks


def test_search_matches_are_mark_elements(open_report):
    page = open_report(FUNCTIONS).page
    searchbox(page).fill("kernel_add")
    page.locator("#search-summary").wait_for(state="visible")
    marks = pane(page, "After").locator("mark")
    assert marks.count() > 0 and set(marks.all_inner_texts()) == {"kernel_add"}
    searchbox(page).press("Escape")
    assert page.locator(".rows mark").count() == 0


def test_help_lists_every_declared_shortcut(open_report):
    page = open_report(FUNCTIONS).page
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    table = page.evaluate("() => IRTraceKeys.rows().map(row => row.help)")
    assert dialog.locator("dd").all_inner_texts() == table
    assert dialog.locator("dt").first.inner_text() == "j / ↓"


@pytest.mark.parametrize("element, what", [("viewer-code", "viewer"), ("report-data", "data")])
def test_a_page_whose_viewer_or_data_cannot_be_inflated_says_so(browser, tmp_path, element, what):
    """Both travel compressed: a damaged one gives a sentence in place of the diff, not a blank page."""
    from pypto_ir_trace import cli

    report = tmp_path / "r.html"
    assert cli.main([str(FIXTURES / REAL / "passes_dump"), "-o", str(report), "-q"]) == 0
    page_text = report.read_text(encoding="utf-8")
    damaged = re.sub(f'(id="{element}" data-encoding="gzip\\+base64">)[A-Za-z0-9+/=]{{8}}', r"\1AAAAAAAA", page_text)
    assert damaged != page_text
    report.write_text(damaged, encoding="utf-8")
    context = browser.new_context()
    page = context.new_page()
    page.goto(report.as_uri())
    message = page.get_by_text(f"This report's {what} could not be read")
    message.wait_for()
    assert "current browser" in message.inner_text()
    assert page.locator("#diff").is_hidden()
    context.close()


def test_data_of_another_schema_is_refused_by_name_not_drawn(browser, tmp_path, monkeypatch):
    """A report whose data another version wrote says so instead of drawing wrong; the reader's schema is the
    one model.py writes today."""
    from pypto_ir_trace import cli, model

    report = tmp_path / "r.html"
    assert cli.main([str(FIXTURES / REAL / "passes_dump"), "-o", str(report), "-q"]) == 0
    context = browser.new_context()
    page = context.new_page()
    page.goto(report.as_uri())
    page.wait_for_selector("body[data-ready='true']", state="attached")
    assert page.evaluate("IRTraceModel.SCHEMA") == model.SCHEMA
    monkeypatch.setattr(model, "SCHEMA", model.SCHEMA + 1)
    assert cli.main([str(FIXTURES / REAL / "passes_dump"), "-o", str(report), "-q"]) == 0
    page.goto(report.as_uri())
    message = page.get_by_text("This report cannot be shown")
    message.wait_for()
    assert f"schema {model.SCHEMA}, and this viewer reads schema {model.SCHEMA - 1}" in message.inner_text()
    assert page.locator("#diff").is_hidden()
    context.close()
