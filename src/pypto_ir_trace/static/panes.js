"use strict";
/*
 * The Before and After panes: rows of the shown view (built on demand, only those near the screen in
 * the DOM), folds, word changes as <del>/<ins>, search matches as <mark>, scrolling in sync, copying.
 */
const IRTracePanes = (() => {
  const ROW_HEIGHT = 20;
  const OVERSCAN = 30;
  const CONTROL_GLYPHS = new Map([[0x7f, "\u2421"], [0x2028, "\u2936"], [0x2029, "\u00b6"]]);
  for (let c = 0; c < 0x20; c++) if (c !== 9) CONTROL_GLYPHS.set(c, String.fromCharCode(0x2400 + c));
  const CONTROL_RE = /[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/;
  const R = IRTraceRows;

  function create(app) {
    const { el, report, pipeline, state } = app;
    const doc = el.diff.ownerDocument;
    const sizers = el.panes.map(pane => pane.querySelector(".sizer"));
    const layers = el.panes.map(pane => {
      const layer = app.make("div", "rows");
      pane.appendChild(layer);
      return layer;
    });
    let view = null;  // {pass, rows, folds, expanded, display, before, after, widthChars, words, anchors, rendered}

    /** Build the rows of the selected pass (state.key: one function) and show them. */
    function show(resetScroll) {
      const pass = app.shown(state.selected);
      const before = pipeline.ids(pass.before), after = pipeline.ids(pass.after);
      let span = [0, before.length];
      if (state.key !== null && !pass.pieces) {  // a no-op pass: the function's span, the same on both sides
        const region = pipeline.texts[pass.before].byKey.get(state.key);
        span = [region.start, region.end];
      }
      const lines = report.lines;
      const textOf = (side, line) => lines[(side === 0 ? before : after)[line]];
      const rows = R.buildRows(pass, state.key, span, textOf);
      const folds = R.computeFolds(rows.kind, report.context);
      let widthChars = 0;
      for (let r = 0; r < rows.b.length; r++) {
        const b = rows.b[r], a = rows.a[r];
        if (b >= 0) widthChars = Math.max(widthChars, lines[before[b]].length);
        if (a >= 0) widthChars = Math.max(widthChars, lines[after[a]].length);
      }
      const anchors = new Map();  // after line -> the warnings that name it
      for (const { line, message } of pass.anchors) anchors.set(line, [...(anchors.get(line) || []), message]);
      view = { pass, rows, folds, expanded: new Uint8Array(folds.length), before, after, widthChars, words: new Map(), anchors };
      [el.copyBefore, el.copyAfter].forEach(b => { b.disabled = false; });
      el.expand.disabled = el.collapse.disabled = folds.length === 0;
      layout(resetScroll);
    }

    function clear() {
      view = null;
      [el.copyBefore, el.copyAfter, el.expand, el.collapse].forEach(b => { b.disabled = true; });
    }

    function layout(resetScroll) {
      if (!view) return;
      view.display = R.displayList(view.rows.b.length, view.folds, view.expanded);
      const digits = String(Math.max(view.before.length, view.after.length, 1)).length;
      doc.documentElement.style.setProperty("--gutter-chars", String(Math.max(digits, 3)));
      const height = view.display.length * ROW_HEIGHT;
      const width = `calc(${view.widthChars + 2}ch + var(--gutter-width))`;
      sizers.forEach(sizer => { sizer.style.height = height + "px"; sizer.style.width = width; });
      layers.forEach(layer => { layer.style.width = width; });
      if (resetScroll) setScroll(0, 0);
      render();
    }

    let frame = 0;
    function scheduleRender() {
      if (!frame) frame = requestAnimationFrame(() => { frame = 0; render(); });
    }

    /** Paint again (search or layout changed) keeping the scroll position. */
    function repaint() {
      if (!view) return;
      view.rendered = null;
      render();
    }

    function render() {
      if (!view) return;
      const pane = el.panes[0];
      const first = Math.max(0, Math.floor(pane.scrollTop / ROW_HEIGHT) - OVERSCAN);
      const visibleRows = Math.ceil(Math.max(pane.clientHeight, el.panes[1].clientHeight) / ROW_HEIGHT);
      const last = Math.min(view.display.length, first + visibleRows + 2 * OVERSCAN);
      if (view.rendered && view.rendered[0] === first && view.rendered[1] === last && view.rendered[2] === view.display) return;
      view.rendered = [first, last, view.display];
      [0, 1].forEach(side => {
        const fragment = doc.createDocumentFragment();
        for (let d = first; d < last; d++) fragment.append(renderRow(side, view.display[d]));
        layers[side].replaceChildren(fragment);
        layers[side].style.transform = `translateY(${first * ROW_HEIGHT}px)`;
      });
    }

    function renderRow(side, item) {
      if (item < 0) return renderFold(side, -item - 1);
      const { rows } = view;
      const kind = rows.kind[item];
      const line = side === 0 ? rows.b[item] : rows.a[item];
      const changedSide = side === 0 ? "del" : "ins";
      const row = app.make("div", "row " + (line < 0 ? "filler" : kind === R.KIND_EQUAL ? "eq" : changedSide));
      const number = app.make("span", "ln", line < 0 ? "" : String(line + 1));
      const marker = app.make("span", "mk", line < 0 || kind === R.KIND_EQUAL ? " " : side === 0 ? "\u2212" : "+");
      const code = app.make("span", "code");
      const warned = side === 1 && line >= 0 ? view.anchors.get(line) : undefined;
      if (warned) {
        row.classList.add("warned");
        row.title = warned.join("\n");
      }
      if (line >= 0) {
        const id = (side === 0 ? view.before : view.after)[line];
        const words = kind === R.KIND_PAIR ? wordsOf(item) : null;
        paint(code, id, words ? words[side === 0 ? "before" : "after"] : [], changedSide);
      }
      row.append(number, marker, code);
      return row;
    }

    function wordsOf(item) {
      if (!view.words.has(item)) {
        const lines = report.lines;
        view.words.set(item, R.wordDiff(lines[view.before[view.rows.b[item]]], lines[view.after[view.rows.a[item]]]));
      }
      return view.words.get(item);
    }

    function renderFold(side, f) {
      const fold = view.folds[f];
      const hidden = fold.end - fold.start;
      const text = `\u22ef ${hidden} unchanged line${hidden === 1 ? "" : "s"}`;
      const row = app.make("div", "row fold-row");
      const button = app.make("button", "fold", side === 0 ? `${text} \u2014 show` : text);
      button.type = "button";
      if (side === 1) {  // one accessible control per fold; the twin in the other pane is for the mouse
        button.tabIndex = -1;
        button.setAttribute("aria-hidden", "true");
      }
      button.addEventListener("click", () => {
        view.expanded[f] = 1;
        layout(false);
        el.panes[side].focus({ preventScroll: true });  // the button is gone: keep focus where it was
      });
      row.append(button);
      return row;
    }

    /** A line with its highlight classes, word changes (<del>/<ins> by side), search matches (<mark>), visible control characters. */
    function paint(target, id, changes, changeTag) {
      const text = report.lines[id];
      const highlights = report.highlights(id);
      const matches = app.search.ranges ? app.search.ranges(text) : [];
      if (!highlights.length && !changes.length && !matches.length && !CONTROL_RE.test(text)) {
        target.textContent = text;
        return;
      }
      for (const outer of R.lineParts(text.length, highlights, changes, matches)) {
        const changed = outer.change ? app.make(changeTag, "word-" + changeTag) : target;
        for (const inner of outer.parts) {
          const marked = inner.match ? app.make("mark", "search-hit") : changed;
          for (const part of inner.parts) appendText(marked, text.slice(part.start, part.end), part.name ? "hl-" + part.name : "");
          if (marked !== changed) changed.append(marked);
        }
        if (changed !== target) target.append(changed);
      }
    }

    function appendText(target, text, className) {
      if (!CONTROL_RE.test(text)) {
        target.append(className ? app.make("span", className, text) : text);
        return;
      }
      let plain = "";
      const holder = className ? app.make("span", className) : target;
      for (const char of text) {
        const glyph = CONTROL_GLYPHS.get(char.codePointAt(0));
        if (glyph === undefined) { plain += char; continue; }
        if (plain) { holder.append(plain); plain = ""; }
        const control = app.make("span", "ctrl", glyph);
        control.title = "U+" + char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
        holder.append(control);
      }
      if (plain) holder.append(plain);
      if (holder !== target) target.append(holder);
    }

    // ---- folds and moving around the view ------------------------------------------------------

    function setAllFolds(expanded) {
      if (!view) return;
      view.expanded.fill(expanded ? 1 : 0);
      layout(false);
      app.announce(expanded ? "All unchanged lines shown" : `Unchanged lines folded to ${report.context} lines of context`);
    }

    /** Scroll a row of the view into sight, opening its fold if it is folded. */
    function reveal(row) {
      if (!view || row === undefined || row < 0) return;
      const fold = view.folds.findIndex(f => f.start <= row && row < f.end);
      if (fold >= 0) { view.expanded[fold] = 1; layout(false); }
      const d = view.display.indexOf(row);
      setScroll(Math.max(0, (d - 3) * ROW_HEIGHT), 0);
      render();
    }

    /** Every row of the view on both sides, [before, after], folds as shown: printing needs them all. */
    const allRows = () => (view ? [0, 1].map(side => Array.from(view.display, item => renderRow(side, item))) : null);

    /** The row showing an after line in the current view, or -1. */
    const rowOfAfterLine = line => (view ? view.rows.a.indexOf(line) : -1);

    /** The first row where `matches(text)` holds on either side; a changed row wins over an unchanged one. */
    function firstRowWhere(matches) {
      if (!view) return -1;
      const lines = report.lines, { b, a, kind } = view.rows;
      let first = -1;
      for (let r = 0; r < b.length; r++) {
        if (!(b[r] >= 0 && matches(lines[view.before[b[r]]])) && !(a[r] >= 0 && matches(lines[view.after[a[r]]]))) continue;
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

    /** Switch layout keeping the scroll position. */
    function relayout(apply) {
      const top = el.panes[0].scrollTop, left = el.panes[0].scrollLeft;
      apply();
      if (view) {
        view.rendered = null;
        setScroll(top, left);
        render();
      }
    }

    // ---- copying a whole side --------------------------------------------------------------------

    async function copySide(side) {
      const p = state.selected;
      if (p < 0) return;
      const pass = app.shown(p);
      const t = side === 0 ? pass.before : pass.after;
      const text = pipeline.source(t);
      const file = side === 0 ? app.beforeFile(p) : pass.file;
      const clipboard = doc.defaultView.navigator.clipboard;
      let copied = false;
      if (clipboard && clipboard.writeText) {
        try {
          await clipboard.writeText(text);
          copied = true;
        } catch (err) {
          copied = false;  // e.g. permission refused for file://: the copy command below still works
        }
      }
      if (!copied) copied = copyWithEvent(text);
      const lines = pipeline.ids(t).length;
      app.announce(copied ? `Copied ${file} (${lines} lines)` : `Copy failed: the browser refused clipboard access`);
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
      doc.addEventListener("copy", onCopy, true);
      try {
        doc.execCommand("copy");
      } catch (err) {
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
        button.textContent = "Copy full source";
        button.classList.remove("done");
      }, 1800));
    }

    el.panes[0].addEventListener("scroll", () => onScroll(el.panes[0], el.panes[1]), { passive: true });
    el.panes[1].addEventListener("scroll", () => onScroll(el.panes[1], el.panes[0]), { passive: true });
    doc.defaultView.addEventListener("resize", scheduleRender);
    el.expand.addEventListener("click", () => setAllFolds(true));
    el.collapse.addEventListener("click", () => setAllFolds(false));
    el.copyBefore.addEventListener("click", () => copySide(0));
    el.copyAfter.addEventListener("click", () => copySide(1));
    return { show, clear, repaint, relayout, reveal, rowOfAfterLine, firstRowWhere, allRows };
  }

  return { create };
})();
