"use strict";
/*
 * The line diff of linediff.py, ported exactly: that module's docstring is the specification both
 * follow, and tests/browser/test_diff_agreement.py holds them to it. `limits` is the report's
 * data.limits, exported by Python (linediff.LIMITS): the page keeps no limits of its own.
 * Pure: items in (numbers or strings, compared with ===), blocks out. As in linediff.py (and everywhere on the
 * page), b is the before side and a the after side: diff(b, a) is linediff.diff(b, a).
 */
const IRTraceLinediff = (() => {
  /** Blocks [equal, bStart, bLen, aStart, aLen] covering b (before) and a (after) in order; equal and changed alternate. */
  function diff(b, a, limits) {
    const maxCost = limits && limits.myers_max_cost;
    if (!Number.isInteger(maxCost)) throw new TypeError("IRTraceLinediff.diff: limits.myers_max_cost is required");
    const blocks = [];
    const pending = [[0, b.length, 0, a.length]];  // a stack: gaps, and anchor stretches as [bStart, length, aStart]
    while (pending.length) {
      const item = pending.pop();
      if (item.length === 3) { append(blocks, true, item[0], item[1], item[2], item[1]); continue; }
      const [bLo, bHi, aLo, aHi] = item;
      const prefix = commonPrefix(b, a, bLo, bHi, aLo, aHi);
      const suffix = commonSuffix(b, a, bLo + prefix, bHi, aLo + prefix, aHi);
      append(blocks, true, bLo, prefix, aLo, prefix);
      const b0 = bLo + prefix, b1 = bHi - suffix, a0 = aLo + prefix, a1 = aHi - suffix;
      const tail = [b1, suffix, a1];
      if (b0 === b1 || a0 === a1) {
        append(blocks, false, b0, b1 - b0, a0, a1 - a0);
        append(blocks, true, b1, suffix, a1, suffix);
        continue;
      }
      const anchors = uniqueAnchors(b, a, b0, b1, a0, a1);
      if (!anchors.length) {
        for (const block of myers(b, a, b0, b1, a0, a1, maxCost)) append(blocks, ...block);
        append(blocks, true, b1, suffix, a1, suffix);
        continue;
      }
      const items = [];  // pushed in reverse below so that gaps and anchors pop in order; the tail comes last
      let i = b0, j = a0;
      for (const [bi, aj, n] of anchorRuns(anchors)) {
        if (bi > i || aj > j) items.push([i, bi, j, aj]);
        items.push([bi, n, aj]);
        i = bi + n;
        j = aj + n;
      }
      items.push([i, b1, j, a1], tail);
      for (let k = items.length - 1; k >= 0; k--) pending.push(items[k]);
    }
    return blocks;
  }

  function append(blocks, equal, bStart, bLen, aStart, aLen) {
    if (!bLen && !aLen) return;
    const last = blocks[blocks.length - 1];
    if (last && last[0] === equal) { last[2] += bLen; last[4] += aLen; } else blocks.push([equal, bStart, bLen, aStart, aLen]);
  }

  function commonPrefix(b, a, bLo, bHi, aLo, aHi) {
    const limit = Math.min(bHi - bLo, aHi - aLo);
    let n = 0;
    while (n < limit && b[bLo + n] === a[aLo + n]) n++;
    return n;
  }

  function commonSuffix(b, a, bLo, bHi, aLo, aHi) {
    const limit = Math.min(bHi - bLo, aHi - aLo);
    let n = 0;
    while (n < limit && b[bHi - 1 - n] === a[aHi - 1 - n]) n++;
    return n;
  }

  /** Consecutive anchors [i, j], [i + 1, j + 1], ... as one [i, j, length] stretch. */
  function* anchorRuns(anchors) {
    let start = 0;
    for (let k = 1; k <= anchors.length; k++) {
      if (k === anchors.length || anchors[k][0] !== anchors[k - 1][0] + 1 || anchors[k][1] !== anchors[k - 1][1] + 1) {
        yield [anchors[start][0], anchors[start][1], k - start];
        start = k;
      }
    }
  }

  /** Pairs [i, j] of items unique on both sides, the patience chain increasing in both. */
  function uniqueAnchors(b, a, bLo, bHi, aLo, aHi) {
    const count = new Map(), whereB = new Map();
    for (let i = bLo; i < bHi; i++) {
      count.set(b[i], (count.get(b[i]) || 0) + 1);
      whereB.set(b[i], i);
    }
    const seenA = new Map(), whereA = new Map();
    for (let j = aLo; j < aHi; j++) {
      if (count.get(a[j]) !== 1) continue;
      seenA.set(a[j], (seenA.get(a[j]) || 0) + 1);
      whereA.set(a[j], j);
    }
    const pairs = [];
    for (const [item, n] of seenA) if (n === 1) pairs.push([whereB.get(item), whereA.get(item)]);
    pairs.sort((x, y) => x[0] - y[0]);  // i is unique: no ties
    return longestIncreasing(pairs);
  }

  function longestIncreasing(pairs) {
    const tails = [], tailIndex = [], back = [];  // tails[k]: j on top of pile k
    pairs.forEach(([, j], index) => {
      let lo = 0, hi = tails.length;  // lower bound: the first pile whose top is not below j
      while (lo < hi) { const mid = (lo + hi) >> 1; if (tails[mid] < j) lo = mid + 1; else hi = mid; }
      back.push(lo ? tailIndex[lo - 1] : -1);
      tails[lo] = j;
      tailIndex[lo] = index;
    });
    const chain = [];
    for (let index = tailIndex.length ? tailIndex[tailIndex.length - 1] : -1; index >= 0; index = back[index]) chain.push(pairs[index]);
    return chain.reverse();
  }

  /** Myers' greedy shortest edit script on the shared items of b[bLo:bHi] vs a[aLo:aHi] (both non-empty), as blocks over the whole gap. */
  function myers(b, a, bLo, bHi, aLo, aHi, maxCost) {
    const whole = [[false, bLo, bHi - bLo, aLo, aHi - aLo]];  // what giving up, or no shared item, gives
    const inB = new Set(b.slice(bLo, bHi)), inA = new Set(a.slice(aLo, aHi));
    const bAt = [], aAt = [];
    for (let i = bLo; i < bHi; i++) if (inA.has(b[i])) bAt.push(i);
    if (!bAt.length) return whole;
    for (let j = aLo; j < aHi; j++) if (inB.has(a[j])) aAt.push(j);
    const old = bAt.map(i => b[i]), neu = aAt.map(j => a[j]);
    const n = old.length, m = neu.length;
    const maxD = Math.min(n + m, Math.floor(maxCost / (n + m)));
    const offset = maxD + 1;
    const v = new Int32Array(2 * maxD + 3);
    const trace = [];  // trace[d]: V before round d, for k in -d-1 .. d+1
    for (let d = 0; d <= maxD; d++) {
      trace.push(v.slice(offset - d - 1, offset + d + 2));
      for (let k = -d; k <= d; k += 2) {
        let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
        let y = x - k;
        while (x < n && y < m && old[x] === neu[y]) { x++; y++; }
        v[offset + k] = x;
        if (x >= n && y >= m) return encode(backtrack(trace, n, m).map(([x, y]) => [bAt[x], aAt[y]]), bLo, bHi, aLo, aHi);
      }
    }
    return whole;  // the cap gave up: one replaced block
  }

  /** Follow the saved V arrays from (n, m) back to (0, 0): the matched [x, y], in increasing order. */
  function backtrack(trace, n, m) {
    const matched = [];  // collected backwards
    let x = n, y = m;
    for (let d = trace.length - 1; d >= 0; d--) {
      const v = trace[d], k = x - y, at = kk => v[kk + d + 1];
      const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
      const prevK = down ? k + 1 : k - 1;
      const prevX = at(prevK), prevY = prevX - prevK;
      while (x > prevX && y > prevY) { x--; y--; matched.push([x, y]); }
      if (d > 0) { x = prevX; y = prevY; }
    }
    return matched.reverse();
  }

  /** The canonical blocks of matched pairs (increasing on both sides) over b[bLo:bHi] vs a[aLo:aHi]. */
  function encode(matched, bLo, bHi, aLo, aHi) {
    const blocks = [];
    let i = bLo, j = aLo;
    for (const [bi, aj, n] of anchorRuns(matched)) {
      append(blocks, false, i, bi - i, j, aj - j);
      append(blocks, true, bi, n, aj, n);
      i = bi + n;
      j = aj + n;
    }
    append(blocks, false, i, bHi - i, j, aHi - j);
    return blocks;
  }

  return { diff };
})();
