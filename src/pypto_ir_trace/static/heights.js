"use strict";
/*
 * The heights of the panes' entries: one row each, or for a row that wraps (every row when lines wrap, else a
 * row shown whole: wholerows.js) as many rows as its characters need at the pane's width, then measured once
 * built (the split layout's pairs take the taller side's).
 */
const IRTraceHeights = (() => {
  const ROW_HEIGHT = 20;
  const BLAME_CHARS = 5;  // the blame gutter's column (viewer.css's --blame-width)
  const R = IRTraceRows;

  /** ctx: the panes' shared state (panes.js); scroll: scrollsync.js; scheduleRender(): build for new positions. */
  function create(ctx, scroll, scheduleRender) {
    const { report, make, settings, wrapping } = ctx;
    const { keep } = scroll;
    let charWidth = 0;  // one column of code, in px: measured once (the code's font never changes)

    const sizeOf = pane => { pane.sizer.style.height = pane.offsets[pane.entries.length] + "px"; };

    /**
     * Heights before measuring (with their offsets), and which are exact already: one row each, but a row
     * that wraps (all of them when lines wrap, else those shown whole: `whole(row)`) takes as many rows as its
     * characters need at `columns` (monospace), the split layout's pairs the taller side's. Those are measured
     * once built.
     */
    function estimate(pane, shared, columns, whole) {
      const heights = new Float64Array(pane.entries.length).fill(ROW_HEIGHT);
      const measured = new Uint8Array(pane.entries.length).fill(1);
      const perRow = Math.max(10, columns - 2);  // a wrapped line's next rows hang two columns deeper
      const length = (row, side) => {
        const line = side === 0 ? ctx.view.rows.b[row] : ctx.view.rows.a[row];
        return line < 0 ? 0 : report.lines[(side === 0 ? ctx.view.before : ctx.view.after)[line]].length;
      };
      const wrap = wrapping();
      pane.entries.forEach((entry, d) => {
        if (entry < 0 || !(wrap || whole(entry >> 1))) return;
        const chars = shared ? Math.max(length(entry >> 1, 0), length(entry >> 1, 1)) : length(entry >> 1, entry & 1);
        heights[d] = Math.max(1, Math.ceil(chars / perRow)) * ROW_HEIGHT;
        measured[d] = 0;
      });
      return { heights, measured, offsets: R.offsetsOf(heights) };
    }

    /**
     * How many columns of code a pane shows at column 0, right of its gutter (`digits`: of its widest line
     * number). Its width is noted: rows are laid out for it (see panes.js's followSize).
     */
    function columnsOf(pane, digits) {
      if (!charWidth) {
        const probe = make("span", "code", "0".repeat(100));
        probe.style.position = "absolute";
        probe.style.visibility = "hidden";
        pane.layer.append(probe);
        charWidth = probe.getBoundingClientRect().width / 100;
        probe.remove();
      }
      pane.laidWidth = pane.scroller.clientWidth;
      pane.codeColumns = pane.laidWidth / (charWidth || 7.5) - gutterColumns(digits);  // a fraction of one may show
      return Math.max(10, Math.floor(pane.codeColumns));
    }

    /** The gutter's width in columns, as viewer.css's --gutter-width has it for the layout. */
    function gutterColumns(digits) {
      const numbers = Math.max(digits, 3);
      return (settings.layout === "unified" ? 2 * numbers + 4.5 : numbers + 3) + (settings.blame ? BLAME_CHARS : 0);
    }

    /**
     * Measure the rendered rows that were only estimated; `groups` are panes whose rows share heights
     * (the split layout's pair: each row takes the taller side's height). The entry at the top of the
     * screen stays where it was, whatever the rows above it turned out to be; a pane at its end stays there.
     */
    function measure(groups) {
      for (const group of groups) {
        const lead = group[0];
        const { first, last } = lead.rendered;
        const anchor = R.entryAt(lead.offsets, lead.scroller.scrollTop);
        const into = lead.scroller.scrollTop - lead.offsets[anchor], visible = lead.scroller.clientHeight;
        const atEnd = last === lead.entries.length && lead.scroller.scrollTop + visible >= lead.offsets[last] - 1;  // End
        const found = [];
        for (let d = first; d < last; d++) {
          if (lead.measured[d]) continue;
          const height = Math.max(...group.map(pane => pane.elements[d - first].getBoundingClientRect().height));
          if (height > 0) found.push([d, height]);
        }
        if (!found.length) continue;
        let moved = false;
        for (const [d, height] of found) {
          lead.measured[d] = 1;
          if (Math.abs(lead.heights[d] - height) > 0.5) moved = true;
          lead.heights[d] = height;
          group.forEach(pane => { pane.elements[d - first].style.height = height + "px"; });
        }
        if (!moved) continue;
        const offsets = R.offsetsOf(lead.heights);
        group.forEach(pane => {
          pane.offsets = offsets;
          sizeOf(pane);
          pane.layer.style.transform = `translateY(${offsets[first]}px)`;
        });
        keep(group, atEnd ? offsets[last] - visible : offsets[anchor] + into);
        scheduleRender();  // the window may have moved with the heights
      }
    }

    return { estimate, columnsOf, measure, sizeOf, charWidth: () => charWidth || 7.5 };
  }

  return { create, ROW_HEIGHT };
})();
