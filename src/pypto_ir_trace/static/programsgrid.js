"use strict";
/*
 * The index page's programs x passes grid (programs_grid.py gives its data, heatgrid.js draws it): a row per
 * program whose two runs were compared, a column per pass; a cell is marked where the runs differ after the pass
 * (shaded by how much, the program's first such pass filled), and opens that program's report at that pass.
 * A ring marks a pass whose effect differs in the two runs (Pass effect: the pass edited the IR differently), the
 * pass a compiler change touches, where "differs after it" also holds for every pass after. The first row counts,
 * per pass, the programs whose effect differs there, the second the programs that differ after it; passes can be
 * ordered by either count.
 */
(() => {
  const LEVELS = 6, WIDTH = 18, ROW = 20, HEAD = 44, ROW_HEADER = 300;
  const doc = document;
  const data = JSON.parse(doc.getElementById("programs-grid-data").textContent);
  const host = doc.getElementById("programs-grid"), detail = doc.getElementById("programs-detail");
  const rowsOrder = doc.getElementById("programs-order"), columnsOrder = doc.getElementById("passes-order");
  const programs = data.programs, columns = data.columns.length;

  // Per program, per column: how much the runs differ after that pass (-1: the program runs no such pass, 0: the
  // runs are identical there), its label in links, and the program's first differing column.
  const labels = data.labels;
  const cells = programs.map(program => {
    const differs = new Int32Array(columns).fill(-1), mine = [];
    for (const [first, count] of program.spans) for (let c = first; c < first + count; c++) mine.push(c);
    mine.forEach(c => { differs[c] = 0; });
    for (const [r, lines] of program.differs) differs[mine[r]] = lines;
    const own = new Map(Object.entries(program.labels).map(([r, label]) => [mine[Number(r)], label]));
    const first = program.differs.length ? mine[program.differs[0][0]] : -1;
    const effects = new Set(program.effects.map(r => mine[r]));
    return { differs, effects, labelOf: c => (own.has(c) ? own.get(c) : labels[c]), first, count: program.differs.length };
  });
  const counts = Array.from({ length: columns }, (_, c) => cells.filter(cell => cell.differs[c] > 0).length);
  const effectCounts = Array.from({ length: columns }, (_, c) => cells.filter(cell => cell.effects.has(c)).length);
  const firsts = Array.from({ length: columns }, (_, c) => cells.filter(cell => cell.first === c).length);
  const differing = cells.filter(cell => cell.count).length, effected = cells.filter(cell => cell.effects.size).length;
  const largest = Math.max(1, ...programs.flatMap(program => program.differs.map(([, lines]) => lines)));
  const level = (value, most) => (value > 0 ? Math.max(1, Math.ceil(LEVELS * Math.log1p(value) / Math.log1p(most))) : 0);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  // rows[r]: program index, or a summary row (EFFECT: programs whose pass effect differs, DIFFER: programs that
  // differ after the pass); order[k]: the column shown k-th
  const EFFECT = -2, DIFFER = -1;
  const summaryName = {
    [EFFECT]: `${effected} of ${plural(programs.length, "program")} had a pass whose effect differs: how many at each pass`,
    [DIFFER]: `${differing} of ${plural(programs.length, "program")} differ: how many after each pass`,
  };
  let rows = [], order = [];
  function arrange() {
    const byName = programs.map((_, i) => i);
    const sorts = {
      name: byName,
      first: byName.slice().sort((a, b) => (cells[a].first < 0) - (cells[b].first < 0) || cells[a].first - cells[b].first || a - b),
      count: byName.slice().sort((a, b) => cells[b].count - cells[a].count || a - b),
    };
    rows = [EFFECT, DIFFER, ...sorts[rowsOrder.value]];
    order = Array.from({ length: columns }, (_, c) => c);
    if (columnsOrder.value === "count") order.sort((a, b) => counts[b] - counts[a] || a - b);
    if (columnsOrder.value === "effect") order.sort((a, b) => effectCounts[b] - effectCounts[a] || a - b);
  }

  const columnName = c => `${labels[c]} ${data.columns[c]}: ${plural(counts[c], "program")} differ after it, ` +
    `the first divergence of ${plural(firsts[c], "program")}, its effect differs in ${plural(effectCounts[c], "program")}`;
  function cellName(r, k) {
    const c = order[k], p = rows[r], pass = `${p < 0 ? labels[c] : cells[p].labelOf(c)} ${data.columns[c]}`;
    if (p === DIFFER) return `${pass}, all programs: ${plural(counts[c], "program")} differ after it`;
    if (p === EFFECT) return `${pass}, all programs: its effect differs in ${plural(effectCounts[c], "program")}`;
    const cell = cells[p], name = programs[p].name;
    if (cell.differs[c] < 0) return `${pass}, ${name}: no such pass in this program`;
    const effect = cell.effects.has(c) ? ", its effect differs" : "";
    if (!cell.differs[c]) return `${pass}, ${name}: runs identical after it${effect}`;
    return `${pass}, ${name}: runs differ after it, ${plural(cell.differs[c], "line")}` +
      (cell.first === c ? ", the first divergence" : "") + effect;
  }

  const grid = IRTraceHeatGrid.create(host, {
    label: "Programs by pass", above: null, rowHeaderWidth: ROW_HEADER, rowHeight: ROW, headerHeight: HEAD,
    rows: () => rows.length,
    columns: () => order.map(() => WIDTH),
    corner(node) { node.textContent = "Program"; },
    columnHeader(k, node) {
      const c = order[k];
      const label = doc.createElement("span");
      label.className = "hg-label";
      label.textContent = labels[c];
      node.append(label);
      node.setAttribute("aria-label", columnName(c));
      node.title = columnName(c);
    },
    rowHeader(r, node) {
      const p = rows[r];
      const name = doc.createElement("span"), text = doc.createElement("bdi");  // cut at its start (index.css)
      name.className = "pm-name";
      text.textContent = p === EFFECT ? "Pass effect differs" : p === DIFFER ? "Programs that differ" : programs[p].name;
      name.append(text);
      const total = doc.createElement("span");
      total.className = "pm-total";
      total.textContent = p === EFFECT ? `${effected} of ${programs.length}` : p === DIFFER ? `${differing} of ${programs.length}` : String(cells[p].count);
      node.append(name, total);
      node.classList.toggle("pm-summary", p < 0);
      node.setAttribute("aria-label", summaryName[p] || `${programs[p].name}, runs differ after ${plural(cells[p].count, "pass")}` +
        (cells[p].effects.size ? `, the effect of ${plural(cells[p].effects.size, "pass")} differs` : ""));
      node.title = p < 0 ? `${summaryName[p]} (Enter or a click: order the passes by it)` : programs[p].name;
    },
    kind(r, k) {
      const c = order[k], p = rows[r];
      if (p < 0) return (p === EFFECT ? effectCounts : counts)[c] ? "cell" : "empty";
      const cell = cells[p];
      return cell.differs[c] > 0 || cell.effects.has(c) ? "cell" : cell.differs[c] < 0 ? "absent" : "empty";
    },
    marked: () => -1,
    cell(r, k, node) {
      const c = order[k], p = rows[r];
      node.setAttribute("aria-label", cellName(r, k));  // hovered, the line under the grid says it
      if (p < 0) {
        const count = (p === EFFECT ? effectCounts : counts)[c];
        node.classList.add("pm-count");
        if (count) node.classList.add(`d${level(count, programs.length)}`, ...(p === EFFECT ? ["pm-effect"] : []));
        node.textContent = count ? String(count) : "";
        return;
      }
      const value = cells[p].differs[c];
      if (value < 0) node.classList.add("absent");
      else if (cells[p].first === c) { node.classList.add("first-differs"); node.textContent = "\u2260"; }
      else if (value) node.classList.add(`d${level(value, largest)}`);
      if (cells[p].effects.has(c)) node.classList.add("effect-differs");
    },
    activate(r, k) {  // a program's cell opens its report at that pass; its name opens it where it first differs
      const p = rows[r];
      if (p < 0 && k < 0) {  // a summary row's header sorts the passes by its counts, and back
        const by = p === EFFECT ? "effect" : "count";
        columnsOrder.value = columnsOrder.value === by ? "pipeline" : by;
        arrange();
        grid.refresh();
        return;
      }
      if (p < 0 || (k < 0 && cells[p].first < 0)) return;
      const c = k < 0 ? cells[p].first : order[k];
      if (cells[p].differs[c] < 0) return;
      const view = cells[p].effects.has(c) ? "&view=effect" : "";  // where the effect differs, Pass effect shows how
      window.location.href = `${encodeURIComponent(programs[p].report)}#pass=${encodeURIComponent(cells[p].labelOf(c))}${view}`;
    },
    focused(r, k) { detail.textContent = r < 0 && k < 0 ? "" : r < 0 ? columnName(order[k]) : k < 0 ? (rows[r] < 0 ? "" : programs[rows[r]].name) : cellName(r, k); },
    escape() {},
  });

  for (const select of [rowsOrder, columnsOrder]) select.addEventListener("change", () => { arrange(); grid.refresh(); });
  arrange();
  // As tall as its rows, up to most of the window: a few programs leave no empty box.
  host.style.height = `${Math.min(rows.length * ROW + HEAD + 4, Math.max(240, 0.7 * window.innerHeight))}px`;
  grid.refresh();
})();
