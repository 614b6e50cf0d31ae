"use strict";
/*
 * The Function selector: the regions of both sides of a pass, which of them it changes, the notes
 * that explain what is shown, and the function's history (the passes that change it). A region the pass
 * paired by content (a rename, or the part of a split most like the function) is one entry named
 * "old → new"; the picked function is followed across such pairs (following.js). The functions the pass lacks
 * follow, and a picked one it lacks is said so (functionfinder.js).
 */
const IRTraceFunctions = (() => {
  // eslint-disable-next-line max-lines-per-function -- a module's closure: the selector's few functions share it and the state; fill, the longest, is the notes it returns
  function create(app) {
    const { el, pipeline, passes, state } = app;

    function option(value, label) {
      const node = app.make("option");
      node.value = value;
      node.textContent = label;
      if (value && shown(value) !== value) node.title = value;  // the symbol itself, behind its demangled name
      return node;
    }

    /** What a function is called in the selector: its demangled name where the model gives one, else its key. */
    const shown = key => (pipeline.labels && pipeline.labels.get(key)) || key;
    const finder = IRTraceFunctionFinder.create(app, shown);  // what the pass lacks, and typeahead

    /**
     * Options [value, label, class], then `elsewhere` (the same) in a group of their own: the elements already there
     * are kept when the values are the same (stepping passes).
     */
    function setOptions(options, elsewhere) {
      const nodes = el.select.options, all = options.concat(elsewhere);
      const made = ([value, label, className]) => {
        const node = option(value, label);
        node.className = className;
        return node;
      };
      if (nodes.length !== all.length || all.some(([value], i) => nodes[i].value !== value)) {
        const group = app.make("optgroup");
        group.label = "Not in this pass";
        group.append(...elsewhere.map(made));
        el.select.replaceChildren(...options.map(made), ...(elsewhere.length ? [group] : []));
        return;
      }
      all.forEach(([, label, className], i) => {
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

    /** Regions of both sides: after-file order, then those only before (removed). A content pair is one choice
     * keyed by its after region (`was`: its before region's key); a namesake whose before region went to a
     * content pair is added. */
    function regionChoices(pass) {
      const before = pipeline.texts[pass.before].byKey, after = pipeline.texts[pass.after].byKey;
      const paired = IRTraceFollowing.pairsOf(pass), was = new Map([...paired].map(([old, key]) => [key, old]));
      const choices = [];
      for (const [key, region] of after) {
        const side = was.has(key) ? "paired" : before.has(key) && !paired.has(key) ? "both" : "added";
        choices.push({ key, region, side, was: was.get(key) || null });
      }
      for (const [key, region] of before) if (!after.has(key) && !paired.has(key)) choices.push({ key, region, side: "removed" });
      return { choices, before, after, was };
    }

    /**
     * Fill the selector for pass p and set state.key; returns the notes [kind, text] about the function.
     */
    function fill(p) {
      const pass = app.shown(p);
      const notes = [];
      const reason = untrustedReason(p);
      const { choices, before, after, was } = regionChoices(pass);
      const counts = pass.byRegion;
      const options = [["", "Whole file", ""]];
      for (const choice of choices) {
        const { key, side } = choice;
        // What the pass did to it comes first: a long name cut by the closed selector keeps its counts.
        const changed = counts.get(key);
        const parts = [];  // what the pass did first, the name last: a long name never hides the counts
        if (changed) parts.push("\u25cf");
        if (side === "added" || side === "removed") parts.push(`(${side})`);
        else if (changed) parts.push(`(+${changed.inserted} \u2212${changed.deleted})`);
        if (choice.region.error || (before.get(choice.was || key) || {}).error) parts.push("\u26a0");
        options.push([key, parts.concat(choice.was ? pairName(choice.was, key) : shown(key)).join(" "), changed ? "changed" : ""]);
      }
      const here = new Set([...before.keys(), ...after.keys()]);
      setOptions(options, IRTraceFunctionFinder.everywhere(pipeline).filter(key => !here.has(key)).map(key => [key, `${shown(key)} ${finder.span(key)}`, "elsewhere"]));
      state.key = null;
      let absent = null;  // the picked function, on neither side of this pass
      if (reason) {
        el.select.disabled = true;
        notes.push(["warn", `Function view unavailable for this pass: a snapshot could not be parsed safely (${reason}). Showing the whole-file diff.`]);
      } else {
        el.select.disabled = choices.length === 0;
        const wanted = IRTraceFollowing.follow(app, p);  // its name in this pass (a rename carries it on)
        if (wanted !== null) {
          const pair = was.get(wanted) || null;
          if (pair !== null) notes.push(["info", `Paired by content: ${wanted} is the function most like ${pair} before this pass (a rename, or the largest part of a split), diffed line by line.`]);
          // The pass that adds or removes it is part of its history: show that one side, all inserted or deleted.
          else if (before.has(wanted) !== after.has(wanted)) notes.push(["info", `${sideOf(wanted, before, after)}: all its lines are ${after.has(wanted) ? "inserted" : "deleted"}.`]);
          if (before.has(wanted) || after.has(wanted)) state.key = wanted;
          else absent = wanted;
        }
        const shown = state.key !== null ? (after.get(state.key) || before.get(state.key)) : null;
        const broken = shown && (shown.error || (before.get(was.get(state.key) || state.key) || {}).error);
        if (broken) notes.push(["warn", `${state.key} was parsed with errors (${broken}); it is still diffed line by line.`]);
        else if (shown && pass.changed && !counts.has(state.key)) notes.push(["info", app.source().says.unchanged(state.key)]);
        if (wanted !== null) notes.push(["info", historyNote(wanted)]);
      }
      finder.elsewhere(absent, p);  // says so, and offers the nearest pass that has it
      el.select.value = state.key !== null ? state.key : absent !== null ? absent : "";
      // The reason the selector is disabled is read out with it, not only shown beside it.
      if (el.select.disabled && reason) el.select.setAttribute("aria-describedby", "notes");
      else el.select.removeAttribute("aria-describedby");
      // A pair's label ("P.old → new") is long: the closed selector may cut it, its tooltip shows it whole.
      const picked = el.select.selectedIndex > 0 && was.has(state.key) ? el.select.options[el.select.selectedIndex].textContent : "";
      el.select.title = el.select.disabled && reason ? `Function view unavailable: ${reason}` : picked;
      return notes;
    }

    /** No pass selected: only "Whole file", disabled. */
    function clear() {
      el.select.replaceChildren(option("", "Whole file"));
      el.select.disabled = true;
      finder.elsewhere(null, -1);
    }

    /** "P.old → new": the after key without the qualifier both share, so the closed selector shows more of it. */
    function pairName(was, key) {
      const dot = was.lastIndexOf(".") + 1;
      return `${was} \u2192 ${dot && key.startsWith(was.slice(0, dot)) ? key.slice(dot) : key}`;
    }

    const sideOf = (key, before, after) => `This pass ${after.has(key) ? "adds" : "removes"} ${key}`;

    function historyNote(key) {
      const named = IRTraceFollowing.names(app);
      const labels = passes.filter((pass, p) => IRTraceFollowing.changes(app, named, p)).map(pass => pass.label);
      const others = [...new Set(named)].filter(name => name !== key);  // its names in other passes
      const also = others.length ? ` (elsewhere named ${others.slice(0, 3).join(", ")}${others.length > 3 ? ", \u2026" : ""})` : "";
      const listed = labels.length > 12 ? labels.slice(0, 12).join(", ") + ", \u2026" : labels.join(", ");
      return app.source().says.history(key + also, labels.length, listed);  // in the view's words: what it counts
    }

    el.select.addEventListener("change", () => app.pickFunction(el.select.value || null));
    return { fill, clear };
  }

  return { create };
})();
