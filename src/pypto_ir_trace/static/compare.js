"use strict";
/*
 * Any two snapshots compared in the browser exactly as compare.py compares a pass's two sides: its
 * module docstring is the specification both follow (tests/browser/test_diff_agreement.py holds them
 * to it), with the line diff of linediff.js and the report's limits. Texts are model.js's text objects
 * ({regions: [{key, start, end}], untrusted}); the result has the shape of a pass in the report's JSON
 * ({pieces: [{key, ins, del, segments}], inserted, ins, del, regions: {key: [ins, del]}}), which
 * model.js reads like any pass.
 * Pure: data in, data out.
 */
const IRTraceCompare = (() => {
  /** Calls collected into pieces {key, ins, del, segments} of contiguous segments: a pass's JSON pieces. */
  function pieceBuilder(afterIds) {
    const pieces = [], inserted = [];
    let nextB = 0, nextA = 0;  // both cursors at line 0: a first change on one side joins the other
    function segment(key, b, a) {  // b or a null: a side the call does not advance
      if (!pieces.length || pieces[pieces.length - 1].key !== key) pieces.push({ key, ins: 0, del: 0, segments: [] });
      const segments = pieces[pieces.length - 1].segments;
      if (segments.length && (b === null || b === nextB) && (a === null || a === nextA)) return segments[segments.length - 1];
      const fresh = [b === null ? nextB : b, a === null ? nextA : a];
      segments.push(fresh);
      [nextB, nextA] = fresh;
      return fresh;
    }
    return {
      pieces, inserted,
      equal(key, b, a, n) {
        if (!n) return;
        segment(key, b, a).push(n, 0, 0);
        nextB = b + n;
        nextA = a + n;
      },
      change(key, b, del, a, ins) {
        if (!del && !ins) return;
        const seg = segment(key, del ? b : null, ins ? a : null);
        if (seg.length > 2 && (seg[seg.length - 1] === 0 || !del)) { seg[seg.length - 2] += del; seg[seg.length - 1] += ins; }
        else seg.push(0, del, ins);
        nextB += del;
        nextA += ins;
        const piece = pieces[pieces.length - 1];
        piece.ins += ins;
        piece.del += del;
        for (let k = a; k < a + ins; k++) inserted.push(afterIds[k]);
      },
    };
  }

  function diffLines(out, key, before, b0, b1, after, a0, a1, limits) {
    for (const [equal, as, al, bs, bl] of IRTraceLinediff.diff(before.slice(b0, b1), after.slice(a0, a1), limits)) {
      if (equal) out.equal(key, b0 + as, a0 + bs, al);
      else out.change(key, b0 + as, al, a0 + bs, bl);
    }
  }

  /** Outside lines as their ids (numbers), each region as "region:" + key, with each token's first line. */
  function tokens(ids, regions) {
    const list = [], starts = [];
    let line = 0;
    for (const { key, start, end } of regions) {
      for (; line < start; line++) { list.push(ids[line]); starts.push(line); }
      list.push("region:" + key);
      starts.push(start);
      line = end;
    }
    for (; line < ids.length; line++) { list.push(ids[line]); starts.push(line); }
    return { list, starts };
  }

  /** tokens[lo:hi] as [null, start, stop] runs of outside lines and [key, t, t + 1] regions. */
  function* runs(list, lo, hi) {
    let runStart = lo;
    for (let t = lo; t < hi; t++) {
      if (typeof list[t] !== "string") continue;
      if (t > runStart) yield [null, runStart, t];
      yield [list[t].slice("region:".length), t, t + 1];
      runStart = t + 1;
    }
    if (hi > runStart) yield [null, runStart, hi];
  }

  function byRegion(out, before, oldRegions, after, newRegions, limits) {
    const b = tokens(before, oldRegions), a = tokens(after, newRegions);
    const oldByKey = new Map(oldRegions.map(r => [r.key, r])), newByKey = new Map(newRegions.map(r => [r.key, r]));
    const expand = key => {
      const old = oldByKey.get(key), fresh = newByKey.get(key);
      if (!old) out.change(key, 0, 0, fresh.start, fresh.end - fresh.start);
      else if (!fresh) out.change(key, old.start, old.end - old.start, 0, 0);
      else diffLines(out, key, before, old.start, old.end, after, fresh.start, fresh.end, limits);
    };
    for (const [equal, as, al, bs, bl] of IRTraceLinediff.diff(b.list, a.list, limits)) {
      if (equal) {
        const shift = as - bs;  // before token index - after token index
        for (const [key, lo, hi] of runs(a.list, bs, bs + bl)) {
          if (key === null) out.equal(null, b.starts[lo + shift], a.starts[lo], hi - lo);
          else expand(key);
        }
        continue;
      }
      for (const [key, lo, hi] of runs(b.list, as, as + al)) {
        if (key === null) out.change(null, b.starts[lo], hi - lo, 0, 0);
        else if (!newByKey.has(key)) expand(key);
      }
      for (const [key, lo, hi] of runs(a.list, bs, bs + bl)) {
        if (key === null) out.change(null, 0, 0, a.starts[lo], hi - lo);
        else expand(key);
      }
    }
  }

  /**
   * Line ids of two texts compared as compare.diff_pass does; each text is {regions, untrusted} (untrusted:
   * the reason, or null). Returns {pieces, inserted, ins, del, regions}: self-contained, whatever the texts.
   */
  function compareIds(beforeIds, beforeText, afterIds, afterText, limits) {
    const out = pieceBuilder(afterIds);
    if (!beforeText.untrusted && !afterText.untrusted) {
      byRegion(out, beforeIds, beforeText.regions, afterIds, afterText.regions, limits);
    } else {
      diffLines(out, null, beforeIds, 0, beforeIds.length, afterIds, 0, afterIds.length, limits);
    }
    const result = { pieces: out.pieces, inserted: out.inserted, ins: 0, del: 0, regions: {} };
    for (const { key, ins, del } of out.pieces) {
      result.ins += ins;
      result.del += del;
      if (key !== null && (ins || del)) result.regions[key] = [ins, del];
    }
    return result;
  }

  return { compareIds };
})();
