"use strict";
/*
 * Following a name through the pipeline: a name clicked in the code (or * on the selected one, else on the
 * current line's first) is marked wherever it occurs in the panes (<mark>), and the region "Passes changing
 * NAME" lists the passes whose diff (as shown) deletes or inserts a line holding it, each opening that pass at
 * its first such line; one button searches the name across all passes with the search box. The names are the
 * language's (names.js). A panel (panels.js), registered at the end of this file: `*`; its markup is
 * #name-passes, its style viewer.css' history panel's.
 */
const IRTraceNamePanel = (() => {
  // eslint-disable-next-line max-lines-per-function -- a module's closure: the panel's short functions share the name followed
  function create(app) {
    const { el, state, report, pipeline, passes, make } = app;
    const doc = el.diff.ownerDocument;
    const panel = el.root.querySelector("#name-passes");
    const names = IRTraceNames.create(report);
    let followed = null;  // the name whose occurrences are marked

    /** A line's marks: the search's (`searched`), with the followed name's occurrences joined in. */
    function marks(id, searched) {
      const own = followed === null ? [] : names.occurrences(id, followed);
      if (!own.length) return searched;
      if (!searched) return { ranges: own, empty: -1, unmarked: 0 };
      return { ...searched, ranges: IRTraceNames.merge(searched.ranges, own) };
    }

    const passName = p => `${passes[p].label} ${passes[p].name}`;

    /** Mark `name` in the panes and list the passes that change a line holding it. */
    function follow(name) {
      followed = name;
      app.repaint();
      const changing = names.passesChanging(passes.length, app.counted, pipeline.ids, name);
      panel.setAttribute("aria-label", `Passes changing ${name}`);
      panel.hidden = false;
      const top = make("div", "history-head");
      const close = make("button", "history-close", "\u00d7");
      close.type = "button";
      close.setAttribute("aria-label", `Stop following ${name}`);
      close.addEventListener("click", stop);
      top.append(make("h3", "", `Following ${name}`), close);
      const search = make("button", "history-search", `Search all passes for ${name}`);
      search.type = "button";
      search.addEventListener("click", () => {
        el.search.value = IRTraceNames.pattern(name);
        app.search.run();
      });
      const said = changing.length
        ? `${changing.length} pass${changing.length === 1 ? "" : "es"} change a line holding it (the word itself, or another word of its line):`
        : "No pass changes a line holding it.";
      const list = make("ul", "name-passes");
      list.append(...changing.map(entry => passItem(entry, name)));
      panel.replaceChildren(top, make("p", "history-summary", said), list, search);
    }

    function passItem({ pass, deleted, inserted }, name) {
      const item = make("li");
      const open = make("button", "history-pass", passName(pass));
      open.type = "button";
      open.addEventListener("click", () => openPass(pass, name));
      item.append(open, make("span", "history-how", ` \u2212${deleted} +${inserted} line${deleted + inserted === 1 ? "" : "s"} holding it`));
      return item;
    }

    /** Pass p shown (its own diff) at the first changed line holding the name. */
    function openPass(p, name) {
      app.open(p);
      let row = app.panes.firstRowWhere(id => names.occurrences(id, name).length > 0);
      if (row < 0 && state.key !== null) {
        app.pickFunction(null);
        row = app.panes.firstRowWhere(id => names.occurrences(id, name).length > 0);
      }
      app.panes.reveal(row);
    }

    function stop() {
      followed = null;
      panel.hidden = true;
      app.repaint();
    }

    /** The line id a row of the panes shows (its last numbered side: After, or Before for a deleted line). */
    function idOfRow(row) {
      const numbers = row ? [...row.querySelectorAll(".ln[role=button]")] : [];
      const at = numbers.length ? IRTracePaneRows.lineOf(numbers[numbers.length - 1]) : null;
      return at ? idOf(at.side, at.line) : null;
    }

    function idOf(side, line) {
      const diff = app.shown(state.selected);
      return pipeline.ids(side === 0 ? diff.before : diff.after)[line];
    }

    /** The column of the line at a caret in its painted code: the text before it, an elided part ("…")
     * counted as the characters it stands for. */
    function columnOf(code, node, offset) {
      const before = doc.createRange();
      before.setStart(code, 0);
      before.setEnd(node, offset);
      let column = before.toString().length;
      for (const elided of code.querySelectorAll("button.elided")) {
        if (before.intersectsNode(elided) && !elided.contains(node)) column += Number(elided.dataset.chars) - elided.textContent.length;
      }
      return column;
    }

    /** A click on a name in the code follows it (a click that ends a selection does not): the name whose range
     * holds the column clicked, so a name a change marks in parts is still one name. */
    el.diff.addEventListener("click", event => {
      const code = event.target.closest(".code");
      const caret = code && doc.getSelection().isCollapsed ? doc.caretRangeFromPoint(event.clientX, event.clientY) : null;
      if (!caret || !code.contains(caret.startContainer) || caret.startContainer.parentElement.closest("button")) return;  // "…"
      const id = idOfRow(code.closest(".row"));
      if (id === null) return;
      const column = columnOf(code, caret.startContainer, caret.startOffset);
      const hit = ([start, end]) => start <= column && column <= end;  // a caret lands between characters
      for (const [name, ranges] of names.namesOf(id)) if (ranges.some(hit)) { follow(name); return; }
    });

    /** *: the selected name (double-click one), else the current line's first. */
    function followCurrent() {
      const selection = doc.getSelection();
      const selected = selection.toString().trim();
      const anchor = selection.anchorNode && selection.anchorNode.parentElement;
      const id = anchor && el.diff.contains(anchor) ? idOfRow(anchor.closest(".row")) : null;
      if (selected && id !== null && names.namesOf(id).has(selected)) { follow(selected); return; }
      const line = app.panes.currentLine();
      const first = line ? [...names.namesOf(idOf(line.side, line.line)).keys()][0] : undefined;
      if (first === undefined) app.announce("No name to follow: select one (double-click it), or pick a line that holds one");
      else follow(first);
    }

    return {
      marks, follow, followCurrent, namesOf: names.namesOf,
      /** Whether a name is followed (its marks are in the panes). */
      marking: () => followed !== null,
    };
  }

  IRTracePanels.register({
    name: "names", button: null, link: null, carries: false, create,
    keys: [{ keys: { "*": "followCurrent" }, help: "Follow a name (or click it): the selected one, else the current line's first" }],
  });

  return { create };
})();
