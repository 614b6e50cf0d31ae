"use strict";
/*
 * The heights of the panes' entries: one row each, or when lines wrap as many rows as a line's characters
 * need at the pane's width, then measured once built (the split layout's pairs take the taller side's).
 */
const IRTraceHeights = (() => {
  const ROW_HEIGHT = 20;
  const BLAME_CHARS = 5;  // the blame gutter's column (viewer.css's --blame-width)
  const R = IRTraceRows;

  /** ctx: the panes' shared state (panes.js); scroll: scrollsync.js; scheduleRender(): build for new positions. */
  function create(ctx, scroll, scheduleRender) {
    const { report, make, doc, settings, wrapping } = ctx;
    const { assign } = scroll;

    const sizeOf = pane => { pane.sizer.style.height = pane.offsets[pane.entries.length] + "px"; };

    /**
     * Heights before measuring: one row each unless lines wrap; then a line takes as many rows as its
     * characters need at the pane's width (monospace), the split layout's pairs the taller side's.
     * Rows on screen are measured and replace these (see measure).
     */
    function estimate(pane, shared) {
      const heights = new Float64Array(pane.entries.length).fill(ROW_HEIGHT);
      if (!wrapping()) return heights;
      const perRow = charsPerRow(pane);
      const length = (row, side) => {
        const line = side === 0 ? ctx.view.rows.b[row] : ctx.view.rows.a[row];
        return line < 0 ? 0 : report.lines[(side === 0 ? ctx.view.before : ctx.view.after)[line]].length;
      };
      pane.entries.forEach((entry, d) => {
        if (entry < 0) return;
        const chars = shared ? Math.max(length(entry >> 1, 0), length(entry >> 1, 1)) : length(entry >> 1, entry & 1);
        heights[d] = Math.max(1, Math.ceil(chars / perRow)) * ROW_HEIGHT;
      });
      return heights;
    }

    /** How many characters fit on one visual row of a pane's code column. */
    function charsPerRow(pane) {
      const probe = make("span", "code", "0".repeat(100));
      probe.style.position = "absolute";
      probe.style.visibility = "hidden";
      pane.layer.append(probe);
      const charWidth = probe.getBoundingClientRect().width / 100 || 7.5;
      probe.remove();
      const gutter = (Number(doc.documentElement.style.getPropertyValue("--gutter-chars")) || 3) * (settings.layout === "unified" ? 2 : 1) + 5
        + (settings.blame ? BLAME_CHARS : 0);
      pane.laidWidth = pane.scroller.clientWidth;  // wrapped rows fit this width: see the ResizeObserver
      return Math.max(10, Math.floor(pane.laidWidth / charWidth) - gutter);
    }

    /**
     * Measure the rendered rows that were only estimated; `groups` are panes whose rows share heights
     * (the split layout's pair: each row takes the taller side's height). The entry at the top of the
     * screen stays where it was, whatever the rows above it turned out to be.
     */
    function measure(groups) {
      for (const group of groups) {
        const lead = group[0];
        const { first, last } = lead.rendered;
        const anchor = R.entryAt(lead.offsets, lead.scroller.scrollTop);
        const into = lead.scroller.scrollTop - lead.offsets[anchor];
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
          assign(pane, offsets[anchor] + into, pane.scroller.scrollLeft);
        });
        scheduleRender();  // the window may have moved with the heights
      }
    }

    return { estimate, measure, sizeOf };
  }

  return { create, ROW_HEIGHT };
})();
