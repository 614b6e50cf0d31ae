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
   * The pass with its renamed pairs as equal lines: pieces, counts and byRegion follow, `renamed` counts
   * them (per piece and per region too) and `renamedAfter` maps each such after line to its before line.
   */
  function ignoring(pass) {
    const renamedAfter = new Map(pass.renamed.map(([b, a]) => [a, b]));
    if (!renamedAfter.size || !pass.pieces) return Object.assign({}, pass, { renamedAfter, renamedCount: 0 });
    let total = 0;
    const pieces = pass.pieces.map(piece => {
      const blocks = [];
      let count = 0;
      for (const block of piece.blocks) count += split(block, renamedAfter, blocks);
      total += count;
      return { key: piece.key, beforeKey: piece.beforeKey, inserted: piece.inserted - count, deleted: piece.deleted - count, blocks, renamed: count };
    });
    const byRegion = new Map();
    for (const piece of pieces) {
      if (piece.key !== null && (piece.inserted || piece.deleted || piece.renamed)) {
        byRegion.set(piece.key, { inserted: piece.inserted, deleted: piece.deleted, renamed: piece.renamed });
      }
    }
    const shown = new Map();  // the after lines whose pair was kept: monotone within its block
    for (const piece of pieces) for (const block of piece.blocks) for (let k = 0; k < block.equal; k++) {
      const b = renamedAfter.get(block.a + k);
      if (b === block.b + k) shown.set(block.a + k, b);
    }
    return Object.assign({}, pass, {
      pieces, byRegion, inserted: pass.inserted - total, deleted: pass.deleted - total, renamedAfter: shown, renamedCount: total,
    });
  }

  /** Cut a block {b, a, equal, deleted, inserted} at its renamed pairs (kept in order on both sides), append the
   * blocks; their count. */
  function split({ b, a, equal, deleted, inserted }, renamedAfter, out) {
    const bStart = b + equal, aStart = a + equal;
    let block = { b, a, equal, deleted: 0, inserted: 0 };
    let bi = bStart, aj = aStart, count = 0;
    for (let j = aStart; j < aStart + inserted; j++) {
      const i = renamedAfter.get(j);
      if (i === undefined || i < bi || i >= bStart + deleted) continue;
      block.deleted = i - bi;
      block.inserted = j - aj;
      if (block.deleted || block.inserted) { out.push(block); block = { b: i, a: j, equal: 1, deleted: 0, inserted: 0 }; }
      else block.equal += 1;
      bi = i + 1;
      aj = j + 1;
      count++;
    }
    block.deleted = bStart + deleted - bi;
    block.inserted = aStart + inserted - aj;
    out.push(block);
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
    const text = `+${pass.inserted} \u2212${pass.deleted}`;
    return pass.renamedCount ? `${text}, ${pass.renamedCount} renamed` : text;
  }

  return { KIND_RENAMED, ignoring, markRows, counts };
})();
