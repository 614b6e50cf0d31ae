"use strict";
/*
 * The names of the code, as the language's tree-sitter queries found them: a line's highlight spans of the
 * name classes (grammars/<language>/highlights.scm: @variable for identifiers and SSA values such as %12 or
 * %arg0, @function for defined names and symbols such as @matmul, @call for called operations, @label for
 * block labels). Which passes change a line that holds a name, read from the diffs shown: a line whose name
 * stays while another word of it changes (a memref, an address) counts too, which a count of matching lines
 * cannot see. Pure: the model's named objects in, plain data out.
 */
const IRTraceNames = (() => {
  const NAME_CLASSES = new Set(["variable", "function", "call", "label"]);

  /** One report's names, each line's found once. */
  function create(report) {
    const found = new Map();  // line id -> Map(name -> [[start, end]])

    /** Line id's names: Map(name text -> its [start, end] ranges, in order). */
    function namesOf(id) {
      let names = found.get(id);
      if (!names) {
        names = new Map();
        const text = report.lines[id];
        for (const { start, end, name } of report.highlights(id)) {
          if (!NAME_CLASSES.has(name)) continue;
          const word = text.slice(start, end);
          if (!names.has(word)) names.set(word, []);
          names.get(word).push([start, end]);
        }
        found.set(id, names);
      }
      return names;
    }

    /** Where `name` occurs in line id, as a name: [[start, end]] (empty when it does not). */
    const occurrences = (id, name) => namesOf(id).get(name) || [];

    /**
     * The passes whose diff (diffOf(p), as shown) deletes or inserts a line holding `name`: [{pass, deleted,
     * inserted}] (lines holding it), in pass order. ids(t): a text's line ids.
     */
    function passesChanging(count, diffOf, ids, name) {
      const out = [];
      for (let p = 0; p < count; p++) {
        const diff = diffOf(p);
        if (!diff.pieces) continue;
        const before = ids(diff.before), after = ids(diff.after);  // (not insertedIds: Ignore renumbering keeps fewer)
        let deleted = 0, inserted = 0;
        const holds = id => namesOf(id).has(name);
        for (const piece of diff.pieces) {
          for (const block of piece.blocks) {
            for (let k = 0; k < block.deleted; k++) if (holds(before[block.b + block.equal + k])) deleted++;
            for (let k = 0; k < block.inserted; k++) if (holds(after[block.a + block.equal + k])) inserted++;
          }
        }
        if (deleted || inserted) out.push({ pass: p, deleted, inserted });
      }
      return out;
    }

    return { namesOf, occurrences, passesChanging };
  }

  /** A search pattern for a name alone (not inside a longer one): the search box's /regex/ form. */
  function pattern(name) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    const edge = char => (/\w/.test(char) ? "\\b" : "");
    return `/${edge(name[0])}${escaped}${edge(name[name.length - 1])}/`;
  }

  /** Two sorted lists of [start, end] ranges as one, overlapping ones joined (marks must not overlap). */
  function merge(a, b) {
    const all = [...a, ...b].sort((x, y) => x[0] - y[0]);
    const out = [];
    for (const [start, end] of all) {
      const last = out[out.length - 1];
      if (last && start <= last[1]) last[1] = Math.max(last[1], end);
      else out.push([start, end]);
    }
    return out;
  }

  return { create, pattern, merge, NAME_CLASSES };
})();
