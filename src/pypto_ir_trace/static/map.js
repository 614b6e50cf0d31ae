"use strict";
/*
 * The pipeline map: the whole pipeline at a glance, a panel (panels.js) the viewer shows in place of the diff.
 * Its registration, at the end of this file: the "Map" button (#map-toggle), `m`, `map=1` in links (Escape or
 * the button again returns to the diff); its style is map.css (scripts.json). Not a view (views.js): a view
 * answers what one pass shows, the map shows every pass at once, and it serves every view (in two runs it
 * marks where the runs differ).
 *
 * A row per function (the model's map: pipeline_map.py, program order), a column per pass the pass list shows
 * (no-op passes narrow, or hidden with the No-op filter); a cell's shade is the lines the pass inserted and
 * deleted in the function, on a log scale so one changed line shows beside a thousand; its name says the exact
 * counts and what else happened (added, removed, parsed with errors, warnings, a failed pass, the runs
 * differing). Above it, the IR's lines after each pass (and the picked function's), aligned with the columns.
 * Activating a cell shows that pass with the function picked; a row header picks the function; a column
 * header shows the pass. Every figure is the model's (built once); the page only lays them out.
 */
const IRTraceMap = (() => {
  const LEVELS = 6;  // shades of change
  const FLAG = { born: 1, removed: 2, errors: 4, warned: 8, differs: 16, firstDiffers: 32 };
  const SORTS = { program: "Program order", total: "Total change", first: "First pass that touches it" };
  const NOOP_WIDTH = 4, WIDTH = [16, 36], ROW = 20, HEAD = 44, ROW_HEADER = 240;  // WIDTH: a changed pass's least, most

  /**
   * The map's table, once per pipeline: rows (functions), columns (app.passes), and per cell (row r, column c
   * at r * columns + c) the lines inserted, deleted, the function's lines after, and its FLAGs; per column the
   * IR's lines after and the pass this run ran there (two runs: a row of the aligned runs, null where only the
   * baseline ran one).
   */
  function tabulate(app) {
    const runs = app.report.runs;
    const own = runs ? runs.ours : app.pipeline;
    const found = own.map;
    const columns = app.passes.length;
    const functions = found.functions.slice();
    const index = new Map(functions.map((key, r) => [key, r]));
    const passOf = c => (runs ? runs.rows[c].row.this : c);  // this run's pass at column c (null: none)
    if (runs) {  // a function only the baseline has still differs: a row of its own
      for (const { row } of runs.rows) for (const key of row.byRegion.keys()) if (!index.has(key)) index.set(key, functions.push(key) - 1);
    }
    const size = functions.length * columns;
    const table = {
      functions, columns, passOf, inserted: new Int32Array(size), deleted: new Int32Array(size), lines: new Int32Array(size),
      flags: new Uint8Array(size), diffInserted: new Int32Array(size), diffDeleted: new Int32Array(size),
      total: new Array(columns), inputLines: own.ids(0).length, columnWarned: new Array(columns).fill(false),
      start: Int32Array.from({ length: functions.length }, (_, r) => found.start[r] || 0),
    };
    let current = table.start.slice();
    let irLines = table.inputLines;
    for (let c = 0; c < columns; c++) {
      const p = passOf(c);
      const next = current.slice();
      if (p !== null && p !== undefined) {
        const pass = own.passes[p];
        for (const cell of found.cells[p]) {
          const at = cell.row * columns + c;
          table.inserted[at] = cell.inserted;
          table.deleted[at] = cell.deleted;
          if (!current[cell.row] && cell.lines) table.flags[at] |= FLAG.born;
          if (current[cell.row] && !cell.lines) table.flags[at] |= FLAG.removed;
          next[cell.row] = cell.lines;
        }
        irLines = found.lines[p];
        markText(table, own.texts[pass.after], pass, index, c);
      }
      for (let r = 0; r < functions.length; r++) table.lines[r * columns + c] = next[r];
      table.total[c] = irLines;
      current = next;
    }
    if (runs) markRuns(table, runs, index);
    rowFigures(table);
    return table;
  }

  /** Errors inside a function of the pass's snapshot, and warnings that name a line of one. */
  function markText(table, text, pass, index, c) {
    for (const region of text.regions) {
      if (region.error && index.has(region.key)) table.flags[index.get(region.key) * table.columns + c] |= FLAG.errors;
    }
    for (const { line } of pass.anchors) {
      const region = text.regions.find(({ start, end }) => start <= line && line < end);
      if (region && index.has(region.key)) table.flags[index.get(region.key) * table.columns + c] |= FLAG.warned;
    }
    table.columnWarned[c] = Boolean(pass.warnings);
  }

  /** Two runs: where each function differs after each row, its first such row standing out. */
  function markRuns(table, runs, index) {
    const seen = new Set();
    runs.rows.forEach(({ row }, c) => {
      for (const [key, { inserted, deleted }] of row.byRegion) {
        const r = index.get(key), at = r * table.columns + c;
        table.flags[at] |= FLAG.differs | (seen.has(r) ? 0 : FLAG.firstDiffers);
        table.diffInserted[at] = inserted;
        table.diffDeleted[at] = deleted;
        seen.add(r);
      }
    });
    table.firstDivergent = runs.firstDivergent;
  }

  /** Each row's total change, its first pass that touches it, and the largest cell (the shades' scale). */
  function rowFigures(table) {
    const { columns } = table;
    table.rowTotal = new Array(table.functions.length).fill(0);
    table.rowFirst = new Array(table.functions.length).fill(Infinity);
    table.largest = 1;
    table.functions.forEach((_, r) => {
      for (let c = 0; c < columns; c++) {
        const at = r * columns + c, change = table.inserted[at] + table.deleted[at];
        table.rowTotal[r] += change;
        if (change > table.largest) table.largest = change;
        if ((change || table.flags[at] & (FLAG.born | FLAG.removed)) && table.rowFirst[r] === Infinity) table.rowFirst[r] = c;
      }
    });
  }

  /** The shade of a change: 0 none, else 1..LEVELS on a log scale (one line is level 1, the largest LEVELS). */
  const level = (change, largest) => (change ? Math.max(1, Math.ceil(LEVELS * Math.log1p(change) / Math.log1p(largest))) : 0);

  /** The row order: program order, by total change (largest first), or by the first pass that touches it. */
  function order(table, sort) {
    const rows = table.functions.map((_, r) => r);
    if (sort === "total") rows.sort((a, b) => table.rowTotal[b] - table.rowTotal[a] || a - b);
    if (sort === "first") rows.sort((a, b) => table.rowFirst[a] - table.rowFirst[b] || a - b);
    return rows;
  }

  /** "pl.tile.load +32, pl.tensor.matmul −4" of a pass's op count deltas (the first `most`, then how many more). */
  function opsText(ops, most = 6) {
    const shown = ops.slice(0, most).map(([op, delta]) => `${op} ${delta > 0 ? "+" : "\u2212"}${Math.abs(delta)}`);
    return shown.join(", ") + (ops.length > most ? `, and ${ops.length - most} more` : "");
  }

  /** The largest step of the IR's size between two shown passes (null: it never changes). A step from nothing is
   * not one: an MLIR input is not dumped, and the first dump prints the whole IR. */
  function largestStep(table, shown) {
    let best = null, previous = table.inputLines;
    for (const c of shown) {
      const step = table.total[c] - previous;
      if (step && previous && (!best || Math.abs(step) > Math.abs(best.step))) best = { c, step, before: previous, after: table.total[c] };
      previous = table.total[c];
    }
    return best;
  }

  const NUMBER = new Intl.NumberFormat("en-US");  // one formatter: toLocaleString makes one per call (~0.1 ms)
  const plural = (n, word) => `${NUMBER.format(n)} ${word}${n === 1 ? "" : "s"}`;
  const signed = n => (n >= 0 ? `+${NUMBER.format(n)}` : `\u2212${NUMBER.format(-n)}`);

  // eslint-disable-next-line max-lines-per-function -- a module's closure: the panel's parts share the table, the grid and the open state
  function create(app, button) {
    const { el, state, passes } = app;
    const root = el.root;
    const $ = id => root.querySelector("#" + id);
    const ui = {
      button, panel: $("map"), host: $("map-grid"), sort: $("map-sort"), detail: $("map-detail"),
      step: $("map-step"), summary: $("map-summary"), ops: $("pass-ops"), main: root.querySelector(".main"),
    };
    let table = null, rows = [], grid = null, chart = null, wide = WIDTH[0];
    const runs = app.report.runs;

    const visibleColumns = () => passes.map((_, c) => c).filter(c => app.passList.isVisible(c));
    /** A column with something to show: its pass changed the IR (two runs: this run's did, or the runs differ). */
    const eventful = c => passes[c].changed || Boolean(runs && table.passOf(c) !== null && runs.ours.passes[table.passOf(c)].changed);
    const widthOf = c => (!app.passList.isVisible(c) ? 0 : eventful(c) ? wide : NOOP_WIDTH);
    /** A changed pass's column: as wide as the panel allows the shown columns, within WIDTH. */
    function fitColumns() {
      const shown = visibleColumns(), changed = shown.filter(eventful).length;
      const room = ui.host.clientWidth - ROW_HEADER - 2 - NOOP_WIDTH * (shown.length - changed);
      wide = Math.max(WIDTH[0], Math.min(WIDTH[1], Math.floor(room / Math.max(changed, 1))));
    }
    const keyOf = r => table.functions[rows[r]];
    const short = key => key.slice(key.lastIndexOf(".") + 1) || key;  // the class qualifier is the same on every row

    function build() {
      table = tabulate(app);
      rows = order(table, ui.sort.value);
      chart = IRTraceMapChart.create(app.make, ROW_HEADER);
      grid = IRTraceHeatGrid.create(ui.host, {
        label: "Pipeline map", above: chart.element, rowHeaderWidth: ROW_HEADER, rowHeight: ROW, headerHeight: HEAD,
        rows: () => rows.length,
        columns: () => passes.map((_, c) => widthOf(c)),
        corner: node => {  // the figure beside each name is labelled: lines changed, not the function's size
          node.append(app.make("span", "map-name", runs ? "Function (this run)" : "Function"), app.make("span", "map-total", "lines changed"));
          node.title = "Rows: functions, each with the lines all passes inserted or deleted in it. Columns: passes";
        },
        columnHeader, rowHeader, cell, kind,
        marked: () => (state.selected >= 0 && app.passList.isVisible(state.selected) ? state.selected : -1),
        activate, focused: describe, escape: () => { toggle(false); ui.button.focus(); },
      });
    }

    function columnName(c) {
      const pass = passes[c], p = table.passOf(c);
      const parts = [`${pass.label} ${pass.name}`];
      if (!pass.changed) parts.push(runs ? "runs identical after it" : "no-op");
      if (p !== null && p !== undefined) {
        const ownPass = (runs ? runs.ours : app.pipeline).passes[p];
        if (ownPass.changed) parts.push(`+${ownPass.inserted} \u2212${ownPass.deleted}`);
        if (ownPass.failed) parts.push("failed: the pipeline stopped here");
        if (ownPass.errorLines.length) parts.push("with errors");
        else if (ownPass.warnings) parts.push("with warnings");
        parts.push(`${plural(table.total[c], "line")} after`);
        if (ownPass.ops.length) parts.push(`ops: ${opsText(ownPass.ops)}`);
      }
      if (runs && c === table.firstDivergent) parts.push("the runs diverge first here");
      return parts.join(", ");
    }
    function columnHeader(c, node) {
      const pass = passes[c];
      const p = table.passOf(c), ownPass = p === null || p === undefined ? null : (runs ? runs.ours : app.pipeline).passes[p];
      if (eventful(c)) node.append(app.make("span", "hg-label", pass.label));
      const name = columnName(c);
      node.setAttribute("aria-label", name);
      node.title = name;
      node.classList.toggle("noop", !eventful(c));
      node.classList.toggle("selected", c === state.selected);
      node.classList.toggle("failed", Boolean(ownPass && ownPass.failed));
      node.classList.toggle("warned", table.columnWarned[c]);
      node.classList.toggle("first-divergent", Boolean(runs) && c === table.firstDivergent);
    }
    function rowHeader(r, node) {
      const key = keyOf(r), total = table.rowTotal[rows[r]];
      const labels = (runs ? runs.ours : app.pipeline).labels;
      const name = (labels && labels.get(key)) || key;  // a demangled symbol; the tooltip keeps the key
      node.append(app.make("span", "map-name", short(name)), app.make("span", "map-total", total ? String(total) : "\u2013"));
      node.setAttribute("aria-label", `${name}, ${total ? `${plural(total, "line")} changed in all` : "never changed"}`);
      node.title = `${key}: ${plural(total, "line")} inserted or deleted by all passes`;
      node.classList.toggle("picked", key === state.wantedKey);
    }
    function cellName(r, c) {  // in the cell's aria-label and title, and in the detail line
      const key = keyOf(r), at = rows[r] * table.columns + c, flags = table.flags[at];
      const ins = table.inserted[at], del = table.deleted[at], lines = table.lines[at];
      const parts = [`${passes[c].label} ${passes[c].name}`, key];
      parts.push(`+${ins} \u2212${del}`);
      if (!ins && !del) parts.push(lines || flags & FLAG.removed ? "unchanged" : "not in the program here");
      if (flags & FLAG.born) parts.push(pairedFrom(c, key) ? `added, diffed against ${pairedFrom(c, key)} (paired by content)` : "added");
      if (flags & FLAG.removed) parts.push("removed");
      else if (lines) parts.push(`${plural(lines, "line")} after`);
      if (flags & FLAG.errors) parts.push("parsed with errors");
      if (flags & FLAG.warned) parts.push("a warning names it");
      const p = table.passOf(c);
      if (p !== null && p !== undefined && (runs ? runs.ours : app.pipeline).passes[p].failed) parts.push("the pass failed");
      if (flags & FLAG.differs) {
        parts.push(`runs differ after it: +${table.diffInserted[at]} \u2212${table.diffDeleted[at]}`);
        if (flags & FLAG.firstDiffers) parts.push("first divergence of this function");
      }
      return parts.join(", ");
    }
    /** The function a pass paired a new one with by content (a rename, the largest part of a split), or null. */
    function pairedFrom(c, key) {
      const p = table.passOf(c);
      if (p === null || p === undefined) return null;
      for (const [old, fresh] of (runs ? runs.ours : app.pipeline).passes[p].paired) if (fresh === key) return old;
      return null;
    }
    function cell(r, c, node) {
      const at = rows[r] * table.columns + c, flags = table.flags[at];
      const shade = level(table.inserted[at] + table.deleted[at], table.largest);
      if (shade) node.classList.add(`l${shade}`);
      const mark = flags & FLAG.errors ? "!" : flags & FLAG.born ? "+" : flags & FLAG.removed ? "\u00d7" : flags & FLAG.warned ? "w"
        : flags & FLAG.firstDiffers ? "\u2260" : "";
      if (mark && eventful(c)) node.textContent = mark;
      if (flags & FLAG.errors) node.classList.add("errors");
      if (flags & FLAG.differs) node.classList.add(flags & FLAG.firstDiffers ? "first-differs" : "differs");
      if (!table.lines[at] && !(flags & FLAG.removed)) node.classList.add("absent");
      node.setAttribute("aria-label", cellName(r, c));  // hovered, the line under the grid says it (describe)
    }
    /** What a cell shows: something (a change, a mark), nothing, or the function's absence. */
    function kind(r, c) {
      const at = rows[r] * table.columns + c;
      if (table.inserted[at] || table.deleted[at] || table.flags[at]) return "cell";
      return table.lines[at] ? "empty" : "absent";
    }

    /** Enter or a click: a cell shows the pass with its function picked, a row header picks the function,
     * a column header shows the pass. */
    function activate(r, c) {
      if (r >= 0 && c < 0 && state.selected >= 0 && keyOf(r) === state.wantedKey && app.hasView("lowering")) {
        toggle(false);  // the picked function's row again: its whole lowering
        return app.showView("lowering");
      }
      if (r >= 0 && c < 0) return state.selected >= 0 ? pick(keyOf(r)) : undefined;  // a function is picked in a pass
      if (c < 0) return undefined;
      toggle(false);
      if (!app.passList.isVisible(c)) app.passList.showAll();
      app.select(c);
      if (r >= 0) app.pickFunction(keyOf(r));
      ui.button.focus();
      return undefined;
    }
    function pick(key) {
      app.pickFunction(key);  // the diff behind keeps it; the chart draws its size
      refresh();
      const again = app.hasView("lowering") ? ", Enter on its name again its whole lowering" : "";
      app.announce(`Picked ${key}: its size is drawn over the pipeline; Enter on a cell opens that pass${again}.`, "map");
    }
    function describe(r, c) {
      if (r < 0 && c < 0) ui.detail.textContent = "Rows: functions; columns: passes. Enter opens, Escape returns to the diff.";
      else if (r < 0) ui.detail.textContent = columnName(c);
      else if (c < 0) ui.detail.textContent = `${keyOf(r)}: ${plural(table.rowTotal[rows[r]], "line")} changed in all`;
      else ui.detail.textContent = cellName(r, c);
    }

    function drawChart() {
      const shown = visibleColumns();
      const picked = table.functions.indexOf(state.wantedKey);
      const { ownMost } = chart.draw({
        widths: passes.map((_, c) => widthOf(c)), total: table.total, input: table.inputLines,
        own: picked < 0 ? null : passes.map((_, c) => table.lines[picked * table.columns + c]),
        ownInput: picked < 0 ? 0 : table.start[picked],
        selected: state.selected,
      });
      const step = largestStep(table, shown);
      const last = shown.length ? shown[shown.length - 1] : -1;
      const peak = shown.reduce((best, c) => (table.total[c] > table.total[best] ? c : best), shown[0]);
      const words = step
        ? `The largest step: ${passes[step.c].label} ${passes[step.c].name}, ${plural(step.before, "line")} \u2192 ${NUMBER.format(step.after)} (${signed(step.step)}).`
        : "The IR's size never changes.";
      ui.step.textContent = words;
      ui.summary.textContent = `IR size over the pipeline: ${plural(table.inputLines, "line")} in the input` +
        (last >= 0 ? `, ${plural(table.total[last], "line")} after ${passes[last].label} ${passes[last].name}` : "") +
        (shown.length ? `, the most (${plural(table.total[peak], "line")}) after ${passes[peak].label} ${passes[peak].name}. ` : ". ") + words +
        (picked >= 0 ? ` The picked function, ${state.wantedKey}, is drawn too, dashed, on its own scale up to ${plural(ownMost, "line")} (${plural(table.lines[picked * table.columns + Math.max(last, 0)], "line")} at the end).` : "");
    }

    function toggle(on) {
      const open = (on === undefined ? ui.panel.hidden : on) && passes.length > 0;
      if (open === !ui.panel.hidden) return;
      ui.panel.hidden = !open;
      if (!open) app.forgetStatus("map");  // its messages speak of the map: not over the code
      ui.main.classList.toggle("map-open", open);
      ui.button.setAttribute("aria-pressed", String(open));
      state.panels.map = open;
      if (open) {
        if (!table) build();
        const picked = rows.findIndex(r => table.functions[r] === state.wantedKey);  // its row, else where the reader was
        if (state.selected >= 0) grid.setActive(picked >= 0 ? picked : grid.activeCell().row, state.selected);
        refresh(true);
      }
      app.writeLink();
    }
    /** Columns follow the filters and the selected pass; the picked function's row and size follow it too. */
    function refresh(focus) {
      if (!table || ui.panel.hidden) return;
      fitColumns();
      drawChart();  // first: the grid's headers stick under it
      grid.refresh(focus);
    }

    /** A pass is shown (or none, -1): the line of its op count deltas under its heading; the map's marks follow. */
    function passShown(p) {
      const pass = p >= 0 ? app.shown(p) : null;
      const ops = pass && state.base === null ? pass.ops || [] : [];
      ui.ops.hidden = !ops.length;
      const [label, title] = app.source().ops;  // whose ops the line counts
      ui.ops.textContent = ops.length ? `${label}: ${opsText(ops)}` : "";
      ui.ops.title = ops.length ? `${title}:\n${opsText(ops, Infinity).split(", ").join("\n")}` : "";
      refresh();
    }

    /** Paper gets the whole map (the screen holds only what is on it): the chart, then a table of every row and
     * shown column, shades and marks as on screen; dropped after printing. */
    let sheet = null;
    function printable() {
      dropPrintable();
      if (ui.panel.hidden || !table || !ui.panel.isConnected) return;  // a pipeline no longer shown keeps quiet
      sheet = app.make("div", "map-print");
      sheet.setAttribute("aria-hidden", "true");  // a copy of the grid, for paper only
      const shown = visibleColumns().filter(eventful), grid = app.make("table");
      const head = app.make("tr");
      head.append(app.make("th", "", "Function"), ...shown.map(c => app.make("th", "", passes[c].label)));
      grid.append(head);
      rows.forEach((_, r) => {
        const line = app.make("tr");
        line.append(app.make("th", "", `${short(keyOf(r))} ${table.rowTotal[rows[r]]}`));
        for (const c of shown) {
          const node = app.make("td");
          if (kind(r, c) !== "empty") cell(r, c, node);
          if (kind(r, c) === "absent") node.className = "absent";
          line.append(node);
        }
        grid.append(line);
      });
      sheet.append(chart.element.cloneNode(true), grid);
      ui.panel.append(sheet);
    }
    function dropPrintable() {
      if (sheet) sheet.remove();
      sheet = null;
    }
    const win = root.ownerDocument ? root.ownerDocument.defaultView : root.defaultView;
    win.addEventListener("beforeprint", printable);
    win.addEventListener("afterprint", dropPrintable);
    if (win.matchMedia) win.matchMedia("print").addEventListener("change", event => (event.matches ? printable() : dropPrintable()));

    ui.button.disabled = passes.length === 0;  // the dump holds only its input: no pass to map
    if (ui.button.disabled) ui.button.title = "No pass to map: the dump holds only its input";
    ui.button.addEventListener("click", () => toggle());
    ui.sort.replaceChildren(...Object.entries(SORTS).map(([value, label]) => {
      const option = app.make("option", "", label);
      option.value = value;
      return option;
    }));
    ui.sort.addEventListener("change", () => {
      rows = order(table, ui.sort.value);
      grid.refresh();
    });
    for (const box of [el.changed, el.noop]) box.addEventListener("change", refresh);
    return { toggle, follow: toggle, shown: passShown };
  }

  IRTracePanels.register({
    name: "map", button: "map-toggle", link: "map", carries: false, create,
    keys: [{ keys: { m: "toggle" },
      help: "The pipeline map (functions by passes), or back to the diff; in the map: arrows move, Enter opens, Esc returns" }],
  });

  return { create, tabulate, level, order, opsText, FLAG };
})();
