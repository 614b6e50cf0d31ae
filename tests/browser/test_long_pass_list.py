"""A pass list of thousands (an LLVM dump lists 10,000 passes), in real Chromium: only the entries near the
list's scroll position are in the DOM, and the reader sees the whole list all the same: its scrollbar spans every
pass, the entries on screen follow each other without a gap at any depth, stepping and links bring a pass deep in
the list on screen, the filters list what they say, and a focused entry stays focused while the list scrolls."""

from __future__ import annotations

import re

import pytest

from dumptools import made_once

pytestmark = pytest.mark.browser

PASSES = 3000
LONG_NAME = "InterproceduralSparseConditionalConstantPropagationWithFunctionSpecializationPass"


def _name(k: int) -> str:
    """Every seventh pass has a name long enough to wrap in the list: entries differ in height."""
    return LONG_NAME if k % 7 == 0 else f"Step{k}Pass"


def _stream(path) -> None:
    """An LLVM function-dump stream of PASSES dumps of one function; every third pass changes its return value."""
    with open(path, "w") as out:
        for k in range(1, PASSES + 1):
            out.write(f"; *** IR Dump After {_name(k)} on f ***\ndefine i32 @f() {{\nentry:\n  ret i32 {k // 3}\n}}\n")


@pytest.fixture(scope="module")
def long_list(tmp_path_factory):
    return made_once(tmp_path_factory, "long-pass-list.txt", _stream)


def _list(page):
    return page.get_by_role("navigation", name="Passes").locator("#pass-list")


SCREEN = """() => {
  // The labels of the entries the list shows on screen, top to bottom, and whether any point of it shows none.
  const list = document.getElementById('pass-list'), box = list.getBoundingClientRect();
  const labels = [], x = box.left + box.width / 2;
  let gap = false;
  for (let y = box.top + 6; y < box.bottom - 6; y += 8) {
    const button = document.elementFromPoint(x, y)?.closest('button.pass');
    if (!button) { gap = true; continue; }
    const label = Number(button.querySelector('.pass-label').textContent);
    if (labels[labels.length - 1] !== label) labels.push(label);
  }
  return { labels, gap };
}"""


def _screen(page) -> dict:
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")  # scroll handled
    return page.evaluate(SCREEN)


def _scroll_list(page, fraction: float) -> None:
    page.evaluate(
        "f => { const l = document.getElementById('pass-list'); l.scrollTop = f * (l.scrollHeight - l.clientHeight); }",
        fraction,
    )


def test_the_list_is_whole_to_the_reader_at_every_depth_while_the_dom_holds_a_window(open_report, long_list):
    page = open_report(str(long_list)).page
    assert page.locator("#filter-count").inner_text() == f"{PASSES}/{PASSES}"
    in_dom = page.locator("#pass-list button.pass").count()
    assert 0 < in_dom < PASSES / 4
    # the scrollbar spans every pass: at least a row's height each
    assert page.evaluate("() => document.getElementById('pass-list').scrollHeight") >= PASSES * 26
    for fraction in (0.0, 0.1, 0.37, 0.5, 0.83, 1.0):
        _scroll_list(page, fraction)
        shown = _screen(page)
        assert not shown["gap"], fraction
        assert shown["labels"] == list(range(shown["labels"][0], shown["labels"][0] + len(shown["labels"]))), fraction
    assert shown["labels"][-1] == PASSES  # the bottom of the list is its last pass


def test_stepping_and_links_bring_a_deep_pass_into_the_list(open_report, long_list):
    page = open_report(str(long_list), fragment=f"#pass={PASSES - 10}").page
    current = page.get_by_role("navigation", name="Passes").locator("[aria-current='true']")
    assert current.locator(".pass-label").inner_text() == str(PASSES - 10)
    assert current.is_visible() and PASSES - 10 in _screen(page)["labels"]
    for _ in range(8):
        page.keyboard.press("j")
    assert current.locator(".pass-label").inner_text() == str(PASSES - 2)
    assert PASSES - 2 in _screen(page)["labels"]
    # back near the top by a link: the list follows
    page.evaluate("() => { location.hash = '#pass=5'; }")
    page.wait_for_function("() => document.querySelector(\"[aria-current='true'] .pass-label\")?.textContent === '5'")
    assert 5 in _screen(page)["labels"]


def test_the_changed_filter_lists_the_changed_passes_to_the_end(open_report, long_list):
    page = open_report(str(long_list)).page
    page.get_by_role("checkbox", name="No-op").uncheck()
    # the first dump adds the function (LLVM prints no input); then ret i32 k // 3 moves at every third pass
    changed = [1] + [k for k in range(1, PASSES + 1) if k % 3 == 0]
    assert page.locator("#filter-count").inner_text() == f"{len(changed)}/{PASSES}"
    _scroll_list(page, 1.0)
    shown = _screen(page)
    assert not shown["gap"] and shown["labels"][-1] == changed[-1]
    assert all(label % 3 == 0 for label in shown["labels"])
    # a screen reader hears where the entry stands in the whole list, not in the few entries in the DOM
    last = page.locator("#pass-list li").last
    assert (last.get_attribute("aria-posinset"), last.get_attribute("aria-setsize")) == (str(len(changed)),) * 2


def test_a_focused_entry_stays_focused_while_the_list_scrolls_a_little(open_report, long_list):
    page = open_report(str(long_list)).page
    button = page.get_by_role("button", name=re.compile(r"^40\s"))
    button.scroll_into_view_if_needed()
    button.focus()
    page.mouse.move(*_centre(_list(page).bounding_box()))
    page.mouse.wheel(0, 300)
    _screen(page)
    assert page.evaluate("() => document.activeElement.querySelector('.pass-label')?.textContent") == "40"
    page.keyboard.press("Enter")
    heading = page.get_by_role("heading", level=2)
    assert heading.inner_text().startswith("40 ")


def _centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
