"use strict";
/*
 * The element of one entry of a pane (IRTraceRows.paneEntries): a line of one side with its gutter (line
 * numbers, the +/− marker, the current change's bar, a warning), a filler, or a fold's button; and the
 * string of what it shows (look), so that a row built for an equal string is kept rather than built again.
 * A row shown whole wraps (wholerows.js); another that the pane's right edge cuts is marked so (markCut).
 */
const IRTracePaneRows = (() => {
  const R = IRTraceRows;

  /** ctx: the panes' shared state (panes.js); paint: IRTracePaint; expand(f): a fold's button was pressed. */
  // eslint-disable-next-line max-lines-per-function -- a module's closure: renderEntry, look and the fold's row share the row templates and the view's word changes
  function create(ctx, paint, expand) {
    const { report, make, settings } = ctx;
    // A row is one clone of these (split and stacked, unified): div.row > span.gutter > (span.ln, span.mk), span.code.
    // The gutter is one sticky box per row: each sticky box is a layer of its own for the compositor.
    const columns = new WeakMap();  // a line's row -> the columns its text takes (paint.line)
    const rowTemplates = [["ln"], ["ln old", "ln new"]].map(numbers => {
      const row = make("div", "row"), gutter = make("span", "gutter");
      gutter.append(...numbers.map(name => make("span", name)), make("span", "mk"));
      row.append(gutter, make("span", "code"));
      return row;
    });

    /** What renderEntry shows for an entry, as a string: a row built for an equal string can show it. */
    function look(pane, entry) {
      if (entry < 0) {
        const fold = ctx.view.folds[-entry - 1];
        return `fold ${-entry - 1} ${fold.start} ${fold.end}`;  // its button expands fold number -entry - 1
      }
      const { rows } = ctx.view, item = entry >> 1, side = entry & 1;
      const b = rows.b[item], a = rows.a[item], hunk = ctx.view.hunkOf[item];
      const current = hunk >= 0 && hunk === ctx.view.current ? (item === ctx.view.hunks[hunk].start ? 2 : 1) : 0;
      const warned = side === 1 && a >= 0 ? ctx.view.anchors.get(a) : undefined;
      return [settings.layout === "unified", rows.kind[item], side, b, a, b >= 0 ? ctx.view.before[b] : -1, a >= 0 ? ctx.view.after[a] : -1,
        current, warned ? warned.join("\n") : "", isPicked(item, side), settings.blame, ctx.whole(item)].join(" ");
    }

    /** One entry of a pane: a line of one side (unified: with both line numbers), a filler, or a fold. */
    function renderEntry(pane, entry) {
      if (entry < 0) return renderFold(pane, -entry - 1);
      const { rows } = ctx.view;
      const item = entry >> 1, side = entry & 1;
      const kind = rows.kind[item];
      const line = side === 0 ? rows.b[item] : rows.a[item];
      const changedSide = side === 0 ? "del" : "ins";
      const renamed = kind === IRTraceRenumber.KIND_RENAMED;  // equal but for value names: marked, not hidden
      const unified = settings.layout === "unified";
      const row = rowTemplates[unified ? 1 : 0].cloneNode(true);
      row.className = "row " + (line < 0 ? "filler" : kind === R.KIND_EQUAL ? "eq" : renamed ? "renamed" : changedSide);
      if (ctx.whole(item)) row.classList.add("whole");  // wrapped, with its pair in split: wholerows.js
      const gutter = row.firstChild, marker = gutter.lastChild, code = row.lastChild;
      if (unified) {
        const both = kind === R.KIND_EQUAL || renamed;  // a line of both sides shows both numbers
        if (both || side === 0) gutter.firstChild.textContent = String(rows.b[item] + 1);
        if (both || side === 1) gutter.firstChild.nextSibling.textContent = String(rows.a[item] + 1);
      } else if (line >= 0) gutter.firstChild.textContent = String(line + 1);
      marker.textContent = line < 0 || kind === R.KIND_EQUAL ? " " : renamed ? "\u2248" : side === 0 ? "\u2212" : "+";
      if (renamed) marker.title = "Renamed: equal to the other side but for value names";
      const warned = side === 1 && line >= 0 ? ctx.view.anchors.get(line) : undefined;
      if (warned) {
        row.classList.add("warned");
        row.title = warned.join("\n");
      }
      const hunk = ctx.view.hunkOf[item];
      numberButtons(gutter, item, side, unified);
      if (isPicked(item, side)) row.classList.add("picked");
      if (settings.blame) gutter.prepend(blameLabel(side, line));
      if (hunk >= 0 && hunk === ctx.view.current) {  // the change n / p last brought on screen: a bar in the gutter
        row.classList.add("current");
        if (item === ctx.view.hunks[hunk].start) row.setAttribute("aria-current", "true");
      }
      if (line >= 0) {
        const id = (side === 0 ? ctx.view.before : ctx.view.after)[line];
        const words = kind === R.KIND_PAIR || renamed ? wordsOf(item) : null;
        if (kind !== R.KIND_EQUAL && !renamed && !words) row.dataset.changed = "line";  // changed as a whole: no word marks
        // a pair shown whole keeps its changed words and what leads to them, the tail both sides share elided
        const tail = words && ctx.whole(item) ? sharedTail(item, words) : 0;
        columns.set(row, paint.line(code, id, words ? words[side === 0 ? "before" : "after"] : [], changedSide, tail));
      }
      return row;
    }

    /**
     * Mark the pane's built rows whose text the pane's right edge cuts (`visible`: the columns of code from the
     * line's start to that edge): viewer.css shows that more text follows. A row shown whole is never cut.
     */
    function markCut(pane, visible) {
      for (const row of pane.elements) {
        const cut = columns.get(row) > visible + 0.05 && !row.classList.contains("whole");
        if (cut !== row.classList.contains("cut")) row.classList.toggle("cut", cut);
      }
    }

    /**
     * The line numbers are buttons (by role: a <button> per row cost a pass switch a fifth more in style and
     * layout): pressed, the line's history opens (IRTracePaneRows.lineOf reads which line). Not in the tab
     * order, one per row: the keyboard's way is b on the current line.
     */
    function numberButtons(gutter, item, side, unified) {
      const numbers = unified ? [[gutter.firstChild, 0], [gutter.firstChild.nextSibling, 1]] : [[gutter.firstChild, side]];
      for (const [number, which] of numbers) {
        if (!number.textContent) continue;
        number.setAttribute("role", "button");
        number.setAttribute("aria-label", `Line ${number.textContent} (${which === 0 ? "before" : "after"}): its history`);
      }
    }

    /** Whether the row's entry on `side` shows the line picked in the panes (a history step opened, a number pressed). */
    function isPicked(item, side) {
      const picked = ctx.view.picked;
      if (!picked || (picked.side === 0 ? ctx.view.rows.b : ctx.view.rows.a)[item] !== picked.line) return false;
      const shownOnce = ctx.view.rows.kind[item] === R.KIND_EQUAL || ctx.view.rows.kind[item] === IRTraceRenumber.KIND_RENAMED;
      return picked.side === side || (settings.layout === "unified" && shownOnce);  // unified shows such a row once
    }

    /** The blame gutter's label of a line: the pass that last changed it, coloured by pass. */
    function blameLabel(side, line) {
      const label = make("span", "bl");
      const origin = line >= 0 ? ctx.lineOrigin(side, line) : null;
      if (!origin) return label;
      label.textContent = origin.text;
      label.title = origin.title;
      if (origin.hue !== null) label.style.setProperty("--hue", String(origin.hue));
      else label.classList.add("bl-none");
      return label;
    }

    /** How many characters both sides of a pair end with after their last word changes (the same text). */
    function sharedTail(item, words) {
      const { view } = ctx, lines = report.lines;
      const lengths = [lines[view.before[view.rows.b[item]]].length, lines[view.after[view.rows.a[item]]].length];
      const tails = [words.before, words.after]
        .map((ranges, side) => (ranges.length ? lengths[side] - ranges[ranges.length - 1][1] : Infinity));
      return Math.min(...tails) === Infinity ? 0 : Math.min(...tails);
    }

    function wordsOf(item) {
      if (!ctx.view.words.has(item)) {
        const lines = report.lines;
        ctx.view.words.set(item, R.wordDiff(lines[ctx.view.before[ctx.view.rows.b[item]]], lines[ctx.view.after[ctx.view.rows.a[item]]]));
      }
      return ctx.view.words.get(item);
    }

    function renderFold(pane, f) {
      const fold = ctx.view.folds[f];
      const hidden = fold.end - fold.start;
      const text = `\u22ef ${hidden} unchanged line${hidden === 1 ? "" : "s"}`;
      const row = make("div", "row fold-row");
      const twin = pane.index === 1;  // one accessible control per fold; the After pane's twin is for the mouse
      const button = make("button", "fold", twin ? text : `${text} \u2014 show`);
      button.type = "button";
      if (twin) {
        button.tabIndex = -1;
        button.setAttribute("aria-hidden", "true");
      }
      button.addEventListener("click", () => {
        expand(f);
        pane.scroller.focus({ preventScroll: true });  // the button is gone: keep focus where it was
      });
      row.append(button);
      return row;
    }

    return { look, renderEntry, markCut, wordsOf };
  }

  /** The line a line number (role button) names: {side (0 Before, 1 After), line (0-based)}, or null (a filler's). */
  function lineOf(button) {
    if (!button.textContent) return null;
    const side = button.classList.contains("old") ? 0 : button.classList.contains("new") ? 1
      : Number(button.closest(".pane").id === "pane-after");
    return { side, line: Number(button.textContent) - 1 };
  }

  return { create, lineOf };
})();
