"use strict";
/*
 * Two runs of one program (reports built with --baseline; this file is inlined into those only). The
 * viewer walks the report's aligned rows as if they were passes: model.js reads them as one more pipeline
 * (report.runs.pipeline), whose texts are this run's then the baseline's (offset), so every module
 * (pass list, filters, j/k, function selector, search, compare, links) works on rows unchanged; viewer.js
 * shows that pipeline alone and creates this module on its view.
 *
 * Two views of the selected row, switched by the buttons "Across runs" and "Pass effect":
 *   across  Before: the baseline's snapshot after the row; After: this run's. Diffed here by
 *           IRTraceCompare.compareIds (the one diff specification); identical snapshots are a "no-op" row,
 *           so the Changed / No-op filters read "the runs differ" / "identical".
 *   effect  the row's pass diffed against its own before snapshot in each run: the baseline's above
 *           (a second set of panes, regions "Baseline pass input" / "Baseline pass output": names that
 *           contain neither "Before" nor "After", so those two still name one region each), this run's below.
 * The fragment gains view=effect; the row is the `pass` the viewer already writes (this run's label,
 * or "b" + the baseline's label for a pass only the baseline runs).
 * Ignore renumbering (two MLIR runs): each diff uses its own renamed pairs, all found at build time: a row's
 * (model.py's runs rows) in Across runs, each run's pass's in Pass effect.
 */
const IRTraceRuns = (() => {
  // `changed` is not among them: in both views it says whether the runs differ after the row (the filters).
  const VIEW_FIELDS = ["before", "after", "ins", "del", "pieces", "inserted", "regions", "anchors", "warnings", "file", "renamed"];

  /**
   * The two views on `app`, the view of the rows that the viewer has just opened; runs: report.runs (model.js);
   * hash: the fragment the page was opened with (the viewer rewrites it as it goes).
   */
  function create(root, app, runs, hash) {
    const { rows, ours, theirs, offset } = runs;
    const doc = root.ownerDocument || root;
    const win = doc.defaultView;
    const $ = id => root.querySelector("#" + id);
    const viewOf = fragment => (new URLSearchParams(fragment.replace(/^#/, "")).get("view") === "effect" ? "effect" : "across");
    const { el, state, passes } = app;
    const ui = {
      across: $("runs-across"), effect: $("runs-effect"), baseline: $("runs-baseline"),
      baselineTitle: $("runs-baseline-title"), baselineCounts: $("runs-baseline-counts"),
      baselineDiff: $("diff-baseline"), baselineUnifiedFile: $("baseline-unified-file"), thisTitle: $("runs-this-title"), thisText: $("runs-this-text"), thisCounts: $("runs-this-counts"),
      main: el.diff.parentElement,
    };
    let view = "across";

    // ---- each row in both views ---------------------------------------------------------------------
    const acrossOf = passes.map(pass => Object.fromEntries(VIEW_FIELDS.map(field => [field, pass[field]])));
    const effectOf = rows.map(({ row, at, files }) => {
      if (row.this === null) {  // only the baseline runs this pass: this run stays where it was
        return { before: at[0], after: at[0], ins: 0, del: 0, pieces: null, inserted: [], regions: new Map(),
          anchors: [], warnings: "", file: files[0], renamed: [] };
      }
      const own = ours.passes[row.this];
      return Object.fromEntries(VIEW_FIELDS.map(field => [field, own[field]]));
    });
    passes.forEach((pass, p) => {
      for (const field of VIEW_FIELDS) {
        Object.defineProperty(pass, field, {
          get: () => (view === "effect" ? effectOf[p] : acrossOf[p])[field], enumerable: true, configurable: true,
        });
      }
    });
    const baselinePass = rows.map(({ row }) => {
      if (row.baseline === null) return null;
      const own = theirs.passes[row.baseline];
      return Object.assign({}, own, { before: offset + own.before, after: offset + own.after });
    });
    const previousFile = (pipeline, p) => (p === 0 ? pipeline.input.file : pipeline.passes[p - 1].file);

    // ---- Ignore renumbering: each diff with its own renamed pairs, once per row and diff ---------------
    const ignored = { across: new Map(), effect: new Map(), baseline: new Map() };
    const sourceOf = {
      across: p => Object.assign({}, passes[p], acrossOf[p]),
      effect: p => Object.assign({}, passes[p], effectOf[p]),
      baseline: p => baselinePass[p],
    };
    function ignoring(which, p) {
      if (!ignored[which].has(p)) ignored[which].set(p, IRTraceRenumber.ignoring(sourceOf[which](p)));
      return ignored[which].get(p);
    }
    const ignoringNow = () => state.ignoreRenumbering && state.base === null;
    /** Row p's diff in a view ("across" or "effect") as its counts are told, whatever the compare base. */
    const seen = (which, p) => (ignoringNow() ? ignoring(which, p) : (which === "effect" ? effectOf : acrossOf)[p]);
    app.ignoring = p => ignoring(view, p);  // the viewer's panes, counts and notes: the diff of the view shown
    app.passList.showCounts = () => markRows();  // the list says how the runs compare, whatever the view

    // ---- the baseline's panes (Pass effect) ------------------------------------------------------------
    // The baseline's layout follows the page's once its panes are switched (baselineLayout): until then its
    // relayout still reads the layout it shows, to keep its place.
    let baselineShown = state.layout;
    const baselineState = new Proxy(state, {
      get(target, name) {
        if (name === "layout") return baselineShown;
        if (name !== "key") return target[name];
        const shown = baselinePass[target.selected];
        const texts = app.pipeline.texts;
        if (target.key === null || !shown) return null;
        const has = t => texts[t].byKey.has(target.key);
        return (shown.pieces ? has(shown.before) || has(shown.after) : has(shown.before)) ? target.key : null;
      },
    });
    // Its own Expand all / Collapse all, never shown: the page's buttons press them too (below).
    const folds = { expand: app.make("button"), collapse: app.make("button") };
    const baselineEl = Object.assign({}, el, folds, {
      diff: ui.baselineDiff, panes: ["before", "after", "unified"].map(side => $("scroll-baseline-" + side)),
      copyBefore: $("copy-baseline-before"), copyAfter: $("copy-baseline-after"),
      beforeFile: $("baseline-before-file"), afterFile: $("baseline-after-file"), unifiedFile: ui.baselineUnifiedFile,
    });
    const baselineApp = Object.assign({}, app, {
      el: baselineEl, state: baselineState,
      shown: p => (ignoringNow() && baselinePass[p] ? ignoring("baseline", p) : baselinePass[p]),
      beforeFile: p => previousFile(theirs, rows[p].row.baseline),
    });
    const baselinePanes = IRTracePanes.create(baselineApp);
    baselineApp.panes = baselinePanes;
    IRTracePrint.create(baselineApp);  // printed above this run's diff, while it shows (Pass effect)

    // ---- what the viewer shows, adjusted to the rows -------------------------------------------------
    const viewerBeforeFile = app.beforeFile;
    app.beforeFile = p => {
      if (state.base !== null) return viewerBeforeFile(p);
      if (view === "effect") return rows[p].row.this === null ? rows[p].files[0] : previousFile(ours, rows[p].row.this);
      return rows[p].row.identical ? rows[p].files[0] : "baseline: " + rows[p].files[1];
    };
    /** The lines a pass deleted and inserted, as line ids in order: equal in two runs when it made the same change. */
    function changeOf(pass) {
      const before = app.pipeline.ids(pass.before), deleted = [];
      for (const piece of pass.pieces || []) for (const { b, eq, del } of piece.runs) for (let i = 0; i < del; i++) deleted.push(before[b + eq + i]);
      return deleted.join(",") + "|" + Array.from(pass.inserted).join(",");
    }
    const sameEffect = (a, b) => changeOf(a) === changeOf(b);
    const rowName = p => `${passes[p].label} ${passes[p].name}`;
    const oneSide = row => (row.input ? "" : row.baseline === null ? "this run only" : row.this === null ? "baseline only" : "");
    const TAGS = { "this run only": "added", "baseline only": "removed" };

    function summary() {
      const differing = rows.filter(({ row }) => !row.identical && !row.input).length;
      const passRows = rows.length - (runs.input.identical ? 0 : 1);
      if (!differing && runs.input.identical) return "The two runs print identical IR after every pass.";
      const parts = [];
      if (!runs.input.identical) parts.push(`the runs differ already in their input (${ours.input.file})`);
      else parts.push(`the runs diverge first after ${rowName(runs.first)}`);
      if (runs.reconverged.length) parts.push("identical again after " + runs.reconverged.map(rowName).join(", "));
      parts.push(`${differing} of ${passRows} passes differ`);
      return parts.join(" \u00b7 ");
    }

    function note(p) {
      const { row, files } = rows[p];
      if (row.input) {
        return view === "effect" ? "No pass ran: the two runs' inputs differ (Across runs shows how)."
          : "The two runs' inputs differ: Across runs shows the baseline's input (Before) against this run's (After).";
      }
      const side = oneSide(row);
      const name = passes[p].name;
      const only = side === "this run only" ? `${name} runs in this run only: the baseline is still at ${files[1]}. `
        : side ? `${name} runs in the baseline only: this run is still at ${files[0]}. ` : "";
      const same = row.identical ? "After it both runs print identical IR. " : "After it the runs differ. ";
      if (view === "effect") {
        const effect = row.this === null || row.baseline === null ? ""
          : effectOf[p].before === effectOf[p].after && !baselinePass[p].changed ? `${name} changed nothing in either run. `
          : sameEffect(effectOf[p], baselinePass[p]) ? `${name} made the same change in both runs. ` : `${name} did something different in the two runs. `;
        return `${only}${same}${effect}Pass effect: the baseline's diff above, this run's below.`;
      }
      if (row.identical) return `${only}${same}`.trim();
      const across = seen("across", p);
      if (!across.ins && !across.del && across.renamedCount) return `${only}Only value names differ between the runs (Ignore renumbering is on).`;
      return `${only}Across runs: the baseline's snapshot after this pass (Before) against this run's (After).`;
    }

    // The viewer's notes about a pass against its predecessor: the runs' note says it for the row.
    const viewerNotes = /^(No-op: this pass|The pipeline changed nothing|Only the line endings)/;
    const passNames = /^Only value names changed in this pass/;  // true of this run's pass (Pass effect), not of a row
    /** After the viewer showed row p: the runs' header, notes, counts and the baseline's panes. */
    function decorate(p) {
      if (p < 0) { ui.baseline.hidden = true; ui.thisTitle.hidden = true; return; }
      const { row } = rows[p];
      const compared = state.base !== null;
      if (!compared) {
        if (view === "across") el.counts.textContent = row.identical ? "identical in both runs" : `${IRTraceRenumber.counts(seen("across", p))} between the runs`;
        else if (row.input) el.counts.textContent = "the inputs: no pass";
        else el.counts.textContent = `this run ${countsOf(seen("effect", p), row.this !== null)} \u00b7 baseline ${countsOf(baselineApp.shown(p), row.baseline !== null)}`;
        if (view === "across" && !row.identical) el.afterFile.textContent = el.afterFile.title = "this run: " + rows[p].files[0];
      }
      for (const node of [...el.notes.children]) {
        if (viewerNotes.test(node.textContent) || (view === "across" && passNames.test(node.textContent))) node.remove();
      }
      if (!compared) el.notes.prepend(app.make("p", "note info runs-note", note(p)));
      const effect = view === "effect";
      ui.main.classList.toggle("runs-effect", effect);
      ui.baseline.hidden = !effect;
      ui.thisTitle.hidden = !effect;
      if (!effect) return;
      const absent = where => (row.input ? "(the input: no pass ran)" : `(no ${passes[p].name} in ${where})`);
      ui.thisText.textContent = row.this !== null ? `${rowName(p)}` : absent("this run: nothing changes");
      const shown = baselinePass[p];
      ui.baselineTitle.textContent = shown ? `${shown.label} ${shown.name}` : absent("the baseline");
      ui.baselineCounts.textContent = shown ? countsOf(baselineApp.shown(p), true) : "";
      ui.thisCounts.textContent = row.input ? "" : countsOf(seen("effect", p), row.this !== null);
      ui.baseline.classList.toggle("absent", !shown);
      ui.baselineDiff.hidden = !shown;
      baselineLayout();
      if (shown) {
        baselinePanes.show(true);
        // The page's Expand all / Collapse all press the baseline's too: usable when either diff has folds.
        el.expand.disabled = el.collapse.disabled = el.expand.disabled && folds.expand.disabled;
        baselineEl.beforeFile.textContent = baselineEl.beforeFile.title = baselineApp.beforeFile(p);
        baselineEl.afterFile.textContent = baselineEl.afterFile.title = shown.file;
        ui.baselineUnifiedFile.textContent = ui.baselineUnifiedFile.title = `${baselineApp.beforeFile(p)} \u2192 ${shown.file}`;
      } else {
        baselinePanes.clear();
      }
    }
    /** The baseline's diff in the page's layout: its Before and After panes, or its one Diff pane (Unified). */
    function baselineLayout() {
      ui.baselineDiff.className = el.diff.className;
      baselineShown = state.layout;
      const unified = state.layout === "unified";
      baselineEl.panes.forEach((scroller, i) => { scroller.parentElement.hidden = unified !== (i === 2); });
    }
    const countsOf = (pass, runsHere) => (!runsHere ? "absent" : pass.before !== pass.after ? IRTraceRenumber.counts(pass) : "no-op");

    /** The pass list: each row's runs status (identical, or the size of the difference), one-side rows tagged. */
    function markRows() {
      el.list.querySelectorAll("button.pass").forEach((button, p) => {
        const { row } = rows[p];
        const meta = button.querySelector(".pass-meta");
        const side = oneSide(row);
        const parts = [];
        if (side) {
          const tag = app.make("span", "runs-side-tag", TAGS[side]);
          tag.title = `This pass runs in ${side === "this run only" ? "this run" : "the baseline"} only`;
          parts.push(tag, " ");
        }
        if (row.identical) {
          const same = app.make("span", "runs-same", "=");
          same.title = "The two runs print identical IR after this pass";
          same.setAttribute("aria-label", "identical");
          parts.push(same);
        } else {
          const shown = seen("across", p);  // its counts follow Ignore renumbering, as a pass's do
          const del = app.make("span", "count del", "\u2212" + shown.del);
          if (shown.renamedCount) del.title = `${shown.renamedCount} renamed lines not counted`;
          parts.push(app.make("span", "count ins", "+" + shown.ins), " ", del);
          button.classList.toggle("has-renamed", Boolean(shown.renamedCount));
        }
        const badge = meta.querySelector(".badge");
        const hits = meta.querySelector(".hits");
        meta.replaceChildren(...(hits ? [hits, " "] : []), ...parts, ...(badge ? [" ", badge] : []));
        button.classList.toggle("runs-differ", !row.identical);
        button.classList.toggle("runs-first", p === runs.first);
        button.classList.toggle("runs-reconverged", runs.reconverged.includes(p));
        if (p === runs.first) button.title = "The runs diverge first after this pass";
        if (runs.reconverged.includes(p)) button.title = "The runs are identical again after this pass";
      });
    }

    // ---- the view, links, wiring ---------------------------------------------------------------------
    function writeLink() {
      state.extra = view === "effect" ? { view: "effect" } : {};  // the viewer's own (delayed) writes keep it too
      IRTraceState.write(state, passes);
    }

    function setView(next) {
      view = next;
      ui.across.setAttribute("aria-pressed", String(view === "across"));
      ui.effect.setAttribute("aria-pressed", String(view === "effect"));
      app.passList.markHistory(state.wantedKey);  // the passes that change the picked function, in this view
      markRows();
      app.search.relist();  // the counts' \u25b2 / \u25bc compare the snapshots of this view
      app.passList.applyFilters();
      if (state.selected >= 0) app.select(state.selected, true);
    }

    const viewerSelect = app.select;
    app.select = (p, picked) => {  // the pass list and j / k select through app
      viewerSelect(p, picked);
      decorate(p);
      writeLink();
    };
    const refresh = () => { decorate(state.selected); writeLink(); };
    el.expand.addEventListener("click", () => folds.expand.click());
    el.collapse.addEventListener("click", () => folds.collapse.click());
    ui.across.addEventListener("click", () => setView("across"));
    ui.effect.addEventListener("click", () => setView("effect"));
    // The viewer handled these first (its listeners were added before these): adjust what it showed.
    el.select.addEventListener("change", refresh);
    el.base.addEventListener("change", refresh);
    el.renumber.addEventListener("change", refresh);  // the list's counts follow through passList.showCounts
    [el.split, el.stacked, el.unified].forEach(button => button.addEventListener("click", () => {
      baselinePanes.relayout(baselineLayout);
      writeLink();
    }));
    el.wrap.addEventListener("change", () => baselinePanes.relayout(baselineLayout));  // the class "wrap" too
    const stepChange = app.panes.stepChange;  // n / p: this run's changes, or the baseline's where only it changes
    app.panes.stepChange = delta => {
      const p = state.selected, theirs = p >= 0 ? baselinePass[p] : null;
      const onlyTheirs = view === "effect" && state.base === null && theirs && theirs.changed && !app.shown(p).pieces;
      if (onlyTheirs) baselinePanes.stepChange(delta);
      else stepChange(delta);
    };
    const repaint = app.panes.repaint;  // search marks (and whatever else repaints) reach both diffs
    app.panes.repaint = () => { repaint(); baselinePanes.repaint(); };
    win.addEventListener("hashchange", event => setView(viewOf(new URL(event.newURL).hash)));

    el.summary.textContent = summary();
    const title = root.querySelector(".dump-title");
    if (title) {
      title.textContent = `${ours.title} against the baseline ${theirs.title}`;
      title.title = `this run: ${ours.title}\nbaseline: ${theirs.title}`;
    }
    setView(viewOf(hash));
    if (state.selected < 0 && passes.length) app.select(0);
    // The row opened on (the first divergence) mid-list, not at its bottom edge: the rows after it show too.
    const opened = el.list.querySelector("button[aria-current='true']");
    if (opened) opened.scrollIntoView({ block: "center" });
  }

  return { create };
})();
