"use strict";
/*
 * The one reader of the report data: the only file that knows the JSON's shape. It turns the JSON
 * built by model.py into the named plain objects below; every other file reads only those.
 *
 * The JSON (schema 2, model.py's to_json), named fields; positional only inside segments and spans:
 *   {schema, generator, title, context, limits, classes, lines, spans, pipelines}
 *   lines[id], spans[id] = [gap, length, class, ...] (gap in UTF-16 units from the previous span's end)
 *   pipelines[i] = {name, format, title, input, level?, notes?, renumbering?, texts, passes}
 *   texts[t] = {ids} | {pass}, then {eol, final} | {eols}, regions [{key, kind, start, end, error?}], untrusted?
 *   passes[p] = {label, name, file, detail?, failed?, before, after, ins, del, warnings?,
 *                anchors? [{log, line, message}], pieces? [{key, ins, del, segments}], inserted?, regions? {key: [ins, del]},
 *                renamed? [[bLine, aLine]]}
 *   segments = [[bStart, aStart, eq, del, ins, eq, del, ins, ...]]
 *
 * What the viewer reads (all indices 0-based, line ranges [start, end)):
 *   report = {title, context, limits, classes, lines, highlights(id), pipelines}
 *     lines[id]          each distinct line's text, stored once (no newline)
 *     highlights(id)     its highlight spans [{start, end, name}], sorted, in UTF-16 units; name is a
 *                        highlight class ("keyword", ...)
 *     context            unchanged lines kept around a change (--context)
 *   pipeline = {name, format, title, level, notes, renumbering, input: {file, text}, texts, passes, ids(t), source(t),
 *               compare(tb, ta)}
 *     notes              what the reader should know about the dump (ordering caveats, ...): strings
 *     renumbering        its language has value names: passes carry `renamed` (Ignore renumbering applies)
 *     level              the detail the compiler printed at ("EXPLICIT", "CONCISE"), or null when unknown
 *     input              the snapshot before the first pass: its file name and text index
 *     texts[t]           each distinct snapshot: {regions: [{key, kind, start, end, error}], byKey: Map(key ->
 *                        region), untrusted: reason | null}
 *     ids(t)             the line ids of text t (Int32Array), rebuilt on first use from the pass that produced it
 *     source(t)          text t exactly as the file had it, newlines included
 *     compare(tb, ta)    any two texts diffed like a pass (compare.js): {before, after, ins, del, pieces,
 *                        inserted, regions}, the diff fields of a pass below
 *   passes[p] = {index, label, name, file, detail, failed, changed, before, after, ins, del, warnings,
 *                anchors, pieces, inserted, regions, renamed}
 *     before / after     text indices; a no-op pass has before == after (changed false) and pieces null
 *     warnings           the pass's .log text ("" when none); anchors: [{log, line, message}], log lines that
 *                        name `line` of the after snapshot
 *     pieces             [{key, ins, del, runs}] in after-file order; key null = outside every region;
 *                        runs: [{b, a, eq, del, ins}]: from before line b / after line a, `eq` equal lines, then
 *                        `del` deleted before lines, then `ins` inserted after lines
 *     inserted           ids of the inserted lines, in after order (with `before` they rebuild `after`)
 *     regions            Map(key -> {ins, del}) of the regions the pass changes
 *     detail, failed     what the pass ran on ("" when the format does not say); whether the pass failed
 *     renamed            [[b, a]]: before line b and after line a (a deleted and an inserted line of one
 *                        piece) are equal under one consistent renaming of value names; sorted by a
 *
 * Pure: data in, objects out. Nothing here touches the DOM.
 */
const IRTraceModel = (() => {
  /** The report of one inflated JSON document. */
  function read(raw) {
    const classes = raw.classes.slice();
    return {
      title: raw.title,
      context: raw.context,
      limits: raw.limits,
      classes,
      lines: raw.lines,
      highlights: id => highlights(raw.spans[id], classes),
      pipelines: raw.pipelines.map(entry => readPipeline(entry, raw)),
    };
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

  function readPipeline(entry, report) {
    const raw = { ...entry, lines: report.lines, limits: report.limits };
    const texts = raw.texts.map(readText);
    const passes = raw.passes.map(readPass);
    const cache = new Map();
    function ids(t) {
      let result = cache.get(t);
      if (result) return result;
      const entry = raw.texts[t];
      const pass = entry.ids ? null : passes[entry.pass];
      result = pass ? applyPass(ids(pass.before), pass) : Int32Array.from(entry.ids);
      cache.set(t, result);
      return result;
    }
    function source(t) {
      const entry = raw.texts[t], lineIds = ids(t);
      const parts = new Array(lineIds.length);
      for (let i = 0; i < lineIds.length; i++) {
        const ending = entry.eols ? entry.eols[i] : (i < lineIds.length - 1 || entry.final ? entry.eol : "");
        parts[i] = raw.lines[lineIds[i]] + ending;
      }
      return parts.join("");
    }
    function compare(tb, ta) {
      const result = IRTraceCompare.compareIds(Array.from(ids(tb)), texts[tb], Array.from(ids(ta)), texts[ta], raw.limits);
      return {
        before: tb, after: ta, ins: result.ins, del: result.del,
        pieces: result.pieces ? result.pieces.map(readPiece) : null,
        inserted: result.inserted || [],
        regions: readCounts(result.regions),
      };
    }
    return {
      name: raw.name, format: raw.format, title: raw.title, level: raw.level || null, notes: raw.notes || [],
      renumbering: Boolean(raw.renumbering),
      input: { file: raw.input, text: 0 }, texts, passes, ids, source, compare,
    };
  }

  function readText(entry) {
    const regions = entry.regions.map(({ key, kind, start, end, error }) => ({ key, kind, start, end, error: error || null }));
    return { regions, byKey: new Map(regions.map(region => [region.key, region])), untrusted: entry.untrusted || null };
  }

  function readPass(entry, index) {
    const pass = {
      index, label: entry.label, name: entry.name, file: entry.file, detail: entry.detail || "", failed: Boolean(entry.failed),
      changed: entry.before !== entry.after, before: entry.before, after: entry.after, ins: entry.ins, del: entry.del,
      warnings: entry.warnings || "",
      anchors: (entry.anchors || []).map(({ log, line, message }) => ({ log, line, message })),
      pieces: null,
      inserted: entry.inserted || [],
      regions: readCounts(entry.regions),
      renamed: (entry.renamed || []).map(([b, a]) => [b, a]),
    };
    // Decoded when first read: opening a report reads a few passes, not all of them.
    if (entry.pieces) once(pass, "pieces", () => entry.pieces.map(readPiece));
    return pass;
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

  /** {key: [ins, del]} as a Map: a function may be called `constructor` or `__proto__`. */
  function readCounts(counts) {
    return new Map(Object.entries(counts || {}).map(([key, [ins, del]]) => [key, { ins, del }]));
  }

  function readPiece({ key, ins, del, segments }) {
    const runs = [];
    for (const segment of segments) {
      let b = segment[0], a = segment[1];
      for (let at = 2; at < segment.length; at += 3) {
        const run = { b, a, eq: segment[at], del: segment[at + 1], ins: segment[at + 2] };
        runs.push(run);
        b += run.eq + run.del;
        a += run.eq + run.ins;
      }
    }
    return { key, ins, del, runs };
  }

  /** The after line ids of a pass (or a comparison) from its before line ids. */
  function applyPass(before, pass) {
    const after = new Int32Array(before.length + pass.ins - pass.del);
    let n = 0, next = 0;
    for (const piece of pass.pieces) {
      for (const { b, eq, ins } of piece.runs) {
        after.set(before.subarray(b, b + eq), n);
        n += eq;
        for (let i = 0; i < ins; i++) after[n++] = pass.inserted[next++];
      }
    }
    return after;
  }

  return { read, applyPass };
})();
