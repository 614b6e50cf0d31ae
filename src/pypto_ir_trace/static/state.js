"use strict";
/*
 * The view state, in one object, and deep links: the URL fragment keeps the pass, the function, the
 * layout and the compare base, so a link opens the same view.
 */
const IRTraceState = (() => {
  /** What the reader chose; everything else on screen is derived from it and the report. */
  function create(inputLabel) {
    return {
      inputLabel,       // the pipeline's input as links name it: its label, from the format record
      selected: -1,     // pass index, -1 when none is visible
      anchor: -1,       // the last pass shown: filters that hid everything return to it
      wantedKey: null,  // the function the reader picked; kept while passes have it on both sides
      key: null,        // the function shown now (null: the whole file)
      layout: "split",  // "split", "stacked" or "unified"
      wrap: false,      // long lines wrap inside the panes
      base: null,       // the snapshot the panes compare with (0 the input, k after pass k-1); null: each pass's own before
      extra: {},        // link parameters of add-on views (e.g. the two-run view's {view: "effect"})
      pipe: null,       // the pipeline's name when the report holds several (else null: not in links)
      ignoreRenumbering: false,  // renamed lines shown as unchanged (pipelines with value names)
      panels: {},       // each panel's link state by its link name (panels.js): {map: shown, blame: the gutter on}
      hide: [],         // the filters applied (filters.js): their names, in the pipeline's order
    };
  }

  /** A snapshot's label as written in file names: the input's label for the input, else its pass's label. */
  const snapshotLabel = (state, passes, s) => (s === 0 ? state.inputLabel : passes[s - 1].label);

  /** The fragment of a state ("pipe=kernel_aiv&pass=04&fn=...&layout=stacked&base=00&wrap=1&hide=debug&blame=1"), "" with no pass selected. */
  function fragment(state, passes) {
    if (state.selected < 0) return "";
    const params = new URLSearchParams(state.pipe !== null ? { pipe: state.pipe } : {});
    params.set("pass", passes[state.selected].label);
    if (state.wantedKey !== null) params.set("fn", state.wantedKey);
    if (state.layout !== "split") params.set("layout", state.layout);
    if (state.base !== null) params.set("base", snapshotLabel(state, passes, state.base));
    if (state.wrap) params.set("wrap", "1");
    if (state.hide && state.hide.length) params.set("hide", state.hide.join("."));
    for (const [name, on] of Object.entries(state.panels || {})) if (on) params.set(name, "1");
    for (const [name, value] of Object.entries(state.extra || {})) params.set(name, value);
    return params.toString();
  }

  /**
   * A fragment read back: {pass (index, -1 if unknown), fn, layout (or null), base (snapshot or null),
   * wrap (true, false, or null when the link does not say: the reader's own choice applies), hide (the filters'
   * names)}. The panels read
   * their own (panels.js), the views theirs (view=).
   */
  function parse(hash, passes, inputLabel) {
    const params = new URLSearchParams(hash.replace(/^#/, ""));
    const layout = params.get("layout");
    return {
      pass: passes.findIndex(pass => pass.label === params.get("pass")),
      fn: params.get("fn") || null,
      layout: ["split", "stacked", "unified"].includes(layout) ? layout : null,
      base: snapshotOf(passes, params.get("base"), inputLabel),
      wrap: params.has("wrap") ? params.get("wrap") === "1" : null,
      hide: (params.get("hide") || "").split(".").filter(Boolean),
    };
  }

  /** The pipeline a fragment names (null: none, the first one). */
  const pipeOf = hash => new URLSearchParams(hash.replace(/^#/, "")).get("pipe");

  /** The snapshot a label names (the input's label, or any zeros, as links named it before: the input), or null. */
  function snapshotOf(passes, label, inputLabel) {
    if (label === inputLabel || /^0+$/.test(label)) return 0;
    const p = passes.findIndex(pass => pass.label === label);
    return label === null || p < 0 ? null : p + 1;
  }

  /** Keep the address bar's fragment in step with the state (without a history entry per step). */
  function write(state, passes) {
    const text = fragment(state, passes);
    if (!text) return;
    try { history.replaceState(null, "", "#" + text); } catch { /* a sandboxed frame */ }
  }

  return { create, fragment, parse, pipeOf, write };
})();
