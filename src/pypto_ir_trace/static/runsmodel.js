"use strict";
/*
 * The reader of the report's runs section (reports built with --baseline): the second half of model.js's
 * contract, inlined with runs.js into two-run reports only, so that a single run's report stays byte for
 * byte what it was. Like model.js it is the only file that knows this part of the JSON's shape.
 *
 * The JSON (model.py's to_json, key "runs", present only when the report compares two runs):
 *   runs = {this, baseline, input, rows, first, reconverged}
 *     this, baseline     indices into pipelines: this run's pipeline and the baseline's
 *     input              {this: null, baseline: null, same, ins, del}: the two inputs compared
 *     rows[r]            {this, baseline, same, ins, del}: the passes aligned by name (align.py); this / baseline
 *                        are pass indices, null for a pass only the other run runs; same: the two runs'
 *                        snapshots after the row (a run without the pass: its previous one) are byte-identical;
 *                        ins / del: the baseline's snapshot diffed against this run's (compare.py's pass diff)
 *     first              the first row after which the runs differ, or null
 *     reconverged        rows after which the runs are identical again, having differed just before
 *
 * What runs.js reads:
 *   runs = {ours, theirs, offset, input: {identical, ins, del}, rows, first, reconverged, viewerData}
 *     ours, theirs       this run's and the baseline's pipelines (model.js objects)
 *     rows[r]            {row: {this, baseline, identical, ins, del}, at: [ours text, theirs text] after the row,
 *                        files: [ours file, theirs file] of those snapshots}
 *     viewerData         the report's JSON with the rows as its one pipeline: the rows as passes, its texts ours then
 *                        theirs (theirs' text t is offset + t). A row's before / after are the baseline's / this
 *                        run's snapshot after it (the same text when identical: a "no-op" row), its diff made
 *                        here by IRTraceCompare.compareIds, its counts the model's.
 */
const IRTraceRunsModel = (() => {
  const readRow = ({ this: ours, baseline, same, ins, del }) => ({ this: ours, baseline, identical: same, ins, del });

  function read(data) {
    const raw = data.runs;
    const report = IRTraceModel.read(data);
    const ours = report.pipelines[raw.this], theirs = report.pipelines[raw.baseline];
    const rawOurs = data.pipelines[raw.this], rawTheirs = data.pipelines[raw.baseline];
    const offset = ours.texts.length;
    const lazy = (pipeline, entry, t) => {  // line ids are rebuilt only when a text is shown
      const copy = Object.assign({}, entry);
      delete copy.pass;
      Object.defineProperty(copy, "ids", { get: () => pipeline.ids(t), enumerable: true });
      return copy;
    };
    const texts = [...rawOurs.texts.map((e, t) => lazy(ours, e, t)), ...rawTheirs.texts.map((e, t) => lazy(theirs, e, t))];
    const textObject = t => (t < offset ? ours.texts[t] : theirs.texts[t - offset]);
    const idsOf = t => (t < offset ? ours.ids(t) : theirs.ids(t - offset));
    const diffs = new Map();  // "tb:ta" -> the pair compared once: rows of no-op passes share it
    function across(tb, ta) {
      const key = `${tb}:${ta}`;
      if (!diffs.has(key)) {
        const found = IRTraceCompare.compareIds(Array.from(idsOf(tb)), textObject(tb), Array.from(idsOf(ta)), textObject(ta), data.limits);
        diffs.set(key, { pieces: found.pieces, inserted: found.inserted, regions: found.regions });
      }
      return diffs.get(key);
    }
    const fileOf = (pipeline, p) => (p < 0 ? pipeline.input.file : pipeline.passes[p].file);
    let at = [0, 0], last = [-1, -1];  // each run's current text, and the pass that printed it (-1: the input)
    const entries = [];
    const rows = raw.rows.map(entry => {
      const row = readRow(entry);
      if (row.this !== null) { at = [ours.passes[row.this].after, at[1]]; last = [row.this, last[1]]; }
      if (row.baseline !== null) { at = [at[0], theirs.passes[row.baseline].after]; last = [last[0], row.baseline]; }
      const own = row.this !== null ? rawOurs.passes[row.this] : null;
      const base = row.baseline !== null ? rawTheirs.passes[row.baseline] : null;
      const pass = {
        label: own ? own.label : "b" + base.label, name: (own || base).name, file: fileOf(ours, last[0]),
        before: row.identical ? at[0] : offset + at[1], after: at[0], ins: row.ins, del: row.del,
      };
      if (own && own.warnings) Object.assign(pass, { warnings: own.warnings, anchors: own.anchors || [] });
      if (!row.identical) Object.assign(pass, across(offset + at[1], at[0]));
      entries.push(pass);
      return { row, at, files: [fileOf(ours, last[0]), fileOf(theirs, last[1])] };
    });
    const pipeline = {
      name: "runs", format: rawOurs.format, title: rawOurs.title, input: rawOurs.input, texts, passes: entries,
    };
    const input = readRow(raw.input);
    return {
      ours, theirs, offset, rows, first: raw.first, reconverged: raw.reconverged.slice(),
      input: { identical: input.identical, ins: input.ins, del: input.del },
      viewerData: Object.assign({}, data, { pipelines: [pipeline] }),  // the rows only: one pipeline, no Pipeline selector
    };
  }

  return { read };
})();
