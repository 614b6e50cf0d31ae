"use strict";
/*
 * Every function of the pipeline, on every pass: the Function selector (functions.js) lists those the pass shown
 * lacks under "Not in this pass", each with the passes that have it; "Find by name" beside it picks one by part
 * of its name (typeahead: its datalist offers them all). A picked function the pass lacks is said so in a status
 * line, with the nearest pass that has it (its birth, or the pass that removes it) to open.
 */
const IRTraceFunctionFinder = (() => {
  const known = new WeakMap();  // pipeline -> its functions' keys

  /** The keys of every region of the pipeline's snapshots, in the order they first appear. */
  function everywhere(pipeline) {
    if (!known.has(pipeline)) {
      const keys = new Set();
      const add = t => { for (const key of pipeline.texts[t].byKey.keys()) keys.add(key); };
      add(pipeline.input.text);
      for (const pass of pipeline.passes) { add(pass.before); add(pass.after); }
      known.set(pipeline, [...keys]);
    }
    return known.get(pipeline);
  }

  /** shown(key): what the selector calls a function (its demangled name, else its key). */
  function create(app, shown) {
    const { pipeline, passes } = app;
    const root = app.el.root, $ = id => root.querySelector("#" + id);
    const ui = { find: $("function-find"), names: $("function-names"), status: $("function-elsewhere") };
    const spans = new WeakMap();  // the view's source -> Map(key -> [first, last] pass whose diff has it)

    /** Whether pass p's diff, as the view shows it, has the function on either side. */
    function has(p, key) {
      const diff = app.diffOf(p);
      return pipeline.texts[diff.before].byKey.has(key) || pipeline.texts[diff.after].byKey.has(key);
    }

    /** "(from 09)", "(until 22)", "(09–22)": the passes that have the function ("" for none but the input). */
    function span(key) {
      const source = app.source();
      if (!spans.has(source)) spans.set(source, new Map());
      const seen = spans.get(source);
      if (!seen.has(key)) {
        let first = -1, last = -1;
        passes.forEach((_, p) => { if (has(p, key)) { if (first < 0) first = p; last = p; } });
        seen.set(key, [first, last]);
      }
      const [first, last] = seen.get(key);
      if (first < 0) return "";
      if (first > 0 && last === passes.length - 1) return `(from ${passes[first].label})`;
      if (first === 0 && last < passes.length - 1) return `(until ${passes[last].label})`;
      return first === 0 ? "" : `(${passes[first].label}\u2013${passes[last].label})`;
    }

    /** The pass nearest p whose diff has the function (a later one first), or -1. */
    function nearest(key, p) {
      for (let d = 1; d < passes.length; d++) {
        if (p + d < passes.length && has(p + d, key)) return p + d;
        if (p - d >= 0 && has(p - d, key)) return p - d;
      }
      return -1;
    }

    /** The status line when the picked function `key` is on neither side of pass p (null: hidden). */
    function elsewhere(key, p) {
      const q = key === null || p < 0 ? -1 : nearest(key, p);
      ui.status.hidden = q < 0;
      if (q < 0) {
        ui.status.replaceChildren();
        return;
      }
      const diff = app.diffOf(q), texts = pipeline.texts;
      const name = `${passes[q].label} ${passes[q].name}`;
      const where = q > p ? (texts[diff.before].byKey.has(key) ? `it is in ${name}` : `${name} adds it`)
        : (texts[diff.after].byKey.has(key) ? `it is last in ${name}` : `${name} removes it`);
      const open = app.make("button", "", `Open ${name}`);
      open.type = "button";
      open.addEventListener("click", () => app.open(q));
      ui.status.replaceChildren(`${shown(key)} is not in ${passes[p].label} ${passes[p].name} (showing the whole file): ${where}. `, open);
    }

    /** The function a typed name stands for: its key or name, else the one key containing it (or ending in .it). */
    function resolve(text) {
      const typed = text.trim(), lower = typed.toLowerCase();
      const keys = everywhere(pipeline);
      const exact = keys.find(key => key === typed || shown(key) === typed);
      if (exact || !typed) return { key: exact || null, matching: [] };
      const matching = keys.filter(key => key.toLowerCase().includes(lower) || shown(key).toLowerCase().includes(lower));
      const tail = matching.filter(key => key.toLowerCase().endsWith("." + lower));
      return { key: matching.length === 1 ? matching[0] : tail.length === 1 ? tail[0] : null, matching };
    }

    function pick(exactOnly) {
      const { key, matching } = resolve(ui.find.value);
      if (key === null) {
        if (exactOnly || !ui.find.value.trim()) return;
        const more = matching.length ? `${matching.length} functions match \u201c${ui.find.value.trim()}\u201d: type more of the name, or pick one from the list`
          : `No function of this pipeline is named like \u201c${ui.find.value.trim()}\u201d`;
        app.announce(more);
        return;
      }
      if (app.state.selected < 0) return;
      ui.find.value = "";
      app.pickFunction(key);
    }

    ui.names.replaceChildren(...everywhere(pipeline).map(key => {
      const node = app.make("option");
      node.value = shown(key);
      if (shown(key) !== key) node.label = key;
      return node;
    }));
    ui.find.disabled = passes.length === 0;
    ui.find.addEventListener("input", () => pick(true));  // a name picked from the list, or typed whole
    ui.find.addEventListener("keydown", event => { if (event.key === "Enter") pick(false); });
    return { span, elsewhere };
  }

  return { everywhere, create };
})();
