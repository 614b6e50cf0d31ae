"use strict";
/*
 * Painting one line of code into an element: its highlight classes, word changes (<del>/<ins> by side),
 * search matches (<mark>) and control characters made visible. Elements out; nothing kept.
 */
const IRTracePaint = (() => {
  const CONTROL_GLYPHS = new Map([[0x7f, "\u2421"], [0x2028, "\u2936"], [0x2029, "\u00b6"]]);
  for (let c = 0; c < 0x20; c++) if (c !== 9) CONTROL_GLYPHS.set(c, String.fromCharCode(0x2400 + c));
  // eslint-disable-next-line no-control-regex -- control characters are what it finds, to show them as glyphs
  const CONTROL_RE = /[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/;
  const R = IRTraceRows;
  // A longer line shows its start and a button for the rest (a dense constant of 5 MB took the browser seconds
  // to lay out on every paint); the rest is laid out only when asked for. Copying the source copies it all.
  const SHOWN_CHARS = 20000;
  const TAB_SIZE = 4;  // as viewer.css's .row
  const REST_CHARS = 40;  // the "… N more characters" button beside a cut line, in columns (at most)
  // Highlight classes painted as plain text: a name's colour is the text's own (viewer.css), and a span for every
  // identifier of a line would double its elements. The spans stay in the model: names.js follows them.
  const PLAIN = new Set(["variable"]);
  const classOf = name => (name && !PLAIN.has(name) ? "hl-" + name : "");

  /**
   * report: its lines and highlights; make: the viewer's element maker; search: marks(id) of the search shown;
   * onExpand(): a line's rest or an elided part was asked for (its rows must be laid out again); eliding():
   * whether unchanged sub-expressions the report names (report.elisions) show as "…".
   */
  // eslint-disable-next-line max-lines-per-function -- a module's closure: line and the three painters it alone uses share the lines shown whole
  function create(report, make, search, onExpand, eliding) {
    const whole = new Set();  // ids of the long lines shown whole
    const unelided = new Set();  // ids of the lines whose elided parts were asked for

    /** How many characters of line id are shown. */
    const shownLength = id => (whole.has(id) ? report.lines[id].length : Math.min(report.lines[id].length, SHOWN_CHARS));

    /**
     * How many columns line id takes with its elisions shown as "…" but those touching `kept` ([[start, end]]:
     * changes, matches). With none kept the answer is remembered: the panes' width asks it of every line of a view.
     */
    const elidedLengths = new Int32Array(report.lines.length).fill(-1);  // by line id; -1: not known yet
    function elidedLength(id, kept = []) {
      const length = shownLength(id);
      if (!eliding() || unelided.has(id)) return length;
      if (!kept.length && elidedLengths[id] >= 0) return elidedLengths[id];
      const columns = outermost(report.elisions(id), length, kept).reduce((n, [start, end]) => n - (end - start) + 1, length);
      if (!kept.length) elidedLengths[id] = columns;
      return columns;
    }

    /**
     * A line with its highlight classes, word changes (<del>/<ins> by side), search matches (<mark>), visible
     * control characters, and its unchanged long sub-expressions elided when eliding() says so, and then its
     * last `tail` characters too (a changed row shown whole, wholerows.js: the end both sides share, after their
     * changes). Returns the columns it takes (an elision one, the button of a cut line's rest REST_CHARS).
     */
    function line(target, id, changes, changeTag, tail = 0) {
      const length = shownLength(id);
      const full = report.lines[id];
      const found = search.marks(id);
      // Only empty matches (/^$/, a lookahead): nothing to <mark>, so a marker says it; more than are marked: counted.
      if (found && found.empty >= 0) {
        target.append(marker(make, "search-empty", "empty search match",
          `The search matches this line with an empty match at column ${found.empty + 1}`));
      }
      if (found && found.unmarked > 0) {
        const more = `${found.unmarked.toLocaleString("en-US")} more search match${found.unmarked === 1 ? "" : "es"}`;
        target.append(marker(make, "search-more", `${more} on this line, not marked`));
      }
      const cut = ranges => (length === full.length ? ranges : ranges.filter(([start]) => start < length));
      const matches = cut(found ? found.ranges : []), shownChanges = cut(changes);
      const text = length === full.length ? full : full.slice(0, length);
      const highlights = length === full.length ? report.highlights(id)
        : report.highlights(id).filter(h => h.start < length).map(h => ({ ...h, end: Math.min(h.end, length) }));
      const lead = leadOf(text, shownChanges, matches);
      if (lead) {  // wrapped, the indentation is the code's padding instead (viewer.css): a hanging indent
        target.style.setProperty("--lead", `${lead.width}ch`);
        target.append(make("span", "lead", text.slice(0, lead.length)));
      }
      const paint = painter(text, highlights, shownChanges, matches, changeTag);
      const elisions = elided(id, length, shownChanges, matches, tail);
      let at = lead ? lead.length : 0, columns = length + (lead ? lead.width - lead.length : 0);  // a tab to its stop
      for (const [start, end] of elisions) {
        paint(target, at, start);
        target.append(ellipsis(id, text.slice(start, end)));
        at = end;
        columns -= end - start - 1;
      }
      paint(target, at, text.length);
      if (length < full.length) target.append(rest(id, full.length - length));
      return length < full.length ? columns + REST_CHARS : columns;
    }

    /**
     * The column where position `at` of line id is painted: its elisions shown as "…" but those touching `kept`
     * (as line() paints it with those changes or matches). Past what is shown: the end of what is shown.
     */
    function columnOf(id, kept, at) {
      const length = shownLength(id);
      let column = Math.min(at, length);
      if (!eliding() || unelided.has(id)) return column;
      for (const [start, end] of outermost(report.elisions(id), length, kept)) if (end <= at) column -= end - start - 1;
      return column;
    }

    /**
     * The elisions of line id shown as "…": inside what is shown, touching no change and no match, and not
     * inside one shown so (the outermost that qualifies: a changed type keeps back only the part changed).
     */
    function elided(id, length, changes, matches, tail) {
      if (!eliding() || unelided.has(id)) return [];
      const kept = [...changes, ...matches], found = outermost(report.elisions(id), length, kept);
      const from = tail ? tailStart(report.lines[id], length, tail, kept) : length;
      return from < length ? [...found.filter(([, end]) => end <= from), [from, length]] : found;
    }

    /** (target, from, to) => paint the text's columns [from, to) with their marks, nested as lineParts says. */
    function painter(text, highlights, changes, matches, changeTag) {
      if (!changes.length && !matches.length && !CONTROL_RE.test(text)) {  // the common case: highlighting only
        return (target, from, to) => {
          const parts = [];
          let at = from;
          for (const { start, end, name } of highlights) {
            if (end <= from || start >= to || PLAIN.has(name)) continue;
            if (start > at) parts.push(text.slice(at, start));
            at = Math.min(end, to);
            parts.push(make("span", "hl-" + name, text.slice(Math.max(start, from), at)));
          }
          if (at < to) parts.push(text.slice(at, to));
          target.append(...parts);
        };
      }
      const outers = R.lineParts(text.length, highlights, changes, matches);
      const inside = (part, from, to) => part.end > from && part.start < to;
      return (target, from, to) => {
        for (const outer of outers) {
          if (!inside(outer, from, to)) continue;
          const changed = outer.change ? make(changeTag, "word-" + changeTag) : target;
          for (const inner of outer.parts) {
            if (!inside(inner, from, to)) continue;
            const marked = inner.match ? make("mark", "search-hit") : changed;
            for (const part of inner.parts) {
              if (inside(part, from, to)) appendText(make, marked, text.slice(Math.max(part.start, from), Math.min(part.end, to)), classOf(part.name));
            }
            if (marked !== changed) changed.append(marked);
          }
          if (changed !== target) target.append(changed);
        }
      };
    }

    /** An elided sub-expression: "…", its text in the tooltip; pressed, the line shows whole. */
    function ellipsis(id, text) {
      const button = make("button", "elided", "\u2026");
      button.type = "button";
      button.tabIndex = -1;  // one per line: the "Elide types" switch is the keyboard's way
      button.setAttribute("aria-label", `elided: ${text}`);
      button.dataset.chars = String(text.length);  // what it stands for: a click's column (namepanel.js) counts it
      button.title = `${text.length > 300 ? text.slice(0, 300) + "\u2026" : text}\n(click to show this line whole)`;
      button.addEventListener("click", () => {
        unelided.add(id);
        onExpand();
      });
      return button;
    }

    /** The button that shows the rest of a long line. */
    function rest(id, count) {
      const button = make("button", "line-rest", `\u2026 ${count.toLocaleString("en-US")} more characters`);
      button.type = "button";
      button.title = "Show the whole line (it is laid out only when asked for)";
      button.addEventListener("click", () => {
        whole.add(id);
        elidedLengths[id] = -1;
        onExpand();
      });
      return button;
    }

    return { line, shownLength, elidedLength, columnOf };
  }

  /**
   * Where the elided tail of a line starts: at its last `tail` characters, past every change or match (`kept`),
   * after the first blank there; `length` (none) when less than TAIL_CHARS of what is shown would go.
   */
  function tailStart(text, length, tail, kept) {
    const last = Math.max(text.length - tail, ...kept.map(([, end]) => end));
    const blank = text.slice(last, length).search(/\s/);
    const start = blank < 0 ? length : last + blank + 1;
    return length - start >= TAIL_CHARS ? start : length;
  }
  const TAIL_CHARS = 12;  // an unchanged tail shorter than this stays: "…" would hide less than it costs to read

  /** Of ranges by start (an enclosing one first), those ending by `length`, touching none of `kept`, and not inside
   * one taken before. */
  function outermost(ranges, length, kept) {
    const taken = [];
    let covered = 0;
    for (const [start, end] of ranges) {
      if (start < covered || end > length || kept.some(([s, e]) => s < end && start < e)) continue;
      taken.push([start, end]);
      covered = end;
    }
    return taken;
  }

  /** Text into target (in a span of className, if given), its control characters shown as glyphs. */
  function appendText(make, target, text, className) {
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

  /**
   * A line's indentation, painted apart so that wrapped lines can hang from it: {length (UTF-16 units),
   * width (columns, a tab to the next multiple of TAB_SIZE)}, or null when it has none or when a change or
   * a match starts inside it (those are painted as they are).
   */
  function leadOf(text, changes, matches) {
    const length = text.length - text.replace(/^[ \t]+/, "").length;
    if (!length || [...changes, ...matches].some(([start]) => start < length)) return null;
    let width = 0;
    for (let i = 0; i < length; i++) width = text[i] === "\t" ? (Math.floor(width / TAB_SIZE) + 1) * TAB_SIZE : width + 1;
    return { length, width };
  }

  /** A marker read out as an image with its label (the tooltip says the same, or more). */
  function marker(make, className, label, title = label) {
    const node = make("span", className);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
    node.title = title;
    return node;
  }

  return { create, REST_CHARS };
})();
