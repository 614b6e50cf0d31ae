"use strict";
/*
 * The panes (Before and After, or the unified Diff): rows of the shown view (built on demand, only
 * those near the screen in the DOM, heights measured when lines wrap), folds, word changes as
 * <del>/<ins>, search matches as <mark>, changes brought on screen (n / p), scrolling in sync, copying.
 */
const IRTracePanes = (() => {
  const ROW_HEIGHT = 20;
  const OVERSCAN = 30;  // entries kept in the DOM beyond the screen on each side, for scrolling
  const SWITCH_OVERSCAN = 10;  // the same right after a switch, until the reader pauses
  const PAUSE_MS = 100;
  const CONTEXT_ROWS = 3;  // rows kept above a change or a match brought on screen
  const MARGIN_CHARS = 6;  // characters kept left of a changed word or a match brought on screen
  const CONTROL_GLYPHS = new Map([[0x7f, "\u2421"], [0x2028, "\u2936"], [0x2029, "\u00b6"]]);
  for (let c = 0; c < 0x20; c++) if (c !== 9) CONTROL_GLYPHS.set(c, String.fromCharCode(0x2400 + c));
  // eslint-disable-next-line no-control-regex -- control characters are what it finds, to show them as glyphs
  const CONTROL_RE = /[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/;
  const R = IRTraceRows;

  /**
   * host: what the panes show and with what. {el: {diff, panes: [Before, After, Diff scrollers]}, report,
   * pipeline, make(tag, class, text), announce(text), search: {marks(id), shown()}}. A viewer shows its panes
   * (viewer.js) and a view may add its own (the baseline's in Pass effect, runs.js): each keeps its own layout.
   */
  function create(host) {
    const { el, report, pipeline, make, announce, search } = host;
    const doc = el.diff.ownerDocument;
    const settings = { layout: "split", wrap: false };  // as the markup has them
    // One record per scroller: Before, After, and the unified layout's Diff. Each lists entries
    // (IRTraceRows.paneEntries) with a height each; only the entries near the screen are in the DOM.
    const panes = el.panes.map((scroller, index) => {
      const layer = make("div", "rows");
      scroller.appendChild(layer);
      return { index, scroller, layer, sizer: scroller.querySelector(".sizer"), entries: null, entryOf: null,
        heights: null, offsets: null, measured: null, rendered: null, elements: [] };
    });
    const widths = new Map();  // text -> its longest line, in UTF-16 units
    let looks = new WeakMap();  // row element -> look() of what it shows
    let view = null;  // {pass, rows, folds, expanded, display, before, after, widthChars, words, anchors, hunks, hunkOf, current}
    // A row is one clone of these (split and stacked, unified): div.row > span.gutter > (span.ln, span.mk), span.code.
    // The gutter is one sticky box per row: each sticky box is a layer of its own for the compositor.
    const rowTemplates = [["ln"], ["ln old", "ln new"]].map(numbers => {
      const row = make("div", "row"), gutter = make("span", "gutter");
      gutter.append(...numbers.map(name => make("span", name)), make("span", "mk"));
      row.append(gutter, make("span", "code"));
      return row;
    });

    const active = () => (settings.layout === "unified" ? [panes[2]] : [panes[0], panes[1]]);
    const wrapping = () => settings.wrap;

    /**
     * Build the rows of a diff and show them, its first change on screen. shown: {pass (the diff), key (one
     * function, or null: the whole file), beforeFile (what Before is: a copy names it)}.
     */
    function show(shown, resetScroll) {
      const { pass, key } = shown;
      const before = pipeline.ids(pass.before), after = pipeline.ids(pass.after);
      let span = [0, before.length];
      if (key !== null && !pass.pieces) {  // a no-op pass: the function's span, the same on both sides
        const region = pipeline.texts[pass.before].byKey.get(key);
        span = [region.start, region.end];
      }
      const lines = report.lines;
      const textOf = (side, line) => lines[(side === 0 ? before : after)[line]];
      const rows = IRTraceRenumber.markRows(R.buildRows(pass, key, span, textOf), pass);
      const folds = R.computeFolds(rows.kind, report.context);
      let widthChars = 0;
      if (key === null) {  // the whole file: every line of both sides, folded or not
        widthChars = Math.max(widest(pass.before), widest(pass.after));
      } else {
        for (let r = 0; r < rows.b.length; r++) {
          const b = rows.b[r], a = rows.a[r];
          if (b >= 0) widthChars = Math.max(widthChars, lines[before[b]].length);
          if (a >= 0) widthChars = Math.max(widthChars, lines[after[a]].length);
        }
      }
      const anchors = new Map();  // after line -> the warnings that name it
      for (const { line, message } of pass.anchors) anchors.set(line, [...(anchors.get(line) || []), message]);
      const hunks = R.hunks(rows.kind);
      const hunkOf = new Int32Array(rows.kind.length).fill(-1);
      hunks.forEach((hunk, h) => hunkOf.fill(h, hunk.start, hunk.end));
      view = { shown, pass, rows, folds, expanded: new Uint8Array(folds.length), before, after, widthChars, words: new Map(),
        anchors, hunks, hunkOf, current: hunks.length ? 0 : -1 };
      copyButtons().forEach(b => { b.disabled = false; });
      layout();
      if (resetScroll && hunks.length) revealRows(hunks[0].start, hunks[0].end, "del, ins", SWITCH_OVERSCAN);
      else if (resetScroll) setScroll(() => 0, 0);
      render(SWITCH_OVERSCAN);
      renderWhenPaused();
    }

    function widest(t) {
      if (!widths.has(t)) {
        let most = 0;
        for (const id of pipeline.ids(t)) most = Math.max(most, report.lines[id].length);
        widths.set(t, most);
      }
      return widths.get(t);
    }

    function clear() {
      view = null;
      copyButtons().forEach(b => { b.disabled = true; });
    }

    const copyButtons = () => [...el.diff.querySelectorAll("button.copy")];

    /** The entries, heights and sizes of the active panes for the current display list. */
    function layout() {
      if (!view) return;
      view.display = R.displayList(view.rows.b.length, view.folds, view.expanded);
      const digits = String(Math.max(view.before.length, view.after.length, 1)).length;
      doc.documentElement.style.setProperty("--gutter-chars", String(Math.max(digits, 3)));
      const lists = R.paneEntries(view.rows, view.display, settings.layout);
      const shared = settings.layout === "split";  // the two sides' rows stay aligned: one height per row pair
      active().forEach((pane, i) => {
        pane.entries = lists[i];
        pane.entryOf = R.entryOfRows(pane.entries, view.rows.b.length, view.folds);
        if (shared && i === 1) {
          Object.assign(pane, { heights: panes[0].heights, measured: panes[0].measured, offsets: panes[0].offsets });
        } else {
          pane.heights = estimate(pane, shared);
          pane.measured = new Uint8Array(pane.entries.length);
          pane.offsets = R.offsetsOf(pane.heights);
        }
        pane.rendered = null;
        const width = wrapping() ? "100%" : `calc(${view.widthChars + 2}ch + var(--gutter-width))`;
        pane.layer.style.width = width;
        pane.sizer.style.width = wrapping() ? "1px" : width;
      });
      active().forEach(sizeOf);
    }

    const sizeOf = pane => { pane.sizer.style.height = pane.offsets[pane.entries.length] + "px"; };

    /**
     * Heights before measuring: one row each unless lines wrap; then a line takes as many rows as its
     * characters need at the pane's width (monospace), the split layout's pairs the taller side's.
     * Rows on screen are measured and replace these (see measure).
     */
    function estimate(pane, shared) {
      const heights = new Float64Array(pane.entries.length).fill(ROW_HEIGHT);
      if (!wrapping()) return heights;
      const perRow = charsPerRow(pane);
      const length = (row, side) => {
        const line = side === 0 ? view.rows.b[row] : view.rows.a[row];
        return line < 0 ? 0 : report.lines[(side === 0 ? view.before : view.after)[line]].length;
      };
      pane.entries.forEach((entry, d) => {
        if (entry < 0) return;
        const chars = shared ? Math.max(length(entry >> 1, 0), length(entry >> 1, 1)) : length(entry >> 1, entry & 1);
        heights[d] = Math.max(1, Math.ceil(chars / perRow)) * ROW_HEIGHT;
      });
      return heights;
    }

    /** How many characters fit on one visual row of a pane's code column. */
    function charsPerRow(pane) {
      const probe = make("span", "code", "0".repeat(100));
      probe.style.position = "absolute";
      probe.style.visibility = "hidden";
      pane.layer.append(probe);
      const charWidth = probe.getBoundingClientRect().width / 100 || 7.5;
      probe.remove();
      const gutter = (Number(doc.documentElement.style.getPropertyValue("--gutter-chars")) || 3) * (settings.layout === "unified" ? 2 : 1) + 5;
      pane.laidWidth = pane.scroller.clientWidth;  // wrapped rows fit this width: see the ResizeObserver
      return Math.max(10, Math.floor(pane.laidWidth / charWidth) - gutter);
    }

    let frame = 0;
    function scheduleRender() {
      if (!frame) frame = requestAnimationFrame(() => { frame = 0; render(); });
    }

    // A switch builds the rows on screen and a few beyond (a reader holding j pays for no more); the
    // rest of the overscan follows once the reader pauses, and scrolling builds what it needs anyway.
    let pause = 0;
    function renderWhenPaused() {
      doc.defaultView.clearTimeout(pause);
      pause = doc.defaultView.setTimeout(() => render(), PAUSE_MS);
    }

    /** Paint again (search, current change or layout changed) keeping the scroll position. */
    function repaint() {
      if (!view) return;
      looks = new WeakMap();  // what rows show has changed: none is kept
      panes.forEach(pane => { pane.rendered = null; });
      render();
    }

    /**
     * Put the entries near each active pane's scroll position in the DOM, `overscan` of them beyond
     * the screen on each side; measure them when lines wrap.
     */
    function render(overscan = OVERSCAN) {
      if (!view || !el.diff.isConnected) return;  // the view of a pipeline no longer shown (pipelines.js)
      const list = active();
      const split = settings.layout === "split";
      // every position is read before any pane is written: a read after a write would force a layout
      const at = list.map(pane => (split ? list[0] : pane).scroller).map(s => [s.scrollTop, s.clientHeight]);
      let changed = false;
      list.forEach((pane, i) => { changed = renderPane(pane, ...at[i], overscan) || changed; });
      if (changed && wrapping()) measure(split ? [list] : list.map(pane => [pane]));
    }

    /** `top`, `visible`: the scroll position that picks the window (in split, pane 0's for both: the same rows). */
    function renderPane(pane, top, visible, overscan) {
      const height = Math.max(visible, ROW_HEIGHT);
      const first = Math.max(0, R.entryAt(pane.offsets, top) - overscan);
      const last = Math.min(pane.entries.length, R.entryAt(pane.offsets, top + height) + 1 + overscan);
      const done = pane.rendered;
      const same = done && done.entries === pane.entries;
      if (same && done.first === first && done.last === last) return false;
      if (same && first < done.last && done.first < last) slide(pane, first, last);
      else rebuild(pane, first, last);
      pane.rendered = { first, last, entries: pane.entries };
      pane.layer.style.transform = `translateY(${pane.offsets[first]}px)`;
      return true;
    }

    /** Scrolled: the rows that left the window go, those that came in are built; the others stay. */
    function slide(pane, first, last) {
      const done = pane.rendered;
      const build = (from, to) => Array.from({ length: to - from }, (_, k) => entryRow(pane, from + k));
      const drop = rows => rows.forEach(row => row.remove());
      if (done.first < first) drop(pane.elements.splice(0, first - done.first));
      if (last < done.last) drop(pane.elements.splice(last - Math.max(first, done.first)));
      if (first < done.first) {
        const rows = build(first, done.first);
        pane.layer.prepend(...rows);
        pane.elements.unshift(...rows);
      }
      if (done.last < last) {
        const rows = build(done.last, last);
        pane.layer.append(...rows);
        pane.elements.push(...rows);
      }
    }

    /**
     * A new window or new entries (a switch): each row already in the DOM that shows exactly what its
     * place is to show stays (stepping through no-op passes shows the same rows); the others are built.
     */
    function rebuild(pane, first, last) {
      const old = pane.elements;
      const keep = !wrapping();  // a wrapped row's height is measured with its neighbours: never kept
      pane.elements = [];
      for (let d = first; d < last; d++) {
        const was = old[d - first];
        pane.elements.push(keep && was && looks.get(was) === look(pane, pane.entries[d]) ? was : entryRow(pane, d));
      }
      const kept = pane.elements.filter((row, i) => row === old[i]).length;
      if (!kept) {
        pane.layer.replaceChildren(...pane.elements);
        return;
      }
      pane.elements.forEach((row, i) => { if (row !== old[i]) old[i] ? old[i].replaceWith(row) : pane.layer.append(row); });
      old.slice(pane.elements.length).forEach(row => row.remove());
    }

    /** The row of entry d, its measured height set when lines wrap. */
    function entryRow(pane, d) {
      const row = renderEntry(pane, pane.entries[d]);
      if (!wrapping()) looks.set(row, look(pane, pane.entries[d]));
      else if (pane.measured[d]) row.style.height = pane.heights[d] + "px";
      return row;
    }

    /**
     * Measure the rendered rows that were only estimated; `groups` are panes whose rows share heights
     * (the split layout's pair: each row takes the taller side's height). The entry at the top of the
     * screen stays where it was, whatever the rows above it turned out to be.
     */
    function measure(groups) {
      for (const group of groups) {
        const lead = group[0];
        const { first, last } = lead.rendered;
        const anchor = R.entryAt(lead.offsets, lead.scroller.scrollTop);
        const into = lead.scroller.scrollTop - lead.offsets[anchor];
        const found = [];
        for (let d = first; d < last; d++) {
          if (lead.measured[d]) continue;
          const height = Math.max(...group.map(pane => pane.elements[d - first].getBoundingClientRect().height));
          if (height > 0) found.push([d, height]);
        }
        if (!found.length) continue;
        let moved = false;
        for (const [d, height] of found) {
          lead.measured[d] = 1;
          if (Math.abs(lead.heights[d] - height) > 0.5) moved = true;
          lead.heights[d] = height;
          group.forEach(pane => { pane.elements[d - first].style.height = height + "px"; });
        }
        if (!moved) continue;
        const offsets = R.offsetsOf(lead.heights);
        group.forEach(pane => {
          pane.offsets = offsets;
          sizeOf(pane);
          pane.layer.style.transform = `translateY(${offsets[first]}px)`;
          assign(pane, offsets[anchor] + into, pane.scroller.scrollLeft);
        });
        scheduleRender();  // the window may have moved with the heights
      }
    }

    /** What renderEntry shows for an entry, as a string: a row built for an equal string can show it. */
    function look(pane, entry) {
      if (entry < 0) {
        const fold = view.folds[-entry - 1];
        return `fold ${-entry - 1} ${fold.start} ${fold.end}`;  // its button expands fold number -entry - 1
      }
      const { rows } = view, item = entry >> 1, side = entry & 1;
      const b = rows.b[item], a = rows.a[item], hunk = view.hunkOf[item];
      const current = hunk >= 0 && hunk === view.current ? (item === view.hunks[hunk].start ? 2 : 1) : 0;
      const warned = side === 1 && a >= 0 ? view.anchors.get(a) : undefined;
      return [settings.layout === "unified", rows.kind[item], side, b, a, b >= 0 ? view.before[b] : -1, a >= 0 ? view.after[a] : -1,
        current, warned ? warned.join("\n") : ""].join(" ");
    }

    /** One entry of a pane: a line of one side (unified: with both line numbers), a filler, or a fold. */
    function renderEntry(pane, entry) {
      if (entry < 0) return renderFold(pane, -entry - 1);
      const { rows } = view;
      const item = entry >> 1, side = entry & 1;
      const kind = rows.kind[item];
      const line = side === 0 ? rows.b[item] : rows.a[item];
      const changedSide = side === 0 ? "del" : "ins";
      const renamed = kind === IRTraceRenumber.KIND_RENAMED;  // equal but for value names: marked, not hidden
      const unified = settings.layout === "unified";
      const row = rowTemplates[unified ? 1 : 0].cloneNode(true);
      row.className = "row " + (line < 0 ? "filler" : kind === R.KIND_EQUAL ? "eq" : renamed ? "renamed" : changedSide);
      const gutter = row.firstChild, marker = gutter.lastChild, code = row.lastChild;
      if (unified) {
        const both = kind === R.KIND_EQUAL || renamed;  // a line of both sides shows both numbers
        if (both || side === 0) gutter.firstChild.textContent = String(rows.b[item] + 1);
        if (both || side === 1) gutter.firstChild.nextSibling.textContent = String(rows.a[item] + 1);
      } else if (line >= 0) gutter.firstChild.textContent = String(line + 1);
      marker.textContent = line < 0 || kind === R.KIND_EQUAL ? " " : renamed ? "\u2248" : side === 0 ? "\u2212" : "+";
      if (renamed) marker.title = "Renamed: equal to the other side but for value names";
      const warned = side === 1 && line >= 0 ? view.anchors.get(line) : undefined;
      if (warned) {
        row.classList.add("warned");
        row.title = warned.join("\n");
      }
      const hunk = view.hunkOf[item];
      if (hunk >= 0 && hunk === view.current) {  // the change n / p last brought on screen: a bar in the gutter
        row.classList.add("current");
        if (item === view.hunks[hunk].start) row.setAttribute("aria-current", "true");
      }
      if (line >= 0) {
        const id = (side === 0 ? view.before : view.after)[line];
        const words = kind === R.KIND_PAIR || renamed ? wordsOf(item) : null;
        paint(code, id, words ? words[side === 0 ? "before" : "after"] : [], changedSide);
      }
      return row;
    }

    function wordsOf(item) {
      if (!view.words.has(item)) {
        const lines = report.lines;
        view.words.set(item, R.wordDiff(lines[view.before[view.rows.b[item]]], lines[view.after[view.rows.a[item]]]));
      }
      return view.words.get(item);
    }

    function renderFold(pane, f) {
      const fold = view.folds[f];
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
        view.expanded[f] = 1;
        relayout({});
        pane.scroller.focus({ preventScroll: true });  // the button is gone: keep focus where it was
      });
      row.append(button);
      return row;
    }

    /** A line with its highlight classes, word changes (<del>/<ins> by side), search matches (<mark>), visible control characters. */
    function paint(target, id, changes, changeTag) {
      const text = report.lines[id];
      const highlights = report.highlights(id);
      const found = search.marks(id);
      const matches = found ? found.ranges : [];
      if (found && found.empty >= 0) target.append(emptyMatch(found.empty));
      if (!changes.length && !matches.length && !CONTROL_RE.test(text)) {  // the common case: highlighting only
        const parts = [];
        let at = 0;
        for (const { start, end, name } of highlights) {
          if (start > at) parts.push(text.slice(at, start));
          parts.push(make("span", "hl-" + name, text.slice(start, end)));
          at = end;
        }
        if (at < text.length) parts.push(text.slice(at));
        target.append(...parts);
        return;
      }
      for (const outer of R.lineParts(text.length, highlights, changes, matches)) {
        const changed = outer.change ? make(changeTag, "word-" + changeTag) : target;
        for (const inner of outer.parts) {
          const marked = inner.match ? make("mark", "search-hit") : changed;
          for (const part of inner.parts) appendText(marked, text.slice(part.start, part.end), part.name ? "hl-" + part.name : "");
          if (marked !== changed) changed.append(marked);
        }
        if (changed !== target) target.append(changed);
      }
    }

    /** A line the search matches only with empty matches (/^$/, a lookahead): nothing to <mark>, so a marker says it. */
    function emptyMatch(at) {
      const marker = make("span", "search-empty");
      marker.setAttribute("role", "img");
      marker.setAttribute("aria-label", "empty search match");
      marker.title = `The search matches this line with an empty match at column ${at + 1}`;
      return marker;
    }

    function appendText(target, text, className) {
      if (!CONTROL_RE.test(text)) {
        target.append(className ? make("span", className, text) : text);
        return;
      }
      let plain = "";
      const holder = className ? make("span", className) : target;
      for (const char of text) {
        const glyph = CONTROL_GLYPHS.get(char.codePointAt(0));
        if (glyph === undefined) { plain += char; continue; }
        if (plain) { holder.append(plain); plain = ""; }
        const control = make("span", "ctrl", glyph);
        control.title = "U+" + char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
        holder.append(control);
      }
      if (plain) holder.append(plain);
      if (holder !== target) target.append(holder);
    }

    // ---- folds and moving around the view ------------------------------------------------------

    /** Expand all (true) or Collapse all (false). */
    function setAllFolds(expanded) {
      if (!view) return;
      view.expanded.fill(expanded ? 1 : 0);
      relayout({});
    }

    const hasFolds = () => Boolean(view && view.folds.length);
    const changeCount = () => (view ? view.hunks.length : 0);

    /** Scroll a row of the view into sight (opening its fold); a search match in it comes on screen too. */
    function reveal(row) {
      if (!view || row === undefined || row < 0) return;
      revealRows(row, row + 1, search.shown() ? "mark" : null);
    }

    /**
     * Bring rows [start, end) on screen in every active pane with a few rows of context above, and the
     * first element matching `selector` inside them (a changed word, a search match) into the visible
     * width, right of the gutter; when lines wrap, into the visible height. The panes stay in sync.
     * `overscan`: the entries built beyond the screen.
     */
    function revealRows(start, end, selector, overscan = OVERSCAN) {
      const fold = view.folds.findIndex(f => f.start <= start && start < f.end);
      if (fold >= 0) { view.expanded[fold] = 1; layout(); }
      const list = active();
      // a few entries of context above (whole wrapped lines), at most a third of the pane
      const heights = list.map(pane => pane.scroller.clientHeight);  // read once: later reads would force layouts
      const aim = pane => {
        const d = pane.entryOf[start];
        return Math.max(pane.offsets[Math.max(0, d - CONTEXT_ROWS)], pane.offsets[d] - heights[list.indexOf(pane)] / 3);
      };
      setScroll(aim, 0);
      render(overscan);
      if (wrapping()) {  // measured heights may have moved the rows: aim again
        list.forEach(pane => assign(pane, aim(pane), 0));
        render(overscan);
      }
      if (!selector) return;
      let marks = list.map(pane => firstMark(pane, start, end, selector));
      // The rows built end inside the ones to reveal, none with a mark yet: look as far as the full overscan.
      if (marks.some((mark, i) => !mark && continues(list[i], start, end))) {
        render();
        marks = list.map(pane => firstMark(pane, start, end, selector));
      }
      marks = marks.filter(Boolean);
      if (!marks.length) return;
      const spots = marks.map(({ pane, mark, order }) => {
        const box = pane.scroller.getBoundingClientRect(), at = mark.getBoundingClientRect();
        const gutter = gutterWidth(pane);
        return {
          pane, order,
          // x from the code column's start; the code column is the pane's width less its sticky gutter
          x: at.left - box.left + pane.scroller.scrollLeft - gutter, room: pane.scroller.clientWidth - gutter,
          y: at.top - box.top + pane.scroller.scrollTop, bottom: at.bottom - box.top + pane.scroller.scrollTop,
        };
      });
      const left = bestLeft(spots);
      // A wrapped line can put its mark below the screen: scroll down to it, keeping the earliest mark.
      const groups = settings.layout === "split" ? [spots] : spots.map(spot => [spot]);
      for (const group of groups) {
        const scroller = group[0].pane.scroller, top = scroller.scrollTop;
        const need = Math.max(...group.map(spot => spot.bottom)), earliest = Math.min(...group.map(spot => spot.y));
        const want = need > top + scroller.clientHeight ? Math.min(need - scroller.clientHeight + ROW_HEIGHT, earliest - ROW_HEIGHT) : top;
        (settings.layout === "split" ? list : [group[0].pane]).forEach(pane => assign(pane, Math.max(top, want), left));
      }
      list.filter(pane => !spots.some(spot => spot.pane === pane)).forEach(pane => {
        if (settings.layout !== "split") assign(pane, pane.scroller.scrollTop, left);
      });
      render(overscan);
    }

    /** Whether the entry after a pane's built ones still shows one of rows [start, end). */
    function continues(pane, start, end) {
      const entry = pane.entries[pane.rendered.last];
      return entry >= 0 && (entry >> 1) >= start && (entry >> 1) < end;
    }

    function firstMark(pane, start, end, selector) {
      const { first } = pane.rendered;
      for (let i = 0; i < pane.elements.length; i++) {
        const entry = pane.entries[first + i];
        if (entry < 0 || (entry >> 1) < start || (entry >> 1) >= end) continue;
        const mark = pane.elements[i].querySelector(selector);
        if (mark) return { pane, mark, order: first + i };
      }
      return null;
    }

    /**
     * One horizontal position for panes that scroll together: the one that shows the most panes' first
     * mark (a few characters after the gutter); when the marks lie too far apart for one screen, the
     * earliest mark wins.
     */
    function bestLeft(spots) {
      const margin = MARGIN_CHARS * charWidth(spots[0].pane);
      const shown = left => spots.filter(s => s.x >= left - 0.5 && s.x + Math.min(margin, s.room / 4) <= left + s.room).length;
      const sorted = spots.slice().sort((u, v) => u.order - v.order || u.x - v.x);
      const candidates = [  // each mark near the left edge; failing that, near the right edge
        ...sorted.map(s => Math.max(0, Math.min(s.x - margin, s.x - s.room / 4))),
        ...sorted.map(s => Math.max(0, s.x + Math.min(margin, s.room / 4) - s.room)),
      ];
      return candidates.reduce((best, left) => (shown(left) > shown(best) ? left : best), candidates[0]);
    }

    const gutterWidth = pane => {
      const code = pane.layer.querySelector(".row:not(.fold-row) .code");
      return code ? code.getBoundingClientRect().left - pane.layer.getBoundingClientRect().left : 0;
    };
    const charWidth = pane => {
      const code = pane.layer.querySelector(".code");
      return code ? Number.parseFloat(doc.defaultView.getComputedStyle(code).fontSize) * 0.6 : 7.5;
    };

    /** n / p: the next (delta 1) or previous (-1) change of the view, brought on screen and marked current. */
    function stepChange(delta) {
      if (!view) return;
      const count = view.hunks.length;
      if (!count) { announce("No change in this view"); return; }
      const next = view.current + delta;
      if (next < 0 || next >= count) {
        announce(delta > 0 ? `No later change: this is change ${count} of ${count}` : `No earlier change: this is change 1 of ${count}`);
      } else view.current = next;
      const hunk = view.hunks[view.current];
      repaint();
      revealRows(hunk.start, hunk.end, "del, ins");
      if (next >= 0 && next < count) announce(`Change ${view.current + 1} of ${count}`);
    }


    /** Every entry of the view in each pane of the layout, folds as shown: printing needs them all. */
    function allRows() {
      if (!view) return null;
      const lists = R.paneEntries(view.rows, view.display, settings.layout);
      return lists.map((entries, i) => Array.from(entries, entry => renderEntry(active()[i], entry)));
    }

    /** The row showing an after line in the current view, or -1. */
    const rowOfAfterLine = line => (view ? view.rows.a.indexOf(line) : -1);

    /** The first row where `matches(line id)` holds on either side; a changed row wins over an unchanged one. */
    function firstRowWhere(matches) {
      if (!view) return -1;
      const { b, a, kind } = view.rows;
      let first = -1;
      for (let r = 0; r < b.length; r++) {
        if (!(b[r] >= 0 && matches(view.before[b[r]])) && !(a[r] >= 0 && matches(view.after[a[r]]))) continue;
        if (kind[r] !== R.KIND_EQUAL) return r;
        if (first < 0) first = r;
      }
      return first;
    }

    // ---- scrolling in sync -----------------------------------------------------------------------

    // A position we assigned to a pane: its scroll event is our echo, not the user, and must not be
    // mirrored back (that feedback is what makes synced panes jitter). Positions are compared within a
    // pixel because zoomed or high-DPI screens round fractional offsets.
    const assigned = new WeakMap();
    const near = (x, y) => Math.abs(x - y) < 1;

    function assign(pane, top, left) {
      const scroller = pane.scroller;
      scroller.scrollTop = top;
      scroller.scrollLeft = left;
      assigned.set(scroller, { top: scroller.scrollTop, left: scroller.scrollLeft });  // as clamped and rounded
    }

    /** topOf(pane) for each active pane, one left for all. */
    function setScroll(topOf, left) {
      active().forEach(pane => assign(pane, topOf(pane), left));
    }

    /** Where the other pane should be: the same pixels in split; in stacked, the same row at its top. */
    function follow(source, target) {
      if (settings.layout === "split") return source.scroller.scrollTop;
      if (!source.entries.length || !target.entries.length) return 0;  // a side without lines (an empty snapshot)
      const top = source.scroller.scrollTop;
      const d = R.entryAt(source.offsets, top);
      const entry = source.entries[d];
      const row = entry >= 0 ? entry >> 1 : view.folds[-entry - 1].start;
      const e = target.entryOf[row];
      return target.offsets[e] + Math.min(top - source.offsets[d], target.heights[e]);
    }

    function onScroll(source) {
      const scroller = source.scroller;
      const top = scroller.scrollTop, left = scroller.scrollLeft;
      const mark = assigned.get(scroller);
      assigned.delete(scroller);
      const echo = mark && near(mark.top, top) && near(mark.left, left);
      if (echo) return;  // we scrolled it, and built its rows then (a render now would build the whole overscan)
      followOthers(source);
      scheduleRender();
    }

    /** Bring the other active panes where `source` now is. */
    function followOthers(source) {
      const list = active();
      if (!view || !list.includes(source)) return;
      const left = source.scroller.scrollLeft;
      for (const target of list) {
        if (target === source) continue;
        const want = follow(source, target);
        if (!near(target.scroller.scrollTop, want) || !near(target.scroller.scrollLeft, left)) assign(target, want, left);
      }
    }

    /**
     * A pane scrolled from the keyboard: the others follow at once rather than on its scroll event,
     * a frame later (the panes move together, and what they show can be read right away).
     */
    function scrolled(scroller) {
      const source = panes.find(pane => pane.scroller === scroller);
      if (source) followOthers(source);
      scheduleRender();
    }

    /**
     * Change layout or wrapping ({layout, wrap}, either or neither: folds changed) keeping the row at the top
     * of the screen and the horizontal position.
     */
    function relayout(change) {
      const lead = active()[0];
      let row = -1, into = 0, left = lead.scroller.scrollLeft;
      if (view && lead.entries && lead.entries.length) {
        const d = R.entryAt(lead.offsets, lead.scroller.scrollTop);
        const entry = lead.entries[d];
        row = entry >= 0 ? entry >> 1 : view.folds[-entry - 1].start;
        into = lead.scroller.scrollTop - lead.offsets[d];
      }
      Object.assign(settings, change);
      applySettings();
      if (!view) return;
      layout();
      if (wrapping()) left = 0;
      setScroll(pane => (row < 0 ? 0 : pane.offsets[pane.entryOf[row]] + into), left);
      render();
    }

    /** The diff's classes (layout, wrapping) and which of the panes show: Before and After, or the one Diff. */
    function applySettings() {
      for (const name of ["split", "stacked", "unified"]) el.diff.classList.toggle(name, settings.layout === name);
      el.diff.classList.toggle("wrap", settings.wrap);
      panes.forEach(pane => { pane.scroller.parentElement.hidden = (settings.layout === "unified") !== (pane.index === 2); });
    }

    // ---- copying a whole side --------------------------------------------------------------------

    async function copySide(side, button) {
      if (!view) return;
      const { pass, beforeFile } = view.shown;
      const t = side === 0 ? pass.before : pass.after;
      const text = pipeline.source(t);
      const file = side === 0 ? beforeFile : pass.file;
      const clipboard = doc.defaultView.navigator.clipboard;
      let copied = false;
      if (clipboard && clipboard.writeText) {
        try {
          await clipboard.writeText(text);
          copied = true;
        } catch {
          copied = false;  // e.g. permission refused for file://: the copy command below still works
        }
      }
      if (!copied) copied = copyWithEvent(text);
      const lines = pipeline.ids(t).length;
      announce(copied ? `Copied ${file} (${lines} lines)` : `Copy failed: the browser refused clipboard access`);
      flash(button, copied ? "Copied \u2713" : "Copy failed");
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
      doc.addEventListener("copy", onCopy, true);
      try {
        doc.execCommand("copy");
      } catch {
        handled = false;
      } finally {
        doc.removeEventListener("copy", onCopy, true);
      }
      return handled;
    }

    /** A short confirmation on the button itself; its accessible name (aria-label) stays the same. */
    const flashTimers = new WeakMap();
    function flash(button, text) {
      clearTimeout(flashTimers.get(button));
      button.textContent = text;
      button.classList.add("done");
      flashTimers.set(button, setTimeout(() => {
        button.textContent = button.dataset.text;
        button.classList.remove("done");
      }, 1800));
    }

    panes.forEach(pane => pane.scroller.addEventListener("scroll", () => onScroll(pane), { passive: true }));
    // A pane's size follows the window, the pass list's width and the layout: wrapped rows are laid out
    // again for a new width, and a taller pane needs more rows. Checked in the next frame, so the work never
    // runs inside the observer's own layout pass.
    let sized = 0;
    const resized = new doc.defaultView.ResizeObserver(() => {
      if (sized) return;
      sized = requestAnimationFrame(() => {
        sized = 0;
        if (!view) return;
        if (wrapping() && active().some(pane => pane.laidWidth !== undefined && pane.scroller.clientWidth !== pane.laidWidth)) relayout({});
        else scheduleRender();
      });
    });
    panes.forEach(pane => resized.observe(pane.scroller));
    copyButtons().forEach(button => {
      button.dataset.text = button.textContent;
      button.addEventListener("click", () => copySide(Number(button.dataset.side), button));
    });
    return {
      show, clear, repaint, relayout, setAllFolds, hasFolds, changeCount, reveal, stepChange, rowOfAfterLine, firstRowWhere,
      allRows, scrolled,
    };
  }

  return { create };
})();
