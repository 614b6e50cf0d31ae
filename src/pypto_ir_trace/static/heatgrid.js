"use strict";
/*
 * A grid of rows x columns for assistive technology and the keyboard (role grid, one cell focusable at a time:
 * arrows move, Home / End go to a row's ends, PageUp / PageDown a screen, Enter or a click activates, Escape
 * leaves), with only the rows and columns on screen in the DOM: a map of 400 functions x 100 passes, or of
 * 2,411 MLIR dumps, costs what one screen of it costs. Used by the pipeline map (map.js) and by the index
 * page's programs x passes grid (programsgrid.js).
 *
 * IRTraceHeatGrid.create(host, spec) fills `host` (an element that scrolls, both axes) and returns
 * {refresh(), focus(), activeCell(), moveTo(row, column)}. spec:
 *   label            the grid's accessible name
 *   above            an element shown above the column headers, scrolling sideways with the columns (a chart),
 *                    or null; it is laid out from x = rowHeaderWidth
 *   rowHeaderWidth, rowHeight, headerHeight  in pixels
 *   rows()           how many rows; columns(): their widths in pixels, in order (a width 0 column is hidden)
 *   corner(node)     fills the header of the row headers' column
 *   columnHeader(c, node), rowHeader(r, node), cell(r, c, node): fill a fresh node (text, aria-label, title, classes)
 *   kind(r, c)       "cell" for a cell with something to show; "empty" or "absent" for one without: such cells are
 *                    not built (unless active: arrows reach every cell), absent ones drawn as one band per run of
 *                    them (most of a large map is unchanged: this keeps a screen's DOM to what it says)
 *   marked()         the column drawn highlighted the whole grid down (the selected pass), or -1
 *   activate(r, c)   Enter or a click: r -1 is the header row, c -1 the row headers' column
 *   focused(r, c)    the active cell moved (or was hovered): say what it holds elsewhere
 *   escape()         Escape pressed in the grid
 */
const IRTraceHeatGrid = (() => {
  // eslint-disable-next-line max-lines-per-function -- a module's closure: measuring, rendering and the keys share the columns and the active cell
  function create(host, spec) {
    const doc = host.ownerDocument, win = doc.defaultView;
    const make = (tag, className, role) => {
      const node = doc.createElement(tag);
      if (className) node.className = className;
      if (role) node.setAttribute("role", role);
      return node;
    };
    const grid = make("div", "hg", "grid");
    grid.setAttribute("aria-label", spec.label);
    const head = make("div", "hg-head", "row");
    const body = make("div", "hg-body", "rowgroup");
    grid.append(head, body);
    const top = spec.above ? make("div", "hg-above") : null;
    if (top) top.append(spec.above);
    host.replaceChildren(...(top ? [top] : []), grid);
    host.classList.add("hg-host");

    let widths = [], lefts = [], total = 0, active = { row: 0, column: 0 }, frame = 0, above = 0;
    const aboveHeight = () => above;  // measured once per refresh: reading it is a layout

    function measure() {
      widths = spec.columns();
      lefts = new Array(widths.length);
      total = 0;
      widths.forEach((width, c) => { lefts[c] = total; total += width; });
      const rows = spec.rows();
      grid.setAttribute("aria-rowcount", String(rows + 1));
      grid.setAttribute("aria-colcount", String(widths.filter(Boolean).length + 1));
      const width = `${spec.rowHeaderWidth + total}px`;
      grid.style.width = head.style.width = body.style.width = width;
      if (top) top.style.width = width;
      body.style.height = `${rows * spec.rowHeight}px`;
      head.style.height = `${spec.headerHeight}px`;
      above = top ? top.offsetHeight : 0;
      head.style.top = `${above}px`;
      active = clampTo(active.row, active.column);
    }

    /** The shown column nearest to c in the direction `step` (c itself when shown), or -1 for the row headers. */
    function shownColumn(c, step) {
      for (let at = c; at >= 0 && at < widths.length; at += step) if (widths[at]) return at;
      for (let at = c; at >= 0 && at < widths.length; at -= step) if (widths[at]) return at;
      return -1;
    }
    function clampTo(row, column) {
      const rows = spec.rows();
      return { row: Math.max(-1, Math.min(row, rows - 1)), column: column < 0 ? -1 : shownColumn(Math.min(column, widths.length - 1), 1) };
    }
    /** The index of the first column whose right edge lies past x (binary search over the lefts). */
    function columnAt(x) {
      let low = 0, high = widths.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (lefts[mid] + widths[mid] <= x) low = mid + 1;
        else high = mid;
      }
      return low;
    }
    /** Columns and rows on screen, one more each side, as [first, stop). */
    function onScreen() {
      const x = host.scrollLeft, width = host.clientWidth - spec.rowHeaderWidth;
      const y = host.scrollTop, height = host.clientHeight - spec.headerHeight;
      const rows = spec.rows();
      return {
        columns: [Math.max(0, columnAt(x) - 1), Math.min(widths.length, columnAt(x + width) + 2)],
        rows: [Math.max(0, Math.floor(y / spec.rowHeight) - 1), Math.min(rows, Math.ceil((y + height) / spec.rowHeight) + 1)],
      };
    }

    function place(node, c) {
      node.style.left = `${spec.rowHeaderWidth + lefts[c]}px`;
      node.style.width = `${widths[c]}px`;
      node.setAttribute("aria-colindex", String(c + 2));
    }
    /** The columns to build in a row: those on screen, and the active one when the row is the active row's. */
    function columnsOf(range, row) {
      const list = [];
      for (let c = range[0]; c < range[1]; c++) if (widths[c]) list.push(c);
      if (row === active.row && active.column >= 0 && !list.includes(active.column)) list.push(active.column);
      return list;
    }
    function focusable(node, row, column) {
      const current = row === active.row && column === active.column;
      node.tabIndex = current ? 0 : -1;
      node.dataset.row = String(row);
      node.dataset.column = String(column);
    }

    function render() {
      frame = 0;
      const range = onScreen();
      const hadFocus = grid.contains(doc.activeElement);
      const corner = make("div", "hg-corner", "columnheader");
      corner.style.width = `${spec.rowHeaderWidth}px`;
      corner.setAttribute("aria-colindex", "1");
      spec.corner(corner);
      focusable(corner, -1, -1);
      const heads = [corner];
      for (const c of columnsOf(range.columns, -1)) {
        const node = make("div", "hg-col", "columnheader");
        place(node, c);
        spec.columnHeader(c, node);
        focusable(node, -1, c);
        heads.push(node);
      }
      head.setAttribute("aria-rowindex", "1");
      head.replaceChildren(...heads);
      const wanted = [];
      for (let r = range.rows[0]; r < range.rows[1]; r++) wanted.push(r);
      if (active.row >= 0 && !wanted.includes(active.row)) wanted.push(active.row);
      // A row already built for these columns is kept (scrolling down builds only the rows it brings in); the
      // active row is built afresh, so its roving tabindex is right.
      const fresh = new Map();
      const key = `${range.columns[0]}:${range.columns[1]}`;
      const moved = wasActive.row !== active.row || wasActive.column !== active.column;
      for (const r of wanted) {
        const kept = built.get(r);
        const stale = !kept || kept.key !== key || (moved && (r === active.row || r === wasActive.row));
        fresh.set(r, stale ? { key, row: buildRow(r, range) } : kept);
      }
      built = fresh;
      wasActive = { ...active };
      const marked = spec.marked();
      const mark = marked >= 0 && widths[marked] ? [columnMark(marked)] : [];
      body.replaceChildren(...mark, ...[...fresh.values()].map(entry => entry.row));
      if (hadFocus && !grid.contains(doc.activeElement)) focusActive();  // only when its node was rebuilt: focus() lays out
    }
    let built = new Map(), wasActive = { row: -1, column: -1 };  // row -> {key: its columns, row: its element}
    function buildRow(r, range) {
      const row = make("div", "hg-row", "row");
      let band = null;  // the run of absent cells being drawn
      row.style.top = `${r * spec.rowHeight}px`;
      row.style.height = `${spec.rowHeight}px`;
      row.setAttribute("aria-rowindex", String(r + 2));
      const header = make("div", "hg-rowhead", "rowheader");
      header.style.width = `${spec.rowHeaderWidth}px`;
      header.setAttribute("aria-colindex", "1");
      spec.rowHeader(r, header);
      focusable(header, r, -1);
      row.append(header);
      for (const c of columnsOf(range.columns, r)) {
        const kind = spec.kind(r, c);
        if (kind !== "cell" && !(r === active.row && c === active.column)) {
          if (kind !== "absent") band = null;
          else if (band && band.end === lefts[c]) band.end += widths[c];
          else {
            band = { node: make("div", "hg-band absent"), start: lefts[c], end: lefts[c] + widths[c] };
            band.node.setAttribute("aria-hidden", "true");  // the cells it stands for say so when focused
            row.append(band.node);
          }
          if (band) Object.assign(band.node.style, { left: `${spec.rowHeaderWidth + band.start}px`, width: `${band.end - band.start}px` });
          continue;
        }
        band = null;
        const cell = make("div", "hg-cell", "gridcell");
        place(cell, c);
        spec.cell(r, c, cell);
        focusable(cell, r, c);
        row.append(cell);
      }
      return row;
    }

    function columnMark(c) {
      const node = make("div", "hg-mark");
      node.setAttribute("aria-hidden", "true");
      Object.assign(node.style, { left: `${spec.rowHeaderWidth + lefts[c]}px`, width: `${widths[c]}px` });
      return node;
    }

    const nodeOf = (row, column) => grid.querySelector(`[data-row="${row}"][data-column="${column}"]`);
    function focusActive() {
      const node = nodeOf(active.row, active.column);
      if (node) node.focus({ preventScroll: true });
    }

    /** Scroll so the active cell shows beside the sticky headers. */
    function reveal() {
      const above = aboveHeight();
      if (active.row >= 0) {
        const y = active.row * spec.rowHeight, view = host.clientHeight - spec.headerHeight - above;
        if (y < host.scrollTop) host.scrollTop = y;
        else if (y + spec.rowHeight > host.scrollTop + view) host.scrollTop = y + spec.rowHeight - view;
      }
      if (active.column >= 0) {
        const x = lefts[active.column], view = host.clientWidth - spec.rowHeaderWidth;
        if (x < host.scrollLeft) host.scrollLeft = x;
        else if (x + widths[active.column] > host.scrollLeft + view) host.scrollLeft = x + widths[active.column] - view;
      }
    }

    function moveTo(row, column) {
      active = clampTo(row, column);
      reveal();
      render();
      focusActive();
      spec.focused(active.row, active.column);
    }

    function nextColumn(from, step) {
      if (from < 0) return step > 0 ? shownColumn(0, 1) : -1;
      for (let c = from + step; c >= 0 && c < widths.length; c += step) if (widths[c]) return c;
      return step < 0 ? -1 : from;
    }

    grid.addEventListener("keydown", event => {
      if (event.altKey || event.metaKey) return;
      const { row, column } = active;
      const page = Math.max(1, Math.floor((host.clientHeight - spec.headerHeight - aboveHeight()) / spec.rowHeight) - 1);
      const moves = {
        ArrowRight: () => moveTo(row, nextColumn(column, 1)),
        ArrowLeft: () => moveTo(row, nextColumn(column, -1)),
        ArrowDown: () => moveTo(row + 1, column),
        ArrowUp: () => moveTo(row - 1, column),
        PageDown: () => moveTo(row + page, column),
        PageUp: () => moveTo(Math.max(row - page, 0), column),
        Home: () => (event.ctrlKey ? moveTo(0, column) : moveTo(row, -1)),
        End: () => (event.ctrlKey ? moveTo(spec.rows() - 1, column) : moveTo(row, shownColumn(widths.length - 1, -1))),
        Enter: () => spec.activate(row, column),
        " ": () => spec.activate(row, column),
        Escape: () => spec.escape(),
      };
      if (!moves[event.key]) return;
      event.preventDefault();  // the page's own keys (j / k, arrows) see a handled key and leave it
      moves[event.key]();
    });
    const cellOf = target => target.closest && target.closest("[data-row]");
    grid.addEventListener("click", event => {
      const node = cellOf(event.target);
      if (!node) return;
      active = { row: Number(node.dataset.row), column: Number(node.dataset.column) };
      spec.activate(active.row, active.column);
    });
    // A cell focused by a click: it becomes the active one (roving tabindex), without rebuilding the rows under
    // the pointer (the click that follows must find its cell).
    grid.addEventListener("focusin", event => {
      const node = cellOf(event.target);
      if (!node) return;
      const previous = nodeOf(active.row, active.column);
      if (previous && previous !== node) previous.tabIndex = -1;
      node.tabIndex = 0;
      active = { row: Number(node.dataset.row), column: Number(node.dataset.column) };
      spec.focused(active.row, active.column);
    });
    grid.addEventListener("mouseover", event => {
      const node = cellOf(event.target);
      if (node) spec.focused(Number(node.dataset.row), Number(node.dataset.column));
    });
    host.addEventListener("scroll", () => { if (!frame) frame = win.requestAnimationFrame(render); }, { passive: true });

    /** Everything again (the rows, the columns or what they show changed); with `focus`, the active cell
     * brought on screen and focused, in the same one rendering. */
    function refresh(focus) {
      measure();
      built = new Map();
      if (focus) reveal();
      render();
      if (focus) focusActive();
    }

    return {
      refresh,
      focus: () => { reveal(); render(); focusActive(); },
      /** Forget the rows built: what they show changed (the rows' order, the picked function, the selected pass). */
      forget: () => { built = new Map(); },
      activeCell: () => ({ ...active }),
      moveTo,
      setActive: (row, column) => { active = { row, column }; },  // kept within the grid by the next refresh
    };
  }

  return { create };
})();
