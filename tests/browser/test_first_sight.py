"""What a reader sees first (issue 19): a pass opens at the start of its first change, scrolled sideways only as
far as its changed words need, and keeps its current change on screen through Expand all, layouts and wrapping;
wrapped lines hang from their indentation."""

from __future__ import annotations

from pathlib import Path

import pytest

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


@pytest.mark.parametrize("layout", ["Side by side", "Unified"])
def test_sideways_only_as_far_as_the_changed_words_need(open_report, qwen3, layout):
    """On every changed pass of a real EXPLICIT dump at 1024x768: a pass opens at column 0 unless a first changed
    word would be off screen there, and no side's changed rows on screen are left without text."""
    page = open_report(qwen3, viewport=(1024, 768)).page
    page.get_by_role("button", name=layout).click()
    page.get_by_role("checkbox", name="No-op").uncheck()
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button")
    problems, sideways = [], 0
    for step in range(buttons.count()):
        buttons.nth(step).click()
        panes = page.evaluate(ON_SCREEN)
        name = buttons.nth(step).inner_text().split("\n")[0]
        left = max(p["scrollLeft"] for p in panes)
        # where each first mark starts in the code column, against the code column's width
        needs = [
            p["markX"] - (p["clientWidth"] - p["room"]) + min(p["markWidth"], p["room"] / 2) > p["room"] + 0.5
            for p in panes
            if p["marked"]
        ]
        if left > 0 and not any(needs):
            problems.append(f"{name}: scrolled {left:.0f} px though every first changed word shows at column 0")
        problems += [f"{name}: {p['pane']} shows no text of the change" for p in panes if not p["changedTextShown"]]
        problems += [
            f"{name}: {p['pane']}'s first changed word is off screen"
            for p in panes
            if p["marked"] and not any(q["markOnScreen"] for q in panes if q["marked"])
        ]
        sideways += left > 0
    assert problems == []
    assert sideways < buttons.count()  # the dump has lines long enough to need it sometimes, not always


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
    assert any(p["markOnScreen"] for p in panes if p["marked"]) or not any(p["marked"] for p in panes)


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
    return {top: first.top - box.top, left: first.left - box.left,
            below: rects.length ? Math.min(...rects.map(r => r.left - box.left)) : null};
  }
  return null;
}"""


def test_wrapped_lines_hang_from_their_indentation(open_report, qwen3):
    """A deeply indented long line starts its code on its first row, at its indentation; its next rows start
    deeper still (never at column 0, never below a blank first row)."""
    page = open_report(qwen3, viewport=(1024, 768), fragment="#pass=11").page
    page.get_by_role("checkbox", name="Wrap lines").check()
    rows = pane(page, "After").locator(".row.ins .code, .row.eq .code")
    checked = 0
    for i in range(rows.count()):
        code = rows.nth(i)
        text = code.evaluate("code => code.textContent")
        indent = len(text) - len(text.lstrip(" "))
        found = code.evaluate(FIRST_ROWS)
        if found is None or found["below"] is None or indent < 8:
            continue
        assert found["top"] < 4, text[:60]  # the code is on the first row, not below a blank one
        assert found["left"] > 0 and found["below"] > found["left"], text[:60]  # at its indentation, then deeper
        checked += 1
    assert checked >= 3
