"use strict";
/*
 * A pass's effect in two runs compared as an edit: effect.py's definition (its docstring is the specification;
 * README, "Two runs"), for the page to decide it again on texts the builder never saw: two runs seen through the
 * filters (filteredruns.js). tests/browser/test_effect_agreement.py holds it to effect.py on real runs.
 * Pure: line ids and diffs in (a diff's pieces as model.js reads them: blocks {b, a, equal, deleted, inserted}),
 * a verdict out.
 */
const IRTraceEffect = (() => {
  const { sameIds } = IRTraceFiltered;  // line ids, the same lines in the same order
  // effect.py's TOKEN: words, runs of blanks, single signs (Python's \w is Unicode's letters, digits and _)
  const TOKEN = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;

  /** How line `now` differs from `old`, word by word, as a key: equal keys, the same replaced stretches in order. */
  function words(old, now, limits) {
    const before = old.match(TOKEN) || [], after = now.match(TOKEN) || [];
    const stretches = [];
    for (const [equal, bStart, bLen, aStart, aLen] of IRTraceLinediff.diff(before, after, limits)) {
      if (!equal) stretches.push([before.slice(bStart, bStart + bLen).join(""), after.slice(aStart, aStart + aLen).join("")]);
    }
    return JSON.stringify(stretches);
  }

  /**
   * Two texts of the runs lined up by their diff (the baseline's text before, this run's after): for each line of
   * this run's, the baseline's line facing it (-1: none), and which of those pairs differ. `pieces` null: the
   * texts are identical.
   */
  function lineup(pieces, length) {
    const partner = new Int32Array(length).fill(-1), differs = new Set();
    if (!pieces) partner.forEach((_, t) => { partner[t] = t; });
    for (const piece of pieces || []) {
      for (const { b, a, equal, deleted, inserted } of piece.blocks) {
        for (let k = 0; k < equal; k++) partner[a + k] = b + k;
        const paired = Math.min(deleted, inserted);
        for (let k = 0; k < paired; k++) { partner[a + equal + k] = b + equal + k; differs.add(a + equal + k); }
      }
    }
    return { partner, differs, known: null };
  }

  /** Where this run's line (or insertion point) `line` stands in the baseline's text. */
  function anchor({ partner }, line) {
    if (line < partner.length && partner[line] >= 0) return partner[line];
    for (let earlier = Math.min(line, partner.length) - 1; earlier >= 0; earlier--) if (partner[earlier] >= 0) return partner[earlier] + 1;
    return 0;
  }

  /** A pass's diff as hunks ({start, deleted, inserted}: before lines, after lines), runs of changed blocks with no equal line between. */
  function hunks(pieces) {
    const found = [];
    let joined = false;
    for (const piece of pieces || []) {
      for (const { b, a, equal, deleted, inserted } of piece.blocks) {
        joined = joined && !equal;
        if (!deleted && !inserted) continue;
        if (!joined) found.push({ start: b + equal, deleted: [], inserted: [] });
        const hunk = found[found.length - 1];
        for (let k = 0; k < deleted; k++) hunk.deleted.push(b + equal + k);
        for (let k = 0; k < inserted; k++) hunk.inserted.push(a + equal + k);
        joined = true;
      }
    }
    return found;
  }

  const byPlace = (x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || x[3] - y[3];

  /**
   * This run's pass (`ours`) against the baseline's (`theirs`), each {hunks, before, after} (line ids of its input
   * and output), its input and output lined up (lineup()); differ(baseline id, this run's id): words() of the two
   * lines. {same, facing (null: hunk k faces hunk k), differing}, as effect.compare's Verdict.
   */
  function compare(ours, theirs, inputs, outputs, differ) {
    const known = () => {
      if (inputs.known === null) inputs.known = new Set([...inputs.differs].map(t => differ(theirs.before[inputs.partner[t]], ours.before[t])));
      return inputs.known;
    };
    const readIn = t => (inputs.partner[t] >= 0 ? theirs.before[inputs.partner[t]] : ours.before[t]);
    const readOut = t => {
      const p = outputs.partner[t];
      if (p < 0 || (outputs.differs.has(t) && !known().has(differ(theirs.after[p], ours.after[t])))) return ours.after[t];
      return theirs.after[p];
    };
    const sameEdit = (mine, other) => sameIds(mine.deleted.map(readIn), other.deleted.map(b => theirs.before[b]))
      && sameIds(mine.inserted.map(readOut), other.inserted.map(a => theirs.after[a]));

    const waiting = new Map();  // the baseline's hunks by where they start
    theirs.hunks.forEach((hunk, k) => {
      if (!waiting.has(hunk.start)) waiting.set(hunk.start, []);
      waiting.get(hunk.start).push(k);
    });
    const placed = [];  // [where, order, this hunk, baseline hunk, same]
    ours.hunks.forEach((hunk, k) => {
      const where = anchor(inputs, hunk.start), queue = waiting.get(where);
      const other = queue && queue.length ? queue.shift() : -1;
      placed.push([where, 0, k, other, other >= 0 && sameEdit(hunk, theirs.hunks[other])]);
    });
    for (const queue of waiting.values()) for (const k of queue) placed.push([theirs.hunks[k].start, 1, -1, k, false]);
    placed.sort(byPlace);
    const facing = placed.map(([, , mine, other]) => [mine, other]);
    const differing = placed.flatMap((entry, step) => (entry[4] ? [] : [step]));
    const identity = ours.hunks.length === theirs.hunks.length && facing.every(([mine, other]) => mine === other);
    return { same: !differing.length, facing: identity ? null : facing, differing };
  }

  return { words, lineup, hunks, compare };
})();
