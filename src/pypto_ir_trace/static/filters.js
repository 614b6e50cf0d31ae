"use strict";
/*
 * The filter switches ("Hide debug info", "Hide attributes and metadata"): one checkbox per filter the pipeline
 * offers (pipeline.filters: only those that would change a line; in a report of two runs, those either run offers),
 * `hide=debug.metadata` in links. Turning one on filters the report (filtered.js; two runs: filteredruns.js, which
 * decides every row again) in slices between frames, the status counting the passes done, then builds the viewer
 * again on the filtered report (app.rebuild) at the pass and function shown; a filtered report is kept, so turning
 * a switch back is immediate.
 */
const IRTraceFilters = (() => {
  const SLICE_MS = 40;  // work per slice: the page answers between slices (a long task is 50 ms)
  const SAY_MS = 500;  // the status says how far the work is at most this often: each word laid out a 10,000-pass page again
  const made = new WeakMap();  // unfiltered report -> Map("pipeline:names" -> the report seen through them)

  function create(app) {
    const { el, state, report, index } = app;
    const raw = report.unfiltered || report;
    const offered = raw.runs ? IRTraceFilteredRuns.offered(raw.runs) : raw.pipelines[index].filters;
    const applied = report.hidden || [];  // what this viewer's report hides
    state.hide = applied.slice();
    let job = null;  // {names, cancelled} of the filtering under way
    const boxes = switches(app, offered, applied, (names, focus) => apply(names, focus));

    /** Show the report through the filters named (those offered, in their order); `focus`: the switch to keep focused. */
    function apply(wanted, focus = null) {
      if (!el.filters.isConnected) return;  // a viewer no longer shown (a carried choice applied late)
      const names = offered.map(f => f.name).filter(name => wanted.includes(name));
      const stopped = job !== null;
      if (job) job.cancelled = true;
      job = null;
      el.filters.removeAttribute("aria-busy");
      boxes.forEach(box => { box.checked = names.includes(box.dataset.filter); });
      if (names.join(".") === applied.join(".")) {
        if (stopped) app.announce("Filtering stopped: the report is shown as before.");
        return;
      }
      if (!names.length) return rebuild(raw, focus);
      const key = `${index}:${names.join(".")}`;
      if (!made.has(raw)) made.set(raw, new Map());
      if (made.get(raw).has(key)) return rebuild(made.get(raw).get(key), focus);
      run(names, key, focus);
    }

    function run(names, key, focus) {
      const work = raw.runs ? IRTraceFilteredRuns.start(raw, names) : IRTraceFiltered.start(raw, index, names);
      const mine = job = { names, cancelled: false };
      const win = el.diff.ownerDocument.defaultView;
      const words = offered.filter(f => names.includes(f.name)).map(f => f.label).join(", ");
      el.filters.setAttribute("aria-busy", "true");
      let said = -Infinity;
      const slice = () => {
        if (mine.cancelled) return;
        const now = performance.now(), until = now + SLICE_MS;
        let finished = false;
        while (!finished && performance.now() < until) finished = work.step();
        if (!finished) {
          if (now - said >= SAY_MS) {
            said = now;
            app.announce(`${words}: ${work.done().toLocaleString("en")} of ${work.total.toLocaleString("en")} passes filtered\u2026`);
          }
          win.setTimeout(slice, 0);
          return;
        }
        el.filters.removeAttribute("aria-busy");
        const shown = work.result();
        made.get(raw).set(key, shown);
        rebuild(shown, focus);
      };
      win.setTimeout(slice, 0);  // never within the caller: it may be this viewer being built
    }

    /** The viewer again, on `next`, at the pass, function, base, layout and panels shown now. */
    function rebuild(next, focus) {
      const link = IRTraceState.fragment({ ...state, hide: next.hidden || [] }, app.passes);
      const view = app.rebuild({ report: next, hide: next.hidden || [] });
      if (!link || !view.followLink("#" + link)) view.selectFirst();
      view.writeLink();
      if (focus !== null) {
        const box = view.el.filters.querySelector(`input[data-filter="${focus}"]`);
        if (box) box.focus();
      }
      const words = offered.filter(f => (next.hidden || []).includes(f.name)).map(f => f.label.replace(/^Hide /, ""));
      const said = view.source().header().summary.replace(/\.$/, "");  // two runs' may end a sentence
      const summary = said.charAt(0).toUpperCase() + said.slice(1);  // two runs' may start lower case
      view.announce(words.length ? `Hidden: ${words.join(", ")}. ${summary}.` : `Nothing hidden. ${summary}.`);
    }

    return {
      /** A link's filters (hide=...), or a carried choice: applied when they differ from the report's. */
      follow: names => apply((names || []).filter(name => offered.some(f => f.name === name))),
      /** The filters chosen: what the next pipeline's viewer applies too. */
      chosen: () => (job ? job.names : applied).slice(),
    };
  }

  /** A checkbox per filter offered, in el.filters (hidden with none); changed(names checked, the one changed). */
  function switches(app, offered, applied, changed) {
    const boxes = offered.map(filter => {
      const label = app.make("label", "filter-toggle");
      const box = app.make("input");
      box.type = "checkbox";
      box.dataset.filter = filter.name;
      box.checked = applied.includes(filter.name);
      label.title = filter.title;
      label.append(box, ` ${filter.label}`);
      box.addEventListener("change", () => changed(boxes.filter(b => b.checked).map(b => b.dataset.filter), filter.name));
      app.el.filters.append(label);
      return box;
    });
    app.el.filters.hidden = boxes.length === 0;
    return boxes;
  }

  return { create };
})();
