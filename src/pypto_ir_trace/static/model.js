"use strict";
/*
 * The one reader of the report data: the only script that reads the JSON. It turns the JSON built by
 * model.py into the named plain objects below; every other file reads only those.
 *
 * The JSON's shape is declared once, in model.schema.json (the package's JSON Schema, model.py's to_json
 * writes it): its fields, what each means, which are optional. Each key is the camelCase of the model.py field
 * it carries, and this reader keeps that name. tests/test_model_node.py holds this reader to the schema: it
 * reads every field the schema declares, and no other.
 *
 * What the viewer reads (all indices 0-based, line ranges [start, end)):
 *   report = {title, generator, context, limits, classes, lines, highlights(id), elisions(id), elides, hiddenOps, pipelines, runs}
 *     lines[id]          each distinct line's text, stored once (no newline)
 *     highlights(id)     its highlight spans [{start, end, name}], sorted, in UTF-16 units; name is a
 *                        highlight class ("keyword", ...)
 *     elisions(id)       the sub-expressions of the line the viewer may elide ("Elide types"): [[start, end]]
 *                        in UTF-16 units, by start, an enclosing one first; elides: whether any line has some
 *     context            unchanged lines kept around a change (--context)
 *     hiddenOps          Map line id -> [op, ...] of the lines that run ops and that a pipeline's filter hides whole
 *   pipeline = {name, format, title, level, levelTitle, advice, implicit, notes, renumbering, filters, input: {file, label, name, text},
 *               texts, passes, map, ids(t), source(t), compare(tb, ta)}
 *     map                {functions, start, lines, cells: per pass [{row, inserted, deleted, lines}]}, as in the JSON,
 *                        or null (a two-run report's rows pipeline: its map is this run's, runs.ours.map)
 *     notes              what the reader should know about the dump (ordering caveats, ...): strings
 *     renumbering        its language has value names: passes carry `renamed` (Ignore renumbering applies)
 *     filters            [{name, label, title, line, part}]: the switches that hide part of its lines (filters.js
 *                        applies them): a line matching `line` is hidden, each match of `part` cut out ("": none)
 *     level              the detail the compiler printed at ("EXPLICIT", "CONCISE"), or null when unknown
 *     levelTitle         what the level badge says of it, in the format's words ("" without a level)
 *     advice             the note for a pass that changes an `implicit` line: how to see what it hides ("": none)
 *     implicit           Map from the ids of the lines that name a type whose layout CONCISE leaves out (tiles,
 *                        distributed tensors; grammars/python/level.scm) to their type class: lines of one class
 *                        name the same types but for where they are placed; empty unless level is "CONCISE"
 *     input              the snapshot before the first pass: its file name, label, name ("frontend") and text index
 *     texts[t]           each distinct snapshot: {regions: [{key, kind, start, end, error}], byKey: Map(key ->
 *                        region), untrusted: reason | null}
 *     ids(t)             the line ids of text t (Int32Array), rebuilt on first use from the pass that produced it
 *     source(t)          text t exactly as the file had it, newlines included
 *     compare(tb, ta)    any two texts diffed like a pass (compare.js): {before, after, inserted, deleted, pieces,
 *                        insertedIds, byRegion, paired}, the diff fields of a pass below
 *   passes[p] = {index, label, name, file, detail, header, failed, printedBefore, changed, before, after, inserted, deleted, beforeFile,
 *                warnings, anchors, errorLines, pieces, insertedIds, byRegion, paired, renamed, ops}
 *     ops                [[op, delta]]: how the pass changed the count of each op (largest change first); [] for none
 *     before / after     text indices; a no-op pass has before == after (changed false) and pieces null
 *     warnings           the pass's .log text ("" when none); anchors: [{logLine, line, message}], log lines that
 *                        name `line` of the after snapshot; errorLines: the log lines that start an error
 *                        diagnostic (the others are warnings, notes, remarks)
 *     pieces             [{key, beforeKey, inserted, deleted, blocks}] in after-file order; key null = outside every
                        region; beforeKey: the before region's key when the region was paired by content (a function
                        the pass renamed, or the part of a split most like it; key is the after region's), else null;
 *                        blocks: [{b, a, equal, deleted, inserted}]: from before line b / after line a, `equal`
 *                        equal lines, then `deleted` before lines, then `inserted` after lines
 *     insertedIds        ids of the inserted lines, in after order (with `before` they rebuild `after`)
 *     byRegion           Map(key -> {inserted, deleted}) of the regions the pass changes
     paired             Map(before key -> key) of the pieces paired by content (read without decoding segments)
 *     detail, failed     what the pass ran on ("" when the format does not say); whether the pass failed
 *     printedBefore      a Before dump (--print-before-all): the text its pass received
 *     header             the pass named in full by its dump's header line (MLIR's C++ class with its namespaces); ""
 *     beforeFile         what `before` is when not the previous snapshot (an MLIR op's own previous dump, or
 *                        a text the reader made: "@f cut out of 3_cse.mlir"); "": the previous snapshot
 *     renamed            [[b, a]]: before line b and after line a (a deleted and an inserted line of one
 *                        piece) are equal under one consistent renaming of value names; sorted by a
 *   runs = {ours, theirs, offset, inputs: {identical, inserted, deleted}, rows, firstDivergent, reconverged, pipeline,
 *          decided}, or null
 *     ours, theirs       this run's and the baseline's pipelines (above)
 *     inputs             how the two inputs compare: identical, or the counts of their diff
 *     rows[r]            {row: {this, baseline, identical, inserted, deleted, renamed, sameEffect (null: absent), facing
 *                        (null: absent), differing, byRegion, ops}, at: [ours text, theirs text] after the row,
 *                        files: [ours file, theirs file] of those snapshots}; when the inputs differ, rows[0]
 *                        is the inputs' row (row.input true, this and baseline null, the input's label, name "input")
 *     firstDivergent, reconverged  row indices, as in the JSON (shifted by that row; firstDivergent is it)
 *     decided            {inputs, rows}: the inputs' row and the rows as read, not shifted (filteredruns.js decides
 *                        them again through the filters)
 *     pipeline           the rows as one pipeline (above), built from what was read (alignedRows): the rows as
 *                        passes, its texts ours then theirs (theirs' text t is offset + t). A row's before / after are the baseline's / this run's snapshot
 *                        after it (the same text when identical: a "no-op" row), its diff made here by
 *                        IRTraceCompare.compareIds, its counts and renamed pairs the model's; renumbering when
 *                        both runs' pipelines have it
 *
 * Pure: data in, objects out. Nothing here touches the DOM.
 */
const IRTraceModel = (() => {
  /** The schema this reader reads: model.py's SCHEMA when both were written (a test holds them together). */
  const SCHEMA = 9;

  /** Data of another schema (a report written by another version, its data carried elsewhere) is refused by
   * name, never drawn wrong. */
  function check(raw) {
    if (raw.schema === SCHEMA) return;
    const error = new Error(`its data has schema ${raw.schema}, and this viewer reads schema ${SCHEMA}: ` +
      "render the dump again with the version of pypto-ir-trace that will show it");
    error.name = "SchemaError";
    throw error;
  }

  /** The report of one inflated JSON document. */
  function read(raw) {
    check(raw);
    const classes = raw.classes.slice();
    const report = {
      title: raw.title,
      generator: raw.generator,
      context: raw.context,
      limits: raw.limits,
      classes,
      lines: raw.lines,
      highlights: id => highlights(raw.spans[raw.lineSpans[id]], classes),
      elisions: id => (raw.lineElisions ? ranges(raw.elisions[raw.lineElisions[id]]) : []),
      elides: Boolean(raw.lineElisions),
      hiddenOps: new Map((raw.hiddenOps || []).map(([id, ...ops]) => [id, ops])),
      pipelines: raw.pipelines.map(entry => readPipeline(entry, raw)),
    };
    report.runs = raw.runs ? readRuns(raw.runs, report) : null;
    return report;
  }

  function highlights(flat, classes) {
    const out = [];
    let at = 0;
    for (let i = 0; i < flat.length; i += 3) {
      const start = at + flat[i];
      at = start + flat[i + 1];
      out.push({ start, end: at, name: classes[flat[i + 2]] });
    }
    return out;
  }

  /** [step, length, ...] (each start from the one before) as [[start, end]]. */
  function ranges(flat) {
    const out = [];
    for (let i = 0, start = 0; i < flat.length; i += 2) {
      start += flat[i];
      out.push([start, start + flat[i + 1]]);
    }
    return out;
  }

  function readPipeline(entry, report) {
    const texts = entry.texts.map(readText);
    const passes = entry.passes.map(readPass);
    const cache = new Map();
    function ids(t) {
      let result = cache.get(t);
      if (result) return result;
      const text = entry.texts[t];
      result = text.ids ? Int32Array.from(text.ids) : applyPass(ids(passes[text.producedBy].before), passes[text.producedBy]);
      cache.set(t, result);
      return result;
    }
    const endings = entry.texts.map(({ eol, final, eols }) => (eols ? { eols } : { eol, final }));
    function source(t) {
      const lineIds = ids(t), { eol, final, eols } = endings[t];
      const parts = new Array(lineIds.length);
      for (let i = 0; i < lineIds.length; i++) {
        const ending = eols ? eols[i] : (i < lineIds.length - 1 || final ? eol : "");
        parts[i] = report.lines[lineIds[i]] + ending;
      }
      return parts.join("");
    }
    const { file, label, name } = entry.input;
    return {
      name: entry.name, format: entry.format, title: entry.title, level: entry.level || null,
      implicit: readImplicit(entry.implicit, entry.implicitTypes),
      levelTitle: entry.levelTitle || "", advice: entry.advice || "",
      notes: entry.notes || [],
      renumbering: Boolean(entry.renumbering),
      labels: new Map(Object.entries(entry.labels || {})),
      filters: (entry.filters || []).map(({ name, label, title, line, part }) => ({ name, label, title, line, part })),
      input: { file, label, name, text: 0 }, texts, passes, ids, source,
      compare: comparing(ids, texts, report.limits),
      map: entry.pipelineMap ? readMap(entry.pipelineMap) : null,
    };
  }

  /** Any two texts of a pipeline diffed like a pass (compare.js), as the diff fields of a pass; also for texts the
   * page derives (filters.js): ids(t) their line ids, texts[t] their regions. */
  function comparing(ids, texts, limits) {
    const diffOf = compareRaw(ids, texts, limits);
    return (tb, ta) => {
      const result = diffOf(tb, ta);
      return {
        before: tb, after: ta, inserted: result.inserted, deleted: result.deleted,
        pieces: result.pieces ? result.pieces.map(readPiece) : null,
        insertedIds: result.insertedIds || [],
        byRegion: readCounts(result.byRegion),
        paired: readPaired(result.pieces),
      };
    };
  }

  /** IRTraceCompare.compareIds of two texts: a diff in the JSON's shape (pieces with segments). */
  const compareRaw = (ids, texts, limits) => (tb, ta) =>
    IRTraceCompare.compareIds(Array.from(ids(tb)), texts[tb], Array.from(ids(ta)), texts[ta], limits);

  /** The map's cells per pass as objects; the rest as in the JSON. */
  function readMap({ functions, start, lines, cells }) {
    const cellsOf = flat => {
      const out = [];
      for (let i = 0; i < flat.length; i += 4) out.push({ row: flat[i], inserted: flat[i + 1], deleted: flat[i + 2], lines: flat[i + 3] });
      return out;
    };
    return { functions, start, lines, cells: cells.map(cellsOf) };
  }

  /** The implicit lines' ids (given as gaps) -> their type classes (given in the same order). */
  function readImplicit(gaps, types) {
    const classes = new Map();
    let id = 0;
    (gaps || []).forEach((gap, i) => classes.set(id += gap, types[i]));
    return classes;
  }

  function readText(entry) {
    const regions = entry.regions.map(({ key, kind, start, end, error }) => ({ key, kind, start, end, error: error || null }));
    return { regions, byKey: new Map(regions.map(region => [region.key, region])), untrusted: entry.untrusted || null };
  }

  function readPass(entry, index) {
    const pass = {
      index, label: entry.label, name: entry.name, file: entry.file, detail: entry.detail || "",
      header: entry.header || "", failed: Boolean(entry.failed), printedBefore: Boolean(entry.printedBefore),
      changed: entry.before !== entry.after, before: entry.before, after: entry.after, inserted: entry.inserted,
      deleted: entry.deleted,
      beforeFile: entry.beforeFile || "",
      warnings: entry.warnings || "",
      anchors: (entry.anchors || []).map(({ logLine, line, message }) => ({ logLine, line, message })),
      errorLines: entry.errorLines || [],
      renamed: readPairs(entry.renamed),
      ops: readOps(entry.ops),
    };
    return diffWhenRead(pass, () => entry);
  }

  const readPairs = pairs => (pairs || []).map(([b, a]) => [b, a]);
  const readOps = ops => (ops || []).map(([op, delta]) => [op, delta]);

  /**
   * A pass's diff fields decoded when first read from diff(), {pieces, insertedIds, byRegion} in the JSON's shape
   * (or null: no diff): opening a report reads a few passes, not all of them (and a two-run row's diff is made
   * only then).
   */
  function diffWhenRead(pass, diff) {
    const field = name => (diff() || {})[name];
    once(pass, "pieces", () => (field("pieces") ? field("pieces").map(readPiece) : null));
    once(pass, "insertedIds", () => field("insertedIds") || []);
    once(pass, "byRegion", () => readCounts(field("byRegion")));
    once(pass, "paired", () => readPaired(field("pieces")));
    return pass;
  }

  /** Map(before key -> key) of the pieces paired by content. */
  function readPaired(pieces) {
    return new Map((pieces || []).filter(piece => piece.beforeKey !== undefined).map(piece => [piece.beforeKey, piece.key]));
  }

  /** object[name] computed by `compute` on first read, then a plain value. */
  function once(object, name, compute) {
    Object.defineProperty(object, name, {
      configurable: true, enumerable: true,
      get() {
        const value = compute();
        Object.defineProperty(object, name, { value, enumerable: true, writable: true });
        return value;
      },
    });
  }

  /** {key: [inserted, deleted]} as a Map: a function may be called `constructor` or `__proto__`. */
  function readCounts(counts) {
    return new Map(Object.entries(counts || {}).map(([key, [inserted, deleted]]) => [key, { inserted, deleted }]));
  }

  function readPiece({ key, beforeKey, inserted, deleted, segments }) {
    const blocks = [];
    for (const segment of segments) {
      let b = segment[0], a = segment[1];
      for (let at = 2; at < segment.length; at += 3) {
        const block = { b, a, equal: segment[at], deleted: segment[at + 1], inserted: segment[at + 2] };
        blocks.push(block);
        b += block.equal + block.deleted;
        a += block.equal + block.inserted;
      }
    }
    return { key, beforeKey: beforeKey === undefined ? null : beforeKey, inserted, deleted, blocks };
  }

  /** The runs section: the two runs' pipelines and their aligned rows, then the rows built into one pipeline. */
  function readRuns(raw, report) {
    const ours = report.pipelines[raw.this], theirs = report.pipelines[raw.baseline];
    return runsOf(ours, theirs, readRow(raw.inputs), raw.rows.map(readRow), raw.firstDivergent, raw.reconverged, report.limits);
  }

  /**
   * The runs section of pipelines `ours` and `theirs` from their rows as read (and the inputs' row): the rows
   * also built into one pipeline. firstDivergent (null: none) and reconverged: indexes into `rows`.
   */
  function runsOf(ours, theirs, inputs, rows, firstDivergent, reconverged, limits) {
    const shift = inputs.identical ? 0 : 1;  // runs that differ from the start: a row of their inputs comes first
    const aligned = alignedRows(ours, theirs, inputs, rows, limits);
    return {
      ours, theirs, offset: ours.texts.length, rows: aligned.rows,
      firstDivergent: shift ? 0 : firstDivergent, reconverged: reconverged.map(r => r + shift),
      inputs: { identical: inputs.identical, inserted: inputs.inserted, deleted: inputs.deleted },
      pipeline: aligned.pipeline, decided: { inputs, rows },  // the rows as read, for the filters to decide again
    };
  }

  function readRow({ this: ours, baseline, identical, inserted, deleted, renamed, sameEffect, facing, differing, byRegion, ops }) {
    return {
      this: ours, baseline, identical, inserted, deleted, renamed: readPairs(renamed),
      sameEffect: sameEffect === undefined ? null : sameEffect,
      facing: facing ? facing.map(([mine, other]) => [mine, other]) : null, differing: differing || [],
      byRegion: readCounts(byRegion), ops: readOps(ops),
    };
  }

  /**
   * The rows of two runs as one pipeline, built from the two pipelines read and the rows read: its texts ours
   * then theirs, a row's pass the baseline's snapshot after it against this run's (the same text when
   * identical). Each row also gets the texts and files after it ({row, at, files}).
   */
  function alignedRows(ours, theirs, inputs, rows, limits) {
    const offset = ours.texts.length;
    const texts = [...ours.texts, ...theirs.texts];
    const ids = t => (t < offset ? ours.ids(t) : theirs.ids(t - offset));  // line ids are rebuilt only when a text is shown
    const source = t => (t < offset ? ours.source(t) : theirs.source(t - offset));
    const diffs = new Map(), diffOf = compareRaw(ids, texts, limits);  // "tb:ta" -> the pair compared once: rows of no-op passes share it
    function across(tb, ta) {
      const key = `${tb}:${ta}`;
      if (!diffs.has(key)) diffs.set(key, diffOf(tb, ta));
      return diffs.get(key);
    }
    // A row's diff is made when it is first read, not when the page opens: diffing thousands of rows up front
    // took seconds on large MLIR runs (the counts come from the model).
    const rowPass = (fields, index) => diffWhenRead({
      index, detail: "", header: "", failed: false, printedBefore: false, beforeFile: "", warnings: "", anchors: [], errorLines: [], ...fields,
      changed: fields.before !== fields.after,
    }, () => (fields.before === fields.after ? null : across(fields.before, fields.after)));
    const fileOf = (pipeline, p) => (p < 0 ? pipeline.input.file : pipeline.passes[p].file);
    let at = [0, 0], last = [-1, -1];  // each run's current text, and the pass that printed it (-1: the input)
    const passes = [];
    const shown = rows.map(row => {
      if (row.this !== null) { at = [ours.passes[row.this].after, at[1]]; last = [row.this, last[1]]; }
      if (row.baseline !== null) { at = [at[0], theirs.passes[row.baseline].after]; last = [last[0], row.baseline]; }
      const own = row.this !== null ? ours.passes[row.this] : null;
      const base = row.baseline !== null ? theirs.passes[row.baseline] : null;
      const warned = own && own.warnings ? { warnings: own.warnings, anchors: own.anchors, errorLines: own.errorLines } : {};
      passes.push({
        label: own ? own.label : "b" + base.label, name: (own || base).name, file: fileOf(ours, last[0]),
        before: row.identical ? at[0] : offset + at[1], after: at[0], inserted: row.inserted, deleted: row.deleted,
        renamed: row.renamed, ops: row.ops, ...warned,  // Pass effect takes its pass's own ops
      });
      return { row, at, files: [fileOf(ours, last[0]), fileOf(theirs, last[1])] };
    });
    if (!inputs.identical) {  // a row of the inputs, so the page can show how they differ (no pass ran there)
      passes.unshift({ label: ours.input.label, name: "input", file: ours.input.file, before: offset, after: 0,
        inserted: inputs.inserted, deleted: inputs.deleted, renamed: inputs.renamed, ops: [] });
      shown.unshift({ row: Object.assign({ input: true }, inputs), at: [0, 0], files: [ours.input.file, theirs.input.file] });
    }
    const pipeline = {
      name: "runs", format: ours.format, title: ours.title, level: null, implicit: new Map(), levelTitle: "", advice: "",
      notes: [], renumbering: ours.renumbering && theirs.renumbering, labels: new Map(), filters: [],
      input: { ...ours.input }, texts, passes: passes.map(rowPass), ids, source,
      compare: comparing(ids, texts, limits), map: null,
    };
    return { rows: shown, pipeline };
  }

  /** The after line ids of a pass (or a comparison) from its before line ids. */
  function applyPass(before, pass) {
    const after = new Int32Array(before.length + pass.inserted - pass.deleted);
    let n = 0, next = 0;
    for (const piece of pass.pieces) {
      for (const { b, equal, inserted } of piece.blocks) {
        after.set(before.subarray(b, b + equal), n);
        n += equal;
        for (let i = 0; i < inserted; i++) after[n++] = pass.insertedIds[next++];
      }
    }
    return after;
  }

  return { SCHEMA, check, read, applyPass, comparing, runsOf };
})();
