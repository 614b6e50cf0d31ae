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

  /** report: its lines and highlights; make: the viewer's element maker; search: marks(id) of the search shown. */
  function create(report, make, search) {
    /** A line with its highlight classes, word changes (<del>/<ins> by side), search matches (<mark>), visible control characters. */
    function line(target, id, changes, changeTag) {
      const text = report.lines[id];
      const highlights = report.highlights(id);
      const found = search.marks(id);
      const matches = found ? found.ranges : [];
      if (found && found.empty >= 0) target.append(emptyMatch(found.empty));
      if (found && found.unmarked > 0) target.append(moreMatches(found.unmarked));
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

    /** A line with more matches than are marked: a marker at its start says how many more. */
    function moreMatches(count) {
      const marker = make("span", "search-more");
      const text = `${count.toLocaleString("en-US")} more search match${count === 1 ? "" : "es"} on this line, not marked`;
      marker.setAttribute("role", "img");
      marker.setAttribute("aria-label", text);
      marker.title = text;
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

    return { line };
  }

  return { create };
})();
