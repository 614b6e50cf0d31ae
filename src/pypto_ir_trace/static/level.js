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

    /**
     * True when the pass changes the tile or distributed tensor types its lines name (the model's `implicit`
     * classes): the lines it deletes and those it inserts do not name them alike. One that only places them
     * (an address assigned, a buffer reused) or renames values deletes and inserts as many of each class.
     */
    function touchesImplicit(pass) {
      if (!pass.pieces) return false;
      if (touches.has(pass)) return touches.get(pass);
      const balance = new Map();  // type class -> lines inserted less lines deleted
      const count = (id, by) => { if (implicit.has(id)) balance.set(implicit.get(id), (balance.get(implicit.get(id)) || 0) + by); };
      const before = pipeline.ids(pass.before);
      for (const id of pass.insertedIds) count(id, 1);
      for (const piece of pass.pieces) {
        for (const block of piece.blocks) {
          for (let i = 0; i < block.deleted; i++) count(before[block.b + block.equal + i], -1);
        }
      }
      const found = [...balance.values()].some(n => n !== 0);
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
