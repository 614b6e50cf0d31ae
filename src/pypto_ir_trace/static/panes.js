"use strict";
/*
 * The panes (Before and After, or the unified Diff) of one diff: its rows (IRTraceRows), folds, the change
 * n / p stepped to, the layout and wrapping they show, copying a whole side. The work is done by one module
 * per concern, all reading the state shared here (ctx): the virtual list (virtuallist.js: only the rows near
 * the screen are in the DOM), the row elements (panerows.js, painted by paint.js), bringing rows on screen
 * (reveal.js), scrolling in sync (scrollsync.js) and the clipboard (clipboard.js).
 */
const IRTracePanes = (() => {
  const SWITCH_OVERSCAN = 10;  // entries built beyond the screen right after a switch, until the reader pauses
  const R = IRTraceRows;

  /**
   * host: what the panes show and with what. {el: {diff, panes: [Before, After, Diff scrollers]}, report,
   * pipeline, make(tag, class, text), announce(text, about), search: {marks(id), shown()}}. The viewer shows its panes
   * (app.js) and a view may add its own (the baseline's in Pass effect, runs.js): each keeps its own layout.
   */
  // eslint-disable-next-line max-lines-per-function -- the panes' public face: it wires the modules of panes.js's header to the state they share (ctx); each function is short
  function create(host) {
    const { el, report, pipeline, make, announce, search } = host;
    const doc = el.diff.ownerDocument;
    const settings = { layout: "split", wrap: false, elide: false, blame: false };  // as the markup has them
    // One record per scroller: Before, After, and the unified layout's Diff. Each lists entries
    // (IRTraceRows.paneEntries) with a height each; only the entries near the screen are in the DOM.
    const panes = el.panes.map((scroller, index) => {
      const layer = make("div", "rows");
      scroller.appendChild(layer);
      return { index, scroller, layer, sizer: scroller.querySelector(".sizer"), entries: null, entryOf: null,
        heights: null, offsets: null, measured: null, rendered: null, elements: [] };
    });
    const ctx = {
      el, report, pipeline, make, doc, settings, panes,
      view: null,  // viewOf's
      active: () => (settings.layout === "unified" ? [panes[2]] : [panes[0], panes[1]]),
      wrapping: () => settings.wrap,
      lineOrigin: (side, line) => (host.lineOrigin ? host.lineOrigin(side, line) : null),  // the blame gutter's label
    };
    const scroll = IRTraceScrollSync.create(ctx, () => list.scheduleRender());
    const paint = IRTracePaint.create(report, make, search, () => {  // a long line shown whole: wider, or taller
      widths.clear();
      ctx.view.reach.fill(-1);
      ctx.view.widthFor = -1;
      relayout({}, false);
      list.repaint();  // the rows drawn so far keep their looks otherwise
    }, () => settings.elide && report.elides);
    ctx.shownLength = paint.shownLength;
    ctx.elidedLength = paint.elidedLength;
    const entryRows = IRTracePaneRows.create(ctx, paint, f => {
      ctx.view.expanded[f] = 1;
      relayout({});
    });
    const whole = IRTraceWholeRows.create(ctx, paint, entryRows.wordsOf);
    ctx.whole = item => whole.isWhole(item, ctx.columns);  // for the columns the panes were laid out for
    ctx.widthChars = () => {  // the panes' width for those columns: made again for others
      const { view } = ctx;
      if (view.widthFor !== ctx.columns) [view.widthChars, view.widthFor] = [widthOf(ctx, widths, view), ctx.columns];
      return view.widthChars;
    };
    const list = IRTraceVirtualList.create(ctx, entryRows, scroll);
    const { revealRows } = IRTraceReveal.create(ctx, list, scroll);
    const clipboard = IRTraceClipboard.create(doc);
    const widths = new Map();  // text -> its longest line, in UTF-16 units
    const copyButtons = () => [...el.diff.querySelectorAll("button.copy")];

    /**
     * Build the rows of a diff and show them, its first change on screen. shown: {pass (the diff), key (one
     * function, or null: the whole file), beforeFile (what Before is: a copy names it)}.
     */
    function show(shown, resetScroll) {
      const view = ctx.view = viewOf(ctx, shown);
      copyButtons().forEach(b => { b.disabled = false; });
      list.layout();
      const first = view.hunks[0];
      if (resetScroll && first) revealRows(first.start, first.end, "del, ins", SWITCH_OVERSCAN);  // at column 0
      else if (resetScroll) scroll.setScroll(() => 0, 0);
      list.render(SWITCH_OVERSCAN);
      list.renderWhenPaused();
    }

    function clear() {
      ctx.view = null;
      copyButtons().forEach(b => { b.disabled = true; });
    }

    /**
     * Change layout or wrapping ({layout, wrap}, either or neither: folds changed) keeping the current change
     * on screen when it was (`keepChange`), else the row at the top of the screen; the horizontal position is
     * the reader's and stays (column 0 when lines wrap).
     */
    function relayout(change, keepChange = true) {
      if (Object.keys(change).join() === "blame" && !settings.wrap) {  // a gutter column: no row moves
        Object.assign(settings, change);
        applySettings(ctx);
        list.repaint(SWITCH_OVERSCAN);  // every row built again: the screen first, as a switch does
        return;
      }
      const { view } = ctx, lead = ctx.active()[0];
      const hunk = keepChange && view && view.current >= 0 && changeShown(lead) ? view.hunks[view.current] : null;
      let row = -1, into = 0, left = lead.scroller.scrollLeft;
      if (view && lead.entries && lead.entries.length) {
        const d = R.entryAt(lead.offsets, lead.scroller.scrollTop);
        const entry = lead.entries[d];
        row = entry >= 0 ? entry >> 1 : view.folds[-entry - 1].start;
        into = (lead.scroller.scrollTop - lead.offsets[d]) / lead.heights[d];  // a share: wrapping changes heights
      }
      Object.assign(settings, change);
      applySettings(ctx);
      if ("elide" in change) widths.clear();  // lines take other widths (kept even with no view shown)
      if (!view) return;
      if ("elide" in change) {  // every row is painted again
        view.reach.fill(-1);
        view.widthFor = -1;
        list.repaint();
      }
      list.layout();
      if (settings.wrap) left = 0;
      if (hunk) { revealRows(hunk.start, hunk.end, "del, ins", undefined, left); return; }
      const topOf = pane => { const d = pane.entryOf[row]; return pane.offsets[d] + Math.floor(into * pane.heights[d]); };
      scroll.setScroll(pane => (row < 0 ? 0 : topOf(pane)), left);
      list.render();
    }

    /** Whether some row of the current change lies on a pane's screen. */
    function changeShown(pane) {
      const { view } = ctx, hunk = view.hunks[view.current];
      if (!pane.entries || !pane.entries.length) return false;
      const top = pane.scroller.scrollTop, bottom = top + pane.scroller.clientHeight;
      const first = pane.entryOf[hunk.start], last = pane.entryOf[hunk.end - 1];
      return pane.offsets[first] < bottom && pane.offsets[last] + pane.heights[last] > top;
    }

    /** Expand all (true) or Collapse all (false). */
    function setAllFolds(expanded) {
      if (!ctx.view) return;
      ctx.view.expanded.fill(expanded ? 1 : 0);
      relayout({});
    }

    /**
     * Scroll a row of the view into sight (opening its fold); a search match in it comes on screen too (its row
     * shown whole when the match lies past the pane's edge).
     */
    function reveal(row) {
      if (!ctx.view || row === undefined || row < 0) return;
      if (search.shown()) {
        ctx.view.sought = whole.soughtRow(row, search.marks);
        list.layout();
      }
      revealRows(row, row + 1, search.shown() ? "mark" : null);
    }

    /** n / p: the next (delta 1) or previous (-1) change of the view, brought on screen and marked current. */
    function stepChange(delta) {
      const { view } = ctx;
      if (!view) return;
      const count = view.hunks.length;
      // About the pass shown: the status forgets them when another pass or view is shown (app.announce).
      if (!count) { announce("No change in this view", "pass"); return; }
      const next = view.current + delta;
      if (next < 0 || next >= count) {
        announce(delta > 0 ? `No later change: this is change ${count} of ${count}` : `No earlier change: this is change 1 of ${count}`, "pass");
      }
      showChange(Math.min(Math.max(next, 0), count - 1));
      if (next >= 0 && next < count) announce(`Change ${view.current + 1} of ${count}`, "pass");
    }

    /** Change h (a hunk) marked current and brought on screen; -1: no change current (the panes stay). */
    function showChange(h) {
      const { view } = ctx;
      if (!view || h >= view.hunks.length) return;
      view.current = h;
      list.repaint();
      if (h >= 0) revealRows(view.hunks[h].start, view.hunks[h].end, "del, ins");
    }

    /** The change holding a changed row of `lines` ({before: [start, end), after: [start, end)}, line ranges of
     * the diff's two texts), or -1 (the rows are outside the function shown, or all renamed). */
    function changeAt(lines) {
      const { view } = ctx;
      if (!view) return -1;
      const { b, a } = view.rows;
      const within = (line, [start, end]) => line >= start && line < end;
      for (let r = 0; r < b.length; r++) {
        if (view.hunkOf[r] >= 0 && (within(b[r], lines.before) || within(a[r], lines.after))) return view.hunkOf[r];
      }
      return -1;
    }

    /** A line of one side (0 Before, 1 After) marked picked and brought on screen; false when the view lacks it. */
    function pick(side, line) {
      const row = ctx.view ? rowOf(ctx.view, side, line) : -1;
      if (row < 0) return false;
      ctx.view.picked = { side, line };
      list.refresh();
      revealRows(row, row + 1, null);
      return true;
    }

    /** The line b acts on: the one picked, else the first of the current change, else the first on screen. */
    function currentLine() {
      const { view } = ctx;
      if (!view || !view.rows.b.length) return null;
      if (view.picked && rowOf(view, view.picked.side, view.picked.line) >= 0) return view.picked;
      const lead = ctx.active()[0];
      let row = view.current >= 0 ? view.hunks[view.current].start : -1;
      if (row < 0 && lead.entries && lead.entries.length) {
        const entry = lead.entries[R.entryAt(lead.offsets, lead.scroller.scrollTop)];
        row = entry >= 0 ? entry >> 1 : view.folds[-entry - 1].end;
      }
      row = Math.min(Math.max(row, 0), view.rows.b.length - 1);
      return view.rows.a[row] >= 0 ? { side: 1, line: view.rows.a[row] } : { side: 0, line: view.rows.b[row] };
    }

    panes.forEach(pane => pane.scroller.addEventListener("scroll", () => scroll.onScroll(pane), { passive: true }));
    followSize(ctx, relayout, list);
    copyButtons().forEach(button => {
      button.dataset.text = button.textContent;
      button.addEventListener("click", () => copySide(ctx, host, clipboard, Number(button.dataset.side), button));
    });

    return {
      show, clear, relayout, setAllFolds, reveal, stepChange, showChange, changeAt,
      allRows: () => allRows(ctx, entryRows),
      firstRowWhere: (matches, foldedOnly) => firstRowWhere(ctx, matches, foldedOnly),
      repaint: list.repaint,
      scrolled: scroll.scrolled,
      hasFolds: () => Boolean(ctx.view && ctx.view.folds.length),
      changeCount: () => (ctx.view ? ctx.view.hunks.length : 0),
      pick, currentLine,
      /** The row showing an after line in the current view, or -1. */
      rowOfAfterLine: line => (ctx.view ? ctx.view.rows.a.indexOf(line) : -1),
    };
  }

  /** The row showing line `line` of one side (0 Before, 1 After) of a view, or -1. */
  const rowOf = (view, side, line) => (side === 0 ? view.rows.b : view.rows.a).indexOf(line);

  /** What the panes show of a diff: its rows, folds, changes, the warnings on its lines, its width. */
  function viewOf(ctx, shown) {
    const { report, pipeline } = ctx;
    const { pass, key } = shown;
    const before = pipeline.ids(pass.before), after = pipeline.ids(pass.after);
    let span = [0, before.length];
    if (key !== null && !pass.pieces) {  // a no-op pass: the function's span, the same on both sides
      const region = pipeline.texts[pass.before].byKey.get(key);
      span = [region.start, region.end];
    }
    const textOf = (side, line) => report.lines[(side === 0 ? before : after)[line]];
    const rows = IRTraceRenumber.markRows(R.buildRows(pass, key, span, textOf), pass);
    const folds = R.computeFolds(rows.kind, report.context);
    const anchors = new Map();  // after line -> the warnings that name it
    for (const { line, message } of pass.anchors) {  // pushed: a copy per warning is quadratic on one busy line
      if (!anchors.has(line)) anchors.set(line, []);
      anchors.get(line).push(message);
    }
    const hunks = R.hunks(rows.kind);
    const hunkOf = new Int32Array(rows.kind.length).fill(-1);
    hunks.forEach((hunk, h) => hunkOf.fill(h, hunk.start, hunk.end));
    const words = new Map();  // row -> its word changes (IRTraceRows.wordDiff), made once
    // reach: where each changed row's changed text ends, in columns (-1: not weighed yet; wholerows.js);
    // widthChars: the panes' width (widthOf) for ctx.columns = widthFor
    return { shown, pass, rows, folds, expanded: new Uint8Array(folds.length), before, after, words, anchors, hunks,
      hunkOf, current: hunks.length ? 0 : -1, picked: null, reach: new Int32Array(rows.kind.length).fill(-1),
      sought: null, widthChars: 0, widthFor: -1 };
  }

  /**
   * The widest row of a view, in characters as shown (a long line's cut, and its button; elided, a changed
   * pair keeps the parts its changed words touch; a row shown whole wraps, and does not count). The whole
   * file's is the widest of its texts as elided, or of a changed pair: each text's is kept, so a switch reads
   * only the pairs (all rows when some are shown whole). A pair's word changes are made here and kept in
   * `words` for painting; past WORD_BUDGET pairs (a pass that rewrites thousands of lines), R.changedStretch
   * bounds them instead, wider at worst, and the switch stays quick.
   */
  function widthOf(ctx, widths, view) {
    const { pipeline, settings, report } = ctx, { shown: { pass, key }, rows, words } = view;
    const eliding = settings.elide && report.elides;
    const before = pipeline.ids(pass.before), after = pipeline.ids(pass.after);
    const texts = key === null && !rows.kind.some((kind, r) => kind !== R.KIND_EQUAL && ctx.whole(r));
    let most = texts ? Math.max(widest(ctx, widths, pass.before, eliding), widest(ctx, widths, pass.after, eliding)) : 0;
    if (texts && !eliding) return most;
    for (let r = 0; r < rows.b.length; r++) {
      const b = rows.b[r], a = rows.a[r], kind = rows.kind[r];
      const paired = kind === R.KIND_PAIR || kind === IRTraceRenumber.KIND_RENAMED;  // painted with its word changes
      if ((texts && !paired) || (kind !== R.KIND_EQUAL && ctx.whole(r))) continue;
      if (!eliding || !paired) {
        if (b >= 0) most = Math.max(most, shownWidth(ctx, before[b], eliding ? [] : null));
        if (a >= 0) most = Math.max(most, shownWidth(ctx, after[a], eliding ? [] : null));
        continue;
      }
      const x = report.lines[before[b]], y = report.lines[after[a]];
      if (!words.has(r) && words.size < WORD_BUDGET) words.set(r, R.wordDiff(x, y));
      const changes = words.has(r) ? words.get(r) || { before: [], after: [] }  // null: no word marks, all elided
        : { before: R.changedStretch(x, y), after: R.changedStretch(y, x) };
      most = Math.max(most, shownWidth(ctx, before[b], changes.before), shownWidth(ctx, after[a], changes.after));
    }
    return most;
  }

  const WORD_BUDGET = 1000;  // word changes made for the panes' width, per view

  const { REST_CHARS } = IRTracePaint;
  /** Line id's width as shown: whole (kept null), or elided but where its elisions touch `kept` ([] for none). */
  function shownWidth(ctx, id, kept = null) {
    const shown = ctx.shownLength(id);
    const width = kept ? ctx.elidedLength(id, kept) : shown;
    return shown < ctx.report.lines[id].length ? width + REST_CHARS : width;
  }

  /**
   * The longest line of text t as shown, every line elided if `elided` (kept in `widths`, which is cleared
   * when eliding is switched or a line is shown whole): the whole file's width, folded lines included.
   */
  function widest(ctx, widths, t, elided) {
    if (!widths.has(t)) {
      let most = 0;
      for (const id of ctx.pipeline.ids(t)) most = Math.max(most, shownWidth(ctx, id, elided ? [] : null));
      widths.set(t, most);
    }
    return widths.get(t);
  }

  /** Copy Before's (side 0) or After's (1) whole snapshot; its button and the status say how it went. */
  async function copySide({ view, pipeline }, host, clipboard, side, button) {
    if (!view) return;
    const { pass, beforeFile } = view.shown;
    const t = side === 0 ? pass.before : pass.after;
    const copied = await clipboard.copy(pipeline.source(t));
    const file = side === 0 ? beforeFile : pass.file;
    host.announce(copied ? `Copied ${file} (${pipeline.ids(t).length} lines)` : "Copy failed: the browser refused clipboard access");
    clipboard.flash(button, copied ? "Copied \u2713" : "Copy failed");
  }

  /**
   * A pane's size follows the window, the pass list's width and the layout: rows are laid out again for a new
   * width (which rows wrap, and how tall), and a taller pane needs more rows. Checked in the next frame, so
   * the work never runs inside the observer's own layout pass.
   */
  function followSize(ctx, relayout, list) {
    let sized = 0;
    const resized = new ctx.doc.defaultView.ResizeObserver(() => {
      if (sized) return;
      sized = requestAnimationFrame(() => {
        sized = 0;
        if (!ctx.view) return;
        const narrowed = pane => pane.laidWidth !== undefined && pane.scroller.clientWidth !== pane.laidWidth;
        if (ctx.active().some(narrowed)) relayout({});
        else list.scheduleRender();
      });
    });
    ctx.panes.forEach(pane => resized.observe(pane.scroller));
  }

  /** The diff's classes (layout, wrapping) and which of the panes show: Before and After, or the one Diff. */
  function applySettings({ el, settings, panes }) {
    for (const name of ["split", "stacked", "unified"]) el.diff.classList.toggle(name, settings.layout === name);
    el.diff.classList.toggle("wrap", settings.wrap);
    el.diff.classList.toggle("blame", settings.blame);
    panes.forEach(pane => { pane.scroller.parentElement.hidden = (settings.layout === "unified") !== (pane.index === 2); });
  }

  /** Every entry of the view in each pane of the layout, folds as shown: printing needs them all. */
  function allRows(ctx, entryRows) {
    const { view, settings } = ctx;
    if (!view) return null;
    const lists = R.paneEntries(view.rows, view.display, settings.layout);
    return lists.map((entries, i) => Array.from(entries, entry => entryRows.renderEntry(ctx.active()[i], entry)));
  }

  /**
   * The first row where `matches(line id)` holds on either side; a changed row wins over an unchanged one.
   * `foldedOnly`: -1 unless every such row lies inside a collapsed fold (nothing shown says it matches).
   */
  function firstRowWhere({ view }, matches, foldedOnly = false) {
    if (!view) return -1;
    const { b, a, kind } = view.rows;
    const folded = r => view.folds.some((fold, f) => !view.expanded[f] && fold.start <= r && r < fold.end);
    let first = -1;
    for (let r = 0; r < b.length; r++) {
      if (!(b[r] >= 0 && matches(view.before[b[r]])) && !(a[r] >= 0 && matches(view.after[a[r]]))) continue;
      if (foldedOnly && !folded(r)) return -1;
      if (kind[r] !== R.KIND_EQUAL && !foldedOnly) return r;
      if (first < 0) first = r;
    }
    return first;
  }

  return { create };
})();
