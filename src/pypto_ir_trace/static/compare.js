"use strict";
/*
 * Any two snapshots compared in the browser exactly as compare.py compares a pass's two sides: its
 * module docstring is the specification both follow, regions paired by name and then by content
 * (tests/test_diff_node.py and tests/browser/test_diff_agreement.py hold them to it), with the line diff of
 * linediff.js and the report's limits. Texts are model.js's text objects ({regions: [{key, start, end}],
 * untrusted}); the result has the shape of a pass in the report's JSON ({pieces: [{key, beforeKey?, inserted,
 * deleted, segments}], insertedIds, inserted, deleted, byRegion: {key: [inserted, deleted]}}), which model.js
 * reads like any pass.
 * Pure: data in, data out.
 */
const IRTraceCompare = (() => {
  /** Calls collected into pieces {key, inserted, deleted, segments} of contiguous segments: a pass's JSON pieces. */
  function pieceBuilder(afterIds) {
    const pieces = [], insertedIds = [];
    let nextB = 0, nextA = 0;  // both cursors at line 0: a first change on one side joins the other
    function segment(key, b, a) {  // b or a null: a side the call does not advance
      if (!pieces.length || pieces[pieces.length - 1].key !== key) {
        const piece = { key, inserted: 0, deleted: 0, segments: [] };
        if (key !== null && out.beforeKeys.has(key)) piece.beforeKey = out.beforeKeys.get(key);
        pieces.push(piece);
      }
      const segments = pieces[pieces.length - 1].segments;
      if (segments.length && (b === null || b === nextB) && (a === null || a === nextA)) return segments[segments.length - 1];
      const fresh = [b === null ? nextB : b, a === null ? nextA : a];
      segments.push(fresh);
      [nextB, nextA] = fresh;
      return fresh;
    }
    const out = {
      pieces, insertedIds,
      beforeKeys: new Map(),  // a content pair's key -> its before region's key
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
    return out;
  }

  function diffLines(out, key, before, b0, b1, after, a0, a1, limits) {
    if (sameLines(before, b0, b1, after, a0, a1)) return out.equal(key, b0, a0, b1 - b0);  // linediff's answer, unsliced
    for (const [equal, bs, bl, as, al] of IRTraceLinediff.diff(before.slice(b0, b1), after.slice(a0, a1), limits)) {
      if (equal) out.equal(key, b0 + bs, a0 + as, bl);
      else out.change(key, b0 + bs, bl, a0 + as, al);
    }
  }

  /** Whether before[b0:b1] and after[a0:a1] are the same lines: most regions of a pass are, and diffing them copied
   * every line of the text for each pass (seconds when the filters re-diff 10,000 passes of a 24,000-line module). */
  function sameLines(before, b0, b1, after, a0, a1) {
    if (b1 - b0 !== a1 - a0) return false;
    for (let k = 0; k < b1 - b0; k++) if (before[b0 + k] !== after[a0 + k]) return false;
    return true;
  }

  const PAIR_MAX_COST = 1000000;  // bound on the line counts compared to pair one block's candidates by content

  /** Outside lines as their ids (numbers), each region as tokenOf(region) (a string); with each token's first
   * line and, for a region's token, the region. */
  function tokens(ids, regions, tokenOf) {
    const list = [], starts = [], at = [];
    let line = 0;
    for (const region of regions) {
      for (; line < region.start; line++) { list.push(ids[line]); starts.push(line); }
      at[list.length] = region;
      list.push(tokenOf(region));
      starts.push(region.start);
      line = region.end;
    }
    for (; line < ids.length; line++) { list.push(ids[line]); starts.push(line); }
    return { list, starts, at };
  }

  /** tokens[lo:hi] as [null, start, stop] stretches of outside lines and [region, t, t + 1] regions. */
  function* stretches(side, lo, hi) {
    let start = lo;
    for (let t = lo; t < hi; t++) {
      if (typeof side.list[t] !== "string") continue;
      if (t > start) yield [null, start, t];
      yield [side.at[t], t, t + 1];
      start = t + 1;
    }
    if (hi > start) yield [null, start, hi];
  }

  const regionsIn = (side, lo, hi) => [...stretches(side, lo, hi)].map(([region]) => region).filter(Boolean);
  const length = region => region.end - region.start;
  const similar = (shared, old, fresh) => shared > 0 && 4 * shared >= length(old) + length(fresh);

  /** Each region's line ids as counts, made once; shared(old, fresh): the size of their multiset intersection. */
  function lineCounts(before, after) {
    const made = [new Map(), new Map()];
    function counts(side, region) {
      let found = made[side].get(region.key);
      if (!found) {
        found = new Map();
        const ids = side === 0 ? before : after;
        for (let k = region.start; k < region.end; k++) found.set(ids[k], (found.get(ids[k]) || 0) + 1);
        made[side].set(region.key, found);
      }
      return found;
    }
    function shared(old, fresh) {
      let small = counts(0, old), large = counts(1, fresh);
      if (small.size > large.size) [small, large] = [large, small];
      let total = 0;
      for (const [line, n] of small) total += Math.min(n, large.get(line) || 0);
      return total;
    }
    return { shared };
  }

  /** Before key -> after key of the regions paired by content (compare.py's Pairing). */
  function contentPairs(before, oldRegions, after, newRegions, limits) {
    const oldByKey = new Map(oldRegions.map(r => [r.key, r])), newByKey = new Map(newRegions.map(r => [r.key, r]));
    const pairs = new Map();
    if (newRegions.every(r => oldByKey.has(r.key))) return pairs;
    const lines = lineCounts(before, after);
    const weak = new Set();
    for (const [key, old] of oldByKey) if (newByKey.has(key) && !similar(lines.shared(old, newByKey.get(key)), old, newByKey.get(key))) weak.add(key);
    const strong = key => oldByKey.has(key) && newByKey.has(key) && !weak.has(key);
    const b = tokens(before, oldRegions, r => (strong(r.key) ? "region:" : "before:") + r.key);
    const a = tokens(after, newRegions, r => (strong(r.key) ? "region:" : "after:") + r.key);
    for (const [equal, bs, bl, as, al] of IRTraceLinediff.diff(b.list, a.list, limits)) {
      if (equal) continue;
      const olds = regionsIn(b, bs, bs + bl).filter(r => !newByKey.has(r.key) || weak.has(r.key));
      const news = regionsIn(a, as, as + al).filter(r => !oldByKey.has(r.key));
      if (olds.length && news.length && cost(olds, news) <= PAIR_MAX_COST) greedy(olds, news, lines, pairs);
    }
    return pairs;
  }

  function cost(olds, news) {
    const total = regions => regions.reduce((sum, r) => sum + length(r), 0);
    return news.length * total(olds) + olds.length * total(news);
  }

  /** The similar pairs taken best first (shared / total lines, then after order, then before order) into pairs. */
  function greedy(olds, news, lines, pairs) {
    const found = [];
    news.forEach((fresh, j) => olds.forEach((old, i) => {
      const shared = lines.shared(old, fresh);
      if (similar(shared, old, fresh)) found.push({ shared, total: length(old) + length(fresh), j, i });
    }));
    found.sort((x, y) => (y.shared * x.total - x.shared * y.total) || x.j - y.j || x.i - y.i);
    const takenOld = new Set(), takenNew = new Set();
    for (const { j, i } of found) {
      if (takenOld.has(i) || takenNew.has(j)) continue;
      takenOld.add(i);
      takenNew.add(j);
      pairs.set(olds[i].key, news[j].key);
    }
  }

  function byRegion(out, before, oldRegions, after, newRegions, limits) {
    const pairs = contentPairs(before, oldRegions, after, newRegions, limits);
    for (const [old, fresh] of pairs) out.beforeKeys.set(fresh, old);
    const newByKey = new Map(newRegions.map(r => [r.key, r]));
    // A region's partner: by content, else by name unless its namesake went to a content pair.
    const partnerOf = new Map(), oldOf = new Map();
    for (const r of oldRegions) {
      const partner = pairs.has(r.key) ? pairs.get(r.key) : newByKey.has(r.key) ? r.key : null;
      if (partner !== null) { partnerOf.set(r.key, partner); oldOf.set(partner, r); }
    }
    const b = tokens(before, oldRegions, r => (partnerOf.has(r.key) ? "pair:" + partnerOf.get(r.key) : "removed:" + r.key));
    const a = tokens(after, newRegions, r => (oldOf.has(r.key) ? "pair:" : "added:") + r.key);
    const expand = (side, region) => {
      const old = side === 0 ? region : oldOf.get(region.key);
      if (side === 1 && !old) out.change(region.key, 0, 0, region.start, length(region));
      else if (side === 0) out.change(region.key, region.start, length(region), 0, 0);
      else diffLines(out, region.key, before, old.start, old.end, after, region.start, region.end, limits);
    };
    for (const [equal, bs, bl, as, al] of IRTraceLinediff.diff(b.list, a.list, limits)) {
      if (equal) {
        const shift = bs - as;  // before token index - after token index
        for (const [region, lo, hi] of stretches(a, as, as + al)) {
          if (region === null) out.equal(null, b.starts[lo + shift], a.starts[lo], hi - lo);
          else expand(1, region);
        }
        continue;
      }
      for (const [region, lo, hi] of stretches(b, bs, bs + bl)) {
        if (region === null) out.change(null, b.starts[lo], hi - lo, 0, 0);
        else if (!partnerOf.has(region.key)) expand(0, region);
      }
      for (const [region, lo, hi] of stretches(a, as, as + al)) {
        if (region === null) out.change(null, 0, 0, a.starts[lo], hi - lo);
        else expand(1, region);
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
