"use strict";
/*
 * Scrolling the panes in sync: a pane the reader scrolls brings the others with it (the same pixels side by
 * side, the same row stacked), and positions the viewer assigns are told apart from the reader's.
 */
const IRTraceScrollSync = (() => {
  const R = IRTraceRows;

  /** ctx: the panes' shared state (panes.js); scheduleRender(): build what the new positions show. */
  function create(ctx, scheduleRender) {
    const { settings, panes, active } = ctx;

    // A position we assigned to a pane: its scroll event is our echo, not the user, and must not be
    // mirrored back (that feedback is what makes synced panes jitter). Positions are compared within a
    // pixel because zoomed or high-DPI screens round fractional offsets.
    const assigned = new WeakMap();
    const near = (x, y) => Math.abs(x - y) < 1;
    // The sideways offset the panes were last brought to together: a pane away from it was scrolled by the
    // reader, perhaps with its event still to come.
    let agreed = 0;

    function assign(pane, top, left) {
      const scroller = pane.scroller;
      scroller.scrollTop = top;
      scroller.scrollLeft = left;
      assigned.set(scroller, { top: scroller.scrollTop, left: scroller.scrollLeft });  // as clamped and rounded
    }

    /** topOf(pane) for each active pane, one left for all. */
    function setScroll(topOf, left) {
      active().forEach(pane => assign(pane, topOf(pane), left));
      agreed = left;
    }

    /**
     * Put panes that share their rows' heights at `top` (heights measured, the line at the top kept), all at one
     * sideways offset: the reader's, when one pane was scrolled away from where they stood together. Each at its
     * own would let the other pane's echo pull the reader's pane back before its own event came.
     */
    function keep(group, top) {
      const moved = group.find(pane => !near(pane.scroller.scrollLeft, agreed));
      const left = moved ? moved.scroller.scrollLeft : agreed;
      group.forEach(pane => assign(pane, top, left));
    }

    /** Where the other pane should be: the same pixels in split; in stacked, the same row at its top. */
    function follow(source, target) {
      if (settings.layout === "split") return source.scroller.scrollTop;
      if (!source.entries.length || !target.entries.length) return 0;  // a side without lines (an empty snapshot)
      const top = source.scroller.scrollTop;
      const d = R.entryAt(source.offsets, top);
      const entry = source.entries[d];
      const row = entry >= 0 ? entry >> 1 : ctx.view.folds[-entry - 1].start;
      const e = target.entryOf[row];
      return target.offsets[e] + Math.min(top - source.offsets[d], target.heights[e]);
    }

    function onScroll(source) {
      const scroller = source.scroller;
      const top = scroller.scrollTop, left = scroller.scrollLeft;
      const mark = assigned.get(scroller);
      assigned.delete(scroller);
      const echo = mark && near(mark.top, top) && near(mark.left, left);
      if (echo) {  // we scrolled it, and built its rows then (a render now would build the whole overscan)
        // Side by side the panes show the same pixels: a position assigned to each pane as it stood (heights
        // measured, the line at the top kept) can carry a reader's scroll whose event had not come yet, and
        // that event is then our echo; the other pane still follows it, unless the reader has since moved
        // that pane: its own event, still to come, leads.
        if (settings.layout === "split" && !active().some(movedSinceAssigned)) followOthers(source);
        return;
      }
      followOthers(source);
      scheduleRender();
    }

    /** A pane the reader moved after we placed it, its scroll event not yet come. */
    function movedSinceAssigned(pane) {
      const mark = assigned.get(pane.scroller);
      return Boolean(mark) && !(near(mark.top, pane.scroller.scrollTop) && near(mark.left, pane.scroller.scrollLeft));
    }

    /** Bring the other active panes where `source` now is. */
    function followOthers(source) {
      const list = active();
      if (!ctx.view || !list.includes(source)) return;
      const left = agreed = source.scroller.scrollLeft;
      for (const target of list) {
        if (target === source) continue;
        const want = follow(source, target);
        if (!near(target.scroller.scrollTop, want) || !near(target.scroller.scrollLeft, left)) assign(target, want, left);
      }
    }

    /**
     * A pane scrolled from the keyboard: the others follow at once rather than on its scroll event,
     * a frame later (the panes move together, and what they show can be read right away).
     */
    function scrolled(scroller) {
      const source = panes.find(pane => pane.scroller === scroller);
      if (source) followOthers(source);
      scheduleRender();
    }

    return { assign, setScroll, keep, onScroll, scrolled };
  }

  return { create };
})();
