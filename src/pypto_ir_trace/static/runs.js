"use strict";
/*
 * Two runs of one program (reports built with --baseline; this file is inlined into those only): the two views
 * (views.js) of the report's aligned rows. model.js reads the rows as one pipeline (report.runs.pipeline) whose
 * texts are this run's then the baseline's (offset), so the viewer walks rows as it walks passes (pass list,
 * filters, j / k, Function selector, search, Compare with, links).
 *   across  Across runs. Before: the baseline's snapshot after the row; After: this run's. Diffed by model.js
 *           (IRTraceCompare.compareIds, the one diff specification); identical snapshots are a "no-op" row,
 *           so the Changed / No-op filters read "the runs differ" / "identical".
 *   effect  Pass effect: the row's pass diffed against its own before snapshot in each run: the baseline's
 *           above (its own panes, regions "Baseline pass input" / "Baseline pass output": names that contain
 *           neither "Before" nor "After", so those two still name one region each), this run's below. Whether
 *           the pass made the same edit in both runs, and which of its hunks face which, the builder decided
 *           (effect.py, the rows' sameEffect / facing / differing): n / p step through both diffs together
 *           (steps, together.js), and a pass opens on its first hunk that differs.
 * Both say the same of the report and of each row in the pass list: how the runs compare (rowsOf), and ≠ on
 * the passes whose effect differs.
 * The fragment gains view=effect; the row is the `pass` the viewer already writes (this run's label, or
 * "b" + the baseline's label for a pass only the baseline runs).
 * Ignore renumbering (two MLIR runs): each diff uses its own renamed pairs, all found at build time: a row's
 * (model.py's runs rows) in Across runs, each run's pass's in Pass effect.
 */
(() => {
  // What Pass effect takes from this run's pass; `changed` is not among them: in both views it says whether
  // the runs differ after the row (the filters).
  const EFFECT_FIELDS = ["before", "after", "inserted", "deleted", "pieces", "insertedIds", "byRegion", "anchors", "warnings", "errorLines", "file", "renamed", "ops"];
  const TAGS = { "this-run-only": "added", "baseline-only": "removed" };  // a row's side, spelled as a program's status
  const RECONVERGED_NAMED = 3;  // passes after which the runs are identical again, named in the summary
  const shared = new WeakMap();  // app -> what both views read of its rows (rowsOf)
  const runsReport = report => Boolean(report.runs);

  IRTraceViews.register({ name: "across", button: "runs-across", applies: runsReport, create: across });
  IRTraceViews.register({ name: "effect", button: "runs-effect", applies: runsReport, create: effect });

  /** Across runs: each row is the pipeline's own pass, the baseline's snapshot against this run's. */
  function across(app) {
    const runs = rowsOf(app);
    const { rows } = runs;
    return {
      diff: p => app.passes[p],
      beforeFile: p => (rows[p].row.identical ? rows[p].files[0] : "baseline: " + rows[p].files[1]),
      afterFile: p => (rows[p].row.identical ? app.passes[p].file : "this run: " + rows[p].files[0]),
      counts: (p, shown) => (rows[p].row.identical ? "identical in both runs" : `${IRTraceRenumber.counts(shown)} between the runs`),
      notes: p => [["info", runs.acrossNote(p), "runs-note"]],
      ops: ["Ops, this run against the baseline", "How the count of each op differs between the runs after this pass (this run's count minus the baseline's)"],
      listed: runs.listed, header: runs.header, opened: runs.opened,
      says: {
        unchanged: key => `${key} is identical in both runs after this pass.`,
        history: (key, count, listed) => (count
          ? `${key} differs between the runs after ${count} pass${count === 1 ? "" : "es"} (${listed}), marked \u25cf in the list.`
          : `${key} is identical in both runs after every pass.`),
      },
      panes: [],
      show() {},
      hide() {},
    };
  }

  /** Pass effect: each row is this run's pass, and the baseline's pass is shown above it in panes of its own. */
  function effect(app) {
    const runs = rowsOf(app);
    const { rows, ours, theirs } = runs;
    const $ = id => app.el.root.querySelector("#" + id);
    const ui = {
      baseline: $("runs-baseline"), title: $("runs-baseline-title"), counts: $("runs-baseline-counts"),
      diff: $("diff-baseline"), beforeFile: $("baseline-before-file"), afterFile: $("baseline-after-file"),
      unifiedFile: $("baseline-unified-file"),
      thisTitle: $("runs-this-title"), thisText: $("runs-this-text"), thisCounts: $("runs-this-counts"),
      main: app.el.diff.parentElement,
    };
    const panes = IRTracePanes.create({
      el: { diff: ui.diff, panes: ["before", "after", "unified"].map(side => $("scroll-baseline-" + side)) },
      report: app.report, pipeline: app.pipeline, make: app.make, announce: app.announce, search: app.search,
    });
    IRTracePrint.create({ el: ui, panes, make: app.make });  // printed above this run's diff, while it shows
    const absent = (p, where) => (rows[p].row.input ? "(the input: no pass ran)" : `(no ${app.passes[p].name} in ${where})`);

    /** The baseline's pass of row p in its panes, the row's headers above both diffs. */
    function show(p) {
      ui.baseline.hidden = ui.thisTitle.hidden = p < 0;
      if (p < 0) return;
      const { row } = rows[p];
      ui.main.classList.add("runs-effect");
      ui.thisText.textContent = row.this !== null ? runs.rowName(p) : absent(p, "this run: nothing changes");
      ui.thisCounts.textContent = row.input ? "" : runs.countsOf(runs.seen("effect", p), row.this !== null);
      const pass = runs.baselineOf(p);
      ui.title.textContent = pass ? `${pass.label} ${pass.name}` : absent(p, "the baseline");
      ui.counts.textContent = pass ? runs.countsOf(runs.seen("baseline", p), true) : "";
      ui.baseline.classList.toggle("absent", !pass);
      ui.diff.hidden = !pass;
      if (!pass) return panes.clear();
      const beforeFile = runs.previousFile(theirs, row.baseline);
      panes.show({ pass: runs.seen("baseline", p), key: baselineKey(pass), beforeFile }, true);
      ui.beforeFile.textContent = ui.beforeFile.title = beforeFile;
      ui.afterFile.textContent = ui.afterFile.title = pass.file;
      ui.unifiedFile.textContent = ui.unifiedFile.title = `${beforeFile} \u2192 ${pass.file}`;
    }

    /** The function shown in this run's diff, if the baseline's pass has it (else its whole file). */
    function baselineKey(pass) {
      const key = app.state.key, texts = app.pipeline.texts;
      const has = t => texts[t].byKey.has(key);
      return key !== null && (pass.pieces ? has(pass.before) || has(pass.after) : has(pass.before)) ? key : null;
    }

    return {
      diff: runs.effectOf,
      beforeFile: p => (rows[p].row.this === null ? rows[p].files[0] : runs.previousFile(ours, rows[p].row.this)),
      afterFile: p => app.passes[p].file,
      counts: (p, shown) => (rows[p].row.input ? "the inputs: no pass"
        : `this run ${runs.countsOf(shown, rows[p].row.this !== null)} \u00b7 baseline ${runs.countsOf(runs.seen("baseline", p), rows[p].row.baseline !== null)}`),
      notes: (p, shown) => [["info", runs.effectNote(p), "runs-note"],
        ...(shown.changed && !shown.inserted && !shown.deleted && shown.renamedCount  // true of this run's pass, not of a row
          ? [["info", "Only value names changed in this pass (Ignore renumbering is on)."]] : [])],
      ops: ["Ops of this run's pass", "How this run's pass changed the count of each op"],
      listed: runs.listed, header: runs.header, opened: runs.opened,
      says: {
        unchanged: key => `This run's pass leaves ${key} unchanged.`,
        history: (key, count, listed) => (count
          ? `${key} is changed by ${count} of this run's passes (${listed}), marked \u25cf in the list.`
          : `No pass of this run changes ${key}.`),
      },
      steps: runs.steps,
      panes: [panes],
      show,
      hide() {
        ui.main.classList.remove("runs-effect");
        ui.baseline.hidden = ui.thisTitle.hidden = true;
      },
    };
  }

  function rowsOf(app) {
    if (!shared.has(app)) shared.set(app, readRows(app));
    return shared.get(app);
  }

  /** The rows of two runs as both views read them: each row's three diffs, what is said of them, the list's marks. */
  function readRows(app) {
    const { runs } = app.report;
    const { rows, ours, theirs, offset } = runs;
    const { passes, state } = app;
    const effects = new Map(), baselines = new Map();  // row -> its diff in this run / in the baseline, when asked
    const ignored = { across: new Map(), effect: new Map(), baseline: new Map() };

    /** Row p's diff in Pass effect: this run's pass (the row's own fields but for EFFECT_FIELDS). */
    function effectOf(p) {
      if (effects.has(p)) return effects.get(p);
      const { row, at, files } = rows[p];
      const own = row.this === null  // only the baseline runs this pass: this run stays where it was
        ? { before: at[0], after: at[0], inserted: 0, deleted: 0, pieces: null, insertedIds: [], byRegion: new Map(), anchors: [],
          warnings: "", errorLines: [], file: files[0], renamed: [], ops: [] }
        : ours.passes[row.this];
      const rowFields = Object.keys(passes[p]).filter(field => !EFFECT_FIELDS.includes(field));
      const diff = Object.fromEntries([...rowFields.map(field => [field, passes[p][field]]), ...EFFECT_FIELDS.map(field => [field, own[field]])]);
      effects.set(p, diff);
      return diff;
    }
    /** The baseline's pass of row p with its texts as the rows' pipeline numbers them, or null. */
    function baselineOf(p) {
      const { row } = rows[p];
      if (row.baseline === null) return null;
      if (!baselines.has(p)) {
        const own = theirs.passes[row.baseline];
        baselines.set(p, Object.assign({}, own, { before: offset + own.before, after: offset + own.after }));
      }
      return baselines.get(p);
    }
    const raw = { across: p => passes[p], effect: effectOf, baseline: baselineOf };
    /** Row p's diff in Across runs, Pass effect or the baseline, as its counts are told: whatever the compare base. */
    function seen(which, p) {
      if (!state.ignoreRenumbering || state.base !== null || !raw[which](p)) return raw[which](p);
      if (!ignored[which].has(p)) ignored[which].set(p, IRTraceRenumber.ignoring(raw[which](p)));
      return ignored[which].get(p);
    }

    const previousFile = (pipeline, p) => (p === 0 ? pipeline.input.file : pipeline.passes[p - 1].file);
    const rowName = p => `${passes[p].label} ${passes[p].name}`;
    const countsOf = (pass, runsHere) => (!runsHere ? "absent" : pass.before !== pass.after ? IRTraceRenumber.counts(pass) : "no-op");
    const said = { app, rows, runs, seen, effectOf, baselineOf, rowName };
    return {
      rows, ours, theirs, seen, effectOf, baselineOf, previousFile, rowName, countsOf, steps: p => steps(said, p),
      acrossNote: p => acrossNote(said, p), effectNote: p => effectNote(said, p),
      listed: p => listed(said, p),
      header: () => ({ summary: summary(said), title: runsTitle(app.report.title, ours.title, theirs.title) }),
      /** The row opened on (the first divergence) mid-list, not at its bottom edge: the rows after it show too. */
      opened() {
        const opened = app.el.list.querySelector("button[aria-current='true']");
        if (opened) opened.scrollIntoView({ block: "center" });
      },
    };
  }

  /** The header's [text, tooltip]: the runs by their labels, after the program's title when they are named apart from it. */
  function runsTitle(program, mine, other) {
    const runs = `${mine} against the baseline ${other}`;
    const named = program === mine || program === other;
    return [named ? runs : `${program}: ${runs}`, `${named ? "" : `${program}\n`}this run: ${mine}\nbaseline: ${other}`];
  }

  /** The pass list's mark of a pass whose effect differs (≠), read out by its name. */
  function effectMark(app) {
    const mark = app.make("span", "runs-effect-tag", "\u2260 effect");
    mark.setAttribute("role", "img");
    mark.setAttribute("aria-label", "effect differs");
    mark.title = "This pass did something different in the two runs";
    return mark;
  }

  const oneSide = row => (row.input ? "" : row.baseline === null ? "this-run-only" : row.this === null ? "baseline-only" : "");

  function summary({ rows, runs, rowName }) {
    const differing = rows.filter(({ row }) => !row.identical && !row.input).length;
    const passRows = rows.length - (runs.inputs.identical ? 0 : 1);
    if (!differing && runs.inputs.identical) return "The two runs print identical IR after every pass.";
    const parts = [];
    if (!runs.inputs.identical) parts.push(`the runs differ already in their input (${runs.ours.input.file})`);
    else parts.push(`the runs diverge first after ${rowName(runs.firstDivergent)}`);
    if (runs.reconverged.length) {  // the first few: a whole list of lz4.c's at -O3 against -O2 ran to 81 passes
      const named = runs.reconverged.slice(0, RECONVERGED_NAMED).map(rowName), more = runs.reconverged.length - named.length;
      parts.push(`identical again after ${named.join(", ")}${more ? ` and ${more} more` : ""}`);
    }
    parts.push(`differ after ${differing} of ${passRows} passes`);
    const effects = rows.filter(({ row }) => row.sameEffect === false).length;
    parts.push(`${effects} with a different effect (\u2260)`);
    return parts.join(" \u00b7 ");
  }

  /** What both views say first of row p: a pass that only one run runs. */
  function sideNote({ app, rows }, p) {
    const { row, files } = rows[p];
    const side = oneSide(row), name = app.passes[p].name;
    return side === "this-run-only" ? `${name} runs in this run only: the baseline is still at ${files[1]}. `
      : side ? `${name} runs in the baseline only: this run is still at ${files[0]}. ` : "";
  }
  const sameNote = row => (row.identical ? "After it both runs print identical IR. " : "After it the runs differ. ");

  function acrossNote(said, p) {
    const { row } = said.rows[p];
    if (row.input) return "The two runs' inputs differ: Across runs shows the baseline's input (Before) against this run's (After).";
    if (row.identical) return `${sideNote(said, p)}${sameNote(row)}`.trim();
    const diff = said.seen("across", p);
    if (!diff.inserted && !diff.deleted && diff.renamedCount) return `${sideNote(said, p)}Only value names differ between the runs (Ignore renumbering is on).`;
    return `${sideNote(said, p)}Across runs: the baseline's snapshot after this pass (Before) against this run's (After).`;
  }

  function effectNote(said, p) {
    const { row } = said.rows[p];
    if (row.input) return "No pass ran: the two runs' inputs differ (Across runs shows how).";
    const name = said.app.passes[p].name, ours = said.effectOf(p), theirs = said.baselineOf(p);
    const differing = row.differing.length;
    const effect = row.sameEffect === null ? ""
      : ours.before === ours.after && !theirs.changed ? `${name} changed nothing in either run. `
      : row.sameEffect ? `${name} made the same change in both runs${row.identical ? "" : ", to inputs that already differed"}. `
      : `${name} did something different in the two runs: ${differing} of its changes ${differing === 1 ? "differs" : "differ"} (n / p step through both diffs together). `;
    return `${sideNote(said, p)}${sameNote(row)}${effect}Pass effect: the baseline's diff above, this run's below.`;
  }

  /**
   * Pass effect's steps for n / p (views.js): the pass's hunks in the two runs facing each other, as the builder
   * paired them (effect.py; the row's facing, else hunk k with hunk k), this run's diff first.
   */
  function steps({ rows, effectOf, baselineOf }, p) {
    const { row } = rows[p];
    if (row.sameEffect === null) return null;
    const mine = hunksOf(effectOf(p)), other = hunksOf(baselineOf(p));
    const differing = new Set(row.differing);
    return (row.facing || mine.map((_, k) => [k, k])).map(([t, b], step) => ({
      lines: [t >= 0 ? mine[t] : null, b >= 0 ? other[b] : null],
      differs: differing.has(step),
      said: !differing.has(step) ? "the same edit in both runs"
        : t < 0 ? "made in the baseline only" : b < 0 ? "made in this run only" : "a different edit in each run",
    }));
  }

  /** A pass's hunks as effect.py cuts them: runs of changed blocks with no equal line between, in the pieces'
   * order; each as the lines it covers ({before, after}: [start, end) on each side). */
  function hunksOf(pass) {
    const found = [];
    let joined = false;
    for (const piece of pass.pieces || []) {
      for (const { b, a, equal, deleted, inserted } of piece.blocks) {
        joined = joined && !equal;
        if (!deleted && !inserted) continue;
        const before = [b + equal, b + equal + deleted], after = [a + equal, a + equal + inserted];
        const last = found[found.length - 1];
        if (joined) [last.before[1], last.after[1]] = [before[1], after[1]];
        else found.push({ before, after });
        joined = true;
      }
    }
    return found;
  }

  /** The pass list: each row's runs status (identical, or the size of the difference), one-side rows tagged. */
  function listed({ app, rows, runs, seen }, p) {
    const { row } = rows[p];
    const side = oneSide(row);
    const parts = [];
    if (side) {
      const tag = app.make("span", "runs-side-tag", TAGS[side]);
      tag.title = `This pass runs in ${side === "this-run-only" ? "this run" : "the baseline"} only`;
      parts.push(tag, " ");
    }
    const diff = row.identical ? null : seen("across", p);  // its counts follow Ignore renumbering, as a pass's do
    if (diff) {
      const del = app.make("span", "count del", "\u2212" + diff.deleted);
      if (diff.renamedCount) del.title = `${diff.renamedCount} renamed lines not counted`;
      parts.push(app.make("span", "count ins", "+" + diff.inserted), " ", del);
    } else {
      const same = app.make("span", "runs-same", "=");
      same.title = "The two runs print identical IR after this pass";
      same.setAttribute("aria-label", "identical");
      parts.push(same);
    }
    const first = p === runs.firstDivergent, reconverged = runs.reconverged.includes(p), differs = row.sameEffect === false;
    if (differs) parts.unshift(effectMark(app), " ");
    const tips = [reconverged ? "The runs are identical again after this pass" : first ? "The runs diverge first after this pass" : "",
      differs ? "This pass did something different in the two runs (Pass effect shows where)" : ""];
    return {
      parts, title: "",
      classes: {
        "has-renamed": Boolean(diff && diff.renamedCount), "runs-differ": !row.identical, "runs-first": first,
        "runs-reconverged": reconverged, "effect-differs": differs,
      },
      tip: tips.filter(Boolean).join("; "),
    };
  }
})();
