"use strict";
/*
 * Following a function and reading by keyboard: Shift+J / Shift+K step to the passes that change the
 * picked function (those marked ● in the list), and the keys that scroll the code panes.
 */
const IRTraceFollowing = (() => {
  const SCROLLS = ["pageDown", "pageUp", "top", "bottom", "lineDown", "lineUp", "left", "right"];
  const ACTIONS = ["nextForFunction", "previousForFunction", ...SCROLLS];  // the names keys.js binds
  const LINE = 20;     // px, one row of code
  const SIDEWAYS = 80; // px, about ten characters

  function create(app) {
    const { el, passes, state } = app;
    const doc = el.diff.ownerDocument;

    /** The next (delta 1) or previous (-1) pass that changes the picked function; a status when none. */
    function step(delta) {
      const key = state.wantedKey;
      if (key === null) {
        app.announce("Pick a function first: Shift+J / Shift+K step through the passes that change it.");
        return;
      }
      let p = state.selected + delta;
      while (p >= 0 && p < passes.length && !app.diffOf(p).byRegion.has(key)) p += delta;
      if (p < 0 || p >= passes.length) {
        app.announce(`No ${delta > 0 ? "later" : "earlier"} pass changes ${key}.`);
        return;
      }
      if (!app.passList.isVisible(p)) app.passList.showAll();
      app.select(p);
    }

    /** The code pane the keys scroll: the focused one, else the first one shown (panes scroll in sync). */
    function pane() {
      const scrollers = [...el.diff.querySelectorAll(".scroller")].filter(node => node.getClientRects().length);
      return scrollers.find(node => node.contains(doc.activeElement)) || scrollers[0] || null;
    }

    function scroll(how) {
      const target = pane();
      if (!target) return false;
      const page = Math.max(LINE, target.clientHeight - 2 * LINE);
      const moves = {
        pageDown: [page, 0], pageUp: [-page, 0], lineDown: [LINE, 0], lineUp: [-LINE, 0],
        left: [0, -SIDEWAYS], right: [0, SIDEWAYS],
      };
      if (how === "top") target.scrollTop = 0;
      else if (how === "bottom") target.scrollTop = target.scrollHeight;
      else target.scrollBy(moves[how][1], moves[how][0]);
      app.panes.scrolled(target);
      return true;
    }

    const actions = { nextForFunction: () => step(1), previousForFunction: () => step(-1) };
    for (const how of SCROLLS) actions[how] = () => scroll(how);
    return { step, actions };
  }

  return { create, ACTIONS };
})();
