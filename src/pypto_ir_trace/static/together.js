"use strict";
/*
 * n / p through several diffs at once. A view that shows more than one diff (Pass effect: the baseline's pass
 * above this run's) says which of their changes belong together (its source's `steps`, views.js); each step
 * then brings every diff's change on screen together, and a pass opens on its first step that differs. Views
 * without `steps` leave n / p to each diff's panes (app.js).
 */
const IRTraceTogether = (() => {
  function create(app) {
    let shown = null;  // {steps: [{hunks: [a change per active pane, -1: none], said, differs}], panes, at}

    /** After pass p is shown (-1: none): the view's steps, each diff at the first step that differs. */
    function open(p) {
      shown = null;
      const source = app.source();
      const given = p >= 0 && source.steps && app.state.base === null ? source.steps(p) : null;
      if (!given) return;
      const panes = app.activePanes();
      const steps = [];
      for (const { lines, said, differs } of given) {
        const hunks = lines.map((range, i) => (range ? panes[i].changeAt(range) : -1));
        if (hunks.every(h => h < 0)) continue;  // outside the function shown, or only renamed lines
        const last = steps[steps.length - 1];
        // blocks the panes show as one change are one step, which differs if any of them does
        if (!last || hunks.some((h, i) => h !== last.hunks[i])) steps.push({ hunks, said, differs });
        else if (differs && !last.differs) Object.assign(last, { said, differs });
      }
      if (!steps.length) return;
      shown = { steps, panes, at: Math.max(steps.findIndex(step => step.differs), 0) };
      show();
    }

    function show() {
      const { steps, panes, at } = shown;
      steps[at].hunks.forEach((h, i) => panes[i].showChange(h));
    }

    /** n / p: the next (delta 1) or previous (-1) step; false when the view shown has no steps. */
    function step(delta) {
      if (!shown) return false;
      const count = shown.steps.length, next = shown.at + delta;
      if (next < 0 || next >= count) {
        app.announce(delta > 0 ? `No later change: this is change ${count} of ${count}` : `No earlier change: this is change 1 of ${count}`, "pass");
        return true;
      }
      shown.at = next;
      show();
      app.announce(`Change ${next + 1} of ${count}: ${shown.steps[next].said}`, "pass");
      return true;
    }

    return { open, step };
  }

  return { create };
})();
