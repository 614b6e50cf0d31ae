"use strict";
/*
 * A report seen through its pipeline's filters (Compiler Explorer's "hide debug info", "hide attributes and
 * metadata"): every line filtered by the patterns the model ships (pipeline.filters, from grammars/<language>/
 * filters.tokens: a line matching a `line` pattern is hidden, each match of a `part` pattern is cut out), every
 * snapshot filtered line by line, and every pass diffed again on its two filtered texts by compare.js, exactly as
 * "Compare with" diffs any two texts. The result is a report like the one model.js reads, its filtered pipeline
 * in place of the pipeline: the viewer is built on it (filters.js), so the list's no-op status, the counts, the
 * header, the map, search, Compare with and Ignore renumbering all see the filtered texts.
 *
 * Text t of the filtered pipeline is text t filtered; a line filtered to the text of another line is that
 * line (one id per distinct text, so that equal lines diff equal); a line with parts cut out gets an id past the
 * report's, its highlights and elisions those of its line moved past the cuts. A pass whose filtered texts are
 * equal is a no-op (before is after), `hiddenOnly` when its own texts differ: it changed only what is hidden.
 * A pass's op counts are its own less the ops of the lines hidden (report.hiddenOps: llc's DBG_VALUE): a count is
 * the ops after the pass less those before it, and a line cut, not hidden, runs the ops it ran.
 *
 * Pure: data in, new objects out. The work is cut in steps (the lines, then a pass each) so that the page can do
 * it between frames: start(...).step() until it returns true, then result().
 */
const IRTraceFiltered = (() => {
  const RECENT = 16;  // filtered texts kept: passes are diffed in order, and each reads the text the one before wrote
  const LINES_A_STEP = 20000;  // lines filtered a step (about 20 ms here)

  /** text -> null when a filter hides the line, else the [start, end) ranges cut out of it (none: unchanged). */
  function matcher(filters) {
    const joined = field => filters.map(f => f[field]).filter(Boolean).map(pattern => `(?:${pattern})`).join("|");
    const line = joined("line"), part = joined("part");
    const hides = line ? new RegExp(line) : null, cuts = part ? new RegExp(part, "g") : null;
    return text => {
      if (hides && hides.test(text)) return null;
      const ranges = [];
      if (cuts) for (const match of text.matchAll(cuts)) if (match[0].length) ranges.push([match.index, match.index + match[0].length]);
      return ranges;
    };
  }

  const cutOut = (text, ranges) => {
    let out = "", at = 0;
    for (const [start, end] of ranges) { out += text.slice(at, start); at = end; }
    return out + text.slice(at);
  };

  /** Where a position of a line lies once the ranges are cut out (inside one: where it was). */
  function moved(x, ranges) {
    let removed = 0;
    for (const [start, end] of ranges) {
      if (start >= x) break;
      removed += Math.min(end, x) - start;
    }
    return x - removed;
  }

  /**
   * Each line of the report filtered, LINES_A_STEP lines a step (step() true once done): then `map` (Int32Array:
   * line id -> its filtered line's id, -1 hidden), `lines` (the report's lines and the cut ones after them), `cut`
   * ([{from, ranges}] of each line past the report's), `n` (the report's line count).
   */
  function lineTable(report, filters) {
    const match = matcher(filters), lines = report.lines, n = lines.length;
    const map = new Int32Array(n), pending = [];
    const table = { map, lines, cut: [], n };
    let next = 0;
    table.step = () => {
      for (const stop = Math.min(next + LINES_A_STEP, n); next < stop; next++) {
        const ranges = match(lines[next]);
        map[next] = ranges === null ? -1 : next;
        if (ranges && ranges.length) pending.push([next, cutOut(lines[next], ranges), ranges]);
      }
      if (next < n) return false;
      intern(table, pending);
      return true;
    };
    return table;
  }

  /** The cut lines' ids: a line cut to the text of a line kept whole is that line, else one id per text past n. */
  function intern(table, pending) {
    const { map, lines, cut, n } = table;
    if (!pending.length) return;
    const known = new Map();  // a text shown -> its id
    for (const [id] of pending) map[id] = -2;
    lines.forEach((text, id) => { if (map[id] === id) known.set(text, id); });
    const added = [];
    for (const [id, text, ranges] of pending) {
      if (!known.has(text)) { known.set(text, n + cut.length); cut.push({ from: id, ranges }); added.push(text); }
      map[id] = known.get(text);
    }
    table.lines = lines.concat(added);
  }

  /** The report's highlights and elisions, for the cut lines those of their line moved past the cuts. */
  function lineFacts(report, table) {
    const { n, cut } = table;
    const movedSpans = (spans, ranges) => spans.map(({ start, end, name }) => ({ start: moved(start, ranges), end: moved(end, ranges), name }))
      .filter(({ start, end }) => end > start);
    const movedRanges = (list, ranges) => list.map(([start, end]) => [moved(start, ranges), moved(end, ranges)]).filter(([start, end]) => end > start);
    return {
      highlights: id => (id < n ? report.highlights(id) : movedSpans(report.highlights(cut[id - n].from), cut[id - n].ranges)),
      elisions: id => (id < n ? report.elisions(id) : movedRanges(report.elisions(cut[id - n].from), cut[id - n].ranges)),
    };
  }

  /** Text t's filtered line ids, by raw line its filtered line (-1: hidden), and the ops its hidden lines run. */
  function filterIds(raw, map, hiddenOps) {
    const at = new Int32Array(raw.length), hidden = new Map();
    let kept = 0;
    for (let i = 0; i < raw.length; i++) {
      if (map[raw[i]] >= 0) at[i] = kept++;
      else {
        at[i] = -1;
        for (const op of hiddenOps.get(raw[i]) || []) hidden.set(op, (hidden.get(op) || 0) + 1);
      }
    }
    const ids = new Int32Array(kept);
    for (let i = 0; i < raw.length; i++) if (at[i] >= 0) ids[at[i]] = map[raw[i]];
    return { ids, at, hidden };
  }

  /** A pass's [op, delta] less what the hidden lines of its two texts ran, ordered as the builder orders them. */
  function filteredOps(ops, before, after) {
    if (!before.hidden.size && !after.hidden.size) return ops;
    const delta = new Map(ops);
    for (const [op, n] of after.hidden) delta.set(op, (delta.get(op) || 0) - n);
    for (const [op, n] of before.hidden) delta.set(op, (delta.get(op) || 0) + n);
    return [...delta].filter(([, n]) => n !== 0)
      .sort(([a, x], [b, y]) => Math.abs(y) - Math.abs(x) || (a < b ? -1 : a > b ? 1 : 0));
  }

  /** A text's regions over its filtered lines (a region left with no line is dropped). */
  function filterText(text, at, length) {
    const first = line => {  // the filtered index of the first kept line at or after `line`
      for (; line < at.length; line++) if (at[line] >= 0) return at[line];
      return length;
    };
    const regions = text.regions.map(region => ({ ...region, start: first(region.start), end: first(region.end) }))
      .filter(region => region.end > region.start);
    return { regions, byKey: new Map(regions.map(region => [region.key, region])), untrusted: text.untrusted };
  }

  /** Whether two texts' line ids are the same lines in the same order. */
  const sameIds = (x, y) => x.length === y.length && x.every((id, i) => id === y[i]);

  /**
   * The work of filtering pipeline `index` of `report` by the filters named: {total, done(), step(): true once
   * finished, result(): the report seen through them}.
   */
  function start(report, index, names) {
    const pipeline = report.pipelines[index];
    const table = lineTable(report, pipeline.filters.filter(f => names.includes(f.name)));
    const work = filtering(report, pipeline, table, names);
    let tabled = false;
    return {
      total: work.total + 1,
      done: () => (tabled ? 1 : 0) + work.done(),
      step() {
        if (!tabled) { tabled = table.step(); return false; }
        return work.step();
      },
      result: () => seen(report, table, names, {
        pipelines: report.pipelines.map((other, i) => (i === index ? work.result() : other)),
      }),
    };
  }

  /** `report` seen through the filters named, its lines filtered by `table`; `fields`: what else it replaces. */
  const seen = (report, table, names, fields) =>
    ({ ...report, lines: table.lines, ...lineFacts(report, table), ...fields, unfiltered: report, hidden: names });

  /**
   * The work of filtering `pipeline` once `table` (lineTable) is done: {total, done(), step(): true once finished,
   * result(): the pipeline seen through the filters named}. The pipeline seen also tells, for each of its texts,
   * how its lines were filtered: kept(t) = {ids, at (raw line -> filtered line, -1 hidden), hidden (op -> count)}.
   */
  function filtering(report, pipeline, table, names) {
    const raws = pipeline.passes;
    const texts = new Array(pipeline.texts.length), lengths = new Int32Array(pipeline.texts.length).fill(-1);
    const recent = new Map();  // text -> {ids, at, hidden}, the latest RECENT read
    function filtered(t) {
      let found = recent.get(t);
      if (found) { recent.delete(t); recent.set(t, found); return found; }
      found = filterIds(pipeline.ids(t), table.map, report.hiddenOps);
      recent.set(t, found);
      if (recent.size > RECENT) recent.delete(recent.keys().next().value);
      if (!texts[t]) { texts[t] = filterText(pipeline.texts[t], found.at, found.ids.length); lengths[t] = found.ids.length; }
      return found;
    }
    const ids = t => filtered(t).ids;
    const compare = IRTraceModel.comparing(ids, texts, report.limits);
    const passes = [];
    return {
      total: raws.length,
      done: () => passes.length,
      step() {
        if (passes.length < raws.length) passes.push(filterPass(raws[passes.length], filtered, compare));
        else { pipeline.texts.forEach((_, t) => { if (!texts[t]) filtered(t); }); return true; }
        return false;
      },
      result: () => ({ ...pipeline, texts, passes, ids, compare, kept: filtered, source: t => sourceOf(ids(t), table.lines),
        map: pipeline.map ? mapOf(pipeline.map, texts, lengths, passes) : null, hidden: names }),
    };
  }

  /** The text of filtered line ids (its line endings LF: the filtered text is the page's own). */
  const sourceOf = (lineIds, lines) => Array.from(lineIds, id => lines[id] + "\n").join("");

  /** Pass `raw` on its filtered texts: a no-op when they are equal, else their diff. */
  function filterPass(raw, filtered, compare) {
    const before = filtered(raw.before), after = filtered(raw.after);
    const own = {
      index: raw.index, label: raw.label, name: raw.name, file: raw.file, detail: raw.detail, header: raw.header,
      failed: raw.failed, beforeFile: raw.beforeFile, warnings: raw.warnings, errorLines: raw.errorLines,
      anchors: raw.anchors.map(anchor => ({ ...anchor, line: after.at[anchor.line] })).filter(anchor => anchor.line >= 0),
    };
    if (raw.before === raw.after || sameIds(before.ids, after.ids)) {
      return { ...own, changed: false, hiddenOnly: raw.before !== raw.after, before: raw.after, after: raw.after, inserted: 0,
        deleted: 0, pieces: null, insertedIds: [], byRegion: new Map(), paired: new Map(), renamed: [], ops: [] };
    }
    const renamed = raw.renamed.map(([b, a]) => [before.at[b], after.at[a]]).filter(([b, a]) => b >= 0 && a >= 0);
    return { ...own, ...compare(raw.before, raw.after), changed: true, hiddenOnly: false, renamed, ops: filteredOps(raw.ops, before, after) };
  }

  /** The pipeline map of the filtered passes: its rows the pipeline's, each figure counted on the filtered texts. */
  function mapOf(map, texts, lengths, passes) {
    const row = new Map(map.functions.map((key, r) => [key, r]));
    const linesOf = (t, key) => (texts[t].byKey.has(key) ? texts[t].byKey.get(key).end - texts[t].byKey.get(key).start : 0);
    return {
      functions: map.functions,
      start: map.functions.map(key => linesOf(0, key)),
      lines: passes.map(pass => lengths[pass.after]),
      cells: passes.map(pass => [...pass.byRegion].filter(([key]) => row.has(key))
        .map(([key, { inserted, deleted }]) => ({ row: row.get(key), inserted, deleted, lines: linesOf(pass.after, key) }))
        .sort((x, y) => x.row - y.row)),
    };
  }

  return { start, matcher, lineTable, filtering, seen, filteredOps, sameIds };
})();
