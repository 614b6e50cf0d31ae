"use strict";
/*
 * Search across every snapshot: matching-line counts per pass in the list, a summary, Enter /
 * Shift+Enter to the passes that change the count, matches marked in the panes.
 */
const IRTraceSearch = (() => {
  function create(app) {
    const { el, report, pipeline, passes } = app;
    const found = { ranges: null, hits: null };  // ranges(line) -> [[start, end]] and hits per text, while a search is active
    let timer = 0;

    function run() {
      clearTimeout(timer);
      const { ranges, error } = IRTraceRows.makeSearch(el.search.value);
      found.ranges = ranges;
      found.hits = ranges ? IRTraceRows.searchHits(report.lines, pipeline.texts.length, pipeline.ids, ranges) : null;
      el.search.setAttribute("aria-invalid", String(Boolean(error)));
      app.passList.showHits(found.hits);
      el.searchSummary.hidden = !ranges && !error;
      el.searchSummary.textContent = error ? `Not a regular expression: ${error}` : ranges ? summary() : "";
      app.panes.repaint();
    }

    function summary() {
      const hits = found.hits;
      const snapshots = [pipeline.input.text, ...passes.map(pass => pass.after)];
      const matching = snapshots.filter(t => hits[t] > 0).length;
      if (!matching) return "No line matches in any snapshot.";
      const first = hits[pipeline.input.text] > 0 ? null : passes.find(pass => hits[pass.after] > 0 && !hits[pass.before]);
      const where = first ? `${first.label} ${first.name}` : pipeline.input.file;
      const last = hits[snapshots[snapshots.length - 1]];
      return `Lines match in ${matching} of ${snapshots.length} snapshots; first in ${where}; ${last} in the last.`;
    }

    /** The next (delta 1) / previous (-1) visible pass that changes the count of matching lines. */
    function jumpToChange(delta) {
      run();
      if (!found.hits) return;
      const moved = app.passList.visible().filter(p => found.hits[passes[p].before] !== found.hits[passes[p].after]);
      if (!moved.length) { app.announce("No visible pass changes the number of matching lines"); return; }
      const from = app.state.selected;
      const target = delta > 0 ? (moved.find(p => p > from) ?? moved[0]) : (moved.slice().reverse().find(p => p < from) ?? moved[moved.length - 1]);
      app.select(target);
      app.panes.reveal(app.panes.firstRowWhere(line => found.ranges(line).length > 0));
    }

    function clear() {
      el.search.value = "";
      run();
    }

    function focus() {
      el.search.focus();
      el.search.select();
    }

    el.search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(run, 150); });
    return {
      get ranges() { return found.ranges; },
      run, jumpToChange, clear, focus,
    };
  }

  return { create };
})();
