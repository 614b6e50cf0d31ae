/*
 * The viewer: one entry point (start), reading the data contract described in rows.js.
 * Rows are built per view on demand and only those near the screen are in the DOM.
 */
(async () => {
  const R = IRTraceRows;
  const ROW_HEIGHT = 20;
  const OVERSCAN = 30;
  const CONTROL_GLYPHS = new Map([[0x7f, "\u2421"], [0x2028, "\u2936"], [0x2029, "\u00b6"]]);
  for (let c = 0; c < 0x20; c++) if (c !== 9) CONTROL_GLYPHS.set(c, String.fromCharCode(0x2400 + c));
  const CONTROL_RE = /[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/;

  const $ = id => document.getElementById(id);
  let data;
  try {
    data = await loadReportData($("report-data"));
  } catch (err) {
    $("empty-state").hidden = false;
    $("empty-state").textContent = `This report's data could not be read (${err.message}). ` +
      "It needs a current browser (Chromium 80+, Firefox 113+, Safari 16.4+).";
    $("diff").hidden = true;
    return;
  }
  const store = R.textStore(data);
  const passes = data.passes;

  const state = {
    selected: -1,       // pass index, -1 when none is visible
    anchor: -1,         // the last pass shown: filters that hid everything return to it
    wantedKey: null,    // the function the user picked; kept while passes have it on both sides
    key: null,          // the function shown now (null: whole file)
    layout: "split",
    view: null,         // {rows, folds, expanded, display, before, after, widthChars}
    search: null,       // {ranges(line), hits per distinct text} while a search is active
    base: null,         // the snapshot number the panes compare against; null: each pass's own before
  };

  const el = {
    list: $("pass-list"), listEmpty: $("pass-list-empty"),
    changed: $("filter-changed"), noop: $("filter-noop"), filterCount: $("filter-count"),
    title: $("pass-title"), counts: $("pass-counts"), summary: $("summary"),
    select: $("function-select"), notes: $("notes"), status: $("status"),
    warnings: $("warnings"), warningsText: $("warnings-text"),
    diff: $("diff"), empty: $("empty-state"),
    split: $("layout-split"), stacked: $("layout-stacked"),
    expand: $("expand-all"), collapse: $("collapse-all"),
    copyBefore: $("copy-before"), copyAfter: $("copy-after"),
    beforeFile: $("before-file"), afterFile: $("after-file"),
    panes: [$("scroll-before"), $("scroll-after")],
    help: $("help"), helpToggle: $("help-toggle"), theme: $("theme-toggle"),
    search: $("search"), searchSummary: $("search-summary"), base: $("compare-base"),
  };
  const sizers = el.panes.map(pane => pane.querySelector(".sizer"));
  const layers = el.panes.map(pane => {
    const layer = document.createElement("div");
    layer.className = "rows";
    pane.appendChild(layer);
    return layer;
  });

  // ---- passes -------------------------------------------------------------------------------

  const isChanged = pass => pass.before !== pass.after;
  const snapshotFile = s => (s === 0 ? data.frontend : passes[s - 1].file);
  const snapshotText = s => (s === 0 ? 0 : passes[s - 1].after);
  const beforeFile = p => (state.base === null ? snapshotFile(p) : snapshotFile(state.base));
  const comparisons = new Map();

  /** What the panes show for pass p: the pass itself, or its snapshot against the chosen base. */
  function viewOf(p) {
    if (state.base === null) return passes[p];
    const key = `${state.base}:${p}`;
    if (!comparisons.has(key)) {
      const compared = IRTraceCompare.compareTexts(data, store, snapshotText(state.base), passes[p].after);
      comparisons.set(key, Object.assign({}, passes[p], compared));
    }
    return comparisons.get(key);
  }
  const regionsOf = t => data.texts[t].regions;

  function buildPassList() {
    const fragment = document.createDocumentFragment();
    passes.forEach((pass, p) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pass" + (isChanged(pass) ? " changed" : " noop");
      button.dataset.index = String(p);
      button.title = pass.file;
      // Spaces between the parts make the accessible name read "04 ConvertToSSA +10 −9".
      const meta = span("pass-meta", "");
      meta.append(span("count ins", "+" + pass.ins), " ", span("count del", "\u2212" + pass.del));
      if (!isChanged(pass)) {
        meta.title = "No-op: printed exactly the text of its predecessor";
        meta.prepend(span("noop-tag", "no-op"), " ");
      }
      if (pass.warnings) meta.append(" ", warningBadge());
      button.append(span("pass-label", pass.label), " ", span("pass-name", pass.name), " ", meta);
      button.addEventListener("click", () => select(p));
      item.append(button);
      fragment.append(item);
    });
    el.list.append(fragment);
    const changedCount = passes.filter(isChanged).length;
    const warned = passes.filter(pass => pass.warnings).length;
    el.summary.textContent = `${changedCount} of ${passes.length} passes changed the IR` +
      (warned ? ` \u00b7 ${warned} with warnings` : "");
  }

  function warningBadge() {
    const badge = span("badge", "!");
    badge.setAttribute("role", "img");
    badge.setAttribute("aria-label", "warning");
    badge.title = "This pass emitted warnings";
    return badge;
  }

  function span(className, text) {
    const node = document.createElement("span");
    node.className = className;
    node.textContent = text;
    return node;
  }

  const passButtons = () => Array.from(el.list.querySelectorAll("button.pass"));
  const isVisible = p => (isChanged(passes[p]) ? el.changed.checked : el.noop.checked);
  const visiblePasses = () => passes.map((_, p) => p).filter(isVisible);

  function applyFilters() {
    const visible = visiblePasses();
    passButtons().forEach((button, p) => { button.parentElement.hidden = !isVisible(p); });
    el.filterCount.textContent = `${visible.length}/${passes.length}`;
    el.listEmpty.hidden = visible.length > 0 || passes.length === 0;
    if (!visible.length) return select(-1);
    if (state.selected < 0 || !isVisible(state.selected)) {
      const from = Math.max(state.selected >= 0 ? state.selected : state.anchor, 0);
      const closest = visible.reduce((best, p) => (Math.abs(p - from) < Math.abs(best - from) ? p : best));
      select(closest);
    }
  }

  function step(delta) {
    const visible = visiblePasses();
    if (!visible.length) return;
    const at = visible.indexOf(state.selected);
    const next = at < 0 ? visible[0] : visible[Math.min(Math.max(at + delta, 0), visible.length - 1)];
    if (next !== state.selected) select(next);
  }

  // ---- selecting a pass ---------------------------------------------------------------------

  /** `picked`: the function in state.wantedKey was asked for on this very pass (a pick, a link). */
  function select(p, picked = false) {
    state.selected = p;
    if (p >= 0) state.anchor = p;
    const focusInList = el.list.contains(document.activeElement);
    passButtons().forEach((button, i) => {
      if (i === p) {
        button.setAttribute("aria-current", "true");
        button.scrollIntoView({ block: "nearest" });
        if (focusInList) button.focus({ preventScroll: true });  // keyboard users stay on the selection
      } else {
        button.removeAttribute("aria-current");
      }
    });
    if (p < 0) return showEmpty(passes.length
      ? "No pass matches the filters. Turn on \u201cChanged\u201d or \u201cNo-op\u201d to see passes."
      : `The dump holds only ${data.frontend}: no pass snapshot follows it.`);
    el.empty.hidden = true;
    el.diff.hidden = false;
    const pass = viewOf(p);
    el.title.textContent = `${pass.label} ${pass.name}`;
    el.title.title = pass.file;
    el.counts.textContent = state.base !== null ? `+${pass.ins} \u2212${pass.del} since ${snapshotFile(state.base)}`
      : isChanged(pass) ? `+${pass.ins} \u2212${pass.del}` : "no-op";
    el.beforeFile.textContent = el.beforeFile.title = beforeFile(p);  // the title shows a truncated name whole
    el.afterFile.textContent = el.afterFile.title = pass.file;
    el.warnings.hidden = !pass.warnings;
    showWarnings(pass);
    fillFunctionSelect(p, picked);
    showView(true);
    writeLink();
  }

  function showEmpty(message) {
    state.view = null;
    el.title.textContent = passes.length ? "No pass selected" : "No passes";
    el.counts.textContent = "";
    el.select.replaceChildren(option("", "Whole file"));
    el.select.disabled = true;
    el.warnings.hidden = true;
    el.diff.hidden = true;
    el.notes.replaceChildren();
    el.empty.hidden = false;
    el.empty.textContent = message;
    [el.copyBefore, el.copyAfter, el.expand, el.collapse].forEach(b => { b.disabled = true; });
  }

  // ---- the function selector ----------------------------------------------------------------

  function untrustedReason(p) {
    const pass = viewOf(p);
    const reasons = [];
    if (data.texts[pass.before].untrusted) reasons.push(`${beforeFile(p)}: ${data.texts[pass.before].untrusted}`);
    if (pass.after !== pass.before && data.texts[pass.after].untrusted) reasons.push(`${pass.file}: ${data.texts[pass.after].untrusted}`);
    return reasons.join("; ");
  }

  function option(value, label) {
    const node = document.createElement("option");
    node.value = value;
    node.textContent = label;
    return node;
  }

  /** Regions of both sides: after-file order, then those only before (removed). */
  function regionChoices(p) {
    const pass = viewOf(p);
    const before = new Map(regionsOf(pass.before).map(r => [r[0], r]));
    const after = new Map(regionsOf(pass.after).map(r => [r[0], r]));
    const choices = [];
    for (const [key, region] of after) choices.push({ key, region, side: before.has(key) ? "both" : "added" });
    for (const [key, region] of before) if (!after.has(key)) choices.push({ key, region, side: "removed" });
    return { choices, before, after };
  }

  /** `picked`: the user chose state.wantedKey on this very pass, so a one-sided function is shown too. */
  function fillFunctionSelect(p, picked) {
    const pass = viewOf(p);
    const notes = [];
    const reason = untrustedReason(p);
    const { choices, before, after } = regionChoices(p);
    // A Map, not the plain object: a function may be called `constructor` or `__proto__`.
    const counts = new Map(Object.entries(pass.regions || {}));
    const options = [option("", "Whole file")];
    for (const { key, region, side } of choices) {
      let label = key;
      if (side !== "both") label += side === "added" ? "  (added)" : "  (removed)";
      else if (counts.has(key)) label += `  (+${counts.get(key)[0]} \u2212${counts.get(key)[1]})`;
      if (counts.has(key)) label = "\u25cf " + label;
      if (region[4] || (before.get(key) || [])[4]) label += "  \u26a0 parsed with errors";
      const node = option(key, label);
      if (counts.has(key)) node.className = "changed";
      options.push(node);
    }
    el.select.replaceChildren(...options);
    state.key = null;
    if (reason) {
      el.select.disabled = true;
      notes.push(["warn", `Function view unavailable for this pass: a snapshot could not be parsed safely (${reason}). Showing the whole-file diff.`]);
    } else {
      el.select.disabled = choices.length === 0;
      if (state.wantedKey !== null) {
        const both = before.has(state.wantedKey) && after.has(state.wantedKey);
        const either = before.has(state.wantedKey) || after.has(state.wantedKey);
        if (both || (picked && either)) state.key = state.wantedKey;
        else notes.push(["info", `${state.wantedKey} is not on both sides of this pass (${sideOf(state.wantedKey, before, after)}): showing the whole file.`]);
      }
      const shown = state.key !== null ? (after.get(state.key) || before.get(state.key)) : null;
      const broken = shown && (shown[4] || (before.get(state.key) || [])[4]);
      if (broken) notes.push(["warn", `${state.key} was parsed with errors (${broken}); it is still diffed line by line.`]);
      else if (shown && isChanged(pass) && !counts.has(state.key)) notes.push(["info", `${state.key} is unchanged by this pass.`]);
      if (state.wantedKey !== null) notes.push(["info", historyNote(state.wantedKey)]);
    }
    el.select.value = state.key === null ? "" : state.key;
    if (state.base !== null) notes.unshift(["info", compareNote(p)]);
    else if (!passes.some(isChanged)) notes.unshift(["info", "The pipeline changed nothing: every pass printed the text of its predecessor."]);
    else if (!isChanged(pass)) notes.unshift(["info", "No-op: this pass printed exactly the text of its predecessor."]);
    else if (!pass.ins && !pass.del) notes.unshift(["info", "Only the line endings changed in this pass."]);
    showNotes(notes);
    // The reason the selector is disabled is read out with it, not only shown beside it.
    if (el.select.disabled && reason) el.select.setAttribute("aria-describedby", "notes");
    else el.select.removeAttribute("aria-describedby");
    el.select.title = el.select.disabled && reason ? `Function view unavailable: ${reason}` : "";
  }

  function sideOf(key, before, after) {
    if (after.has(key)) return "this pass adds it";
    if (before.has(key)) return "this pass removes it";
    return "neither snapshot has it";
  }

  function showNotes(notes) {
    el.notes.replaceChildren(...notes.map(([kind, text]) => {
      const note = document.createElement("p");
      note.className = "note " + kind;
      note.textContent = text;
      return note;
    }));
  }

  function onFunctionChange() {
    const key = el.select.value || null;
    state.wantedKey = key;
    markHistory();
    fillFunctionSelect(state.selected, true);
    showView(true);
    writeLink();
  }

  // ---- function history and deep links ------------------------------------------------------

  const changes = (pass, key) => Object.prototype.hasOwnProperty.call(pass.regions || {}, key);

  /** With a function picked, the pass list marks the passes that change it. */
  function markHistory() {
    const key = state.wantedKey;
    passButtons().forEach((button, p) => {
      const touched = key !== null && changes(passes[p], key);
      button.classList.toggle("touches", touched);
      button.title = touched ? `${passes[p].file}: changes ${key}` : passes[p].file;
    });
  }

  function historyNote(key) {
    const labels = passes.filter(pass => changes(pass, key)).map(pass => pass.label);
    if (!labels.length) return `${key} is not changed by any pass.`;
    const shown = labels.length > 12 ? labels.slice(0, 12).join(", ") + ", \u2026" : labels.join(", ");
    return `${key} is changed by ${labels.length} pass${labels.length === 1 ? "" : "es"} (${shown}), marked \u25cf in the list.`;
  }

  /** The URL fragment keeps pass, function and layout, so a link opens the same view. */
  function writeLink() {
    if (state.selected < 0) return;
    const params = new URLSearchParams({ pass: passes[state.selected].label });
    if (state.wantedKey !== null) params.set("fn", state.wantedKey);
    if (state.layout !== "split") params.set("layout", state.layout);
    if (state.base !== null) params.set("base", passes.length && state.base ? passes[state.base - 1].label : "00");
    try { history.replaceState(null, "", "#" + params.toString()); } catch (err) { /* a sandboxed frame */ }
  }

  /** Apply a link's fragment; false when it names no pass of this report. */
  function followLink() {
    const params = new URLSearchParams(location.hash.slice(1));
    const p = passes.findIndex(pass => pass.label === params.get("pass"));
    if (p < 0) return false;
    if (params.get("layout") === "stacked" || params.get("layout") === "split") setLayout(params.get("layout"));
    state.wantedKey = params.get("fn") || null;
    setBase(params.get("base"));
    markHistory();
    if (!isVisible(p)) { el.changed.checked = el.noop.checked = true; applyFilters(); }
    select(p, true);
    return true;
  }

  // ---- views: rows, folds, virtual rendering ------------------------------------------------

  function showView(resetScroll) {
    const p = state.selected;
    const pass = viewOf(p);
    const before = store.ids(pass.before), after = store.ids(pass.after);
    let span = [0, before.length];
    if (state.key !== null && !pass.pieces) {  // a no-op pass: the function's span, the same on both sides
      const region = regionsOf(pass.before).find(r => r[0] === state.key);
      span = [region[2], region[3]];
    }
    const textOf = (side, line) => data.lines[(side === 0 ? before : after)[line]];
    const rows = R.buildRows(pass, state.key, span, textOf);
    const folds = R.computeFolds(rows.kind, data.context);
    let widthChars = 0;
    for (let r = 0; r < rows.b.length; r++) {
      const b = rows.b[r], a = rows.a[r];
      if (b >= 0) widthChars = Math.max(widthChars, data.lines[before[b]].length);
      if (a >= 0) widthChars = Math.max(widthChars, data.lines[after[a]].length);
    }
    const anchors = new Map();  // after line -> the warnings that name it
    for (const [, line, message] of pass.anchors || []) anchors.set(line, [...(anchors.get(line) || []), message]);
    state.view = { pass, rows, folds, expanded: new Uint8Array(folds.length), before, after, widthChars, words: new Map(), anchors };
    [el.copyBefore, el.copyAfter, el.expand, el.collapse].forEach(b => { b.disabled = false; });
    el.expand.disabled = el.collapse.disabled = folds.length === 0;
    layoutView(resetScroll);
  }

  function layoutView(resetScroll) {
    const view = state.view;
    if (!view) return;
    view.display = R.displayList(view.rows.b.length, view.folds, view.expanded);
    const digits = String(Math.max(view.before.length, view.after.length, 1)).length;
    document.documentElement.style.setProperty("--gutter-chars", String(Math.max(digits, 3)));
    const height = view.display.length * ROW_HEIGHT;
    const width = `calc(${view.widthChars + 2}ch + var(--gutter-width))`;
    sizers.forEach(sizer => { sizer.style.height = height + "px"; sizer.style.width = width; });
    layers.forEach(layer => { layer.style.width = width; });
    if (resetScroll) setScroll(0, 0);
    renderRows();
  }

  let frame = 0;
  function scheduleRender() {
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; renderRows(); });
  }

  function renderRows() {
    const view = state.view;
    if (!view) return;
    const pane = el.panes[0];
    const first = Math.max(0, Math.floor(pane.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const visibleRows = Math.ceil(Math.max(pane.clientHeight, el.panes[1].clientHeight) / ROW_HEIGHT);
    const last = Math.min(view.display.length, first + visibleRows + 2 * OVERSCAN);
    if (view.rendered && view.rendered[0] === first && view.rendered[1] === last && view.rendered[2] === view.display) return;
    view.rendered = [first, last, view.display];
    [0, 1].forEach(side => {
      const fragment = document.createDocumentFragment();
      for (let d = first; d < last; d++) fragment.append(renderRow(view, side, view.display[d]));
      layers[side].replaceChildren(fragment);
      layers[side].style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    });
  }

  function renderRow(view, side, item) {
    if (item < 0) return renderFold(view, side, -item - 1);
    const { rows } = view;
    const kind = rows.kind[item];
    const line = side === 0 ? rows.b[item] : rows.a[item];
    const row = document.createElement("div");
    const changedSide = side === 0 ? "del" : "ins";
    row.className = "row " + (line < 0 ? "filler" : kind === R.KIND_EQUAL ? "eq" : changedSide);
    const number = span("ln", line < 0 ? "" : String(line + 1));
    const marker = span("mk", line < 0 || kind === R.KIND_EQUAL ? " " : side === 0 ? "\u2212" : "+");
    const code = document.createElement("span");
    code.className = "code";
    const warned = side === 1 && line >= 0 ? view.anchors.get(line) : undefined;
    if (warned) {
      row.classList.add("warned");
      row.title = warned.join("\n");
    }
    if (line >= 0) {
      const id = (side === 0 ? view.before : view.after)[line];
      const words = kind === R.KIND_PAIR ? wordsOf(view, item) : null;
      paint(code, data.lines[id], data.spans[id], words ? words[side === 0 ? "before" : "after"] : null, changedSide);
    }
    row.append(number, marker, code);
    return row;
  }

  function wordsOf(view, item) {
    if (!view.words.has(item)) {
      const b = data.lines[view.before[view.rows.b[item]]], a = data.lines[view.after[view.rows.a[item]]];
      view.words.set(item, R.wordDiff(b, a));
    }
    return view.words.get(item);
  }

  function renderFold(view, side, f) {
    const fold = view.folds[f];
    const hidden = fold.end - fold.start;
    const text = `\u22ef ${hidden} unchanged line${hidden === 1 ? "" : "s"}`;
    const row = document.createElement("div");
    row.className = "row fold-row";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "fold";
    button.textContent = side === 0 ? `${text} \u2014 show` : text;
    if (side === 1) {  // one accessible control per fold; the twin in the other pane is for the mouse
      button.tabIndex = -1;
      button.setAttribute("aria-hidden", "true");
    }
    button.addEventListener("click", () => {
      view.expanded[f] = 1;
      layoutView(false);
      el.panes[side].focus({ preventScroll: true });  // the button is gone: keep focus where it was
    });
    row.append(button);
    return row;
  }

  /** Text with highlight classes, word-change marks and visible control characters. */
  function paint(target, text, spans, changes, changeClass) {
    // Highlight spans, word changes and search matches: each list sorted and non-overlapping.
    const marks = [[], [], state.search ? state.search.ranges(text).map(([s, e]) => [s, e, "search-hit"]) : []];
    let at = 0;
    for (let i = 0; i < spans.length; i += 3) {
      const start = at + spans[i];
      at = start + spans[i + 1];
      marks[0].push([start, at, "hl-" + data.classes[spans[i + 2]]]);
    }
    for (const [start, end] of changes || []) marks[1].push([start, end, "word-" + changeClass]);
    if (!marks.some(list => list.length) && !CONTROL_RE.test(text)) { target.textContent = text; return; }
    const cuts = new Set([0, text.length]);
    for (const list of marks) for (const [start, end] of list) { cuts.add(start); cuts.add(end); }
    const points = Array.from(cuts).filter(x => x <= text.length).sort((x, y) => x - y);
    const next = marks.map(() => 0);  // one pointer per list: the sweep is linear in the marks
    for (let i = 0; i + 1 < points.length; i++) {
      const start = points[i], classes = [];
      marks.forEach((list, k) => {
        while (next[k] < list.length && list[next[k]][1] <= start) next[k]++;
        if (next[k] < list.length && list[next[k]][0] <= start) classes.push(list[next[k]][2]);
      });
      appendText(target, text.slice(start, points[i + 1]), classes.join(" "));
    }
  }

  function appendText(target, text, className) {
    if (!CONTROL_RE.test(text)) {
      target.append(className ? span(className, text) : document.createTextNode(text));
      return;
    }
    let plain = "";
    const holder = className ? span(className, "") : target;
    for (const char of text) {
      const glyph = CONTROL_GLYPHS.get(char.codePointAt(0));
      if (glyph === undefined) { plain += char; continue; }
      if (plain) { holder.append(plain); plain = ""; }
      const control = span("ctrl", glyph);
      control.title = "U+" + char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
      holder.append(control);
    }
    if (plain) holder.append(plain);
    if (holder !== target) target.append(holder);
  }

  // ---- scrolling in sync ----------------------------------------------------------------------

  // A position we assigned to a pane: its scroll event is our echo, not the user, and must not be
  // mirrored back (that feedback is what makes synced panes jitter). Positions are compared within a
  // pixel because zoomed or high-DPI screens round fractional offsets.
  const assigned = new WeakMap();
  const near = (x, y) => Math.abs(x - y) < 1;

  function assign(pane, top, left) {
    pane.scrollTop = top;
    pane.scrollLeft = left;
    assigned.set(pane, { top: pane.scrollTop, left: pane.scrollLeft });  // as clamped and rounded
  }

  function setScroll(top, left) {
    el.panes.forEach(pane => assign(pane, top, left));
  }

  function onScroll(source, target) {
    const top = source.scrollTop, left = source.scrollLeft;
    const mark = assigned.get(source);
    assigned.delete(source);
    const echo = mark && near(mark.top, top) && near(mark.left, left);
    if (!echo && (!near(target.scrollTop, top) || !near(target.scrollLeft, left))) assign(target, top, left);
    scheduleRender();
  }

  // ---- search across every snapshot ----------------------------------------------------------

  let searchTimer = 0;

  function runSearch() {
    const { ranges, error } = R.makeSearch(el.search.value);
    state.search = ranges ? { ranges, hits: R.searchHits(data, store, ranges) } : null;
    el.search.setAttribute("aria-invalid", String(Boolean(error)));
    passButtons().forEach((button, p) => showHits(button, passes[p]));
    el.searchSummary.hidden = !ranges && !error;
    el.searchSummary.textContent = error ? `Not a regular expression: ${error}` : ranges ? searchSummary() : "";
    if (state.view) { state.view.rendered = null; renderRows(); }
  }

  /** The count of matching lines after the pass; ▲ / ▼ where the pass changed that count. */
  function showHits(button, pass) {
    let badge = button.querySelector(".hits");
    if (!state.search) { if (badge) badge.remove(); return; }
    if (!badge) {
      badge = span("hits", "");
      button.querySelector(".pass-meta").prepend(badge);
    }
    const before = state.search.hits[pass.before], after = state.search.hits[pass.after];
    badge.textContent = (after > before ? "\u25b2" : after < before ? "\u25bc" : "") + after;
    badge.className = "hits" + (after !== before ? " moved" : "") + (after ? "" : " none");
    badge.title = `${after} matching line${after === 1 ? "" : "s"} after this pass (${before} before)`;
  }

  function searchSummary() {
    const hits = state.search.hits;
    const snapshots = [0, ...passes.map(pass => pass.after)];
    const matching = snapshots.filter(t => hits[t] > 0).length;
    if (!matching) return "No line matches in any snapshot.";
    const first = hits[0] > 0 ? data.frontend : passes.find(pass => hits[pass.after] > 0 && !hits[pass.before]);
    const where = typeof first === "string" ? first : `${first.label} ${first.name}`;
    const last = hits[snapshots[snapshots.length - 1]];
    return `Lines match in ${matching} of ${snapshots.length} snapshots; first in ${where}; ${last} in the last.`;
  }

  /** Enter / Shift+Enter: the next / previous visible pass that changes the count of matching lines. */
  function jumpToChange(delta) {
    if (!state.search) return;
    const moved = visiblePasses().filter(p => state.search.hits[passes[p].before] !== state.search.hits[passes[p].after]);
    if (!moved.length) { announce("No visible pass changes the number of matching lines"); return; }
    const from = state.selected;
    const target = delta > 0 ? (moved.find(p => p > from) ?? moved[0]) : (moved.slice().reverse().find(p => p < from) ?? moved[moved.length - 1]);
    select(target);
    scrollToFirstMatch();
  }

  function scrollToFirstMatch() {
    const view = state.view;
    if (!view || !state.search) return;
    const matches = (side, line) => line >= 0 && state.search.ranges(data.lines[(side ? view.after : view.before)[line]]).length > 0;
    let first = -1;  // a changed matching row wins over an unchanged one
    for (let r = 0; r < view.rows.b.length; r++) {
      if (!matches(0, view.rows.b[r]) && !matches(1, view.rows.a[r])) continue;
      if (view.rows.kind[r] !== R.KIND_EQUAL) { first = r; break; }
      if (first < 0) first = r;
    }
    revealRow(first);
  }

  /** Scroll a row of the view into sight, opening its fold if it is folded. */
  function revealRow(row) {
    const view = state.view;
    if (!view || row === undefined || row < 0) return;
    const fold = view.folds.findIndex(f => f.start <= row && row < f.end);
    if (fold >= 0) { view.expanded[fold] = 1; layoutView(false); }
    const d = view.display.indexOf(row);
    setScroll(Math.max(0, (d - 3) * ROW_HEIGHT), 0);
    renderRows();
  }

  /** The pass's .log text; a warning that names a line of the snapshot is a button that shows it. */
  function showWarnings(pass) {
    const target = new Map((pass.anchors || []).map(([index, line]) => [index, line]));
    const lines = (pass.warnings || "").split("\n");
    el.warningsText.replaceChildren(...lines.map((text, index) => {
      const ending = index < lines.length - 1 ? "\n" : "";
      if (!target.has(index)) return document.createTextNode(text + ending);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "warning-line";
      button.textContent = text;
      button.title = `Show line ${target.get(index) + 1} of ${pass.file}`;
      button.addEventListener("click", () => showAfterLine(target.get(index)));
      const row = document.createElement("span");
      row.append(button, ending);
      return row;
    }));
  }

  /** Show an after line: in the current view if it has it, else in the whole file. */
  function showAfterLine(line) {
    let row = state.view ? state.view.rows.a.indexOf(line) : -1;
    if (row < 0 && state.key !== null) {
      state.wantedKey = null;
      markHistory();
      fillFunctionSelect(state.selected);
      showView(true);
      writeLink();
      row = state.view.rows.a.indexOf(line);
    }
    revealRow(row);
  }

  function onSearchKey(event) {
    if (event.key === "Enter") {
      event.preventDefault();
      clearTimeout(searchTimer);
      runSearch();
      jumpToChange(event.shiftKey ? -1 : 1);
    } else if (event.key === "Escape") {
      el.search.value = "";
      runSearch();
    }
  }

  // ---- comparing with any snapshot ------------------------------------------------------------

  function fillBaseSelect() {
    const options = [option("", "its previous snapshot"), option("0", `00 ${data.frontend.replace(/^00_|\.py$/g, "")}`)];
    passes.forEach((pass, k) => options.push(option(String(k + 1), `${pass.label} ${pass.name}`)));
    el.base.replaceChildren(...options);
    el.base.disabled = passes.length === 0;
  }

  /** label: a snapshot's index as written ("00" is the frontend), or null for each pass's own before. */
  function setBase(label) {
    const s = label === "00" ? 0 : passes.findIndex(pass => pass.label === label) + 1;
    state.base = label === null || s < 0 || (s === 0 && label !== "00") ? null : s;
    el.base.value = state.base === null ? "" : String(state.base);
  }

  function compareNote(p) {
    const from = snapshotFile(state.base), to = passes[p].file;
    if (state.base === p + 1) return `Comparing ${to} with itself: pick another snapshot in \u201cCompare with\u201d.`;
    if (state.base > p + 1) return `Comparing ${from} with the earlier ${to}: the diff runs backwards.`;
    const span = state.base === p ? `pass ${passes[p].label} alone` : `passes ${passes[state.base].label}\u2013${passes[p].label}`;
    return `Comparing ${from} with ${to}: the changes of ${span}.`;
  }

  function onBaseChange() {
    state.base = el.base.value === "" ? null : Number(el.base.value);
    if (state.selected >= 0) select(state.selected, true);
  }

  // ---- controls -------------------------------------------------------------------------------

  function setLayout(layout) {
    const top = el.panes[0].scrollTop, left = el.panes[0].scrollLeft;
    state.layout = layout;
    el.diff.classList.toggle("split", layout === "split");
    el.diff.classList.toggle("stacked", layout === "stacked");
    el.split.setAttribute("aria-pressed", String(layout === "split"));
    el.stacked.setAttribute("aria-pressed", String(layout === "stacked"));
    writeLink();
    if (state.view) {
      state.view.rendered = null;
      setScroll(top, left);
      renderRows();
    }
  }

  function setAllFolds(expanded) {
    const view = state.view;
    if (!view) return;
    view.expanded.fill(expanded ? 1 : 0);
    layoutView(false);
    announce(expanded ? "All unchanged lines shown" : `Unchanged lines folded to ${data.context} lines of context`);
  }

  /** A short confirmation on the button itself; its accessible name (aria-label) stays the same. */
  function flash(button, text) {
    clearTimeout(button.flashTimer);
    button.textContent = text;
    button.classList.add("done");
    button.flashTimer = setTimeout(() => {
      button.textContent = "Copy full source";
      button.classList.remove("done");
    }, 1800);
  }

  function announce(text) {
    el.status.textContent = text;
    clearTimeout(announce.timer);
    announce.timer = setTimeout(() => { el.status.textContent = ""; }, 4000);
  }

  async function copySide(side) {
    const p = state.selected;
    if (p < 0) return;
    const pass = viewOf(p);
    const text = store.source(side === 0 ? pass.before : pass.after);
    const file = side === 0 ? beforeFile(p) : pass.file;
    let copied = false;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      try {
        await navigator.clipboard.writeText(text);
        copied = true;
      } catch (err) {
        copied = false;  // e.g. permission refused for file://: the copy command below still works
      }
    }
    if (!copied) copied = copyWithEvent(text);
    const lines = store.ids(side === 0 ? pass.before : pass.after).length;
    announce(copied ? `Copied ${file} (${lines} lines)` : `Copy failed: the browser refused clipboard access`);
    flash(side === 0 ? el.copyBefore : el.copyAfter, copied ? "Copied \u2713" : "Copy failed");
  }

  /**
   * The copy command with our own data: unlike copying a selected textarea, whose value turns \r\n
   * into \n, the copy event's clipboardData takes the text byte for byte.
   */
  function copyWithEvent(text) {
    let handled = false;
    const onCopy = event => {
      event.clipboardData.setData("text/plain", text);
      event.preventDefault();
      handled = true;
    };
    document.addEventListener("copy", onCopy, true);
    try {
      document.execCommand("copy");
    } catch (err) {
      handled = false;
    } finally {
      document.removeEventListener("copy", onCopy, true);
    }
    return handled;
  }

  function toggleHelp(show) {
    const open = show === undefined ? el.help.hidden : show;
    el.help.hidden = !open;
    el.helpToggle.setAttribute("aria-expanded", String(open));
  }

  const THEME_KEY = "pypto-ir-trace-theme";
  function currentTheme() {
    const explicit = document.documentElement.dataset.theme;
    if (explicit) return explicit;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function setTheme(theme, remember) {
    document.documentElement.dataset.theme = theme;
    el.theme.setAttribute("aria-pressed", String(theme === "dark"));
    if (remember) try { localStorage.setItem(THEME_KEY, theme); } catch (err) { /* storage may be off for file:// */ }
  }

  const NOT_TYPING = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);

  /** Keys belong to text fields and selects (arrows change the option); a focused checkbox is not typing. */
  function isTyping(target) {
    if (!(target instanceof HTMLElement)) return false;
    if (target.isContentEditable || target.tagName === "SELECT" || target.tagName === "TEXTAREA") return true;
    return target.tagName === "INPUT" && !NOT_TYPING.has(target.type);
  }

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
    const keys = { j: 1, ArrowDown: 1, k: -1, ArrowUp: -1 };
    if (event.key in keys) {
      event.preventDefault();
      step(keys[event.key]);
    } else if (event.key === "?") {
      event.preventDefault();
      toggleHelp();
    } else if (event.key === "/") {
      event.preventDefault();
      el.search.focus();
      el.search.select();
    } else if (event.key === "Escape" && !el.help.hidden) {
      toggleHelp(false);
    }
  }

  function start() {
    let saved = null;
    try { saved = localStorage.getItem(THEME_KEY); } catch (err) { saved = null; }
    if (saved === "light" || saved === "dark") setTheme(saved, false);
    else el.theme.setAttribute("aria-pressed", String(currentTheme() === "dark"));
    // Without an explicit choice the page follows the system live; keep the toggle's state true to it.
    if (window.matchMedia) {
      window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
        el.theme.setAttribute("aria-pressed", String(currentTheme() === "dark"));
      });
    }
    buildPassList();
    el.changed.addEventListener("change", applyFilters);
    el.noop.addEventListener("change", applyFilters);
    el.select.addEventListener("change", onFunctionChange);
    el.split.addEventListener("click", () => setLayout("split"));
    el.stacked.addEventListener("click", () => setLayout("stacked"));
    el.expand.addEventListener("click", () => setAllFolds(true));
    el.collapse.addEventListener("click", () => setAllFolds(false));
    el.copyBefore.addEventListener("click", () => copySide(0));
    el.copyAfter.addEventListener("click", () => copySide(1));
    el.helpToggle.addEventListener("click", () => toggleHelp());
    fillBaseSelect();
    el.base.addEventListener("change", onBaseChange);
    el.search.addEventListener("input", () => { clearTimeout(searchTimer); searchTimer = setTimeout(runSearch, 150); });
    el.search.addEventListener("keydown", onSearchKey);
    document.addEventListener("click", event => {  // the help is a popover: a click elsewhere closes it
      if (!el.help.hidden && !el.help.contains(event.target) && !el.helpToggle.contains(event.target)) toggleHelp(false);
    });
    el.theme.addEventListener("click", () => setTheme(currentTheme() === "dark" ? "light" : "dark", true));
    el.panes[0].addEventListener("scroll", () => onScroll(el.panes[0], el.panes[1]), { passive: true });
    el.panes[1].addEventListener("scroll", () => onScroll(el.panes[1], el.panes[0]), { passive: true });
    window.addEventListener("resize", scheduleRender);
    document.addEventListener("keydown", onKey);
    el.filterCount.textContent = `${passes.length}/${passes.length}`;
    window.addEventListener("hashchange", followLink);
    if (!followLink()) {
      const firstChanged = passes.findIndex(isChanged);
      select(passes.length ? Math.max(firstChanged, 0) : -1);
    }
    document.body.dataset.ready = "true";
  }

  start();
})();
