"use strict";
/*
 * Search across every snapshot: matching-line counts per pass in the list, a summary, Enter /
 * Shift+Enter to the passes that change the count, matches marked in the panes. The matching runs in
 * a worker (searchworker.js) under a time budget: a pattern that takes longer is stopped and the
 * summary says so; the page never waits for a pattern. `op:NAME` asks instead which passes change the count of
 * an op (opsearch.js).
 */
const IRTraceSearch = (() => {
  // Marks painted on one line at most: a dense constant of 5 MB matches a common character 300,000 times,
  // and painting them all froze the page for a minute. The rest are counted beside the line.
  const MARKED_PER_LINE = 500;
  const BUDGET_MS = 3000;     // a search over every distinct line of the report, in the worker
  const DEBOUNCE_MS = 150;
  const BUSY_NOTE_MS = 500;   // "Searching…" only for searches one can notice

  // eslint-disable-next-line max-lines-per-function -- a module's closure: short functions share the search under way, its worker and the result shown
  function create(app) {
    const { el, report, pipeline } = app;
    const win = el.search.ownerDocument.defaultView;
    let found = null;   // the shown result: {hit, empty, offsets, marks, hits per text}
    let asked = null;   // or the op asked about (op:NAME): {name, moves: per pass its [[op, delta]]}
    let shownQuery = "";  // the query whose outcome (result, error, stop) is on screen
    let job = null;     // the search under way: {id, query, promise, resolve, timers}
    let worker = null;  // started on the first search, replaced when a search is stopped
    let nextId = 0;
    let timer = 0;

    function workerFor() {
      if (!worker) {
        worker = IRTraceSearchWorker.start(win);
        worker.addEventListener("message", ({ data }) => { if (job && data.id === job.id) finish(data); });
        worker.addEventListener("error", event => { event.preventDefault(); if (job) fail(`The search failed: ${event.message}`); });
        worker.postMessage({ lines: report.lines });
      }
      return worker;
    }

    function stopWorker() {
      if (worker) worker.terminate();
      worker = null;
    }

    /** Search for the box's text; resolves when its result (or its error) is shown. */
    function run() {
      clearTimeout(timer);
      const query = el.search.value;
      if (job && job.query === query) return job.promise;
      if (!job && shownQuery === query) return Promise.resolve();
      if (job) { settle(); stopWorker(); }  // superseded: a busy worker may be stuck in the old pattern
      const op = IRTraceOpSearch.parse(query);
      if (op !== null) return showOps(query, op);
      const parsed = IRTraceSearchWorker.parse(query);
      if (parsed.kind !== "regex" && parsed.kind !== "text") {
        show(query, null, parsed.kind === "error" ? `Not a regular expression: ${parsed.error}` : "");
        return Promise.resolve();
      }
      let resolve;
      const promise = new Promise(r => { resolve = r; });
      job = { id: ++nextId, query, promise, resolve };
      job.budget = setTimeout(() => fail(
        `This pattern took longer than ${BUDGET_MS / 1000} s on the ${report.lines.length.toLocaleString("en")} ` +
        "distinct lines of this report and was stopped."), BUDGET_MS);
      job.busy = setTimeout(() => { el.searchSummary.hidden = false; el.searchSummary.textContent = "Searching\u2026"; }, BUSY_NOTE_MS);
      try {
        workerFor().postMessage({ id: job.id, parsed });
      } catch (err) {  // a browser or an embedding that refuses workers
        fail(`The search could not start: ${err.message}`);
      }
      return promise;
    }

    function finish(data) {
      const query = job.query;
      settle();
      show(query, { ...data, hits: hitsPerText(pipeline, data.hit) }, "");
    }

    function fail(message) {
      const query = job.query;
      settle();
      stopWorker();
      show(query, null, message);
    }

    /** The job is over: its timers off, its promise resolved. */
    function settle() {
      clearTimeout(job.budget);
      clearTimeout(job.busy);
      job.resolve();
      job = null;
    }

    function show(query, result, message) {
      shownQuery = query;
      found = result;
      asked = null;
      app.passList.showOps(null);
      el.search.setAttribute("aria-invalid", String(message.startsWith("Not a regular expression")));
      app.passList.showHits(found ? found.hits : null);
      el.searchSummary.hidden = !found && !message;
      el.searchSummary.textContent = message || (found ? summary(app, found.hits) : "");
      app.repaint();
      // the view's only matches folded away: its first is brought on screen, its fold opened
      if (found) app.panes.reveal(app.panes.firstRowWhere(id => found.hit[id] === 1, true));
    }

    /**
     * A line's marks while a search is shown: {ranges: [[start, end]], empty: first empty match or -1, unmarked:
     * matches past the first MARKED_PER_LINE, left unmarked}, else null.
     */
    function marks(id) {
      if (!found || !found.hit[id]) return null;
      const ranges = [];
      const start = found.offsets[id], end = Math.min(found.offsets[id + 1], start + 2 * MARKED_PER_LINE);
      for (let k = start; k < end; k += 2) ranges.push([found.marks[k], found.marks[k + 1]]);
      return { ranges, empty: found.empty[id], unmarked: (found.offsets[id + 1] - end) / 2 };
    }

    /** `op:NAME` (opsearch.js): the passes that change the count of the ops named NAME, marked with their deltas. */
    function showOps(query, name) {
      shownQuery = query;
      found = null;
      asked = { name, moves: IRTraceOpSearch.moves(app.passes.length, app.diffOf, name) };
      el.search.setAttribute("aria-invalid", "false");
      app.passList.showHits(null);
      app.passList.showOps(name ? asked.moves : null);
      el.searchSummary.hidden = false;
      el.searchSummary.textContent = IRTraceOpSearch.summary(name, asked.moves, app.passes);
      app.repaint();  // no line is marked
      return Promise.resolve();
    }

    /** The next (delta 1) / previous (-1) visible pass that changes the count of matching lines (or of the op asked). */
    async function jumpToChange(delta) {
      await run();
      if (asked) return jumpTo(delta, asked.name ? app.passList.visible().filter(p => asked.moves[p].length) : [], `No visible pass changes the count of ${asked.name || "an op"}`);
      if (!found) return;
      const hits = found.hits;
      const moved = app.passList.visible().filter(p => hits[app.diffOf(p).before] !== hits[app.diffOf(p).after]);
      jumpTo(delta, moved, "No visible pass changes the number of matching lines");
      if (moved.length) app.panes.reveal(app.panes.firstRowWhere(id => found.hit[id] === 1));
    }

    /** The next (delta 1) / previous (-1) pass of `moved` from the one shown, round the ends; `none` said when empty. */
    function jumpTo(delta, moved, none) {
      if (!moved.length) { app.announce(none); return; }
      const from = app.state.selected;
      const target = delta > 0 ? (moved.find(p => p > from) ?? moved[0]) : (moved.slice().reverse().find(p => p < from) ?? moved[moved.length - 1]);
      app.select(target);
    }

    /** The counts in the pass list and the summary again: the passes now show other snapshots (another view). */
    function relist() {
      if (asked) return showOps(shownQuery, asked.name);
      app.passList.showHits(found ? found.hits : null);
      if (found) el.searchSummary.textContent = summary(app, found.hits);
      return undefined;
    }

    function clear() {
      el.search.value = "";
      run();
    }

    function focus() {
      el.search.focus();
      el.search.select();
    }

    el.search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(run, DEBOUNCE_MS); });
    /** Whether a search result is shown (marks in the panes). */
    const shown = () => found !== null;

    return { marks, shown, run, jumpToChange, clear, focus, relist };
  }

  /** How many lines of each text match: each distinct line was tested once. */
  function hitsPerText(pipeline, hit) {
    return pipeline.texts.map((_, t) => {
      let total = 0;
      for (const id of pipeline.ids(t)) total += hit[id];
      return total;
    });
  }

  /** What the search found across the snapshots of a view (app.diffOf: what each pass is diffed against). */
  function summary({ pipeline, passes, diffOf }, hits) {
    const snapshots = [pipeline.input.text, ...passes.map(pass => pass.after)];
    const matching = snapshots.filter(t => hits[t] > 0).length;
    if (!matching) return "No line matches in any snapshot.";
    const first = hits[pipeline.input.text] > 0 ? null
      : passes.find((pass, p) => hits[pass.after] > 0 && !hits[diffOf(p).before]);
    const where = first ? `${first.label} ${first.name}` : pipeline.input.file;
    const last = hits[snapshots[snapshots.length - 1]];
    return `Lines match in ${matching} of ${snapshots.length} snapshots; first in ${where}; ${last} in the last.`;
  }

  return { create };
})();
