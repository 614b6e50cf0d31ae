"use strict";
/*
 * Bringing rows on screen (a change for n / p, a search match, a warning's line): the rows with a few of
 * context above, and the first changed word or match inside them into the visible width right of the
 * gutter (one horizontal position for panes that scroll together), or into the visible height when lines wrap.
 */
const IRTraceReveal = (() => {
  const CONTEXT_ROWS = 3;  // rows kept above a change or a match brought on screen
  const MARGIN_CHARS = 6;  // characters kept left of a changed word or a match brought on screen
  const MAX_MARKS = 200;  // marks weighed per pane: enough for a screen of changed words
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
      let marks = list.map(pane => marksIn(pane, start, end, selector));
      // The rows built end inside the ones to reveal, none with a mark yet: look as far as the full overscan.
      if (marks.some((found, i) => !found.length && continues(list[i], start, end))) {
        render();
        marks = list.map(pane => marksIn(pane, start, end, selector));
      }
      // Only marks the screen now shows count: a change opens at its first row, and a word changed 50 rows
      // further down is no reason to scroll away from it. A wrapped first row taller than the pane is the
      // exception: its mark is brought up below.
      const spots = marks.flat().map(spotOf).filter(spot => spot.row === start || spot.bottom <= spot.screenBottom);
      const firsts = list.map(pane => spots.find(spot => spot.pane === pane)).filter(Boolean).map(withStart);
      const left = wrapping() || !spots.length ? 0 : Math.min(bestLeft(spots, firsts), textLeft(list, start, end));
      // A wrapped line can put its mark below the screen: scroll down to it, keeping the earliest mark.
      const groups = settings.layout === "split" ? [firsts] : firsts.map(spot => [spot]);
      for (const group of groups) {
        if (!group.length) continue;
        const scroller = group[0].pane.scroller, top = scroller.scrollTop;
        const need = Math.max(...group.map(spot => spot.bottom)), earliest = Math.min(...group.map(spot => spot.y));
        const want = need > top + scroller.clientHeight ? Math.min(need - scroller.clientHeight + ROW_HEIGHT, earliest - ROW_HEIGHT) : top;
        (settings.layout === "split" ? list : [group[0].pane]).forEach(pane => assign(pane, Math.max(top, want), left));
      }
      list.filter(pane => !spots.some(spot => spot.pane === pane)).forEach(pane => {
        if (settings.layout !== "split" || !spots.length) assign(pane, pane.scroller.scrollTop, left);
      });
      render(overscan);
    }

    /** A spot with `start`: where the first character of its line that is not white space is (as x is). */
    function withStart(spot) {
      const code = spot.mark.closest(".code"), box = spot.pane.scroller.getBoundingClientRect();
      const walker = doc.createTreeWalker(code, 4 /* NodeFilter.SHOW_TEXT */);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.data.search(/\S/);
        if (at < 0 || !node.parentElement.getClientRects().length) continue;  // blank, or the hidden indentation
        const range = doc.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        const start = range.getBoundingClientRect().left - box.left + spot.pane.scroller.scrollLeft - gutterWidth(spot.pane);
        return { ...spot, start };
      }
      return { ...spot, start: 0 };
    }

    /** Where a mark is in its pane's content: x from the code column's start, y from the top. */
    function spotOf({ pane, mark, order, row }) {
      const box = pane.scroller.getBoundingClientRect(), at = mark.getBoundingClientRect();
      const gutter = gutterWidth(pane), top = pane.scroller.scrollTop;
      return {
        pane, mark, order, row,
        // the code column is the pane's width less its sticky gutter
        x: at.left - box.left + pane.scroller.scrollLeft - gutter, room: pane.scroller.clientWidth - gutter,
        width: at.width, y: at.top - box.top + top, bottom: at.bottom - box.top + top, screenBottom: top + pane.scroller.clientHeight,
      };
    }

    /** Whether the entry after a pane's built ones still shows one of rows [start, end). */
    function continues(pane, start, end) {
      const entry = pane.entries[pane.rendered.last];
      return entry >= 0 && (entry >> 1) >= start && (entry >> 1) < end;
    }

    /** The marks (`selector`) on a pane's built rows of [start, end), in order: at most MAX_MARKS of them. */
    function marksIn(pane, start, end, selector) {
      const { first } = pane.rendered, found = [];
      for (let i = 0; i < pane.elements.length && found.length < MAX_MARKS; i++) {
        const entry = pane.entries[first + i];
        if (entry < 0 || (entry >> 1) < start || (entry >> 1) >= end) continue;
        for (const mark of pane.elements[i].querySelectorAll(selector)) found.push({ pane, mark, order: first + i, row: entry >> 1 });
      }
      return found.slice(0, MAX_MARKS);
    }

    /**
     * One horizontal position for the panes (they scroll together). What it shows, by weight: each pane's first
     * mark (the change's first words), then the start of their lines, then as many of the other marks on screen
     * as can be, then the earliest mark; and it scrolls no further than that needs (column 0 when it shows as
     * much).
     */
    function bestLeft(spots, firsts) {
      const margin = MARGIN_CHARS * charWidth(spots[0].pane);
      const whole = s => Math.min(s.width, s.room / 2);  // all of a mark that must show: the whole of it, if it fits
      // scrolled past its first characters, a line's head (paint.js) shows them over the code column's start
      const copied = IRTracePaint.HEAD_CHARS * charWidth(spots[0].pane), head = copied + 2 * charWidth(spots[0].pane);
      const shows = (left, s) => s.x >= left + (left > 0 ? head : 0) - 0.5 && s.x + whole(s) <= left + s.room + 0.5;
      const earliest = firsts.reduce((u, v) => (v.order < u.order || (v.order === u.order && v.x < u.x) ? v : u));
      const count = (left, list) => list.filter(s => shows(left, s)).length;
      // a line's start shows when it is not scrolled away, or when its head shows it: never half of its name
      const startShown = (left, s) => left <= s.start + 0.5 || left >= s.start + copied - 0.5;
      const score = left => [count(left, firsts), firsts.filter(s => startShown(left, s)).length, count(left, spots),
        shows(left, earliest) ? 1 : 0, -left];
      const better = (u, v) => { for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) return u[i] > v[i]; return false; };
      // a scroll that must be made goes a few characters further than the mark: the reader sees where it ends
      const candidates = [0, ...spots.map(s => Math.max(0, Math.min(s.x - head, s.x + whole(s) + margin - s.room))),
        ...spots.map(s => Math.max(0, s.x - margin - head)), ...spots.map(s => Math.max(0, s.x - head)),
        ...firsts.map(s => s.start + copied)];  // x - head: the furthest scroll that still shows a mark
      let best = 0, bestScore = score(0);  // each candidate scored once: a score counts every mark
      for (const left of candidates) {
        const found = score(left);
        if (better(found, bestScore)) [best, bestScore] = [left, found];
      }
      return best;
    }

    /**
     * The furthest sideways scroll at which every pane still shows text on the rows [start, end) it has on
     * screen: a side of coloured bars with no text tells the reader nothing (Infinity: no such rows).
     */
    function textLeft(list, start, end) {
      let most = Infinity;
      for (const pane of list) {
        const box = pane.scroller.getBoundingClientRect(), gutter = gutterWidth(pane), keep = 8 * charWidth(pane);
        let ends = -1;
        pane.elements.forEach((element, i) => {
          const entry = pane.entries[pane.rendered.first + i];
          if (entry < 0 || (entry >> 1) < start || (entry >> 1) >= end || element.classList.contains("filler")) return;
          const at = element.getBoundingClientRect();
          if (at.bottom <= box.top || at.top >= box.top + pane.scroller.clientHeight) return;
          const code = element.querySelector(".code");
          ends = Math.max(ends, code.getBoundingClientRect().right - box.left + pane.scroller.scrollLeft - gutter);
        });
        if (ends >= 0) most = Math.min(most, Math.max(0, ends - keep));
      }
      return most;
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
