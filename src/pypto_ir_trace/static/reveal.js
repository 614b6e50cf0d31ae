"use strict";
/*
 * Bringing rows on screen (a change for n / p, a search match, a warning's line): the rows with a few of
 * context above, and the first changed word or match inside them into the visible width right of the
 * gutter (one horizontal position for panes that scroll together), or into the visible height when lines wrap.
 */
const IRTraceReveal = (() => {
  const CONTEXT_ROWS = 3;  // rows kept above a change or a match brought on screen
  const MARGIN_CHARS = 6;  // characters kept left of a changed word or a match brought on screen
  const { ROW_HEIGHT } = IRTraceHeights, { OVERSCAN } = IRTraceVirtualList;

  /** ctx: the panes' shared state (panes.js); list: their virtual list; scroll: scrollsync.js. */
  // eslint-disable-next-line max-lines-per-function -- a module's closure: one algorithm (revealRows) and the three geometry helpers it alone uses
  function create(ctx, list, scroll) {
    const { doc, settings, active, wrapping } = ctx;
    const { layout, render } = list;
    const { assign, setScroll } = scroll;

    /**
     * Bring rows [start, end) on screen in every active pane with a few rows of context above, and the
     * first element matching `selector` inside them (a changed word, a search match) into the visible
     * width, right of the gutter; when lines wrap, into the visible height. The panes stay in sync.
     * `overscan`: the entries built beyond the screen.
     */
    function revealRows(start, end, selector, overscan = OVERSCAN) {
      const fold = ctx.view.folds.findIndex(f => f.start <= start && start < f.end);
      if (fold >= 0) { ctx.view.expanded[fold] = 1; layout(); }
      const list = active();
      // a few entries of context above (whole wrapped lines), at most a third of the pane
      const heights = list.map(pane => pane.scroller.clientHeight);  // read once: later reads would force layouts
      const aim = pane => {
        const d = pane.entryOf[start];
        return Math.max(pane.offsets[Math.max(0, d - CONTEXT_ROWS)], pane.offsets[d] - heights[list.indexOf(pane)] / 3);
      };
      setScroll(aim, 0);
      render(overscan);
      if (wrapping()) {  // measured heights may have moved the rows: aim again
        list.forEach(pane => assign(pane, aim(pane), 0));
        render(overscan);
      }
      if (!selector) return;
      let marks = list.map(pane => firstMark(pane, start, end, selector));
      // The rows built end inside the ones to reveal, none with a mark yet: look as far as the full overscan.
      if (marks.some((mark, i) => !mark && continues(list[i], start, end))) {
        render();
        marks = list.map(pane => firstMark(pane, start, end, selector));
      }
      marks = marks.filter(Boolean);
      if (!marks.length) return;
      const spots = marks.map(({ pane, mark, order }) => {
        const box = pane.scroller.getBoundingClientRect(), at = mark.getBoundingClientRect();
        const gutter = gutterWidth(pane);
        return {
          pane, order,
          // x from the code column's start; the code column is the pane's width less its sticky gutter
          x: at.left - box.left + pane.scroller.scrollLeft - gutter, room: pane.scroller.clientWidth - gutter,
          y: at.top - box.top + pane.scroller.scrollTop, bottom: at.bottom - box.top + pane.scroller.scrollTop,
        };
      });
      const left = bestLeft(spots);
      // A wrapped line can put its mark below the screen: scroll down to it, keeping the earliest mark.
      const groups = settings.layout === "split" ? [spots] : spots.map(spot => [spot]);
      for (const group of groups) {
        const scroller = group[0].pane.scroller, top = scroller.scrollTop;
        const need = Math.max(...group.map(spot => spot.bottom)), earliest = Math.min(...group.map(spot => spot.y));
        const want = need > top + scroller.clientHeight ? Math.min(need - scroller.clientHeight + ROW_HEIGHT, earliest - ROW_HEIGHT) : top;
        (settings.layout === "split" ? list : [group[0].pane]).forEach(pane => assign(pane, Math.max(top, want), left));
      }
      list.filter(pane => !spots.some(spot => spot.pane === pane)).forEach(pane => {
        if (settings.layout !== "split") assign(pane, pane.scroller.scrollTop, left);
      });
      render(overscan);
    }

    /** Whether the entry after a pane's built ones still shows one of rows [start, end). */
    function continues(pane, start, end) {
      const entry = pane.entries[pane.rendered.last];
      return entry >= 0 && (entry >> 1) >= start && (entry >> 1) < end;
    }

    function firstMark(pane, start, end, selector) {
      const { first } = pane.rendered;
      for (let i = 0; i < pane.elements.length; i++) {
        const entry = pane.entries[first + i];
        if (entry < 0 || (entry >> 1) < start || (entry >> 1) >= end) continue;
        const mark = pane.elements[i].querySelector(selector);
        if (mark) return { pane, mark, order: first + i };
      }
      return null;
    }

    /**
     * One horizontal position for panes that scroll together: the one that shows the most panes' first
     * mark (a few characters after the gutter); when the marks lie too far apart for one screen, the
     * earliest mark wins.
     */
    function bestLeft(spots) {
      const margin = MARGIN_CHARS * charWidth(spots[0].pane);
      const shown = left => spots.filter(s => s.x >= left - 0.5 && s.x + Math.min(margin, s.room / 4) <= left + s.room).length;
      const sorted = spots.slice().sort((u, v) => u.order - v.order || u.x - v.x);
      const candidates = [  // each mark near the left edge; failing that, near the right edge
        ...sorted.map(s => Math.max(0, Math.min(s.x - margin, s.x - s.room / 4))),
        ...sorted.map(s => Math.max(0, s.x + Math.min(margin, s.room / 4) - s.room)),
      ];
      return candidates.reduce((best, left) => (shown(left) > shown(best) ? left : best), candidates[0]);
    }

    const gutterWidth = pane => {
      const code = pane.layer.querySelector(".row:not(.fold-row) .code");
      return code ? code.getBoundingClientRect().left - pane.layer.getBoundingClientRect().left : 0;
    };
    const charWidth = pane => {
      const code = pane.layer.querySelector(".code");
      return code ? Number.parseFloat(doc.defaultView.getComputedStyle(code).fontSize) * 0.6 : 7.5;
    };

    return { revealRows };
  }

  return { create };
})();
