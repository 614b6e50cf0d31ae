"use strict";
/*
 * Bringing rows on screen (a change for n / p, a search match, a warning's line): the rows with a few of
 * context above, at column 0 (the viewer never scrolls sideways: what must be seen of a row past the pane's
 * edge is shown whole, wholerows.js); a row taller than the screen is scrolled down to its first changed word
 * or match.
 */
const IRTraceReveal = (() => {
  const CONTEXT_ROWS = 3;  // rows kept above a change or a match brought on screen
  const { ROW_HEIGHT } = IRTraceHeights, { OVERSCAN } = IRTraceVirtualList;

  /** ctx: the panes' shared state (panes.js); list: their virtual list; scroll: scrollsync.js. */
  function create(ctx, list, scroll) {
    const { settings, active } = ctx;
    const { layout, render } = list;
    const { assign, setScroll } = scroll;

    /**
     * Bring rows [start, end) on screen in every active pane with a few rows of context above, `left` px sideways
     * (0 but where a relayout keeps the reader's own scroll), and the first element matching `selector` inside
     * them (a changed word, a search match) into the visible height when a tall row puts it below. The panes
     * stay in sync. `overscan`: the entries built beyond the screen.
     */
    function revealRows(start, end, selector, overscan = OVERSCAN, left = 0) {
      const fold = ctx.view.folds.findIndex(f => f.start <= start && start < f.end);
      if (fold >= 0) { ctx.view.expanded[fold] = 1; layout(); }
      const list = active();
      // a few entries of context above (whole wrapped lines), at most a third of the pane
      const heights = list.map(pane => pane.scroller.clientHeight);  // read once: later reads would force layouts
      const aim = pane => {
        const d = pane.entryOf[start];
        return Math.max(pane.offsets[Math.max(0, d - CONTEXT_ROWS)], pane.offsets[d] - heights[list.indexOf(pane)] / 3);
      };
      setScroll(aim, left);
      render(overscan);
      if (list.some(pane => Math.abs(pane.scroller.scrollTop - aim(pane)) >= 1)) {  // measured rows moved them: aim again
        list.forEach(pane => assign(pane, aim(pane), left));
        render(overscan);
      }
      if (!selector) return;
      let marks = list.map(pane => firstMark(pane, start, end, selector));
      // The rows built end inside the ones to reveal, none with a mark yet: look as far as the full overscan.
      if (marks.some((mark, i) => !mark && continues(list[i], start, end))) {
        render();
        marks = list.map(pane => firstMark(pane, start, end, selector));
      }
      // Only a mark the screen shows, or one on the first row, counts: a change opens at its first row, and a word
      // changed 50 rows further down is no reason to scroll away from it. A first row taller than the pane is the
      // exception: its mark is brought up (in split, for both panes: the lower mark, keeping the higher on screen).
      const spots = marks.map(found => found && spotOf(found))
        .filter(spot => spot && (spot.row === start || spot.bottom <= spot.screenBottom));
      const groups = settings.layout === "split" ? [spots] : spots.map(spot => [spot]);
      for (const group of groups) {
        if (!group.length) continue;
        const scroller = group[0].pane.scroller, top = scroller.scrollTop;
        const need = Math.max(...group.map(spot => spot.bottom)), earliest = Math.min(...group.map(spot => spot.y));
        if (need <= top + scroller.clientHeight) continue;
        const want = Math.max(top, Math.min(need - scroller.clientHeight + ROW_HEIGHT, earliest - ROW_HEIGHT));
        (settings.layout === "split" ? list : [group[0].pane]).forEach(pane => assign(pane, want, left));
      }
      render(overscan);
    }

    /** Where a mark is in its pane's content, from the top: {y, bottom}, and the bottom of the screen. */
    function spotOf({ pane, mark, row }) {
      const box = pane.scroller.getBoundingClientRect(), at = mark.getBoundingClientRect(), top = pane.scroller.scrollTop;
      const screenBottom = top + pane.scroller.clientHeight;
      return { pane, row, y: at.top - box.top + top, bottom: at.bottom - box.top + top, screenBottom };
    }

    /** Whether the entry after a pane's built ones still shows one of rows [start, end). */
    function continues(pane, start, end) {
      const entry = pane.entries[pane.rendered.last];
      return entry >= 0 && (entry >> 1) >= start && (entry >> 1) < end;
    }

    /** The first mark (`selector`) on a pane's built rows of [start, end): {pane, mark, row}, or null. */
    function firstMark(pane, start, end, selector) {
      const { first } = pane.rendered;
      for (let i = 0; i < pane.elements.length; i++) {
        const entry = pane.entries[first + i];
        if (entry < 0 || (entry >> 1) < start || (entry >> 1) >= end) continue;
        const mark = pane.elements[i].querySelector(selector);
        if (mark) return { pane, mark, row: entry >> 1 };
      }
      return null;
    }

    return { revealRows };
  }

  return { create };
})();
