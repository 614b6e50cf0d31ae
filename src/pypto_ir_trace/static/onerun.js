"use strict";
/* The single-run view (views.js): each pass against the snapshot before it, its diff as the builder made it. */
(() => {
  IRTraceViews.register({
    name: "pass",
    applies: report => !report.runs,
    create(app) {
      const { passes, pipeline, state } = app;
      const previousFile = p => (p === 0 ? pipeline.input.file : passes[p - 1].file);
      return {
        diff: p => passes[p],
        beforeFile: p => passes[p].beforeFile || previousFile(p),
        afterFile: p => passes[p].file,
        counts: (p, shown) => (shown.changed ? IRTraceViews.counts(shown, state.key) : "no-op"),
        notes: (p, shown) => [["info", note(shown)], ["info", state.key === null ? movedNote(pipeline, shown) : ""]]
          .filter(([, text]) => text),
        ops: ["Ops", "How this pass changed the count of each op"],
        listed: p => listed(app, app.counted(p)),
        header: () => ({ summary: summary(passes), title: null }),
        panes: [],
        show() {},
        hide() {},
        opened() {},
        says: {
          unchanged: key => `${key} is unchanged by this pass.`,
          history: (key, count, listed) => (count
            ? `${key} is changed by ${count} pass${count === 1 ? "" : "es"} (${listed}), marked \u25cf in the list.`
            : `${key} is not changed by any pass.`),
        },
      };

      /** What is true of the pass as a whole, against its predecessor ("" when its diff says it all). */
      function note(pass) {
        if (!passes.some(x => x.changed)) return "The pipeline changed nothing: every pass printed the text of its predecessor.";
        if (!pass.changed) {
          if (pass.hiddenOnly) return "No-op with the filters on: this pass changed only what they hide.";
          return pass.beforeFile  // an MLIR op's own text, not the dump before
            ? `No-op: this pass printed exactly the text it is diffed against (${pass.beforeFile}).`
            : "No-op: this pass printed exactly the text of its predecessor.";
        }
        if (!pass.inserted && !pass.deleted && pass.renamedCount) return "Only value names changed in this pass (Ignore renumbering is on).";
        if (!pass.inserted && !pass.deleted) return "Only the line endings changed in this pass.";
        return "";
      }
    },
  });

  /**
   * The counts are made function by function (each region diffed with its pair): a line a pass moves from one
   * function to another counts as deleted there and inserted here, where a whole-file diff (git diff --numstat)
   * may match it. Said when the pass does so ("" when not).
   */
  function movedNote(pipeline, pass) {
    if (!pass.pieces || pass.pieces.length < 2) return "";
    const before = pipeline.ids(pass.before), deleted = new Map();  // line id -> [piece, count] of its deletions
    let next = 0;
    const inserted = [];  // [line id, piece]
    pass.pieces.forEach((piece, k) => {
      for (const { b, equal, deleted: dels, inserted: ins } of piece.blocks) {
        for (let i = 0; i < dels; i++) {
          const id = before[b + equal + i];
          if (!deleted.has(id)) deleted.set(id, new Map());
          deleted.get(id).set(k, (deleted.get(id).get(k) || 0) + 1);
        }
        for (let i = 0; i < ins; i++) inserted.push([pass.insertedIds[next++], k]);
      }
    });
    let moved = 0;
    for (const [id, k] of inserted) {
      const from = deleted.has(id) ? [...deleted.get(id)].find(([other, count]) => other !== k && count > 0) : undefined;
      if (from) { deleted.get(id).set(from[0], from[1] - 1); moved++; }
    }
    return moved ? `Counted function by function: ${moved} line${moved === 1 ? "" : "s"} this pass moved from one function to ` +
      "another count as deleted there and inserted here, so the counts exceed a whole-file diff's (git diff --numstat) by up to that." : "";
  }

  /** The pass list's counts of a pass ({inserted, deleted, changed, renamedCount}): "+N −M", a no-op tagged. */
  function listed(app, pass) {
    const del = app.make("span", "count del", "\u2212" + pass.deleted);
    if (pass.renamedCount) del.title = `${pass.renamedCount} renamed lines not counted`;
    const counts = [app.make("span", "count ins", "+" + pass.inserted), " ", del];
    return {
      parts: pass.changed ? counts : [app.make("span", "noop-tag", "no-op"), " ", ...counts],
      title: pass.changed ? "" : pass.hiddenOnly ? "No-op with the filters on: it changed only what they hide"
        : "No-op: printed exactly the text of its predecessor",
      classes: { "has-renamed": Boolean(pass.renamedCount) },
      tip: "",
    };
  }

  function summary(passes) {
    const changed = passes.filter(pass => pass.changed).length;
    const failing = passes.filter(pass => pass.errorLines.length).length;
    const warned = passes.filter(pass => pass.warnings && !pass.errorLines.length).length;
    const befores = passes.filter(pass => pass.printedBefore).length;  // --print-before-all: a pass prints twice
    const what = befores ? `dumps (${befores} printed before their pass)` : "passes";
    return `${changed} of ${passes.length} ${what} changed the IR` + (failing ? ` \u00b7 ${failing} with errors` : "") +
      (warned ? ` \u00b7 ${warned} with warnings` : "");
  }
})();
