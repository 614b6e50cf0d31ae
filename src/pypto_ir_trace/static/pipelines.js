"use strict";
/*
 * Several pipelines in one report (PyPTO, then one per codegen unit): the Pipeline selector, one view
 * per pipeline built on fresh markup when chosen (its own pass list, filters, selection and link), and
 * what a pipeline's view shows about its dump: the notes on it, a failed pass, Ignore renumbering.
 */
const IRTracePipelines = (() => {
  const RENUMBER_COMPARE = "Ignore renumbering applies to each pass\u2019s own diff, not to \u201cCompare with\u201d: " +
    "its renamed lines are proved at build time, and a comparison is diffed in the page.";

  /**
   * root: the page; build(index, carried, rebuild) makes the view (viewer.js) of report.pipelines[index];
   * rebuild(extra) builds it anew, carrying extra too (the filters: the same pipeline on a filtered report).
   * Each view is built on a clone of the markup as the page first had it, so no listener of the view
   * before it survives; page-wide listeners (keys, links) reach the view through current().
   */
  function create(root, report, build) {
    const doc = root.ownerDocument || root;
    const picker = root.querySelector("#pipeline-picker"), select = root.querySelector("#pipeline-select");
    const pristine = root.querySelector(".layout").cloneNode(true);
    let index = -1, view = null;

    select.replaceChildren(...report.pipelines.map((pipeline, i) => {
      const node = doc.createElement("option");
      node.value = String(i);
      node.textContent = pipeline.name;
      return node;
    }));
    picker.hidden = report.pipelines.length < 2;
    select.addEventListener("change", () => show(Number(select.value)).selectFirst());

    /** The view of pipeline i (kept if it is the one shown, unless `again`: built anew with that carried too). */
    function show(i, again = null) {
      if (i === index && !again) return view;
      const carried = view ? { ...view.carry(), ...again } : null;
      if (view) root.querySelector(".layout").replaceWith(pristine.cloneNode(true));
      index = i;
      select.value = String(i);
      view = build(i, carried, extra => show(i, extra));
      return view;
    }

    /** Open what a link's fragment names (a link without `pipe` names the first pipeline); false if no pass. */
    function follow(hash) {
      const name = IRTraceState.pipeOf(hash);
      const i = report.pipelines.findIndex(pipeline => pipeline.name === name);
      return show(Math.max(i, 0)).followLink(hash);
    }

    show(0);
    return { current: () => view, show, follow };
  }

  /** What a view shows about its dump besides the passes: its notes, where it stopped, the renumbering switch. */
  function decorate(app) {
    const { el, pipeline, passes } = app;
    el.dumpNotes.hidden = pipeline.notes.length === 0;
    el.dumpNotesList.replaceChildren(...pipeline.notes.map(note => app.make("li", "", note)));
    const failed = passes.find(pass => pass.failed);
    if (failed) {
      el.summary.append(" \u00b7 ", app.make("span", "stopped", `stopped at ${failed.label} ${failed.name}, which failed`));
      el.summary.title = el.summary.textContent;
    }
    el.renumber.closest("label").hidden = !pipeline.renumbering;
    renumberAvailable(app);
  }

  /** Ignore renumbering is off for comparisons, with its reason visible on the control. */
  function renumberAvailable(app) {
    const { el, state } = app;
    const label = el.renumber.closest("label");
    el.renumber.disabled = state.base !== null;
    label.classList.toggle("disabled", el.renumber.disabled);
    label.title = el.renumber.disabled ? RENUMBER_COMPARE
      : "Show lines that differ only by value and block names (%0, ^bb1) as unchanged, marked \u2248";
  }

  /** The note on a failed pass. */
  function failedNote(pass) {
    return `${pass.label} ${pass.name} failed: the pipeline stopped here, and its snapshot is the IR the pass left behind.`;
  }

  return { RENUMBER_COMPARE, create, decorate, renumberAvailable, failedNote };
})();
