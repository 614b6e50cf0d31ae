"use strict";
/*
 * The dump level (PassDumpLevel) the snapshots were printed at, when the model knows it: said in the
 * header, and where a CONCISE dump hides what matters (tile layouts, window buffers), the advice to
 * re-dump at EXPLICIT.
 */
const IRTraceLevel = (() => {
  function create(app) {
    const { el, pipeline } = app;
    const { level, levelTitle, advice, implicit } = pipeline;
    const touches = new Map();  // pass object -> whether its changed lines name such a type

    /** The header's badge: "CONCISE dump", with the advice in its tooltip. */
    function showBadge() {
      const shown = el.summary.ownerDocument.getElementById("dump-level");  // the header outlives a pipeline's view
      if (shown) shown.remove();
      if (!level) return;
      const badge = app.make("span", "dump-level " + level.toLowerCase(), `${level} dump`);
      badge.id = "dump-level";
      badge.title = levelTitle;
      el.summary.before(badge);
    }

    /** True when the pass inserts or deletes a line naming a tile or distributed tensor type (the model's `implicit`). */
    function touchesImplicit(pass) {
      if (!pass.pieces) return false;
      if (touches.has(pass)) return touches.get(pass);
      const before = pipeline.ids(pass.before);
      let found = pass.insertedIds.some(id => implicit.has(id));
      for (const piece of pass.pieces) {
        for (const block of piece.blocks) {
          for (let i = 0; !found && i < block.deleted; i++) found = implicit.has(before[block.b + block.equal + i]);
        }
      }
      touches.set(pass, found);
      return found;
    }

    /** The notes for the shown pass p: the advice, on a CONCISE dump's pass that changes such types. */
    function notes(p) {
      if (!advice || p < 0 || !touchesImplicit(app.shown(p))) return [];
      return [["info", advice]];
    }

    showBadge();
    return { level, notes };
  }

  return { create };
})();
