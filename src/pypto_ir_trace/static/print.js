"use strict";
/*
 * Printing (or saving as PDF): the screen keeps only the rows near it, so before printing every row
 * of the shown diff is built, folds as on screen, into a print-only table whose Before and After
 * cells stay side by side however their lines wrap; after printing it is dropped.
 */
const IRTracePrint = (() => {
  /** host: {el: {diff, beforeFile, afterFile, unifiedFile}: the panes' markup, panes: what they show, make}. */
  function create(host) {
    const { el, panes, make } = host;
    const doc = el.diff.ownerDocument, win = doc.defaultView;
    let sheet = null;

    function build() {
      drop();
      if (!el.diff.isConnected) return;  // the view of a pipeline no longer shown (pipelines.js)
      const rows = panes.allRows();  // null when they show nothing
      if (!rows) return;
      sheet = make("div", "print-view");
      sheet.setAttribute("aria-hidden", "true");  // a copy of the panes, for paper only
      const heads = rows.length === 1 ? [`Diff  ${el.unifiedFile.textContent}`]  // the unified layout: one pane
        : [`Before  ${el.beforeFile.textContent}`, `After  ${el.afterFile.textContent}`];
      const sideBySide = el.diff.classList.contains("split");
      const groups = sideBySide ? [[0, 1]] : rows.map((_, i) => [i]);
      for (const sides of groups) {
        const table = make("table", "print-table" + (sides.length > 1 ? " two" : ""));
        const head = make("tr");
        for (const side of sides) head.append(make("th", "", heads[side]));
        table.append(make("thead"));
        table.tHead.append(head);
        const body = make("tbody");
        rows[sides[0]].forEach((_, r) => {
          const line = make("tr");
          for (const side of sides) {
            const row = rows[side][r];
            for (const fold of row.querySelectorAll(".fold")) fold.textContent = fold.textContent.replace(/ \u2014 show$/, "");  // paper cannot click
            const cell = make("td", row.className.replace(/\brow\b/, "").trim());  // its colour fills the cell
            cell.append(row);
            line.append(cell);
          }
          body.append(line);
        });
        table.append(body);
        sheet.append(table);
      }
      el.diff.after(sheet);
    }

    function drop() {
      if (sheet) sheet.remove();
      sheet = null;
    }

    win.addEventListener("beforeprint", build);
    win.addEventListener("afterprint", drop);
    // Emulated print media (and some print paths) send no beforeprint: follow the media query too.
    if (win.matchMedia) win.matchMedia("print").addEventListener("change", event => (event.matches ? build() : drop()));
    return { build, drop };
  }

  return { create };
})();
