"use strict";
/*
 * Following a function and reading by keyboard: Shift+J / Shift+K step to the passes that change the
 * picked function (those marked ● in the list), and the keys that scroll the code panes.
 *
 * A function is followed through its names: a pass that pairs a region by content (compare.py's Pairing: a
 * rename, or the part of a split most like the function) carries the name on to the after region's key, and
 * back. The picked function is its name in one pass's diff (state.wantedKey, at the pass where it was last
 * shown); namesAcross gives its name in every pass's diff, so the ● marks, the history note and Shift+J / K
 * follow it across renames. Without content pairs every name is the picked key, as it always was.
 */
const IRTraceFollowing = (() => {
  const SCROLLS = ["pageDown", "pageUp", "top", "bottom", "lineDown", "lineUp", "left", "right"];
  const ACTIONS = ["nextForFunction", "previousForFunction", ...SCROLLS];  // the names keys.js binds
  const LINE = 20;     // px, one row of code
  const SIDEWAYS = 80; // px, about ten characters

  /** The content pairs of a diff: Map(before key -> after key). */
  function pairsOf(diff) {
    if (diff.paired) return diff.paired;
    return new Map((diff.pieces || []).filter(piece => piece.beforeKey).map(piece => [piece.beforeKey, piece.key]));
  }
  const forward = (diff, key) => (pairsOf(diff).has(key) ? pairsOf(diff).get(key) : key);
  function backward(diff, key) {
    for (const [old, fresh] of pairsOf(diff)) if (fresh === key) return old;
    return key;
  }

  /** The function's name in each of `count` passes' diffs (diffOf(p)), from its name `key` in pass `at`'s: an
   * after key, or a removed region's; a content pair's before key in `at` names that pair. */
  function namesAcross(count, diffOf, key, at) {
    const names = new Array(count);
    names[at] = forward(diffOf(at), key);
    for (let p = at + 1; p < count; p++) names[p] = forward(diffOf(p), names[p - 1]);
    for (let p = at - 1; p >= 0; p--) names[p] = backward(diffOf(p + 1), names[p + 1]);
    return names;
  }

  /** The function's name in pass `to`'s diff, from its name in pass `from`'s (the same walk, between the two). */
  function nameAt(diffOf, key, from, to) {
    let name = forward(diffOf(from), key);
    for (let p = from + 1; p <= to; p++) name = forward(diffOf(p), name);
    for (let p = from; p > to; p--) name = backward(diffOf(p), name);
    return name;
  }

  const anchors = new WeakMap();  // state -> {key, at}: the picked function's name and the pass it names it in

  /** Where the picked function was last named: its key in pass `at`; a key set elsewhere (a pick, a link) is
   * named in the selected pass. Null when no function is picked. */
  function anchorOf(state) {
    if (state.wantedKey === null) return null;
    const known = anchors.get(state);
    return known && known.key === state.wantedKey ? known : { key: state.wantedKey, at: Math.max(state.selected, 0) };
  }

  /** The picked function's name in pass p's diff, which becomes its anchor (and state.wantedKey: links name it). */
  function follow(app, p) {
    const anchor = anchorOf(app.state);
    if (anchor === null) return null;
    const name = nameAt(app.diffOf, anchor.key, Math.min(anchor.at, app.passes.length - 1), p);
    anchors.set(app.state, { key: name, at: p });
    app.state.wantedKey = name;
    return name;
  }

  /** Each pass's name for the picked function ([] when none is picked). */
  function names(app) {
    const anchor = anchorOf(app.state);
    if (anchor === null || !app.passes.length) return [];
    return namesAcross(app.passes.length, app.diffOf, anchor.key, Math.min(anchor.at, app.passes.length - 1));
  }

  /** Whether pass p changes the picked function, by its name there (`named`: names(app)). */
  const changes = (app, named, p) => named[p] !== undefined && app.diffOf(p).byRegion.has(named[p]);

  function create(app) {
    const { el, passes, state } = app;
    const doc = el.diff.ownerDocument;

    /** The next (delta 1) or previous (-1) pass that changes the picked function; a status when none. */
    function step(delta) {
      const key = state.wantedKey;
      if (key === null) {
        app.announce("Pick a function first: Shift+J / Shift+K step through the passes that change it.");
        return;
      }
      const named = names(app);
      let p = state.selected + delta;
      while (p >= 0 && p < passes.length && !changes(app, named, p)) p += delta;
      if (p < 0 || p >= passes.length) {
        app.announce(`No ${delta > 0 ? "later" : "earlier"} pass changes ${key}.`);
        return;
      }
      if (!app.passList.isVisible(p)) app.passList.showAll();
      app.select(p);
    }

    /** The code pane the keys scroll: the focused one, else the first one shown (panes scroll in sync). */
    function pane() {
      const scrollers = [...el.diff.querySelectorAll(".scroller")].filter(node => node.getClientRects().length);
      return scrollers.find(node => node.contains(doc.activeElement)) || scrollers[0] || null;
    }

    function scroll(how) {
      const target = pane();
      if (!target) return false;
      const page = Math.max(LINE, target.clientHeight - 2 * LINE);
      const moves = {
        pageDown: [page, 0], pageUp: [-page, 0], lineDown: [LINE, 0], lineUp: [-LINE, 0],
        left: [0, -SIDEWAYS], right: [0, SIDEWAYS],
      };
      if (how === "top") target.scrollTop = 0;
      else if (how === "bottom") target.scrollTop = target.scrollHeight;
      else target.scrollBy(moves[how][1], moves[how][0]);
      app.panes.scrolled(target);
      return true;
    }

    const actions = { nextForFunction: () => step(1), previousForFunction: () => step(-1) };
    for (const how of SCROLLS) actions[how] = () => scroll(how);
    return { step, actions };
  }

  return { create, ACTIONS, pairsOf, namesAcross, nameAt, follow, names, changes };
})();
