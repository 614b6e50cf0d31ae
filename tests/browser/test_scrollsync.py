"""Scrolling the panes together (scrollsync.js) in a blank page of two real scrollers: the races a test of the
whole viewer meets only now and then, made to happen every time."""

from __future__ import annotations

from importlib import resources

import pytest

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><title>panes</title>
<style>.s { width: 300px; height: 200px; overflow: auto; } .s div { width: 3000px; height: 3000px; }</style>
<div class="s" id="a"><div></div></div><div class="s" id="b"><div></div></div>"""

SYNCED = """() => { const [a, b] = [...document.querySelectorAll('.s')];
  return a.scrollTop === b.scrollTop && a.scrollLeft === b.scrollLeft && [a.scrollTop, a.scrollLeft]; }"""


@pytest.fixture
def panes(browser, pure_scripts):
    """The page, its two panes side by side in sync (scrollsync.js, as panes.js creates it)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_content(PAGE)
    for source in pure_scripts:
        page.add_script_tag(content=source)
    static = resources.files("pypto_ir_trace").joinpath("static")
    page.add_script_tag(content=static.joinpath("scrollsync.js").read_text(encoding="utf-8"))
    page.evaluate("""() => {
      const panes = [...document.querySelectorAll('.s')].map(scroller => ({ scroller }));
      const ctx = { settings: { layout: 'split' }, panes, active: () => panes, view: {} };
      window.sync = IRTraceScrollSync.create(ctx, () => {});
      window.panes = panes;
      panes.forEach(pane => pane.scroller.addEventListener('scroll', () => sync.onScroll(pane)));
    }""")
    yield page
    context.close()


def test_a_scroll_the_view_assigned_before_its_event_came_still_moves_the_other_pane(panes):
    """The reader scrolls Before sideways; before its scroll event, the view measures rows and puts the panes
    back at their line (CI, twice, when each pane kept its own offset: After stayed at 0)."""
    panes.evaluate("""() => {
      const [a, b] = panes;
      a.scroller.scrollTop = 600; a.scroller.scrollLeft = 40;  // the reader
      sync.keep([a, b], 610);  // the view, heights measured
    }""")
    assert panes.wait_for_function(SYNCED, polling="raf", timeout=3000).json_value() == [610, 40]


def test_the_other_panes_echo_does_not_pull_back_a_reader_scroll_whose_event_is_still_to_come(panes):
    """Before has an echo pending when the reader scrolls After sideways; the view then measures rows and puts
    both panes back at their line. Before's echo comes first: had Before been put back at its own 0 px, it would
    bring After to 0 and the reader's scroll would be lost (CI, once, after `n`)."""
    panes.evaluate("""() => {
      const [a, b] = panes;
      sync.assign(a, 600, 0);  // the view moved Before: its event is first in line
      b.scroller.scrollLeft = 300;  // the reader, on After
      sync.keep([a, b], 610);
    }""")
    assert panes.wait_for_function(SYNCED, polling="raf", timeout=3000).json_value() == [610, 300]
    panes.wait_for_timeout(100)  # a late echo would undo it
    assert panes.evaluate(SYNCED) == [610, 300]


def test_the_reader_scrolling_one_pane_brings_the_other(panes):
    panes.evaluate("() => { panes[1].scroller.scrollTop = 300; panes[1].scroller.scrollLeft = 70; }")
    assert panes.wait_for_function(SYNCED, polling="raf", timeout=3000).json_value() == [300, 70]
