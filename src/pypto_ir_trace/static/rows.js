"use strict";
/*
 * Pure logic of the panes: aligned rows of a pass (named objects of model.js), folds, the display
 * list, word changes and how a line's marks nest. Data in, arrays out; no DOM.
 */
const IRTraceRows = (() => {
  const KIND_EQUAL = 0, KIND_PAIR = 1, KIND_DELETED = 2, KIND_INSERTED = 3;

  /**
   * Aligned rows of a view: the whole file (key null) or one region's piece. `span` is the
   * [start, end) of the view in the text, used for a no-op pass, which has no pieces.
   * `textOf(side, line)` (side 0 before, 1 after), when given, lets a replaced block face similar
   * lines with each other instead of pairing them by position.
   * Returns {b, a, kind} typed arrays; b/a are line indices (-1 where a side has no line).
   */
  function buildRows(pass, key, span, textOf = null) {
    if (!pass.pieces) return identityRows(span);
    const pieces = key === null ? pass.pieces : pass.pieces.filter(piece => piece.key === key);
    let capacity = 0;  // every block gives at most equal + deleted + inserted rows: fill typed arrays, no growing lists
    for (const piece of pieces) for (const block of piece.blocks) capacity += block.equal + block.deleted + block.inserted;
    const b = new Int32Array(capacity), a = new Int32Array(capacity), kind = new Uint8Array(capacity);
    let n = 0;
    const push = (bi, ai, k) => { b[n] = bi; a[n] = ai; kind[n] = k; n++; };
    for (const piece of pieces) {
      for (const { b: b0, a: a0, equal: eq, deleted: del, inserted: ins } of piece.blocks) {
        for (let i = 0; i < eq; i++) push(b0 + i, a0 + i, KIND_EQUAL);
        const pairs = textOf ? alignBlock(b0 + eq, del, a0 + eq, ins, textOf) : [];
        let i = 0, j = 0;
        for (const [pi, pj] of [...pairs, [del, ins]]) {  // [del, ins] closes the block: not a match
          const nb = pi - i, na = pj - j;  // lines before this match: paired by position, as before
          for (let k = 0; k < Math.max(nb, na); k++) {
            push(k < nb ? b0 + eq + i + k : -1, k < na ? a0 + eq + j + k : -1,
              k < nb && k < na ? KIND_PAIR : k < nb ? KIND_DELETED : KIND_INSERTED);
          }
          if (pi < del) push(b0 + eq + pi, a0 + eq + pj, KIND_PAIR);
          i = pi + 1;
          j = pj + 1;
        }
      }
    }
    return { b: b.subarray(0, n), a: a.subarray(0, n), kind: kind.subarray(0, n) };
  }

  const ALIGN_LIMIT = 40000;  // deleted x inserted lines of one block; past that, pairing stays positional
  const SIMILAR = 0.5;        // share of tokens two lines must have in common to face each other

  /** Monotone pairs [i, j] of similar lines in a replaced block, maximising the total similarity. */
  function alignBlock(bStart, del, aStart, ins, textOf) {
    if (del < 2 && ins < 2 || del * ins > ALIGN_LIMIT) return [];
    const bags = (side, start, n) => Array.from({ length: n }, (_, k) => tokenBag(textOf(side, start + k)));
    const before = bags(0, bStart, del), after = bags(1, aStart, ins);
    const best = Array.from({ length: del + 1 }, () => new Float64Array(ins + 1));
    for (let i = del - 1; i >= 0; i--) {
      for (let j = ins - 1; j >= 0; j--) {
        const score = similarity(before[i], after[j]);
        best[i][j] = Math.max(best[i + 1][j], best[i][j + 1], score >= SIMILAR ? score + best[i + 1][j + 1] : 0);
      }
    }
    const pairs = [];
    for (let i = 0, j = 0; i < del && j < ins;) {
      const score = similarity(before[i], after[j]);
      if (score >= SIMILAR && best[i][j] === score + best[i + 1][j + 1]) { pairs.push([i, j]); i++; j++; }
      else if (best[i][j] === best[i + 1][j]) i++;
      else j++;
    }
    return pairs;
  }

  const bags = new Map();  // text -> its token bag: lines recur across passes, so their bags are kept

  function tokenBag(text) {
    let known = bags.get(text);
    if (!known) bags.set(text, known = countTokens(text));
    return known;
  }

  function countTokens(text) {
    const bag = new Map();
    let size = 0;
    for (const token of text.match(TOKEN) || []) {
      if (/^\s+$/u.test(token)) continue;
      bag.set(token, (bag.get(token) || 0) + 1);
      size++;
    }
    return { bag, size };
  }

  function similarity(x, y) {
    if (!x.size || !y.size) return x.size === y.size ? 1 : 0;
    let common = 0;
    for (const [token, count] of x.bag) common += Math.min(count, y.bag.get(token) || 0);
    return (2 * common) / (x.size + y.size);
  }

  function identityRows([start, end]) {
    const n = end - start;
    const rows = { b: new Int32Array(n), a: new Int32Array(n), kind: new Uint8Array(n) };
    for (let i = 0; i < n; i++) { rows.b[i] = start + i; rows.a[i] = start + i; }
    return rows;
  }

  /**
   * Folds: unchanged runs beyond `context` lines from a change. Returns [{start, end}] row ranges
   * (end exclusive), each to be shown as one fold row while collapsed. A view without any change
   * (a no-op pass, an untouched function) has nothing to keep context around, so it is not folded:
   * folding it would hide all of it behind one button.
   */
  function computeFolds(kind, context) {
    const folds = [];
    const n = kind.length;
    if (kind.every(k => k === KIND_EQUAL)) return folds;
    let i = 0;
    while (i < n) {
      if (kind[i] !== KIND_EQUAL) { i++; continue; }
      let j = i;
      while (j < n && kind[j] === KIND_EQUAL) j++;
      const start = i === 0 ? 0 : i + context;
      const end = j === n ? n : j - context;
      if (end - start >= 1) folds.push({ start, end });
      i = j;
    }
    return folds;
  }

  /** Display order: row indices, with -(f + 1) standing for collapsed fold f. */
  function displayList(rowCount, folds, expanded) {
    const out = [];
    let r = 0;
    folds.forEach((fold, f) => {
      for (; r < fold.start; r++) out.push(r);
      if (expanded[f]) for (; r < fold.end; r++) out.push(r);
      else { out.push(-(f + 1)); r = fold.end; }
    });
    for (; r < rowCount; r++) out.push(r);
    return Int32Array.from(out);
  }

  /** The changes of a view: [{start, end}] row ranges (end exclusive) of consecutive changed rows. */
  function hunks(kind) {
    const out = [];
    for (let r = 0; r < kind.length; r++) {
      if (kind[r] === KIND_EQUAL) continue;
      const start = r;
      while (r < kind.length && kind[r] !== KIND_EQUAL) r++;
      out.push({ start, end: r });
    }
    return out;
  }

  /**
   * What each pane of a layout lists, as entries: (row << 1 | side) for a row's line on one side,
   * -(f + 1) for collapsed fold f (the display list's own code). "split": every displayed row on both
   * sides, fillers included, so the panes align row for row; "stacked": each side's own lines only;
   * "unified": one pane, an unchanged row once (side 1), and in each run of changed rows its deleted
   * lines before its inserted lines, as `git diff` prints them. Returns one Int32Array per pane.
   */
  function paneEntries(rows, display, layout) {
    const { b, a, kind } = rows;
    if (layout === "unified") {
      const out = [];
      for (let d = 0; d < display.length;) {
        const item = display[d];
        if (item < 0 || kind[item] === KIND_EQUAL) { out.push(item < 0 ? item : item << 1 | 1); d++; continue; }
        let end = d;
        while (end < display.length && display[end] >= 0 && kind[display[end]] !== KIND_EQUAL) end++;
        for (let k = d; k < end; k++) if (b[display[k]] >= 0) out.push(display[k] << 1);
        for (let k = d; k < end; k++) if (a[display[k]] >= 0) out.push(display[k] << 1 | 1);
        d = end;
      }
      return [Int32Array.from(out)];
    }
    return [0, 1].map(side => {
      const line = side === 0 ? b : a, out = [];
      for (const item of display) {
        if (item < 0) out.push(item);
        else if (layout === "split" || line[item] >= 0) out.push(item << 1 | side);
      }
      return Int32Array.from(out);
    });
  }

  /**
   * For each row, the index of the entry that shows it in a pane (`entries` of paneEntries); a row the
   * pane does not list maps to the next entry that it does (or the last), a folded row to its fold.
   */
  function entryOfRows(entries, rowCount, folds) {
    const at = new Int32Array(rowCount).fill(-1);
    entries.forEach((entry, d) => {
      if (entry >= 0) { if (at[entry >> 1] < 0) at[entry >> 1] = d; return; }
      const fold = folds[-entry - 1];
      for (let r = fold.start; r < fold.end; r++) at[r] = d;
    });
    let next = Math.max(entries.length - 1, 0);
    for (let r = rowCount - 1; r >= 0; r--) {
      if (at[r] < 0) at[r] = next;
      else next = at[r];
    }
    return at;
  }

  /** Where each of n variable-height entries starts: offsets[d] (offsets[n] is the total height). */
  function offsetsOf(heights) {
    const offsets = new Float64Array(heights.length + 1);
    for (let d = 0; d < heights.length; d++) offsets[d + 1] = offsets[d] + heights[d];
    return offsets;
  }

  /** The entry whose span holds y (binary search over offsetsOf's result), clamped to the entries. */
  function entryAt(offsets, y) {
    let low = 0, high = offsets.length - 2;
    if (high < 0) return 0;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (offsets[mid] <= y) low = mid; else high = mid - 1;
    }
    return low;
  }

  const TOKEN = /\w+|\s|[^\w\s]/gu;  // one token per blank: a deeper indent marks only the added blanks

  /**
   * Word-level changes between two lines: {before: [[start, end]], after: [[start, end]]} in UTF-16
   * units, or null when the lines share too little for word marks to help.
   */
  function wordDiff(before, after) {
    const a = before.match(TOKEN) || [], b = after.match(TOKEN) || [];
    let prefix = 0;
    while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
    let suffix = 0;
    while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
    const common = lcsMask(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix));
    if (!common) return null;
    const keepA = new Uint8Array(a.length).fill(1), keepB = new Uint8Array(b.length).fill(1);
    common.a.forEach((keep, i) => { keepA[prefix + i] = keep; });
    common.b.forEach((keep, i) => { keepB[prefix + i] = keep; });
    const sharedChars = a.reduce((sum, token, i) => sum + (keepA[i] ? token.length : 0), 0);
    if (sharedChars < 0.3 * Math.max(before.length, after.length)) return null;
    return { before: ranges(a, keepA), after: ranges(b, keepB) };
  }

  /**
   * Where wordDiff's changes on `line` (against `other`) can lie: [[start, end]], the stretch between what the
   * two share at both ends, widened to whole words (a change is whole tokens). Cheap: no diff is made.
   */
  function changedStretch(line, other) {
    const shortest = Math.min(line.length, other.length);
    let start = 0, tail = 0;
    while (start < shortest && line[start] === other[start]) start++;
    while (tail < shortest - start && line[line.length - 1 - tail] === other[other.length - 1 - tail]) tail++;
    let end = line.length - tail;
    while (start > 0 && WORD.test(line[start - 1])) start--;
    while (end < line.length && WORD.test(line[end])) end++;
    return [[start, end]];
  }
  const WORD = /\w/u;  // as TOKEN's words

  function ranges(tokens, keep) {
    const out = [];
    let at = 0;
    tokens.forEach((token, i) => {
      const end = at + token.length;
      if (!keep[i]) {
        if (out.length && out[out.length - 1][1] === at) out[out.length - 1][1] = end;
        else out.push([at, end]);
      }
      at = end;
    });
    return out;
  }

  /** Which tokens of a and b lie on a longest common subsequence (O(ND) Myers), null if too costly. */
  function lcsMask(a, b) {
    const n = a.length, m = b.length;
    const maskA = new Uint8Array(n), maskB = new Uint8Array(m);
    if (!n || !m) return { a: maskA, b: maskB };
    const max = n + m, offset = max + 1;
    if ((n + m) * Math.min(max, 400) > 4e6) return null;
    const v = new Int32Array(2 * max + 3);
    const trace = [];
    for (let d = 0; d <= Math.min(max, 400); d++) {
      trace.push(v.slice(offset - d - 1, offset + d + 2));
      for (let k = -d; k <= d; k += 2) {
        let x = (k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1;
        let y = x - k;
        while (x < n && y < m && a[x] === b[y]) { x++; y++; }
        v[offset + k] = x;
        if (x >= n && y >= m) return backtrack(trace, n, m, maskA, maskB);
      }
    }
    return null;
  }

  function backtrack(trace, n, m, maskA, maskB) {
    let x = n, y = m;
    for (let d = trace.length - 1; d >= 0; d--) {
      const v = trace[d], k = x - y, at = kk => v[kk + d + 1];  // trace[d] holds k = -d-1 .. d+1
      const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
      const prevK = down ? k + 1 : k - 1;
      const prevX = at(prevK), prevY = prevX - prevK;
      while (x > prevX && y > prevY && x > 0 && y > 0) { x--; y--; maskA[x] = 1; maskB[y] = 1; }
      if (d > 0) { x = prevX; y = prevY; }
    }
    return { a: maskA, b: maskB };
  }

  /**
   * How a line's marks nest, outermost first: word changes, then search matches, then highlight
   * spans. `highlights` [{start, end, name}], `changes` and `matches` [[start, end]], each sorted and
   * non-overlapping. Returns [{change, start, end, parts: [{match, start, end, parts: [{start, end,
   * name}]}]}] covering [0, length): one element per stretch, so a changed word is one <del>/<ins> even
   * when it spans several highlight classes. name is null for text outside every highlight span.
   */
  function lineParts(length, highlights, changes, matches) {
    const cuts = new Set([0, length]);
    for (const { start, end } of highlights) { cuts.add(start); cuts.add(end); }
    for (const list of [changes, matches]) for (const [start, end] of list) { cuts.add(start); cuts.add(end); }
    const points = Array.from(cuts).filter(x => x <= length).sort((x, y) => x - y);
    const inside = list => {  // one pointer per list: the sweep is linear in the marks
      let next = 0;
      return (start, endOf, value) => {
        while (next < list.length && endOf(list[next]) <= start) next++;
        return next < list.length && value(list[next]) <= start ? list[next] : null;
      };
    };
    const inHighlight = inside(highlights), inChange = inside(changes), inMatch = inside(matches);
    const top = [];
    for (let i = 0; i + 1 < points.length; i++) {
      const start = points[i], end = points[i + 1];
      const span = inHighlight(start, h => h.end, h => h.start);
      const change = inChange(start, c => c[1], c => c[0]) !== null;
      const match = inMatch(start, m => m[1], m => m[0]) !== null;
      let outer = top[top.length - 1];
      if (!outer || outer.change !== change) top.push(outer = { change, start, end, parts: [] });
      let inner = outer.parts[outer.parts.length - 1];
      if (!inner || inner.match !== match) outer.parts.push(inner = { match, start, end, parts: [] });
      inner.parts.push({ start, end, name: span ? span.name : null });
      outer.end = inner.end = end;
    }
    return top;
  }

  return {
    KIND_EQUAL, KIND_PAIR, KIND_DELETED, KIND_INSERTED, lineParts,
    buildRows, computeFolds, displayList, wordDiff, changedStretch, hunks, paneEntries, entryOfRows, offsetsOf, entryAt,
  };
})();
