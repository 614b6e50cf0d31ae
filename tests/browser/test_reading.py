"""Reading long lines in real Chromium: changes and matches on screen, n / p, wrapping, Unified, Stacked, the gutter."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pagetools import open_link
from pypto_ir_trace import cli

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parents[1] / "fixtures"
REAL = "real/advanced_01_split_k_explicit"
LONG = "reading/long_lines"  # lines up to 1,941 characters, changes from column 830 and 1,928
SIZES = [(1400, 900), (1024, 768)]
ON_SCREEN = (HERE / "onscreen.js").read_text(encoding="utf-8")


def nav(page):
    return page.get_by_role("navigation", name="Passes")


def pane(page, name):
    return page.get_by_role("region", name=name)


def selected(page) -> str:
    return nav(page).locator("[aria-current='true']").inner_text()


def changed_count(page) -> int:
    return nav(page).get_by_role("button").filter(has_not_text="no-op").count()


def check_on_screen(page, where: str) -> list[str]:
    """Problems with the current change's visibility; [] when every pane is at column 0 with the change's first
    row on screen near its top (or a row taller than the pane scrolled to its first changed word), every changed
    word on the rows it shows inside its width, and no row changed as a whole cut at its right edge."""
    problems = []
    for p in page.evaluate(ON_SCREEN):
        name = f"{where}: {p['pane']}"
        problems += [f"{name} scrolled {p['scrollLeft']} px sideways"] if p["scrollLeft"] else []
        problems += [f"{name} shows no row of the change"] if not p["rowOnScreen"] else []
        problems += (
            [f"{name} opens below the start of the change"] if not (p["rowNearTop"] or p["markOnScreen"]) else []
        )
        problems += (
            [f"{name}: {p['words'] - p['wordsOnScreen']} changed words cut"] if p["wordsOnScreen"] < p["words"] else []
        )
        problems += [f"{name}: {p['changedRowsCut']} changed rows cut"] if p["changedRowsCut"] else []
        problems += [f"{name}: {p['taller']} unchanged rows taller than one"] if p["taller"] else []
    return problems


# ---- changes on screen --------------------------------------------------------------------------


@pytest.mark.parametrize("case", [REAL, LONG])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("layout", ["Side by side", "Unified"])
def test_every_changed_pass_opens_with_its_first_change_on_screen(open_report, case, size, layout):
    page = open_report(case, viewport=size).page
    page.get_by_role("button", name=layout).click()
    page.get_by_role("checkbox", name="No-op").uncheck()  # j / k step through the changed passes only
    page.keyboard.press("k")
    for _ in range(changed_count(page)):  # the first changed pass was selected on open; k stays on it
        page.keyboard.press("k")
    problems, seen, words = [], [], 0
    for step in range(changed_count(page)):
        if step:
            page.keyboard.press("j")
        name = selected(page)
        seen.append(name)
        problems += check_on_screen(page, name)
        words += sum(p["words"] for p in page.evaluate(ON_SCREEN))
    assert len(set(seen)) == changed_count(page) and problems == []
    assert words > changed_count(page)  # changed words were there to check


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_deep_link_opens_at_column_0_with_the_change_far_right_shown_whole(open_report, size):
    for fragment, layout in (
        ("#pass=02", "Side by side"),
        ("#pass=01&layout=stacked", "Stacked"),
        ("#pass=02&layout=unified", "Unified"),
    ):
        page = open_report(LONG, viewport=size, fragment=fragment).page
        assert page.get_by_role("button", name=layout).get_attribute("aria-pressed") == "true"
        panes = page.evaluate(ON_SCREEN)
        # the change starts past column 830: its rows wrap, and its changed words show at column 0
        assert [(p["scrollLeft"], p["markOnScreen"]) for p in panes] == [(0, True)] * len(panes)
        assert check_on_screen(page, fragment) == []
        assert page.locator(".rows > .row.current.whole").count() >= len(panes)


def test_a_search_jump_puts_a_match_on_screen(open_report):
    page = open_report(LONG, viewport=(1024, 768)).page
    search = page.get_by_role("searchbox")
    search.fill("spill_to_gm")  # only at column 1,950 of one line, from pass 02 on
    search.press("Enter")
    page.wait_for_function("() => document.querySelector('nav [aria-current=\"true\"]').textContent.startsWith('02')")
    page.wait_for_function("() => document.querySelector('#scroll-after mark')")
    box = pane(page, "After").locator(".scroller").bounding_box()
    mark = pane(page, "After").locator("mark").first.bounding_box()
    assert box["x"] + 40 <= mark["x"] and mark["x"] + mark["width"] <= box["x"] + box["width"]
    assert box["y"] <= mark["y"] and mark["y"] + mark["height"] <= box["y"] + box["height"]
    # at column 0: the match's row is shown whole
    assert [p["scrollLeft"] for p in page.evaluate(ON_SCREEN)] == [0, 0]
    assert pane(page, "After").locator(".row.whole mark").count() > 0


# ---- n / p --------------------------------------------------------------------------------------


def current_rows(page, name):
    return pane(page, name).locator(".row.current")


def test_n_and_p_step_through_the_changes_of_a_pass(open_report):
    page = open_report(LONG, viewport=(1024, 768), fragment="#pass=04").page  # three changes
    after = pane(page, "After")
    status = page.get_by_role("status")
    assert "rounding" in current_rows(page, "After").inner_text()
    assert after.locator("[aria-current='true']").count() == 1  # the change's first row, for assistive tech
    bar = current_rows(page, "After").locator(".ln").first.evaluate("n => getComputedStyle(n).boxShadow")
    assert "inset" in bar  # the gutter bar
    page.keyboard.press("n")
    assert status.inner_text() == "Change 2 of 3"
    assert "pl.tile.exp" in current_rows(page, "After").first.inner_text()  # a pure insertion
    assert check_on_screen(page, "change 2") == []
    page.keyboard.press("n")
    assert status.inner_text() == "Change 3 of 3" and "pl.tile.sub(a2, a3)" in current_rows(page, "After").inner_text()
    assert check_on_screen(page, "change 3") == []
    page.keyboard.press("n")
    assert (
        "No later change" in status.inner_text() and "pl.tile.sub(a2, a3)" in current_rows(page, "After").inner_text()
    )
    page.keyboard.press("p")
    assert status.inner_text() == "Change 2 of 3"
    page.keyboard.press("p")
    assert status.inner_text() == "Change 1 of 3" and "rounding" in current_rows(page, "After").inner_text()
    assert check_on_screen(page, "change 1") == []
    page.keyboard.press("?")
    help_keys = page.get_by_role("dialog", name="Keyboard shortcuts").locator("dt").all_inner_texts()
    assert "n" in help_keys and "p" in help_keys


def test_n_in_unified_and_a_pass_without_changes(open_report):
    page = open_report(LONG, viewport=(1024, 768), fragment="#pass=04&layout=unified").page
    page.keyboard.press("n")
    page.keyboard.press("n")
    assert page.get_by_role("status").inner_text() == "Change 3 of 3"
    assert check_on_screen(page, "unified change 3") == []
    page.get_by_role("checkbox", name="No-op").check()
    nav(page).get_by_role("button", name=re.compile("03")).click()
    page.keyboard.press("n")
    assert page.get_by_role("status").inner_text() == "No change in this view"


# ---- wrapping -------------------------------------------------------------------------------------

SCROLLERS = "[...document.querySelectorAll('.scroller')].filter(s => s.offsetParent !== null)"


def row_boxes(page, name):
    return (
        pane(page, name)
        .locator(".rows > .row")
        .evaluate_all(
            "rows => rows.map(r => { const b = r.getBoundingClientRect(); return [Math.round(b.top), Math.round(b.height)]; })"
        )
    )


def test_wrap_lines_aligns_pairs_and_never_scrolls_sideways(open_report):
    opened = open_report(LONG, "--context", "1000", viewport=(1024, 768), fragment="#pass=05")
    page = opened.page
    wrap = page.get_by_role("checkbox", name="Wrap lines")
    assert not wrap.is_checked()
    assert page.evaluate(f"() => {SCROLLERS}.some(s => s.scrollWidth > s.clientWidth)")  # long lines scroll sideways
    wrap.check()
    page.wait_for_function("() => location.hash.includes('wrap=1')")  # the address bar follows after a pause
    page.wait_for_function(f"() => {SCROLLERS}.every(s => s.scrollWidth <= s.clientWidth)")
    before, after = row_boxes(page, "Before"), row_boxes(page, "After")
    assert before == after and len(before) > 20  # paired rows: same top, same height
    assert max(height for _, height in before) > 100  # a 1,900-character line wraps over many rows
    # scrolling to the end shows the last line, whatever the heights turned out to be
    page.locator("#scroll-before").evaluate("s => { s.scrollTop = s.scrollHeight; }")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#scroll-after .ln')].some(n => n.textContent === '33')"
    )
    # the last line ends up inside the pane (rows are re-measured and may be rebuilt meanwhile: check in the page)
    page.wait_for_function("""() => {
      const scroller = document.querySelector('#scroll-after');
      const row = [...scroller.querySelectorAll('.row')].find(r => r.textContent.includes('return v'));
      if (!row) return false;
      const box = row.getBoundingClientRect(), pane = scroller.getBoundingClientRect();
      return pane.top <= box.top && box.bottom <= pane.bottom + 1;
    }""")
    assert row_boxes(page, "Before") == row_boxes(page, "After")
    # remembered in the page: a plain link opens wrapped
    open_link(page, "#pass=01")
    assert page.get_by_role("checkbox", name="Wrap lines").is_checked()
    page.wait_for_function("() => location.hash.includes('wrap=1')")  # the address bar says so after its pause
    page.get_by_role("checkbox", name="Wrap lines").uncheck()
    page.wait_for_function("() => !location.hash.includes('wrap')")  # and stops saying so


# Rows whose text runs past their box, or into the next row: wrapped rows laid out for another width.
OVERLAPS = """() => [...document.querySelectorAll('#scroll-after .rows > .row')].flatMap((row, i, rows) => {
  const box = row.getBoundingClientRect(), code = row.querySelector('.code');
  const text = code ? code.getBoundingClientRect() : box;
  const next = rows[i + 1] && rows[i + 1].getBoundingClientRect();
  return text.bottom > box.bottom + 1 || (next && box.bottom > next.top + 1) ? [row.textContent.slice(0, 40)] : [];
})"""


@pytest.mark.parametrize("resize", ["sidebar", "window"])
def test_wrapped_rows_follow_the_panes_width(open_report, resize):
    """Widening the pass list (or narrowing the window) narrows the panes: wrapped lines take more rows,
    and no row's text runs into the next."""
    page = open_report(LONG, "--context", "1000", viewport=(1400, 900), fragment="#pass=05&wrap=1").page
    page.wait_for_function(f"() => {SCROLLERS}.every(s => s.scrollWidth <= s.clientWidth)")
    tall = max(height for _, height in row_boxes(page, "After"))
    if resize == "sidebar":
        page.get_by_role("separator", name="Resize pass list").press("End")  # the widest list
    else:
        page.set_viewport_size({"width": 1024, "height": 900})
    # The rows are laid out again a frame or more after the resize, and until then the old layout has no overlap
    # and no sideways scroll either: wait for the longest line to take more rows, the change itself.
    page.wait_for_function(
        f"tall => Math.max(...[...document.querySelectorAll('#scroll-after .rows > .row')].map(r => "
        f"Math.round(r.getBoundingClientRect().height))) > tall && ({OVERLAPS})().length === 0 && "
        f"{SCROLLERS}.every(s => s.scrollWidth <= s.clientWidth)",
        arg=tall,
    )
    assert max(height for _, height in row_boxes(page, "After")) > tall  # the longest line wraps over more rows
    assert row_boxes(page, "Before") == row_boxes(page, "After")  # still paired


def test_wrapped_virtual_scrolling_stays_small_on_a_long_view(browser, tmp_path):
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    lines = [f"x{k} = f({', '.join(['arg'] * (k % 90))})" for k in range(6000)]  # 6 to 450 characters
    (dump / "00_frontend.py").write_text("\n".join(lines) + "\n")
    lines[5990] = lines[5990].replace("f(", "g(")
    (dump / "01_after_G.py").write_text("\n".join(lines) + "\n")
    output = tmp_path / "big.html"
    assert cli.main([str(dump), "-o", str(output), "--context", "100000"]) == 0
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(output.as_uri() + "#pass=01&wrap=1")
    page.wait_for_selector("body[data-ready='true']", state="attached")
    assert page.evaluate("() => document.querySelectorAll('#scroll-after .row').length") < 400
    assert check_on_screen(page, "6,000-line view") == []  # the change at line 5,991, wrapped
    page.locator("#scroll-before").evaluate("s => { s.scrollTop = 0; }")
    page.wait_for_function("() => [...document.querySelectorAll('#scroll-after .ln')].some(n => n.textContent === '1')")
    assert row_boxes(page, "Before")[:50] == row_boxes(page, "After")[:50]
    context.close()
    assert errors == []


def test_a_switch_builds_the_screen_at_once_and_the_rest_once_the_reader_pauses(browser, tmp_path):
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    lines = [f"x{k} = f({k})" for k in range(600)]
    for index, changed in enumerate([None, 300, 310]):  # each pass changes one line far from both ends
        if changed is not None:
            lines[changed] = lines[changed].replace("f(", "g(")
        (dump / ("00_frontend.py" if index == 0 else f"{index:02d}_after_P{index}.py")).write_text(
            "\n".join(lines) + "\n"
        )
    output = tmp_path / "long.html"
    assert cli.main([str(dump), "-o", str(output), "--context", "1000"]) == 0
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.goto(output.as_uri() + "#pass=01")
    page.wait_for_selector("body[data-ready='true']", state="attached")
    built = """() => {  // how far the After pane's rows reach beyond its screen, above and below
      const scroller = document.querySelector('#scroll-after'), box = scroller.getBoundingClientRect();
      const rows = [...scroller.querySelectorAll('.rows > .row')];
      return [box.top - rows[0].getBoundingClientRect().top, rows.at(-1).getBoundingClientRect().bottom - box.bottom];
    }"""
    switched = page.evaluate(f"""() => {{  // the key and the look in one task: nothing else runs in between
      document.body.dispatchEvent(new KeyboardEvent('keydown', {{key: 'j', bubbles: true}}));
      return [document.querySelector('#pass-title').textContent, ({built})()];
    }}""")
    assert switched[0].startswith("02") and min(switched[1]) >= 0  # the screen is covered at once
    # and once the reader pauses, rows for scrolling 30 lines either way
    page.wait_for_function(f"() => ({built})().every(reach => reach >= 30 * 20)")
    context.close()


# ---- unified ----------------------------------------------------------------------------------------


def test_unified_interleaves_deletions_before_insertions(open_report):
    page = open_report(LONG, "--context", "1000", viewport=(1400, 900), fragment="#pass=05").page
    unified = page.get_by_role("button", name="Unified")
    unified.click()
    assert unified.get_attribute("aria-pressed") == "true"
    assert page.get_by_role("button", name="Side by side").get_attribute("aria-pressed") == "false"
    page.wait_for_function("() => location.hash.includes('layout=unified')")  # the address bar follows after a pause
    diff = pane(page, "Diff")
    assert diff.is_visible() and pane(page, "Before").count() == 0 and pane(page, "After").count() == 0
    rows = diff.locator(".rows > .row").evaluate_all(
        "rows => rows.map(r => [r.className.split(' ')[1], ...[...r.querySelectorAll('.ln')].map(n => n.textContent)])"
    )
    kinds = "".join({"eq": "=", "del": "-", "ins": "+"}[kind] for kind, *_ in rows)
    assert kinds == "=" * 12 + "-" * 4 + "+" + "=" * 20  # pass 05: lines 13-16 become line 13
    ins, dele = re.search(r"\+(\d+) −(\d+)", page.locator("#pass-counts").inner_text()).groups()
    assert kinds.count("+") == int(ins) and kinds.count("-") == int(dele)
    for kind, old, new in rows:  # two gutter columns: old and new line numbers
        assert (old != "") == (kind != "ins") and (new != "") == (kind != "del")
    assert [int(old) for kind, old, _ in rows if kind != "ins"] == list(range(1, 37))
    assert [int(new) for kind, _, new in rows if kind != "del"] == list(range(1, 34))
    assert diff.locator(".row.del del").count() > 0 and diff.locator(".row.ins ins").count() > 0
    assert diff.locator(".row.del ins").count() == 0 and diff.locator(".row.ins del").count() == 0
    # buttons of the layout: copy both sides, folds, search marks
    assert diff.get_by_role("button", name="Copy full source (before)").is_visible()
    assert diff.get_by_role("button", name="Copy full source (after)").is_visible()
    page.get_by_role("searchbox").fill("tile.max")
    page.wait_for_function("() => document.querySelector('#scroll-unified mark')")
    page.get_by_role("button", name="Side by side").click()
    assert pane(page, "Before").is_visible() and pane(page, "Diff").count() == 0


def test_unified_folds_and_wraps(open_report):
    page = open_report(LONG, viewport=(1024, 768), fragment="#pass=01&layout=unified&wrap=1").page
    diff = pane(page, "Diff")
    folds = diff.get_by_role("button", name=re.compile(r"\d+ unchanged lines"))
    assert folds.count() == 2
    assert page.evaluate(f"() => {SCROLLERS}.every(s => s.scrollWidth <= s.clientWidth)")
    assert check_on_screen(page, "unified wrapped") == []
    folds.first.click()
    assert folds.count() == 1


# ---- stacked ----------------------------------------------------------------------------------------


def test_stacked_lists_each_sides_lines_without_filler(open_report):
    page = open_report(REAL, "--context", "1000", viewport=(1400, 900), fragment="#pass=09&layout=stacked").page
    for name in ("Before", "After"):
        region = pane(page, name)
        assert region.locator(".row.filler").count() == 0
        numbers = [int(n) for n in region.locator(".rows > .row .ln").all_inner_texts()]
        assert numbers == list(range(1, len(numbers) + 1))  # every line of its side once, in order
    assert (
        pane(page, "After").locator(".row.ins").count() == 15 and pane(page, "Before").locator(".row.del").count() == 16
    )
    page.get_by_role("button", name="Side by side").click()
    assert pane(page, "Before").locator(".row.filler").count() > 0  # side by side keeps rows aligned


def test_stacked_scrolls_in_sync_by_line(open_report):
    # pass 04 inserts two lines after line 20: below them, After's line numbers run two ahead of Before's
    page = open_report(LONG, "--context", "1000", viewport=(1000, 500), fragment="#pass=04&layout=stacked").page

    top_line = (  # the number and text of the first line showing at the top of a pane
        "s => { const top = s.getBoundingClientRect().top;"
        " const row = [...s.querySelectorAll('.rows > .row')].find(r => r.getBoundingClientRect().bottom > top + 1);"
        " return [Number(row.querySelector('.ln').textContent), row.querySelector('.code').textContent]; }"
    )
    sides = f"() => ['#scroll-before', '#scroll-after'].map(id => ({top_line})(document.querySelector(id)))"
    for y, shift in ((80, 0), (480, 2)):  # unchanged lines of Before above the insertion and below it
        page.locator("#scroll-before").evaluate(f"s => {{ s.scrollTop = {y}; }}")
        # the rows at the new position, which the scroll handler builds on the next frame
        page.wait_for_function(f"() => ({sides})()[1][0] === ({sides})()[0][0] + {shift}")
        (before_number, before_text), (after_number, after_text) = page.evaluate(sides)
        assert before_text == after_text and after_number == before_number + shift and before_number > y // 40


# ---- the gutter -------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_line_numbers_stay_opaque_when_scrolled_sideways(open_report, scheme):
    page = open_report(REAL, viewport=(1024, 768), color_scheme=scheme, fragment="#pass=18").page
    page.locator("#scroll-before").evaluate("s => { s.scrollLeft = 300; }")
    page.wait_for_function("() => document.querySelector('#scroll-after').scrollLeft === 300")
    for name in ("Before", "After"):
        scroller = pane(page, name).locator(".scroller")
        left = scroller.bounding_box()["x"]
        found = scroller.locator(".rows > .row:not(.fold-row)").evaluate_all(
            "rows => rows.map(r => { const n = r.querySelector('.ln'), s = getComputedStyle(n);"
            " return [r.className, s.backgroundColor, s.opacity, n.getBoundingClientRect().left]; })"
        )
        assert {kind.split()[1] for kind, *_ in found} >= {"eq", "del" if name == "Before" else "ins"}
        for kind, background, opacity, x in found:
            alpha = re.match(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", background).group(4)
            assert alpha is None or float(alpha) == 1, (kind, background)
            assert opacity == "1" and abs(x - left) < 1.5, (kind, opacity, x, left)


# ---- the fixture ------------------------------------------------------------------------------------


def test_the_long_line_fixture_is_current(tmp_path):
    script = FIXTURES / "reading" / "generate.py"
    fresh = tmp_path / "passes_dump"
    subprocess.run(
        [
            sys.executable,
            "-c",
            f"import runpy; m = runpy.run_path({str(script)!r}); m['write'](__import__('pathlib').Path({str(fresh)!r}))",
        ],
        check=True,
    )
    committed = FIXTURES / LONG / "passes_dump"
    assert sorted(p.name for p in fresh.iterdir()) == sorted(p.name for p in committed.iterdir())
    for path in fresh.iterdir():
        assert path.read_bytes() == (committed / path.name).read_bytes()
