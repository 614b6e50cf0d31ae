"use strict";
/*
 * The rows a pane shows whole: those of a change whose changed text reaches past the pane's right edge at
 * column 0, and the row a search jump lands on when its match does. They wrap with a hanging indent, as Wrap
 * lines wraps every row; every other row stays one row, cut at the pane's edge (and marked so: panerows.js).
 * A pass opens at column 0, so what must be seen of a change is made visible in place rather than by
 * scrolling sideways. Decided from the text as painted (elisions, word changes), not from the DOM: the virtual
 * list must know which rows are tall before it builds them.
 */
const IRTraceWholeRows = (() => {
  const R = IRTraceRows;
  const WORD_BUDGET = 1000;  // word changes made per view to weigh its rows; past it a cheap bound stands in

  /** ctx: the panes' shared state (panes.js); paint: IRTracePaint's painter; wordsOf(row): a pair's word changes. */
  function create(ctx, paint, wordsOf) {
    const { report } = ctx;

    /** Whether a row of the view is shown whole in a pane showing `columns` columns of code at column 0. */
    function isWhole(item, columns) {
      const { view } = ctx;
      if (ctx.wrapping()) return false;  // every row wraps
      if (view.sought && view.sought.row === item && view.sought.column > columns) return true;
      const kind = view.rows.kind[item];
      if (kind === R.KIND_EQUAL || longest(view, item) <= columns) return false;  // the common cases, cheap
      if (view.reach[item] < 0) view.reach[item] = reachOf(view, item, kind);
      return view.reach[item] > columns;
    }

    /** The columns the longer side of a row takes at most (painted, it may elide some). */
    function longest(view, item) {
      const b = view.rows.b[item], a = view.rows.a[item];
      const width = id => paint.shownLength(id) + (paint.shownLength(id) < report.lines[id].length ? IRTracePaint.REST_CHARS : 0);
      return Math.max(b >= 0 ? width(view.before[b]) : 0, a >= 0 ? width(view.after[a]) : 0);
    }

    /** The column where a changed row's changed text ends as painted, on its farther side. */
    function reachOf(view, item, kind) {
      const b = view.rows.b[item], a = view.rows.a[item];
      const before = b >= 0 ? view.before[b] : -1, after = a >= 0 ? view.after[a] : -1;
      const all = id => (id < 0 ? 0 : paint.elidedLength(id, []));  // a line changed as a whole, painted so
      if (kind === R.KIND_DELETED || kind === R.KIND_INSERTED) return Math.max(all(before), all(after));
      const lines = report.lines;
      const words = view.words.has(item) || view.words.size < WORD_BUDGET ? wordsOf(item)
        : { before: R.changedStretch(lines[before], lines[after]), after: R.changedStretch(lines[after], lines[before]) };
      if (!words) return Math.max(all(before), all(after));  // too little in common for word marks: all changed
      const end = (id, ranges) => (ranges.length ? paint.columnOf(id, ranges, ranges[ranges.length - 1][1]) : 0);
      return Math.max(end(before, words.before), end(after, words.after));
    }

    /**
     * The row a search jump lands on, its first match's column noted: shown whole when the match lies past the
     * pane's edge (null: a line without a match there).
     */
    function soughtRow(row, marks) {
      const { view } = ctx;
      let column = 0;
      [[view.rows.b[row], view.before], [view.rows.a[row], view.after]].forEach(([line, ids]) => {
        const found = line >= 0 ? marks(ids[line]) : null;
        if (found && found.ranges.length) column = Math.max(column, paint.columnOf(ids[line], found.ranges, found.ranges[0][1]));
      });
      return { row, column };
    }

    return { isWhole, soughtRow };
  }

  return { create };
})();
