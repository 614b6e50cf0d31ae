"use strict";
/*
 * Ops as a question, in the search field: `op:pl.tile.exp2` asks which passes add or remove that op, answered
 * from the op counts the report carries per pass (a diff's `ops`, the Ops line under the heading), not by text
 * search. `op:exp` names every op whose last part is `exp` (pl.tile.exp, pl.tensor.exp), not exp2. Pure: the
 * search (search.js) marks the passes and says what was found.
 */
const IRTraceOpSearch = (() => {
  const QUERY = /^\s*op:\s*(\S*)\s*$/u;

  /** The op a query asks about ("" for `op:` alone), or null for a text search. */
  function parse(query) {
    const match = QUERY.exec(query);
    return match ? match[1] : null;
  }

  /** Whether an op's name answers to `name`: the name itself, or its last dotted parts. */
  const answers = (op, name) => op === name || op.endsWith("." + name);

  /** Per pass (diffOf(p) for p < count), the count deltas [[op, delta]] of the ops named `name` it changes. */
  function moves(count, diffOf, name) {
    return Array.from({ length: count }, (_, p) => (diffOf(p).ops || []).filter(([op]) => answers(op, name)));
  }

  const signed = delta => (delta > 0 ? `+${delta}` : `\u2212${-delta}`);
  /** "+2", or "−1 +1" when several ops answer (their names in its tooltip): a pass's deltas, as the list marks them. */
  const deltaText = deltas => deltas.map(([, delta]) => signed(delta)).join(" ");
  /** "pl.tile.exp +1", or "pl.tensor.exp −1, pl.tile.exp +1": a pass's deltas by name. */
  const named = deltas => deltas.map(([op, delta]) => `${op} ${signed(delta)}`).join(", ");

  /** What the search field says of the answer: which ops, and the passes that change their count. */
  function summary(name, found, passes) {
    if (!name) return "op: then an op's name, e.g. op:pl.tile.exp2 (or its last part, op:exp2): the passes that add or remove it.";
    const changing = found.map((deltas, p) => [p, deltas]).filter(([, deltas]) => deltas.length);
    if (!changing.length) return `No pass changes the count of ${name}.`;
    const ops = [...new Set(changing.flatMap(([, deltas]) => deltas.map(([op]) => op)))];
    const listed = changing.slice(0, 6).map(([p, deltas]) => `${passes[p].label} ${passes[p].name} ${ops.length === 1 ? deltaText(deltas) : named(deltas)}`);
    const more = changing.length > 6 ? `, and ${changing.length - 6} more` : "";
    const its = ops.length === 1 ? "its count" : "their counts";
    return `${ops.join(", ")}: ${changing.length} of ${passes.length} passes change ${its} (${listed.join(", ")}${more}). ` +
      "Enter / Shift+Enter step through them.";
  }

  return { parse, answers, moves, deltaText, named, summary };
})();
