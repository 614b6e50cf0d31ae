"use strict";
/*
 * Where a line came from: its history through the passes, read backwards from the diffs the page holds.
 *
 * A line's *earlier form*, one pass back (the definition README.md's "Line history" states):
 *   - an equal line of the pass's diff maps to its counterpart in the pass's before snapshot;
 *   - a changed line maps to the line the diff pairs it with: the rows IRTraceRows.buildRows makes of its
 *     block, the very pairing the word marks are painted on (similar lines face each other, the rest by
 *     position);
 *   - an inserted line that the diff pairs with nothing has no earlier form: the chain ends there;
 *   - with Ignore renumbering on, the diffs read are the ones shown (IRTraceRenumber.ignoring): a renamed
 *     line is an equal line, followed through the rename.
 * The pass before pass p is the one that printed p's before snapshot (the previous pass for PyPTO; for an MLIR
 * op dumped in local scope, its own previous dump); a before snapshot no pass printed (a function cut out of a
 * later module dump) ends the chain too.
 *
 * Nothing is precomputed: a chain costs one block lookup (a binary search) per pass walked, and the pairing of
 * the blocks it changes in; the gutter's "last changed by" is the same walk without the pairing, memoised.
 * Pure: the model's named objects in, plain data out.
 */
const IRTraceBlame = (() => {
  const R = IRTraceRows;
  const REMEMBERED = 500000;  // walked (pass, line) origins kept for the gutter: some tens of MB at most
  const LINES = 2 ** 32;  // more lines than any snapshot holds: (pass, line) as one number below 2^53

  const located = new WeakMap();  // diff -> {blocks, starts}: its blocks in after order

  /** The block of a diff that holds after line `line` (the blocks tile the after snapshot, in order). */
  function blockAt(diff, line) {
    let found = located.get(diff);
    if (!found) {
      const blocks = diff.pieces.flatMap(piece => piece.blocks);
      found = { blocks, starts: Int32Array.from(blocks, block => block.a) };
      located.set(diff, found);
    }
    let low = 0, high = found.blocks.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (found.starts[mid] <= line) low = mid; else high = mid - 1;
    }
    return found.blocks[low];
  }

  const paired = new WeakMap();  // block -> partnersOf's answer

  /**
   * The before line each inserted line of a block faces as the diff's rows pair them (-1: none), by inserted
   * line; kept per block: the lines of one block, and every later line whose history passes through it, ask.
   */
  function partnersOf(block, textOf) {
    let found = paired.get(block);
    if (!found) {
      const rows = R.buildRows({ pieces: [{ key: null, blocks: [block] }] }, null, null, textOf);
      found = new Int32Array(block.inserted).fill(-1);
      for (let r = 0; r < rows.a.length; r++) {
        if (rows.kind[r] === R.KIND_PAIR) found[rows.a[r] - block.a - block.equal] = rows.b[r];
      }
      paired.set(block, found);
    }
    return found;
  }

  /**
   * source: {passes (the pipeline's), diffOf(p): pass p's diff as shown (pieces of blocks, before, after),
   * ids(t): a text's line ids, lines: the report's distinct lines, inputText: the input's text index}.
   */
  function create({ passes, diffOf, ids, lines, inputText }) {
    const printers = new Map();  // text -> the passes whose after snapshot it is, ascending
    passes.forEach((pass, p) => {
      if (!printers.has(pass.after)) printers.set(pass.after, []);
      printers.get(pass.after).push(p);
    });
    const origins = new Map();  // p * LINES + line -> the pass that last changed that line of p's after snapshot

    /** The pass before pass p: the last one (before p) that printed p's before snapshot; -1 the input; null none. */
    function previousOf(p) {
      const before = diffOf(p).before;
      if (p > 0 && passes[p - 1].after === before) return p - 1;
      const printed = (printers.get(before) || []).filter(q => q < p);
      if (printed.length) return printed[printed.length - 1];
      return before === inputText ? -1 : null;
    }

    /**
     * After line `line` of pass p, one pass back: {how: "equal", line} its counterpart, {how: "changed", line}
     * the line the diff pairs it with (line -1 when `pairing` is off), {how: "inserted"} none.
     */
    function back(p, line, pairing) {
      const diff = diffOf(p);
      if (!diff.pieces) return { how: "equal", line };  // a no-op pass
      const block = blockAt(diff, line), k = line - block.a;
      if (k < block.equal) return { how: "equal", line: block.b + k };
      if (!block.deleted) return { how: "inserted" };
      if (!pairing) return { how: "changed", line: -1 };
      const textOf = (side, at) => lines[ids(side === 0 ? diff.before : diff.after)[at]];
      const partner = partnersOf(block, textOf)[k - block.equal];
      return partner >= 0 ? { how: "changed", line: partner } : { how: "inserted" };
    }


    /** Whether pass p's diff shows after line `line` as a renamed line (IRTraceRenumber.ignoring): equal but for
     * value names. Read from the pairs, not the texts: a chain then rebuilds only the texts of the passes that
     * changed the line. */
    const renamedAt = (p, line) => Boolean(diffOf(p).renamedAfter && diffOf(p).renamedAfter.has(line));

    const idAt = (p, line) => ids(p < 0 ? inputText : passes[p].after)[line];

    /**
     * The history of line `line` of pass p's after snapshot (p -1: the input), newest first: [{pass, line, id,
     * from, how, renamed, open}]. Each step is a form the line had, first printed by pass `pass` (-1: the input)
     * as its line `line`, whose text there is `id`; how it came: "changed" (from the line `from`, as the pass saw
     * it), "inserted" (the chain's end), "input" (unchanged since the input) or "unfollowed" (the before snapshot
     * of pass `pass` is no pass's output: `line` and `id` are its line there); `renamed`: the passes that
     * renumbered it since (Ignore renumbering: its text then differs from the line asked about); `open`: {pass,
     * side (0 Before, 1 After), line} where a pass's diff shows that form.
     */
    function chain(p, line) {
      const steps = [];
      let renamed = [];
      let at = p, here = line, walked = p < 0 ? 0 : p;  // walked: the last pass stepped through
      for (;;) {
        if (at === null || at < 0) {
          const text = at === null ? diffOf(walked).before : inputText;
          steps.push({ pass: at === null ? walked : -1, line: here, id: ids(text)[here], from: null, renamed,
            how: at === null ? "unfollowed" : "input", open: { pass: walked, side: 0, line: here } });
          return steps;
        }
        const found = back(at, here, true);
        const step = { pass: at, line: here, id: idAt(at, here), from: null, renamed, open: { pass: at, side: 1, line: here } };
        if (found.how === "inserted") {
          steps.push(Object.assign(step, { how: "inserted" }));
          return steps;
        }
        if (found.how === "changed") {
          steps.push(Object.assign(step, { how: "changed", from: ids(diffOf(at).before)[found.line] }));
          renamed = [];
        } else if (renamedAt(at, here)) renamed.push(at);
        walked = at;
        at = previousOf(at);
        here = found.line;
      }
    }

    /** The pass that last changed line `line` of pass p's after snapshot: -1 the input, null not followed. */
    function origin(p, line) {
      const walked = [];
      let at = p, here = line, found;
      for (;;) {
        if (at === null || at < 0) { found = at; break; }
        const key = at * LINES + here;  // a number: cheaper to hash than a string
        if (origins.has(key)) { found = origins.get(key); break; }
        walked.push(key);
        const step = back(at, here, false);
        if (step.how !== "equal") { found = at; break; }
        at = previousOf(at);
        here = step.line;
      }
      if (origins.size > REMEMBERED) origins.clear();  // paging through a huge file: start over, not grow without bound
      for (const key of walked) origins.set(key, found);
      return found;
    }

    return { chain, origin, previousOf };
  }

  return { create };
})();
