"use strict";
/*
 * Where a line came from, on the page: the "Line history" panel (a line number pressed, or b on the current
 * line) listing the forms the line had, newest first, each opening the pass that made it with that line picked;
 * and the Blame gutter (the "Blame" checkbox, kept in links as blame=1 and into the next pipeline chosen):
 * every line labelled with the pass that last changed it, coloured by pass. Both read IRTraceBlame over the
 * diffs the panes show (Ignore renumbering included). A report of two runs shows rows of aligned passes, not
 * one run's passes: there the panel says so and the gutter is off. A panel (panels.js), registered at the end
 * of this file; its markup is #line-history and #blame-gutter, its style viewer.css' history panel's.
 */
const IRTraceBlamePanel = (() => {
  const R = IRTraceRows;
  const GOLDEN_ANGLE = 137.508;  // consecutive passes get hues far apart

  // eslint-disable-next-line max-lines-per-function -- a module's closure: the panel's short functions share the engine of the diffs shown and the line shown
  function create(app, toggle) {
    const { el, state, report, pipeline, passes, make } = app;
    const panel = el.root.querySelector("#line-history");
    const applies = !report.runs;
    const paint = IRTracePaint.create(report, make, { marks: () => null }, () => {}, () => false);
    const engines = new WeakMap();  // the view's source -> [engine as shown, engine with renamed lines as equal]

    /** The history engine of the diffs the panes show (the view's, with Ignore renumbering if on). */
    function engine() {
      const source = app.source();
      if (!engines.has(source)) engines.set(source, []);
      const pair = engines.get(source), at = state.ignoreRenumbering ? 1 : 0;
      if (!pair[at]) {
        pair[at] = IRTraceBlame.create({ passes, diffOf: app.counted, ids: pipeline.ids, lines: report.lines, inputText: pipeline.input.text });
      }
      return pair[at];
    }

    /** The pass whose after snapshot a side of the pass shown is (-1: the input; null: no pass printed it). */
    function snapshotPass(side) {
      const p = state.selected;
      if (side === 1) return p;
      return state.base !== null ? state.base - 1 : engine().previousOf(p);
    }

    const passName = p => (p < 0 ? `${pipeline.input.label} ${pipeline.input.name}` : `${passes[p].label} ${passes[p].name}`);

    /** The gutter's label of a line of the pass shown: {text, title, hue}, or null when the gutter is off. */
    function lineOrigin(side, line) {
      if (!state.panels.blame || state.selected < 0) return null;
      const at = snapshotPass(side);
      const p = at === null ? null : engine().origin(at, line);
      if (p === null) return { text: "?", title: "Not followed: this snapshot is no pass's output", hue: null };
      const title = p < 0 ? `Unchanged since ${pipeline.input.file}` : `Last changed by ${passName(p)}`;
      return { text: p < 0 ? pipeline.input.label : passes[p].label, title, hue: p < 0 ? null : Math.round((p * GOLDEN_ANGLE) % 360) };
    }

    function setBlame(on) {
      state.panels.blame = on && applies;
      toggle.checked = state.panels.blame;
      app.allPanes().forEach(panes => panes.relayout({ blame: state.panels.blame }));
      app.writeLink();
    }

    // ---- the panel -------------------------------------------------------------------------------------

    /** The history of a line of the pass shown (side 0 Before, 1 After), in the panel; the line picked. */
    function show(side, line) {
      if (state.selected < 0) return;
      panel.hidden = false;
      if (!applies) {
        panel.replaceChildren(header("Line history"), make("p", "history-note",
          "Line history follows the passes of one run; this report's rows pair the passes of two runs. " +
          "Render either run alone (without --baseline) to follow its lines."));
        return;
      }
      app.panes.pick(side, line);
      const at = snapshotPass(side);
      const where = `Line ${line + 1} of ${side === 1 ? passes[state.selected].file : app.beforeFile(state.selected)}`;
      if (at === null) {
        panel.replaceChildren(header(where), make("p", "history-note",
          `${app.beforeFile(state.selected)} is no pass's output (the reader made it), so its lines are not followed.`));
        return;
      }
      const steps = engine().chain(at, line);
      const list = make("ol", "history-steps");
      list.append(...steps.map((step, i) => stepItem(step, i)));
      panel.replaceChildren(header(where), make("p", "history-summary", summary(steps)), list, namesOf(steps[0].id));
    }

    /** The names the line holds, each a button that follows it (namepanel.js): the keyboard's way to a name. */
    function namesOf(id) {
      const box = make("div", "history-names");
      const names = app.panels.get("names");
      const found = [...names.namesOf(id).keys()];
      if (!found.length) return box;
      box.append(make("span", "history-how", "Follow a name of this line:"));
      for (const name of found) {
        const button = make("button", "", name);
        button.type = "button";
        button.setAttribute("aria-label", `Follow ${name}`);
        button.addEventListener("click", () => names.follow(name));
        box.append(button);
      }
      return box;
    }

    function header(title) {
      const top = make("div", "history-head");
      const close = make("button", "history-close", "\u00d7");
      close.type = "button";
      close.setAttribute("aria-label", `Close ${panel.getAttribute("aria-label")}`);
      close.addEventListener("click", hide);
      top.append(make("h3", "", title), close);
      return top;
    }

    function hide() {
      panel.hidden = true;
    }

    /** The chain in one sentence: "this exact text since 35 X; changed 2 times before; inserted by 11 Y". */
    function summary(steps) {
      const first = steps[0], last = steps[steps.length - 1];
      if (first.how === "input") return `In the ${pipeline.input.name} unchanged (${pipeline.input.file}).`;
      if (steps.length === 1 && first.how === "inserted") return `Inserted by ${passName(first.pass)} and unchanged since.`;
      const parts = [`This exact text since ${passName(first.pass)}`];
      if (steps.length > 2) parts.push(`changed by ${steps.length - 2} more pass${steps.length === 3 ? "" : "es"} before`);
      if (steps.length > 1 || last.how !== "changed") parts.push(ending(last));
      return parts.join("; ") + ".";
    }

    function ending(step) {
      if (step.how === "inserted") return `inserted by ${passName(step.pass)}`;
      if (step.how === "input") return `from the ${pipeline.input.name} (${pipeline.input.file})`;
      return `followed back to ${passName(step.pass)}'s before snapshot, which no pass printed`;
    }

    const VERBS = { changed: "changed it to", inserted: "inserted it as", input: "had it as", unfollowed: "was diffed against a snapshot no pass printed, holding" };

    /**
     * One form of the line: the pass that made it (a button opening it there), how, and its text with the words
     * that pass inserted marked; what it removed from the earlier form below it.
     */
    function stepItem(step, i) {
      const item = make("li", "history-step");
      const name = passName(step.how === "input" ? -1 : step.pass);
      const open = make("button", "history-pass", name);
      open.type = "button";
      open.setAttribute("aria-label", `Open ${name} at line ${step.line + 1}`);
      open.addEventListener("click", () => openStep(step));
      const renamed = step.renamed.length ? `; renumbered since by ${step.renamed.map(passName).join(", ")}, ignored` : "";
      if (i > 0) item.append("Before that, ");
      item.append(open, make("span", "history-how", ` ${VERBS[step.how]} (line ${step.line + 1}${renamed}):`));
      const code = make("div", "history-code");
      const changes = step.from !== null ? R.wordDiff(report.lines[step.from], report.lines[step.id]) : null;
      paint.line(code, step.id, changes ? changes.after : [], "ins");
      item.append(code);
      if (changes && changes.before.length) item.append(removed(report.lines[step.from], changes.before));
      return item;
    }

    /** What a change removed from the earlier form: its deleted words, in order. */
    function removed(text, ranges) {
      const line = make("div", "history-removed");
      line.append(make("span", "history-how", "removed: "));
      ranges.forEach(([start, end], k) => {
        if (k) line.append(" \u2026 ");
        line.append(make("del", "word-del", text.slice(start, end)));
      });
      return line;
    }

    /** The pass of a step, its line on screen and picked (Compare with off; the whole file when the function lacks it). */
    function openStep({ open }) {
      app.open(open.pass);
      if (!app.panes.pick(open.side, open.line) && state.key !== null) {
        app.pickFunction(null);
        app.panes.pick(open.side, open.line);
      }
    }

    /** b: the history of the current line (the one picked, else the current change's first, else the first on screen). */
    function showCurrent() {
      const line = app.panes.currentLine();
      if (!line) { app.announce("No line to follow: no pass is shown"); return; }
      show(line.side, line.line);
    }

    // the viewer's panes, and a view's own (the baseline's in Pass effect: there the panel says it does not apply)
    for (const panes of [el.diff, el.root.querySelector("#runs-baseline")].filter(Boolean)) {
      panes.addEventListener("click", event => {
        const button = event.target.closest(".ln[role=button]");
        const at = button && (applies ? el.diff.contains(button) : true) ? IRTracePaneRows.lineOf(button) : null;
        if (at) show(at.side, at.line);
      });
    }
    toggle.disabled = !applies;
    if (!applies) toggle.parentElement.title = "Blame follows the passes of one run: not in a report of two runs";
    toggle.addEventListener("change", () => setBlame(toggle.checked));

    return {
      gutter: lineOrigin, showCurrent,
      follow: on => { if (on !== state.panels.blame) setBlame(on); },
    };
  }

  IRTracePanels.register({
    name: "history", button: "blame-gutter", link: "blame", carries: true, create,
    keys: [{ keys: { b: "showCurrent" }, help: "History of the current line: the passes that made it (or press a line number)" }],
  });

  return { create };
})();
