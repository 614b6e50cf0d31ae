"use strict";
/*
 * What is shown: the one seam between the viewer and its views.
 *
 * The viewer (viewer.js) owns how things are shown: the pass list and its filters, selecting and stepping,
 * the Function selector, the panes, search, "Compare with", Ignore renumbering, layout, wrapping, links.
 * A *view* decides what they show. The single-run view (onerun.js) shows each pass against its previous
 * snapshot; the two views of two runs (runs.js) show, for the same aligned rows, the baseline against this
 * run (Across runs) or each run's own pass (Pass effect); the lowering page (lowering.js) shows the picked
 * function's diff at every pass that changes it, one under the other. A new view is one file that calls register.
 *
 * IRTraceViews.register({name, button, applies, create}), once per view, in the order the page offers them:
 *   name          its name in links (view=NAME); a report opens on its first view, whose name links leave out
 *   button        the id of its toggle in the page's markup (aria-pressed), when a report offers several views
 *   toggles       its button (or app.toggleView) pressed again returns to the first view: a view the reader opens
 *                 and closes (the lowering page), not one of a set of equals (Across runs / Pass effect)
 *   applies(report)  whether the report holds what the view shows
 *   create(app)   its *source* for one pipeline's view. `app` is the viewer's (viewer.js): the source reads
 *                 it (the pipeline, the state, `counted`, `make`) and never writes to it or to its modules
 *
 * A source answers for a pass (a row of the pass list) p:
 *   diff(p)       the pass as this view sees it: the pipeline's pass p (label, name, file, changed, warnings...)
 *                 with this view's diff (before, after, inserted, deleted, pieces, insertedIds, byRegion,
 *                 renamed, ops). Whatever reads a diff reads this one: the panes, the Function selector, the ● marks, search's ▲ / ▼,
 *                 Shift+J / K. The viewer applies Compare with and Ignore renumbering on top of it (app.shown)
 *   beforeFile(p), afterFile(p)  the names over Before and After (a comparison names its own snapshots)
 *   counts(p, shown)  the counts beside the heading for `shown`, what the panes show of p
 *   notes(p, shown)   the notes about the pass as a whole, [kind, text, class?]: first among the notes
 *   ops           [label, tooltip] of the line under the heading that lists diff(p)'s `ops` (op count deltas):
 *                 whose ops it counts
 *   listed(p)     the pass list's counts of p: {parts: [nodes and strings], title: of the counts, classes: {name:
 *                 on} of its button, tip: the button's tooltip, or ""}; asked again when they may change
 *   header()      what the view says about the whole report: {summary, title: [text, tooltip] or null}
 *   panes         the panes the view adds to the page (IRTracePanes), [] if none: the viewer keeps them in the
 *                 page's layout and wrapping, and repaints, folds and steps through (n / p) them with its own
 *   show(p)       after the viewer showed p (-1: nothing): the view's own part of the page; hide() when another
 *                 view takes over
 *   opened()      once, when the page has opened on this view
 *   says          the view's words for a function, in the Function selector's notes: {unchanged(key): the note
 *                 when the diff shown leaves it alone; history(key, count, listed): the note on the passes marked
 *                 ● (how many, their labels as listed; count 0: none)}
 *   steps(p)      optional, for a view that shows several diffs: the changes n / p step through together
 *                 (together.js), or null to leave each diff's panes to step alone. [{lines: per active pane
 *                 (the viewer's, then the view's), {before: [start, end), after: [start, end)} of that diff's
 *                 lines, or null where it has none; said: what the status adds to "Change 2 of 5"; differs:
 *                 the diffs disagree here (a pass opens on the first such step)}], in order
 *   step(delta)   optional, for a view that pages through diffs of several passes: n (1) / p (-1) itself, true
 *                 when it did (the viewer's own stepping is then left alone)
 *   hasFolds()    optional, for a view whose diffs are built as they scroll in: whether they may have folds (Expand
 *                 all / Collapse all are usable; those built later follow the last pressed)
 *
 * Controls: a view brings its own toggle (`button`); every other control (filters, layout, wrapping, Function,
 * Compare with, Ignore renumbering, search) applies in every view registered today, so the seam asks nothing
 * more. A view that must turn one off says so here first, as one more answer of its source. The lowering page
 * shows each pass against its own before snapshot: Compare with is hidden while it shows (lowering.css).
 *
 * Not a view: the pipeline map (map.js) shows every pass at once, not what one pass shows; it is a panel the
 * viewer shows in place of the diff, over whichever view is current. Panels have their own seam, panels.js.
 * The lowering page is a view although it shows several passes: what it shows is diffs in the viewer's panes
 * (layout, wrapping, folds, search marks, n / p), and the pass list, the Function selector and the counts are
 * the single-run view's, which its source extends.
 *
 * Why a source and not hooks into the viewer's modules: every view then answers the same questions, the
 * viewer asks them at the moments it chooses (a switch of view is one more of them), and no module needs to
 * know which view is shown or in which order the others were wired.
 */
const IRTraceViews = (() => {
  const registered = [];

  function register(view) {
    registered.push(view);
  }

  /** The views a report offers, in the order registered: the first is the one it opens on. */
  const of = report => registered.filter(view => view.applies(report));

  /** "+N −M" of a diff's pieces (the function `key`'s only, unless null), ", R renamed" under Ignore renumbering. */
  function counts(pass, key) {
    const pieces = (pass.pieces || []).filter(piece => key === null || piece.key === key);
    const sum = field => pieces.reduce((total, piece) => total + (piece[field] || 0), 0);
    const renamed = sum("renamed") ? `, ${sum("renamed")} renamed` : "";
    return `+${sum("inserted")} \u2212${sum("deleted")}${renamed}`;
  }

  return { register, of, counts };
})();
