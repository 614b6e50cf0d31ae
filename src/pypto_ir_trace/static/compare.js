"use strict";
/*
 * Any two snapshots compared in the browser, the way model.py compares a pass's two sides
 * (linediff.py and compare.py): lines outside regions diff as lines, regions pair by key, and the
 * result has the shape of a pass ({pieces, inserted, ins, del, regions}), so rows.js reads it unchanged.
 * Pure: data in, data out.
 */
const IRTraceCompare = (() => {
  /** Blocks [equal, aStart, aLen, bStart, bLen] covering a and b: trim, unique anchors, then LCS. */
  function diffSequences(a, b) {
    const blocks = [];
    const push = (equal, as, al, bs, bl) => {
      if (!al && !bl) return;
      const last = blocks[blocks.length - 1];
      if (last && last[0] === equal) { last[2] += al; last[4] += bl; } else blocks.push([equal, as, al, bs, bl]);
    };
    const pending = [[0, a.length, 0, b.length]];
    while (pending.length) {
      const item = pending.pop();
      if (item.length === 3) { push(true, item[0], item[1], item[2], item[1]); continue; }  // an anchor run
      const [aLo, aHi, bLo, bHi] = item;
      let pre = 0;
      while (aLo + pre < aHi && bLo + pre < bHi && a[aLo + pre] === b[bLo + pre]) pre++;
      let suf = 0;
      while (aLo + pre + suf < aHi && bLo + pre + suf < bHi && a[aHi - 1 - suf] === b[bHi - 1 - suf]) suf++;
      push(true, aLo, pre, bLo, pre);
      const a0 = aLo + pre, a1 = aHi - suf, b0 = bLo + pre, b1 = bHi - suf;
      const tail = [a1, suf, b1];
      const anchors = a0 < a1 && b0 < b1 ? uniqueAnchors(a, b, a0, a1, b0, b1) : [];
      if (!anchors.length) {
        lcsBlocks(a, b, a0, a1, b0, b1).forEach(block => push(...block));
        push(true, ...tail, suf);
        continue;
      }
      const items = [];
      let i = a0, j = b0;
      for (const [ai, bj, n] of anchorRuns(anchors)) {
        if (ai > i || bj > j) items.push([i, ai, j, bj]);
        items.push([ai, n, bj]);
        i = ai + n;
        j = bj + n;
      }
      items.push([i, a1, j, b1], tail);
      for (let k = items.length - 1; k >= 0; k--) pending.push(items[k]);
    }
    return blocks;
  }

  /** Items unique on both sides, as [i, j] pairs increasing on both (longest such run: patience). */
  function uniqueAnchors(a, b, a0, a1, b0, b1) {
    const countA = new Map(), where = new Map(), countB = new Map();
    for (let i = a0; i < a1; i++) { countA.set(a[i], (countA.get(a[i]) || 0) + 1); where.set(a[i], i); }
    for (let j = b0; j < b1; j++) if (countA.get(b[j]) === 1) countB.set(b[j], [(countB.get(b[j]) || [0])[0] + 1, j]);
    const pairs = [];
    for (const [item, [n, j]] of countB) if (n === 1) pairs.push([where.get(item), j]);
    pairs.sort((x, y) => x[0] - y[0]);
    const tails = [], tailAt = [], back = [];
    pairs.forEach(([, j], index) => {
      let lo = 0, hi = tails.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (tails[mid] < j) lo = mid + 1; else hi = mid; }
      back.push(lo ? tailAt[lo - 1] : -1);
      tails[lo] = j;
      tailAt[lo] = index;
    });
    const chain = [];
    for (let index = tailAt.length ? tailAt[tailAt.length - 1] : -1; index >= 0; index = back[index]) chain.push(pairs[index]);
    return chain.reverse();
  }

  function* anchorRuns(anchors) {
    let start = 0;
    for (let k = 1; k <= anchors.length; k++) {
      if (k === anchors.length || anchors[k][0] !== anchors[k - 1][0] + 1 || anchors[k][1] !== anchors[k - 1][1] + 1) {
        yield [anchors[start][0], anchors[start][1], k - start];
        start = k;
      }
    }
  }

  /** A gap without anchors: the LCS of rows.js when affordable, else one replaced block. */
  function lcsBlocks(a, b, a0, a1, b0, b1) {
    const mask = IRTraceRows.lcsMask(a.slice(a0, a1), b.slice(b0, b1));
    if (!mask) return [[false, a0, a1 - a0, b0, b1 - b0]];
    const blocks = [];
    let i = 0, j = 0;
    const n = a1 - a0, m = b1 - b0;
    while (i < n || j < m) {
      if (i < n && j < m && mask.a[i] && mask.b[j]) { blocks.push([true, a0 + i, 1, b0 + j, 1]); i++; j++; }
      else if (i < n && !mask.a[i]) { blocks.push([false, a0 + i, 1, b0 + j, 0]); i++; }
      else { blocks.push([false, a0 + i, 0, b0 + j, 1]); j++; }
    }
    return blocks;
  }

  /** Runs collected into pieces of contiguous segments: the pass format of rows.js. */
  function pieceBuilder(afterIds) {
    const pieces = [], inserted = [];
    let nextB = -1, nextA = -1;
    function segment(key, b, a) {
      if (!pieces.length || pieces[pieces.length - 1][0] !== key) pieces.push([key, 0, 0, []]);
      const segments = pieces[pieces.length - 1][3];
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
        const seg = segment(key, b, a);
        if (seg.length > 2 && seg[seg.length - 1] === 0 && seg[seg.length - 2] === 0) seg[seg.length - 3] += n;
        else seg.push(n, 0, 0);
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
        piece[1] += ins;
        piece[2] += del;
        for (let k = a; k < a + ins; k++) inserted.push(afterIds[k]);
      },
    };
  }

  function diffRange(out, key, before, b0, b1, after, a0, a1) {
    for (const [equal, as, al, bs, bl] of diffSequences(before.slice(b0, b1), after.slice(a0, a1))) {
      if (equal) out.equal(key, b0 + as, a0 + bs, al);
      else out.change(key, b0 + as, al, a0 + bs, bl);
    }
  }

  /** Outside lines as their ids, each region as one token (its key, a string), with each token's first line. */
  function tokens(ids, regions) {
    const list = [], starts = [];
    let line = 0;
    for (const [key, , start, end] of regions) {
      for (; line < start; line++) { list.push(ids[line]); starts.push(line); }
      list.push("region:" + key);
      starts.push(start);
      line = end;
    }
    for (; line < ids.length; line++) { list.push(ids[line]); starts.push(line); }
    return { list, starts };
  }

  /** Snapshot texts tb -> ta compared like a pass: {before, after, pieces, inserted, ins, del, regions}. */
  function compareTexts(data, store, tb, ta) {
    const before = Array.from(store.ids(tb)), after = Array.from(store.ids(ta));
    const out = pieceBuilder(after);
    const oldText = data.texts[tb], newText = data.texts[ta];
    if (tb !== ta && !oldText.untrusted && !newText.untrusted) byRegion(out, before, oldText.regions, after, newText.regions);
    else if (tb !== ta) diffRange(out, null, before, 0, before.length, after, 0, after.length);
    const result = { before: tb, after: ta, ins: 0, del: 0, regions: {} };
    if (tb === ta) return result;
    Object.assign(result, { pieces: out.pieces, inserted: out.inserted });
    for (const [key, ins, del] of out.pieces) {
      result.ins += ins;
      result.del += del;
      if (key !== null && (ins || del)) result.regions[key] = [ins, del];
    }
    return result;
  }

  function byRegion(out, before, oldRegions, after, newRegions) {
    const b = tokens(before, oldRegions), a = tokens(after, newRegions);
    const oldByKey = new Map(oldRegions.map(r => [r[0], r])), newByKey = new Map(newRegions.map(r => [r[0], r]));
    const expand = key => {
      const old = oldByKey.get(key), fresh = newByKey.get(key);
      if (!old) out.change(key, 0, 0, fresh[2], fresh[3] - fresh[2]);
      else if (!fresh) out.change(key, old[2], old[3] - old[2], 0, 0);
      else diffRange(out, key, before, old[2], old[3], after, fresh[2], fresh[3]);
    };
    const keyOf = token => (typeof token === "string" ? token.slice("region:".length) : null);
    for (const [equal, as, al, bs, bl] of diffSequences(b.list, a.list)) {
      if (equal) {
        for (let k = 0; k < bl; k++) {
          const key = keyOf(a.list[bs + k]);
          if (key === null) out.equal(null, b.starts[as + k], a.starts[bs + k], 1);
          else expand(key);
        }
        continue;
      }
      for (let k = as; k < as + al; k++) {
        const key = keyOf(b.list[k]);
        if (key === null) out.change(null, b.starts[k], 1, 0, 0);
        else if (!newByKey.has(key)) expand(key);
      }
      for (let k = bs; k < bs + bl; k++) {
        const key = keyOf(a.list[k]);
        if (key === null) out.change(null, 0, 0, a.starts[k], 1);
        else expand(key);
      }
    }
  }

  return { diffSequences, compareTexts };
})();
