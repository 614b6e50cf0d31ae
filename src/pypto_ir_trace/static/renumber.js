"use strict";
/*
 * Ignore renumbering in the page: a pass seen with its renamed line pairs (pass.renamed, found and
 * proved exact at build time by renumber.py) treated as unchanged lines, and the rows showing them
 * marked as renamed. Only those pairs are used: a line whose operation, types or attributes changed
 * is never among them. Pure: the named objects of model.js in, new objects out; no DOM.
 */
const IRTraceRenumber = (() => {
  const KIND_RENAMED = 4;  // a row kind beside IRTraceRows' four: equal but for value names

  /**
   * The pass with its renamed pairs as equal lines: pieces, counts and regions follow, `renamed` counts
   * them (per piece and per region too) and `renamedAfter` maps each such after line to its before line.
   */
  function ignoring(pass) {
    const renamedAfter = new Map(pass.renamed.map(([b, a]) => [a, b]));
    if (!renamedAfter.size || !pass.pieces) return Object.assign({}, pass, { renamedAfter, renamedCount: 0 });
    let total = 0;
    const pieces = pass.pieces.map(piece => {
      const runs = [];
      let count = 0;
      for (const run of piece.runs) count += split(run, renamedAfter, runs);
      total += count;
      return { key: piece.key, ins: piece.ins - count, del: piece.del - count, runs, renamed: count };
    });
    const regions = new Map();
    for (const piece of pieces) {
      if (piece.key !== null && (piece.ins || piece.del || piece.renamed)) {
        regions.set(piece.key, { ins: piece.ins, del: piece.del, renamed: piece.renamed });
      }
    }
    const shown = new Map();  // the after lines whose pair was kept: monotone within its block
    for (const piece of pieces) for (const run of piece.runs) for (let k = 0; k < run.eq; k++) {
      const b = renamedAfter.get(run.a + k);
      if (b === run.b + k) shown.set(run.a + k, b);
    }
    return Object.assign({}, pass, {
      pieces, regions, ins: pass.ins - total, del: pass.del - total, renamedAfter: shown, renamedCount: total,
    });
  }

  /** Cut a run {b, a, eq, del, ins} at its renamed pairs (kept in order on both sides), append the runs; their count. */
  function split({ b, a, eq, del, ins }, renamedAfter, out) {
    const bStart = b + eq, aStart = a + eq;
    let run = { b, a, eq, del: 0, ins: 0 };
    let bi = bStart, aj = aStart, count = 0;
    for (let j = aStart; j < aStart + ins; j++) {
      const i = renamedAfter.get(j);
      if (i === undefined || i < bi || i >= bStart + del) continue;
      run.del = i - bi;
      run.ins = j - aj;
      if (run.del || run.ins) { out.push(run); run = { b: i, a: j, eq: 1, del: 0, ins: 0 }; }
      else run.eq += 1;
      bi = i + 1;
      aj = j + 1;
      count++;
    }
    run.del = bStart + del - bi;
    run.ins = aStart + ins - aj;
    out.push(run);
    return count;
  }

  /** Rows of IRTraceRows.buildRows with the renamed pairs' rows (equal rows there) given KIND_RENAMED. */
  function markRows(rows, pass) {
    if (!pass.renamedAfter || !pass.renamedAfter.size) return rows;
    const kind = Uint8Array.from(rows.kind);
    for (let r = 0; r < kind.length; r++) {
      if (kind[r] === IRTraceRows.KIND_EQUAL && rows.a[r] >= 0 && pass.renamedAfter.get(rows.a[r]) === rows.b[r]) kind[r] = KIND_RENAMED;
    }
    return { b: rows.b, a: rows.a, kind };
  }

  /** The counts of a pass as shown: "+3 −3, 12 renamed" (the renamed part only when there are some). */
  function counts(pass) {
    const text = `+${pass.ins} \u2212${pass.del}`;
    return pass.renamedCount ? `${text}, ${pass.renamedCount} renamed` : text;
  }

  return { KIND_RENAMED, ignoring, markRows, counts };
})();
