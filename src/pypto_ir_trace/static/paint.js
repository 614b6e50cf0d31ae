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

  /**
   * report: its lines and highlights; make: the viewer's element maker; search: marks(id) of the search shown;
   * onExpand(): a line's rest was asked for (its rows must be laid out again).
   */
  function create(report, make, search, onExpand) {
    const whole = new Set();  // ids of the long lines shown whole

    /** How many characters of line id are shown. */
    const shownLength = id => (whole.has(id) ? report.lines[id].length : Math.min(report.lines[id].length, SHOWN_CHARS));

    /** A line with its highlight classes, word changes (<del>/<ins> by side), search matches (<mark>), visible control characters. */
    function line(target, id, changes, changeTag) {
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
      const lead = leadOf(full, changes, found ? found.ranges : []);
      if (lead) {  // wrapped, the indentation is the code's padding instead (viewer.css): a hanging indent
        target.style.setProperty("--lead", `${lead.width}ch`);
        target.append(make("span", "lead", full.slice(0, lead.length)));
      }
      if (length === full.length) {
        parts(target, full, report.highlights(id), changes, found ? found.ranges : [], changeTag, lead ? lead.length : 0);
        return;
      }
      const cut = ranges => ranges.filter(([start]) => start < length);
      const highlights = report.highlights(id).filter(h => h.start < length).map(h => ({ ...h, end: Math.min(h.end, length) }));
      parts(target, full.slice(0, length), highlights, cut(changes), found ? cut(found.ranges) : [], changeTag, lead ? lead.length : 0);
      target.append(rest(id, full.length - length));
    }

    /** The text from column `from` (the columns before it are painted already: the indentation). */
    function parts(target, text, highlights, changes, matches, changeTag, from) {
      if (!changes.length && !matches.length && !CONTROL_RE.test(text)) {  // the common case: highlighting only
        const parts = [];
        let at = from;
        for (const { start, end, name } of highlights) {
          if (end <= from) continue;
          if (start > at) parts.push(text.slice(at, start));
          parts.push(make("span", "hl-" + name, text.slice(start, end)));
          at = end;
        }
        if (at < text.length) parts.push(text.slice(at));
        target.append(...parts);
        return;
      }
      for (const outer of R.lineParts(text.length, highlights, changes, matches)) {
        if (outer.end <= from) continue;
        const changed = outer.change ? make(changeTag, "word-" + changeTag) : target;
        for (const inner of outer.parts) {
          const marked = inner.match ? make("mark", "search-hit") : changed;
          for (const part of inner.parts) {
            if (part.end > from) appendText(make, marked, text.slice(Math.max(part.start, from), part.end), part.name ? "hl-" + part.name : "");
          }
          if (marked !== changed) changed.append(marked);
        }
        if (changed !== target) target.append(changed);
      }
    }

    /** The button that shows the rest of a long line. */
    function rest(id, count) {
      const button = make("button", "line-rest", `\u2026 ${count.toLocaleString("en-US")} more characters`);
      button.type = "button";
      button.title = "Show the whole line (it is laid out only when asked for)";
      button.addEventListener("click", () => {
        whole.add(id);
        onExpand();
      });
      return button;
    }

    return { line, shownLength };
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

  return { create };
})();
