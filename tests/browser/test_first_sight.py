"""What a reader sees first (issues 19 and 31): a pass opens at the start of its first change at column 0, the
rows of a change whose changed words lie past the pane's edge shown whole, and keeps its current change on screen
through Expand all, layouts and wrapping; wrapped lines hang from their indentation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pagetools import open_link, reload
from pypto_ir_trace import cli

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
ON_SCREEN = (HERE / "onscreen.js").read_text(encoding="utf-8")
LONG = "reading/long_lines"  # lines up to 1,941 characters, changes from column 830 and 1,928
QWEN3 = "models_qwen3_decode_explicit/passes_dump"


@pytest.fixture(scope="module")
def qwen3(real_dumps) -> str:
    return str(real_dumps / QWEN3)


def pane(page, name):
    return page.get_by_role("region", name=name)


def test_a_pass_opens_at_the_first_row_of_its_first_change_at_column_0(open_report, qwen3):
    """22 ExpandMixedKernel inserts down_proj_residual_aic at After line 6: that is what shows first, from its
    start, not a word change 50 lines further down with every line cut at the left."""
    page = open_report(qwen3, viewport=(1400, 900), fragment="#pass=22").page
    after = pane(page, "After")
    first = after.locator("[aria-current='true']")
    assert first.locator(".ln").inner_text() == "6"
    box, row = after.locator(".scroller").bounding_box(), first.bounding_box()
    assert box["y"] <= row["y"] < box["y"] + box["height"] / 3
    assert [p["scrollLeft"] for p in page.evaluate(ON_SCREEN)] == [0, 0]
    assert "down_proj_residual_aic" in after.locator(".row.ins").first.inner_text() + after.inner_text()


@pytest.mark.parametrize("level", ["explicit", "concise"])
@pytest.mark.parametrize("size", [(1400, 900), (1024, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("layout", ["Side by side", "Stacked", "Unified"])
def test_every_changed_pass_of_qwen3_opens_at_column_0_with_its_changed_words_on_screen(
    open_report, real_dumps, level, size, layout
):
    """Issue 31: on every changed pass of qwen3 EXPLICIT and CONCISE, in every layout at both sizes, every pane
    opens at column 0 (no garbled row starting mid-identifier), the first change's changed words on the rows on
    screen all show (its rows whose changed words lie past the edge shown whole), no row changed as a whole is
    cut at the edge, and unchanged rows stay one row each."""
    page = open_report(str(real_dumps / f"models_qwen3_decode_{level}/passes_dump"), viewport=size, elide=True).page
    page.get_by_role("button", name=layout, exact=True).click()
    page.get_by_role("checkbox", name="No-op").uncheck()
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button")
    problems, words, whole = [], 0, 0
    for step in range(buttons.count()):
        buttons.nth(step).click()
        name = buttons.nth(step).inner_text().split("\n")[0]
        for p in page.evaluate(ON_SCREEN):
            where = f"{name} {p['pane']}"
            problems += [f"{where}: at {p['scrollLeft']} px, not column 0"] if p["scrollLeft"] else []
            problems += [f"{where}: the change's first row is off screen"] if not p["rowOnScreen"] else []
            cut = p["words"] - p["wordsOnScreen"]
            problems += [f"{where}: {cut} of {p['words']} changed words cut"] if cut else []
            problems += [f"{where}: {p['changedRowsCut']} changed rows cut"] if p["changedRowsCut"] else []
            problems += [f"{where}: {p['taller']} unchanged rows taller than one"] if p["taller"] else []
            words += p["words"]
        whole += page.locator(".rows > .row.current.whole").count()
    assert problems == []
    assert words > 100 and whole > 0  # changed words to check, and rows that needed showing whole


@pytest.mark.parametrize(
    "steps",
    [
        ["Expand all"],
        ["Expand all", "Collapse all"],
        ["Stacked"],
        ["Unified"],
        ["Wrap lines"],
        ["Wrap lines", "Side by side", "Wrap lines"],
    ],
    ids=lambda steps: " then ".join(steps),
)
def test_expanding_layouts_and_wrapping_keep_the_current_change_on_screen(open_report, steps):
    page = open_report(LONG, viewport=(1024, 768), fragment="#pass=04").page  # three changes
    page.keyboard.press("n")
    page.keyboard.press("n")
    assert page.get_by_role("status").inner_text() == "Change 3 of 3"
    for step in steps:
        if step == "Wrap lines":
            page.get_by_role("checkbox", name=step).click()
        else:
            page.get_by_role("button", name=step, exact=True).click()
    panes = page.evaluate(ON_SCREEN)
    assert all(p["rows"] > 0 or p["pane"] == "Before" for p in panes)
    assert [p["pane"] for p in panes if not p["rowOnScreen"]] == []
    assert all(p["markOnScreen"] for p in panes if p["marked"])
    assert [p["scrollLeft"] for p in panes] == [0] * len(panes)  # never scrolled sideways by the viewer


FIRST_ROWS = """code => {
  // the box of the first character that is not a space, and the left of the line box below the first
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (getComputedStyle(node.parentElement).display === "none") continue;
    const at = node.data.search(/\\S/);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    const first = range.getBoundingClientRect(), box = code.getBoundingClientRect();
    range.selectNodeContents(code);
    const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.top > first.bottom - 1);
    return {top: first.top - box.top, left: first.left - box.left, width: box.width, ch: first.width,
            below: rects.length ? Math.min(...rects.map(r => r.left - box.left)) : null};
  }
  return null;
}"""


def test_wrapped_lines_hang_from_their_indentation(open_report, qwen3):
    """A deeply indented long line starts its code on its first row, at its indentation; its next rows start two
    columns deeper, but no deeper than 40% of the code's width (never at column 0, never below a blank first row):
    a line nested 28 columns deep in a pane of 38 keeps rows of words."""
    page = open_report(qwen3, viewport=(1024, 768), fragment="#pass=11").page
    page.get_by_role("checkbox", name="Wrap lines").check()
    rows = pane(page, "After").locator(".row.ins .code, .row.eq .code")
    checked, capped = 0, 0
    for i in range(rows.count()):
        code = rows.nth(i)
        text = code.evaluate("code => code.textContent")
        indent = len(text) - len(text.lstrip(" "))
        found = code.evaluate(FIRST_ROWS)
        if found is None or found["below"] is None or indent < 8:
            continue
        assert found["top"] < 4, text[:60]  # the code is on the first row, not below a blank one
        assert found["left"] > 0, text[:60]  # at its indentation
        hang = min(found["left"], 0.4 * found["width"])  # then two columns deeper than that, or than the cap
        assert abs(found["below"] - hang - 2 * found["ch"]) < 0.75 * found["ch"] + 0.4 * found["width"] / 100, text[:60]
        checked += 1
        capped += found["below"] < found["left"]
    assert checked >= 3 and capped >= 1


# ---- Elide types ------------------------------------------------------------------------------------------

EXPLICIT = "real/advanced_01_split_k_explicit"


def test_unchanged_long_types_show_as_an_ellipsis_that_opens_its_line(open_report):
    page = open_report(EXPLICIT, viewport=(1400, 900), fragment="#pass=11", elide=True).page
    elide = page.get_by_role("checkbox", name="Elide types")
    assert elide.is_checked()  # on by default where the report names types to elide
    after = pane(page, "After")
    row = after.locator(".row").filter(has=page.get_by_role("button", name="elided: pl.", exact=False)).first
    button = row.get_by_role("button", name="elided: pl.", exact=False).first
    full = button.get_attribute("aria-label").removeprefix("elided: ")
    line = row.locator(".ln").inner_text()
    assert full not in row.inner_text() and "\u2026" in row.inner_text()
    button.click()
    row = after.locator(".row").filter(has=page.locator(".ln", has_text=line)).first
    assert full in row.inner_text() and row.get_by_role("button", name="elided:", exact=False).count() == 0
    elide.uncheck()
    assert after.get_by_role("button", name="elided:", exact=False).count() == 0
    elide.check()
    assert after.get_by_role("button", name="elided:", exact=False).count() > 0


def test_a_changed_type_is_never_elided_and_its_changed_words_show(open_report):
    """Only what both sides share is elided: every changed word stays in the text, on both sides."""
    page = open_report(EXPLICIT, viewport=(1400, 900), fragment="#pass=18", elide=True).page
    for name in ("Before", "After"):
        for mark in pane(page, name).locator("del, ins").all():
            assert mark.locator("button.elided").count() == 0 and mark.inner_text().strip() != "\u2026"
    shown = pane(page, "After").locator(".row.ins, .row.del").first.inner_text()
    page.get_by_role("checkbox", name="Elide types").uncheck()
    whole = pane(page, "After").locator(".row.ins, .row.del").first.inner_text()
    assert len(whole) > len(shown)  # the row had elided parts, and its changed words were among what showed


def test_the_choice_is_kept_and_a_report_without_types_to_elide_has_no_switch(open_report, browser, report):
    page = open_report(EXPLICIT, elide=True).page
    assert page.get_by_role("checkbox", name="Elide types").is_checked()
    page.get_by_role("checkbox", name="Elide types").uncheck()
    reload(page)
    assert not page.get_by_role("checkbox", name="Elide types").is_checked()
    mlir = open_report("mlir/multi_func/tree_dir").page
    assert mlir.get_by_role("checkbox", name="Elide types").count() == 0


WIDEST = """async id => {
  const scroller = document.getElementById(id), layer = scroller.querySelector(".rows");
  const frames = () => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const probe = document.createElement("span");
  probe.className = "code";
  probe.textContent = "0".repeat(100);
  probe.style.position = "absolute";
  layer.append(probe);
  const ch = probe.getBoundingClientRect().width / 100;
  probe.remove();
  let widest = 0, codeLeft = null;
  scroller.scrollTop = 0;
  await frames();
  for (;;) {
    for (const code of layer.querySelectorAll(".row .code")) {
      const range = document.createRange();
      range.selectNodeContents(code);
      codeLeft = code.getBoundingClientRect().left;
      if (code.textContent) widest = Math.max(widest, range.getBoundingClientRect().right - codeLeft);
    }
    if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
    scroller.scrollTop += scroller.clientHeight;
    await frames();
  }
  return { widest: widest / ch, room: (layer.getBoundingClientRect().right - codeLeft) / ch - 2 };
}"""


def test_the_panes_are_as_wide_as_their_widest_line_as_shown(open_report):
    """Scrolled sideways to its end, a pane shows the end of its longest line and no blank beyond it: with types
    elided (a changed line keeps the types its changed words touch), whole, across the switch, and for one function (its
    folds expanded: a folded line counts, so Expand all never widens the panes)."""
    page = open_report(EXPLICIT, viewport=(1400, 900), fragment="#pass=11", elide=True).page
    elide = page.get_by_role("checkbox", name="Elide types")

    def check(why):
        expand = page.get_by_role("button", name="Expand all")
        if expand.is_enabled():  # disabled: nothing folded
            expand.click()
        found = [page.evaluate(WIDEST, scroller) for scroller in ("scroll-before", "scroll-after")]
        assert found[0]["room"] == found[1]["room"]  # one width: the panes scroll sideways together
        assert abs(max(side["widest"] for side in found) - found[0]["room"]) < 0.5, (why, found)

    check("elided")
    elide.uncheck()
    check("whole")
    elide.check()
    check("elided again")
    page.keyboard.press("j")
    check("the next pass")
    page.get_by_role("combobox", name="Function").select_option(index=1)
    check("one function")


# ---- rows shown whole, rows cut ---------------------------------------------------------------------------

ROWS = """id => Array.from(document.querySelectorAll(`#${id} .rows > .row`), row => {
  const box = row.getBoundingClientRect(), code = row.querySelector('.code');
  const after = getComputedStyle(row, '::after');
  return {kind: row.className, line: row.querySelector('.ln') ? row.querySelector('.ln').textContent : '',
          top: Math.round(box.top), height: Math.round(box.height), left: Math.round(box.left),
          codeLeft: code ? Math.round(code.getBoundingClientRect().left) : null,
          arrow: after.content};
})"""


def rows_of(page, pane_id):
    return page.evaluate(ROWS, pane_id)


def test_a_cut_row_shows_that_more_follows_and_a_row_shown_whole_stays_in_view_scrolled_sideways(open_report):
    """LONG pass 02 at 1024x768: the change at column 1,928 is shown whole (many rows, its pair as tall), unchanged
    long rows stay one row each with an arrow at the pane's right edge; scrolled sideways by the reader, the rows
    shown whole stay in view and the unchanged rows move."""
    page = open_report(LONG, viewport=(1024, 768), fragment="#pass=02").page
    before, after = rows_of(page, "scroll-before"), rows_of(page, "scroll-after")
    assert [(r["top"], r["height"]) for r in before] == [(r["top"], r["height"]) for r in after]  # pairs aligned
    whole = [r for r in after if "whole" in r["kind"]]
    assert whole and all(r["height"] > 5 * 20 for r in whole)  # 1,900 characters over many rows
    cut = [r for r in after if "cut" in r["kind"]]
    assert cut and all(r["height"] == 20 and "eq" in r["kind"] for r in cut)  # unchanged: one row each, cut
    assert all(r["arrow"] == '"\u203a"' for r in cut)
    assert all(r["arrow"] == "none" for r in after if "cut" not in r["kind"])
    # the reader scrolls sideways: the unchanged rows move, the rows shown whole stay where they were
    page.locator("#scroll-after").evaluate("s => { s.scrollLeft = 600; }")
    page.wait_for_function("() => document.querySelector('#scroll-before').scrollLeft === 600")
    page.wait_for_timeout(100)
    moved = rows_of(page, "scroll-after")
    assert [r["codeLeft"] for r in moved if "whole" in r["kind"]] == [r["codeLeft"] for r in whole]
    assert all(r["codeLeft"] < c["codeLeft"] - 500 for r, c in zip(moved, after) if "eq" in r["kind"])
    # scrolled to the end, no row is cut any more
    page.locator("#scroll-after").evaluate("s => { s.scrollLeft = s.scrollWidth; }")
    page.wait_for_function("() => !document.querySelector('#scroll-after .row.cut, #scroll-before .row.cut')")


def test_n_brings_the_next_change_on_screen_at_column_0_after_the_reader_scrolled_sideways(open_report):
    page = open_report(LONG, viewport=(1024, 768), fragment="#pass=04").page  # three changes
    page.locator("#scroll-after").evaluate("s => { s.scrollLeft = 400; }")
    page.wait_for_function("() => document.querySelector('#scroll-before').scrollLeft === 400")
    page.keyboard.press("n")
    assert page.get_by_role("status").inner_text() == "Change 2 of 3"
    panes = page.evaluate(ON_SCREEN)
    assert [p["scrollLeft"] for p in panes] == [0, 0] and all(p["rowOnScreen"] for p in panes)
    assert all(p["wordsOnScreen"] == p["words"] and not p["changedRowsCut"] for p in panes)
    # Expand all and a layout switch keep the reader's own sideways scroll
    page.locator("#scroll-after").evaluate("s => { s.scrollLeft = 300; }")
    page.wait_for_function("() => document.querySelector('#scroll-before').scrollLeft === 300")
    page.get_by_role("button", name="Expand all").click()
    assert [p["scrollLeft"] for p in page.evaluate(ON_SCREEN)] == [300, 300]


def test_a_sideways_scroll_right_after_n_is_kept_and_followed(open_report):
    """The reader scrolls sideways before the panes' scroll events from `n` have come (a slow machine): the other
    pane's echo must not pull the reader's pane back to column 0."""
    page = open_report(LONG, viewport=(1024, 768), fragment="#pass=04").page
    page.keyboard.press("n")
    page.evaluate("""() => {
      document.dispatchEvent(new KeyboardEvent('keydown', {key: 'p', bubbles: true}));
      document.querySelector('#scroll-after').scrollLeft = 300;
    }""")
    page.wait_for_function("() => document.querySelector('#scroll-before').scrollLeft === 300")
    assert page.get_by_role("status").inner_text() == "Change 1 of 3"
    assert [p["scrollLeft"] for p in page.evaluate(ON_SCREEN)] == [300, 300]


OVERLAPS = """id => [...document.querySelectorAll(`#${id} .rows > .row`)].flatMap((row, i, rows) => {
  const box = row.getBoundingClientRect(), code = row.querySelector('.code');
  const text = code ? code.getBoundingClientRect() : box;
  const next = rows[i + 1] && rows[i + 1].getBoundingClientRect();
  return text.bottom > box.bottom + 1 || (next && Math.abs(box.bottom - next.top) > 1) ? [row.textContent.slice(0, 40)] : [];
})"""


def test_rows_shown_whole_follow_the_panes_width(open_report):
    """Narrowed, the panes show fewer columns: the rows shown whole are laid out again, taller, none running into
    the next, and the changed words still all show."""
    page = open_report(LONG, viewport=(1400, 900), fragment="#pass=04&layout=unified").page
    tallest = "() => Math.max(...[...document.querySelectorAll('#scroll-unified .row.whole')].map(r => r.offsetHeight))"
    wide = page.evaluate(tallest)
    assert wide > 20
    page.set_viewport_size({"width": 900, "height": 900})
    page.wait_for_function(f"() => ({tallest})() > {wide} && ({OVERLAPS})('scroll-unified').length === 0")
    panes = page.evaluate(ON_SCREEN)
    assert panes[0]["words"] > 0 and panes[0]["wordsOnScreen"] == panes[0]["words"]


def test_a_long_view_with_rows_shown_whole_keeps_its_rows_in_place(browser, tmp_path):
    """6,000 lines, every tenth changed at its end: the virtual list builds a few hundred rows, each measured once
    built; from the top to the end no row runs into the next, the pairs stay aligned, and End shows the last line."""
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    lines = [f"x{k} = f({', '.join(['argument'] * (k % 23))}, end={k})" for k in range(6000)]
    (dump / "00_frontend.py").write_text("\n".join(lines) + "\n")
    changed = [line.replace("end=", "end_at=") if k % 10 == 0 else line for k, line in enumerate(lines)]
    (dump / "01_after_G.py").write_text("\n".join(changed) + "\n")
    output = tmp_path / "big.html"
    assert cli.main([str(dump), "-o", str(output), "--context", "100000"]) == 0
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.goto(output.as_uri() + "#pass=01")
    page.wait_for_selector("body[data-ready='true']", state="attached")
    assert page.locator("#scroll-after .row.whole").count() > 0
    assert page.evaluate("() => document.querySelectorAll('#scroll-after .row').length") < 400
    for top in (0, 40_000, 80_000, 120_000):
        page.locator("#scroll-before").evaluate(f"s => {{ s.scrollTop = {top}; }}")
        page.wait_for_function(
            "() => document.querySelector('#scroll-after').scrollTop === document.querySelector('#scroll-before').scrollTop"
        )
        page.wait_for_timeout(150)  # the rows built and measured
        before, after = rows_of(page, "scroll-before"), rows_of(page, "scroll-after")
        assert [(r["top"], r["height"]) for r in before] == [(r["top"], r["height"]) for r in after], top
        assert page.evaluate(OVERLAPS, "scroll-after") == [] and page.evaluate(OVERLAPS, "scroll-before") == []
        assert any("whole" in r["kind"] for r in after) and any(r["height"] == 20 for r in after)
    page.locator("#scroll-after").focus()
    page.keyboard.press("End")
    page.wait_for_function("""() => {
      const scroller = document.querySelector('#scroll-after'), box = scroller.getBoundingClientRect();
      const row = [...scroller.querySelectorAll('.row')].find(r => r.querySelector('.ln').textContent === '6000');
      return row && row.getBoundingClientRect().bottom <= box.bottom + 1 && row.getBoundingClientRect().top >= box.top;
    }""")
    context.close()


SCROLL_WIDTHS = """async () => {  // each pane's widest scroll over the whole view, its rows built screen by screen
  const frames = () => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const panes = ['scroll-before', 'scroll-after'].map(id => document.getElementById(id));
  let widths = [0, 0];
  panes[0].scrollTop = 0;
  await frames();
  for (;;) {
    widths = panes.map((pane, i) => Math.max(widths[i], pane.scrollWidth - pane.clientWidth));
    if (panes[0].scrollTop + panes[0].clientHeight >= panes[0].scrollHeight - 1) return widths;
    panes[0].scrollTop += panes[0].clientHeight;
    await frames();
  }
}"""


@pytest.mark.parametrize("elide", [True, False], ids=["elided", "whole"])
def test_both_panes_scroll_one_width(open_report, elide):
    """Issue 31: scrolled to its right end, After leaves Before where it is, not a few pixels short: rows with elided
    types, cut rows' arrows and text a fraction of a pixel wider than counted never widen one pane alone."""
    page = open_report("real/models_03_flash_attention_concise", viewport=(1400, 900), elide=elide).page
    for fragment in ("#pass=04", "#pass=22", "#pass=24"):
        open_link(page, fragment)
        page.get_by_role("button", name="Expand all").click()
        before, after = page.evaluate(SCROLL_WIDTHS)
        assert before == after > 0, fragment


def test_counts_that_differ_from_git_diff_numstat_say_why(open_report, qwen3):
    """Issue 31: 01 InlineFunctions counts +181 -208 where git diff --numstat counts 167 / 194 (lines moved between
    functions, diffed function by function): a note beside the counts says so, and their tooltip; 09, whose counts
    are numstat's, has no such note."""
    page = open_report(qwen3, viewport=(1400, 900), fragment="#pass=01").page
    assert page.locator("#pass-counts").inner_text() == "+181 \u2212208"
    assert "git diff --numstat" in page.locator("#pass-counts").get_attribute("title")
    note = page.locator(".notes .note", has_text="function by function")
    assert re.match(r"Counted function by function: (\d+) lines this pass moved", note.inner_text())
    assert int(re.search(r"(\d+) lines", note.inner_text()).group(1)) >= 181 - 167
    page.get_by_role("navigation", name="Passes").get_by_role("button", name=re.compile("^09 ")).click()
    assert page.locator("#pass-counts").inner_text() == "+244 −214"  # as git diff --numstat counts
    assert page.locator(".notes .note", has_text="function by function").count() == 0


def test_a_pair_shown_whole_elides_the_tail_both_sides_share(open_report, qwen3):
    """qwen3 EXPLICIT pass 33 at 1024x768: line 49 changes mem_acc_10 to mem_acc_5 at its 60th column, then runs on
    unchanged for 150 more: shown whole, it keeps its start and its change, and '…' stands for the shared tail;
    pressed, the line shows whole."""
    page = open_report(qwen3, viewport=(1024, 768), fragment="#pass=33", elide=True).page
    for name in ("Before", "After"):
        row = pane(page, name).locator(".rows > .row.current.whole").first
        tail = row.get_by_role("button", name=re.compile(r"^elided: pl\.const\(0, pl\.INT64\), 16384\)"))
        assert tail.count() == 1 and "pl.tile.create" not in row.inner_text()
        assert row.bounding_box()["height"] <= 6 * 20
    tail.click()
    row = pane(page, "After").locator(".rows > .row.current.whole").first
    assert "pl.tile.create" in row.inner_text()
    assert [p["wordsOnScreen"] == p["words"] for p in page.evaluate(ON_SCREEN)] == [True, True]
