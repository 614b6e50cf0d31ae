"use strict";
/*
 * Search matching, off the main thread. `program` is the whole of a Web Worker: the page starts it
 * from its own source text through a blob: URL (the CSP allows worker-src blob: and nothing more), so
 * a pattern that backtracks for minutes costs a worker the page can stop, never the page itself.
 * The same functions run in the page too (parse for the query's error, scan for tests).
 *
 * A query is text (case-insensitive unless it has a capital) or /regex/flags. A line matches when the
 * query matches it, even with an empty match (/^$/ on a blank line, a lookahead): such a line counts
 * and gets a marker, while <mark> covers only non-empty matches.
 */
const IRTraceSearchWorker = (() => {
  /** The worker's program: self-contained (it runs from its source text), `scope` is its global. */
  function program(scope) {
    /** {kind: "none"} | {kind: "error", error} | {kind: "regex", source, flags} | {kind: "text", needle, fold} */
    function parse(query) {
      const regex = /^\/(.+)\/([a-z]*)$/.exec(query);
      if (regex) {
        const flags = regex[2].replace(/g/g, "") + "g";
        try { new RegExp(regex[1], flags); } catch (err) { return { kind: "error", error: err.message }; }
        return { kind: "regex", source: regex[1], flags };
      }
      if (!query) return { kind: "none" };
      const fold = query === query.toLowerCase();  // smart case
      return { kind: "text", needle: fold ? query.toLowerCase() : query, fold };
    }

    /** A function line -> {ranges: [start, end, ...] of non-empty matches, empty: first empty match or -1}. */
    function matcher(parsed) {
      if (parsed.kind === "regex") {
        const pattern = new RegExp(parsed.source, parsed.flags);
        const unicode = /[uv]/.test(parsed.flags);
        return line => regexMatches(pattern, unicode, line);
      }
      if (!parsed.fold) return line => textMatches(line, parsed.needle);
      // Case-insensitive by a regex, not by lower-casing the line: lower-casing changes lengths ("\u0130"
      // becomes two units), which would put the marks on the wrong characters.
      const folded = new RegExp(parsed.needle.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), "gi");
      return line => regexMatches(folded, false, line);
    }

    function textMatches(haystack, needle) {
      const ranges = [];
      for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
        ranges.push(at, at + needle.length);
      }
      return { ranges, empty: -1 };
    }

    function regexMatches(pattern, unicode, line) {
      const ranges = [];
      let empty = -1;
      pattern.lastIndex = 0;
      for (let match = pattern.exec(line); match; match = pattern.exec(line)) {
        const end = match.index + match[0].length;
        if (end > match.index) { ranges.push(match.index, end); continue; }
        if (empty < 0) empty = match.index;
        if (end >= line.length) break;
        // Step past the empty match by one code point: under /u or /v an index inside a surrogate pair
        // is read as the pair's start, so a one-unit step would find the same empty match for ever.
        const pair = unicode && isLead(line.charCodeAt(end)) && isTrail(line.charCodeAt(end + 1));
        pattern.lastIndex = end + (pair ? 2 : 1);
      }
      return { ranges, empty };
    }

    const isLead = c => c >= 0xd800 && c <= 0xdbff;
    const isTrail = c => c >= 0xdc00 && c <= 0xdfff;

    /**
     * Every line against a parsed query: {hit: Uint8Array (1 where the line matches), empty: Int32Array
     * (the first empty match of a line without a non-empty one, else -1), offsets: Uint32Array (line i's
     * ranges are marks[offsets[i] .. offsets[i + 1]]), marks: Uint32Array of start, end pairs}.
     */
    function scan(lines, parsed) {
      const match = matcher(parsed);
      const hit = new Uint8Array(lines.length), empty = new Int32Array(lines.length).fill(-1);
      const offsets = new Uint32Array(lines.length + 1);
      const marks = [];
      for (let i = 0; i < lines.length; i++) {
        const found = match(lines[i]);
        hit[i] = found.ranges.length || found.empty >= 0 ? 1 : 0;
        if (!found.ranges.length) empty[i] = found.empty;
        for (const x of found.ranges) marks.push(x);
        offsets[i + 1] = marks.length;
      }
      return { hit, empty, offsets, marks: Uint32Array.from(marks) };
    }

    let lines = [];
    scope.addEventListener("message", ({ data }) => {
      if (data.lines) { lines = data.lines; return; }
      const result = scan(lines, data.parsed);
      scope.postMessage({ id: data.id, ...result }, [result.hit.buffer, result.empty.buffer, result.offsets.buffer, result.marks.buffer]);
    });
    return { parse, scan };
  }

  const local = program({ addEventListener() {} });  // in the page: the same parse and scan, for the query's error and for tests

  /** A worker running `program`, started from its source; the caller posts {lines} once, then {id, parsed}. */
  function start(win) {
    const source = `"use strict";\n(${program.toString()})(self);\n`;
    const url = win.URL.createObjectURL(new win.Blob([source], { type: "text/javascript" }));
    try {
      return new win.Worker(url);
    } finally {
      win.URL.revokeObjectURL(url);  // the worker has its script once constructed
    }
  }

  return { parse: local.parse, scan: local.scan, start };
})();
