"use strict";
/*
 * The panes' virtual list: each pane lists its entries with a height each (one row, or measured when lines
 * wrap), and only the entries near its scroll position are in the DOM. A switch builds those on screen and a
 * few beyond; the rest of the overscan follows once the reader pauses, and scrolling builds what it needs.
 */
const IRTraceVirtualList = (() => {
  const { ROW_HEIGHT } = IRTraceHeights;
  const OVERSCAN = 30;  // entries kept in the DOM beyond the screen on each side, for scrolling
  const PAUSE_MS = 100;
  const R = IRTraceRows;

  /** ctx: the panes' shared state (panes.js); rows: their elements (panerows.js); scroll: scrollsync.js. */
  function create(ctx, rows, scroll) {
    const { el, doc, settings, panes, active, wrapping } = ctx;
    const { look, renderEntry } = rows;
    const heights = IRTraceHeights.create(ctx, scroll, () => scheduleRender());
    let looks = new WeakMap();  // row element -> look() of what it shows

    /**
     * The entries, heights and sizes of the active panes for the current display list, and the columns of code
     * they show at column 0 (ctx.columns: the narrowest pane's, so that a pair is whole on both sides or neither).
     */
    function layout() {
      if (!ctx.view) return;
      const digits = String(Math.max(ctx.view.before.length, ctx.view.after.length, 1)).length;
      ctx.columns = Math.min(...active().map(pane => heights.columnsOf(pane, digits)));  // read before any write
      ctx.view.display = R.displayList(ctx.view.rows.b.length, ctx.view.folds, ctx.view.expanded);
      doc.documentElement.style.setProperty("--gutter-chars", String(Math.max(digits, 3)));
      const lists = R.paneEntries(ctx.view.rows, ctx.view.display, settings.layout);
      const shared = settings.layout === "split";  // the two sides' rows stay aligned: one height per row pair
      active().forEach((pane, i) => {
        pane.entries = lists[i];
        pane.entryOf = R.entryOfRows(pane.entries, ctx.view.rows.b.length, ctx.view.folds);
        const { heights: h, measured, offsets } = shared && i === 1 ? panes[0] : heights.estimate(pane, shared, ctx.columns, ctx.whole);
        Object.assign(pane, { heights: h, measured, offsets });  // in split, After's rows take Before's heights
        pane.rendered = null;
        const width = wrapping() ? "100%" : `calc(${ctx.widthChars() + 2}ch + var(--gutter-width))`;
        [pane.layer.style.width, pane.sizer.style.width] = [width, wrapping() ? "1px" : width];
      });
      active().forEach(heights.sizeOf);
    }

    let frame = 0;
    function scheduleRender() {
      if (!frame) frame = requestAnimationFrame(() => { frame = 0; render(); });
    }

    // A switch builds the rows on screen and a few beyond (a reader holding j pays for no more); the
    // rest of the overscan follows once the reader pauses, and scrolling builds what it needs anyway.
    let pause = 0;
    function renderWhenPaused() {
      doc.defaultView.clearTimeout(pause);
      pause = doc.defaultView.setTimeout(() => render(), PAUSE_MS);
    }

    /** Paint again (search, current change or layout changed) keeping the scroll position; `overscan`: entries
     * built beyond the screen now (the rest once the reader pauses, as after a switch). */
    function repaint(overscan = OVERSCAN) {
      if (!ctx.view) return;
      looks = new WeakMap();  // what rows show has changed: none is kept
      panes.forEach(pane => { pane.rendered = null; });
      render(overscan);
      if (overscan < OVERSCAN) renderWhenPaused();
    }

    /**
     * Put the entries near each active pane's scroll position in the DOM, `overscan` of them beyond
     * the screen on each side; measure them when lines wrap.
     */
    function render(overscan = OVERSCAN) {
      if (!ctx.view || !el.diff.isConnected) return;  // the view of a pipeline no longer shown (pipelines.js)
      const list = active();
      const split = settings.layout === "split";
      // every position is read before any pane is written: a read after a write would force a layout
      const at = list.map(pane => (split ? list[0] : pane).scroller).map(s => [s.scrollTop, s.clientHeight]);
      const lefts = list.map(pane => pane.scroller.scrollLeft);
      let changed = false;
      list.forEach((pane, i) => {
        const built = renderPane(pane, ...at[i], overscan);
        // the rows the pane's right edge cuts, `lefts[i]` px sideways, marked (none when lines wrap)
        if ((built || pane.cutAt !== lefts[i]) && !wrapping()) rows.markCut(pane, pane.codeColumns + lefts[i] / heights.charWidth());
        [pane.cutAt, changed] = [lefts[i], built || changed];
      });
      if (changed) heights.measure(split ? [list] : list.map(pane => [pane]));  // the rows that wrap
    }

    /** `top`, `visible`: the scroll position that picks the window (in split, pane 0's for both: the same rows). */
    function renderPane(pane, top, visible, overscan) {
      const height = Math.max(visible, ROW_HEIGHT);
      const first = Math.max(0, R.entryAt(pane.offsets, top) - overscan);
      const last = Math.min(pane.entries.length, R.entryAt(pane.offsets, top + height) + 1 + overscan);
      const done = pane.rendered;
      const same = done && done.entries === pane.entries;
      if (same && done.first === first && done.last === last) return false;
      if (same && first < done.last && done.first < last) slide(pane, first, last, entryRow);
      else rebuild(pane, first, last, entryRow, wrapping() ? null : (row, d) => looks.get(row) === look(pane, pane.entries[d]));
      // (a row that wraps is never kept: its height is measured with its neighbours)
      pane.rendered = { first, last, entries: pane.entries };
      pane.layer.style.transform = `translateY(${pane.offsets[first]}px)`;
      return true;
    }

    /** The row of entry d, its measured height set when it wraps (such a row is never kept: see rebuild). */
    function entryRow(pane, d) {
      const entry = pane.entries[d], row = renderEntry(pane, entry);
      if (!wrapping() && (entry < 0 || !ctx.whole(entry >> 1))) looks.set(row, look(pane, entry));
      else if (pane.measured[d]) row.style.height = pane.heights[d] + "px";
      return row;
    }

    /** Paint again only the rows whose look changed (a line picked): the others stay, unlike repaint. */
    function refresh() {
      if (!ctx.view) return;
      panes.forEach(pane => { pane.rendered = null; });
      render();
    }

    return { layout, render, renderWhenPaused, scheduleRender, repaint, refresh };
  }

  /** Scrolled: the rows that left the window go, those that came in are built; the others stay. */
  function slide(pane, first, last, entryRow) {
    const done = pane.rendered;
    const build = (from, to) => Array.from({ length: to - from }, (_, k) => entryRow(pane, from + k));
    const drop = rows => rows.forEach(row => row.remove());
    if (done.first < first) drop(pane.elements.splice(0, first - done.first));
    if (last < done.last) drop(pane.elements.splice(last - Math.max(first, done.first)));
    if (first < done.first) {
      const rows = build(first, done.first);
      pane.layer.prepend(...rows);
      pane.elements.unshift(...rows);
    }
    if (done.last < last) {
      const rows = build(done.last, last);
      pane.layer.append(...rows);
      pane.elements.push(...rows);
    }
  }

  /**
   * A new window or new entries (a switch): each row already in the DOM that shows exactly what its
   * place is to show stays (stepping through no-op passes shows the same rows); the others are built.
   * shows(row, d): whether a row shows what entry d is to show; null: none is kept.
   */
  function rebuild(pane, first, last, entryRow, shows) {
    const old = pane.elements;
    pane.elements = [];
    for (let d = first; d < last; d++) {
      const was = old[d - first];
      pane.elements.push(shows && was && shows(was, d) ? was : entryRow(pane, d));
    }
    const kept = pane.elements.filter((row, i) => row === old[i]).length;
    if (!kept) {
      pane.layer.replaceChildren(...pane.elements);
      return;
    }
    pane.elements.forEach((row, i) => { if (row !== old[i]) old[i] ? old[i].replaceWith(row) : pane.layer.append(row); });
    old.slice(pane.elements.length).forEach(row => row.remove());
  }

  return { create, OVERSCAN };
})();
