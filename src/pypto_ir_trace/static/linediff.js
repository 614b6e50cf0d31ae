"use strict";
/*
 * The line diff of linediff.py, ported exactly: that module's docstring is the specification both
 * follow, and tests/browser/test_diff_agreement.py holds them to it. `limits` is the report's
 * data.limits, exported by Python (linediff.LIMITS): the page keeps no limits of its own.
 * Pure: items in (numbers or strings, compared with ===), blocks out.
 */
const IRTraceLinediff = (() => {
  /** Blocks [equal, aStart, aLen, bStart, bLen] covering a and b in order; equal and changed alternate. */
  function diff(a, b, limits) {
    const maxCost = limits && limits.myers_max_cost;
    if (!Number.isInteger(maxCost)) throw new TypeError("IRTraceLinediff.diff: limits.myers_max_cost is required");
    const blocks = [];
    const pending = [[0, a.length, 0, b.length]];  // a stack: gaps, and anchor stretches as [aStart, length, bStart]
    while (pending.length) {
      const item = pending.pop();
      if (item.length === 3) { append(blocks, true, item[0], item[1], item[2], item[1]); continue; }
      const [aLo, aHi, bLo, bHi] = item;
      const prefix = commonPrefix(a, b, aLo, aHi, bLo, bHi);
      const suffix = commonSuffix(a, b, aLo + prefix, aHi, bLo + prefix, bHi);
      append(blocks, true, aLo, prefix, bLo, prefix);
      const a0 = aLo + prefix, a1 = aHi - suffix, b0 = bLo + prefix, b1 = bHi - suffix;
      const tail = [a1, suffix, b1];
      if (a0 === a1 || b0 === b1) {
        append(blocks, false, a0, a1 - a0, b0, b1 - b0);
        append(blocks, true, a1, suffix, b1, suffix);
        continue;
      }
      const anchors = uniqueAnchors(a, b, a0, a1, b0, b1);
      if (!anchors.length) {
        for (const block of myers(a, b, a0, a1, b0, b1, maxCost)) append(blocks, ...block);
        append(blocks, true, a1, suffix, b1, suffix);
        continue;
      }
      const items = [];  // pushed in reverse below so that gaps and anchors pop in order; the tail comes last
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

  function append(blocks, equal, aStart, aLen, bStart, bLen) {
    if (!aLen && !bLen) return;
    const last = blocks[blocks.length - 1];
    if (last && last[0] === equal) { last[2] += aLen; last[4] += bLen; } else blocks.push([equal, aStart, aLen, bStart, bLen]);
  }

  function commonPrefix(a, b, aLo, aHi, bLo, bHi) {
    const limit = Math.min(aHi - aLo, bHi - bLo);
    let n = 0;
    while (n < limit && a[aLo + n] === b[bLo + n]) n++;
    return n;
  }

  function commonSuffix(a, b, aLo, aHi, bLo, bHi) {
    const limit = Math.min(aHi - aLo, bHi - bLo);
    let n = 0;
    while (n < limit && a[aHi - 1 - n] === b[bHi - 1 - n]) n++;
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
  function uniqueAnchors(a, b, aLo, aHi, bLo, bHi) {
    const count = new Map(), whereA = new Map();
    for (let i = aLo; i < aHi; i++) {
      count.set(a[i], (count.get(a[i]) || 0) + 1);
      whereA.set(a[i], i);
    }
    const seenB = new Map(), whereB = new Map();
    for (let j = bLo; j < bHi; j++) {
      if (count.get(b[j]) !== 1) continue;
      seenB.set(b[j], (seenB.get(b[j]) || 0) + 1);
      whereB.set(b[j], j);
    }
    const pairs = [];
    for (const [item, n] of seenB) if (n === 1) pairs.push([whereA.get(item), whereB.get(item)]);
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

  /** Myers' greedy shortest edit script on a[aLo:aHi] vs b[bLo:bHi] (both non-empty), as blocks. */
  function myers(a, b, aLo, aHi, bLo, bHi, maxCost) {
    const n = aHi - aLo, m = bHi - bLo;
    const maxD = Math.min(n + m, Math.floor(maxCost / (n + m)));
    const offset = maxD + 1;
    const v = new Int32Array(2 * maxD + 3);
    const trace = [];  // trace[d]: V before round d, for k in -d-1 .. d+1
    for (let d = 0; d <= maxD; d++) {
      trace.push(v.slice(offset - d - 1, offset + d + 2));
      for (let k = -d; k <= d; k += 2) {
        let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
        let y = x - k;
        while (x < n && y < m && a[aLo + x] === b[bLo + y]) { x++; y++; }
        v[offset + k] = x;
        if (x >= n && y >= m) return backtrack(trace, n, m, aLo, bLo);
      }
    }
    return [[false, aLo, n, bLo, m]];  // the cap gave up: one replaced block
  }

  /** Follow the saved V arrays from (n, m) back to (0, 0); emit blocks in order. */
  function backtrack(trace, n, m, aLo, bLo) {
    const steps = [];  // collected backwards: 0 equal, 1 deletion, 2 insertion
    let x = n, y = m;
    for (let d = trace.length - 1; d >= 0; d--) {
      const v = trace[d], k = x - y, at = kk => v[kk + d + 1];
      const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
      const prevK = down ? k + 1 : k - 1;
      const prevX = at(prevK), prevY = prevX - prevK;
      while (x > prevX && y > prevY) { steps.push(0); x--; y--; }
      if (d > 0) { steps.push(down ? 2 : 1); x = prevX; y = prevY; }
    }
    const blocks = [];
    let ax = aLo, by = bLo;
    for (let s = steps.length - 1; s >= 0; s--) {
      const step = steps[s], da = step !== 2 ? 1 : 0, db = step !== 1 ? 1 : 0;
      append(blocks, step === 0, ax, da, by, db);
      ax += da;
      by += db;
    }
    return blocks;
  }

  return { diff };
})();
