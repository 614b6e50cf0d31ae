"use strict";
/*
 * Any two snapshots compared in the browser exactly as compare.py compares a pass's two sides: its
 * module docstring is the specification both follow (tests/browser/test_diff_agreement.py holds them
 * to it), with the line diff of linediff.js and the report's limits. Texts are model.js's text objects
 * ({regions: [{key, start, end}], untrusted}); the result has the shape of a pass in the report's JSON
 * ({pieces: [{key, inserted, deleted, segments}], insertedIds, inserted, deleted, byRegion: {key: [inserted,
 * deleted]}}), which
 * model.js reads like any pass.
 * Pure: data in, data out.
 */
const IRTraceCompare = (() => {
  /** Calls collected into pieces {key, inserted, deleted, segments} of contiguous segments: a pass's JSON pieces. */
  function pieceBuilder(afterIds) {
    const pieces = [], insertedIds = [];
    let nextB = 0, nextA = 0;  // both cursors at line 0: a first change on one side joins the other
    function segment(key, b, a) {  // b or a null: a side the call does not advance
      if (!pieces.length || pieces[pieces.length - 1].key !== key) pieces.push({ key, inserted: 0, deleted: 0, segments: [] });
      const segments = pieces[pieces.length - 1].segments;
      if (segments.length && (b === null || b === nextB) && (a === null || a === nextA)) return segments[segments.length - 1];
      const fresh = [b === null ? nextB : b, a === null ? nextA : a];
      segments.push(fresh);
      [nextB, nextA] = fresh;
      return fresh;
    }
    return {
      pieces, insertedIds,
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
        piece.inserted += ins;
        piece.deleted += del;
        for (let k = a; k < a + ins; k++) insertedIds.push(afterIds[k]);
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

  /** tokens[lo:hi] as [null, start, stop] stretches of outside lines and [key, t, t + 1] regions. */
  function* stretches(list, lo, hi) {
    let start = lo;
    for (let t = lo; t < hi; t++) {
      if (typeof list[t] !== "string") continue;
      if (t > start) yield [null, start, t];
      yield [list[t].slice("region:".length), t, t + 1];
      start = t + 1;
    }
    if (hi > start) yield [null, start, hi];
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
        for (const [key, lo, hi] of stretches(a.list, bs, bs + bl)) {
          if (key === null) out.equal(null, b.starts[lo + shift], a.starts[lo], hi - lo);
          else expand(key);
        }
        continue;
      }
      for (const [key, lo, hi] of stretches(b.list, as, as + al)) {
        if (key === null) out.change(null, b.starts[lo], hi - lo, 0, 0);
        else if (!newByKey.has(key)) expand(key);
      }
      for (const [key, lo, hi] of stretches(a.list, bs, bs + bl)) {
        if (key === null) out.change(null, 0, 0, a.starts[lo], hi - lo);
        else expand(key);
      }
    }
  }

  /**
   * Line ids of two texts compared as compare.diff_pass does; each text is {regions, untrusted} (untrusted:
   * the reason, or null). Returns {pieces, insertedIds, inserted, deleted, byRegion}: self-contained, whatever the texts.
   */
  function compareIds(beforeIds, beforeText, afterIds, afterText, limits) {
    const out = pieceBuilder(afterIds);
    if (!beforeText.untrusted && !afterText.untrusted) {
      byRegion(out, beforeIds, beforeText.regions, afterIds, afterText.regions, limits);
    } else {
      diffLines(out, null, beforeIds, 0, beforeIds.length, afterIds, 0, afterIds.length, limits);
    }
    const result = { pieces: out.pieces, insertedIds: out.insertedIds, inserted: 0, deleted: 0, byRegion: {} };
    for (const { key, inserted, deleted } of out.pieces) {
      result.inserted += inserted;
      result.deleted += deleted;
      if (key !== null && (inserted || deleted)) result.byRegion[key] = [inserted, deleted];
    }
    return result;
  }

  return { compareIds };
})();
