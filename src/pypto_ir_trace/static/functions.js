"use strict";
/*
 * The Function selector: the regions of both sides of a pass, which of them it changes, the notes
 * that explain what is shown, and the function's history (the passes that change it).
 */
const IRTraceFunctions = (() => {
  function create(app) {
    const { el, pipeline, passes, state } = app;

    function option(value, label) {
      const node = app.make("option");
      node.value = value;
      node.textContent = label;
      return node;
    }

    /** Options [value, label, class]: the elements already there are kept when the values are the same (stepping passes). */
    function setOptions(options) {
      const nodes = el.select.options;
      if (nodes.length !== options.length || options.some(([value], i) => nodes[i].value !== value)) {
        el.select.replaceChildren(...options.map(([value, label, className]) => {
          const node = option(value, label);
          node.className = className;
          return node;
        }));
        return;
      }
      options.forEach(([, label, className], i) => {
        if (nodes[i].textContent !== label) nodes[i].textContent = label;
        if (nodes[i].className !== className) nodes[i].className = className;
      });
    }

    function untrustedReason(p) {
      const pass = app.shown(p);
      const reasons = [];
      const before = pipeline.texts[pass.before], after = pipeline.texts[pass.after];
      if (before.untrusted) reasons.push(`${app.beforeFile(p)}: ${before.untrusted}`);
      if (pass.after !== pass.before && after.untrusted) reasons.push(`${pass.file}: ${after.untrusted}`);
      return reasons.join("; ");
    }

    /** Regions of both sides: after-file order, then those only before (removed). */
    function regionChoices(pass) {
      const before = pipeline.texts[pass.before].byKey, after = pipeline.texts[pass.after].byKey;
      const choices = [];
      for (const [key, region] of after) choices.push({ key, region, side: before.has(key) ? "both" : "added" });
      for (const [key, region] of before) if (!after.has(key)) choices.push({ key, region, side: "removed" });
      return { choices, before, after };
    }

    /**
     * Fill the selector for pass p and set state.key; returns the notes [kind, text] about the function.
     * `picked`: the reader chose state.wantedKey on this very pass, so a one-sided function is shown too.
     */
    function fill(p, picked) {
      const pass = app.shown(p);
      const notes = [];
      const reason = untrustedReason(p);
      const { choices, before, after } = regionChoices(pass);
      const counts = pass.regions;
      const options = [["", "Whole file", ""]];
      for (const { key, region, side } of choices) {
        let label = key;
        const changed = counts.get(key);
        if (side !== "both") label += side === "added" ? "  (added)" : "  (removed)";
        else if (changed) label += `  (+${changed.ins} \u2212${changed.del})`;
        if (changed) label = "\u25cf " + label;
        if (region.error || (before.get(key) || {}).error) label += "  \u26a0 parsed with errors";
        options.push([key, label, changed ? "changed" : ""]);
      }
      setOptions(options);
      state.key = null;
      if (reason) {
        el.select.disabled = true;
        notes.push(["warn", `Function view unavailable for this pass: a snapshot could not be parsed safely (${reason}). Showing the whole-file diff.`]);
      } else {
        el.select.disabled = choices.length === 0;
        const wanted = state.wantedKey;
        if (wanted !== null) {
          const both = before.has(wanted) && after.has(wanted);
          const either = before.has(wanted) || after.has(wanted);
          if (both || (picked && either)) state.key = wanted;
          else notes.push(["info", `${wanted} is not on both sides of this pass (${sideOf(wanted, before, after)}): showing the whole file.`]);
        }
        const shown = state.key !== null ? (after.get(state.key) || before.get(state.key)) : null;
        const broken = shown && (shown.error || (before.get(state.key) || {}).error);
        if (broken) notes.push(["warn", `${state.key} was parsed with errors (${broken}); it is still diffed line by line.`]);
        else if (shown && pass.changed && !counts.has(state.key)) notes.push(["info", `${state.key} is unchanged by this pass.`]);
        if (wanted !== null) notes.push(["info", historyNote(wanted)]);
      }
      el.select.value = state.key === null ? "" : state.key;
      // The reason the selector is disabled is read out with it, not only shown beside it.
      if (el.select.disabled && reason) el.select.setAttribute("aria-describedby", "notes");
      else el.select.removeAttribute("aria-describedby");
      el.select.title = el.select.disabled && reason ? `Function view unavailable: ${reason}` : "";
      return notes;
    }

    /** No pass selected: only "Whole file", disabled. */
    function clear() {
      el.select.replaceChildren(option("", "Whole file"));
      el.select.disabled = true;
    }

    function sideOf(key, before, after) {
      if (after.has(key)) return "this pass adds it";
      if (before.has(key)) return "this pass removes it";
      return "neither snapshot has it";
    }

    function historyNote(key) {
      const labels = passes.filter(pass => pass.regions.has(key)).map(pass => pass.label);
      if (!labels.length) return `${key} is not changed by any pass.`;
      const shown = labels.length > 12 ? labels.slice(0, 12).join(", ") + ", \u2026" : labels.join(", ");
      return `${key} is changed by ${labels.length} pass${labels.length === 1 ? "" : "es"} (${shown}), marked \u25cf in the list.`;
    }

    el.select.addEventListener("change", () => app.pickFunction(el.select.value || null));
    return { fill, clear };
  }

  return { create };
})();
