"use strict";
/*
 * The viewer's one entry point: IRTraceViewer.start(root, data) reads the data through model.js,
 * builds the modules (pass list, function selector, panes, search, keys) around one `app` object and
 * owns what ties them together: selecting a pass, the compare base, layout, theme and help.
 */
const IRTraceViewer = (() => {
  const THEME_KEY = "pypto-ir-trace-theme";

  /** root: the document (or element) holding the report's markup; data: the inflated JSON. */
  function start(root, data) {
    const report = IRTraceModel.read(data);
    const pipeline = report.pipelines[0];
    const passes = pipeline.passes;
    const doc = root.ownerDocument || root;
    const win = doc.defaultView;
    const $ = id => root.querySelector("#" + id);
    const el = {
      list: $("pass-list"), listEmpty: $("pass-list-empty"),
      changed: $("filter-changed"), noop: $("filter-noop"), filterCount: $("filter-count"),
      title: $("pass-title"), counts: $("pass-counts"), summary: $("summary"),
      select: $("function-select"), notes: $("notes"), status: $("status"),
      warnings: $("warnings"), warningsText: $("warnings-text"),
      diff: $("diff"), empty: $("empty-state"),
      split: $("layout-split"), stacked: $("layout-stacked"),
      expand: $("expand-all"), collapse: $("collapse-all"),
      copyBefore: $("copy-before"), copyAfter: $("copy-after"),
      beforeFile: $("before-file"), afterFile: $("after-file"),
      panes: [$("scroll-before"), $("scroll-after")],
      help: $("help"), helpKeys: $("help-keys"), helpToggle: $("help-toggle"), theme: $("theme-toggle"),
      search: $("search"), searchSummary: $("search-summary"), base: $("compare-base"),
      sidebar: root.querySelector(".sidebar"), resizer: $("sidebar-resizer"),
    };
    const state = IRTraceState.create();
    const comparisons = new Map();  // "base:pass" -> the pass compared with that base

    const app = {
      el, report, pipeline, passes, state, select, pickFunction, announce,
      /** An element with a class and text. */
      make(tag, className, text) {
        const node = doc.createElement(tag);
        if (className) node.className = className;
        if (text !== undefined) node.textContent = text;
        return node;
      },
      /** What the panes show for pass p: the pass itself, or its snapshot against the chosen base. */
      shown(p) {
        if (state.base === null) return passes[p];
        const key = `${state.base}:${p}`;
        if (!comparisons.has(key)) {
          comparisons.set(key, Object.assign({}, passes[p], pipeline.compare(snapshotText(state.base), passes[p].after)));
        }
        return comparisons.get(key);
      },
      beforeFile: p => snapshotFile(state.base === null ? p : state.base),
    };
    app.passList = IRTracePassList.create(app);
    app.functions = IRTraceFunctions.create(app);
    app.panes = IRTracePanes.create(app);
    app.search = IRTraceSearch.create(app);
    app.following = IRTraceFollowing.create(app);
    app.level = IRTraceLevel.create(app);
    app.print = IRTracePrint.create(app);
    app.sidebar = IRTraceSidebar.create(app);

    const snapshotFile = s => (s === 0 ? pipeline.input.file : passes[s - 1].file);
    const snapshotText = s => (s === 0 ? pipeline.input.text : passes[s - 1].after);
    const writeLink = () => IRTraceState.write(state, passes);

    // ---- selecting a pass ---------------------------------------------------------------------

    /** `picked`: the function in state.wantedKey was asked for on this very pass (a pick, a link). */
    function select(p, picked = false) {
      state.selected = p;
      if (p >= 0) state.anchor = p;
      app.passList.markSelected(p);
      if (p < 0) return showEmpty(passes.length
        ? "No pass matches the filters. Turn on \u201cChanged\u201d or \u201cNo-op\u201d to see passes."
        : `The dump holds only ${pipeline.input.file}: no pass snapshot follows it.`);
      el.empty.hidden = true;
      el.diff.hidden = false;
      const pass = app.shown(p);
      el.title.textContent = `${pass.label} ${pass.name}`;
      el.title.title = pass.file;
      el.counts.textContent = state.base !== null ? `+${pass.ins} \u2212${pass.del} since ${snapshotFile(state.base)}`
        : pass.changed ? `+${pass.ins} \u2212${pass.del}` : "no-op";
      el.beforeFile.textContent = el.beforeFile.title = app.beforeFile(p);  // the title shows a truncated name whole
      el.afterFile.textContent = el.afterFile.title = pass.file;
      showWarnings(pass);
      fillFunctions(p, picked);
      app.panes.show(true);
      writeLink();
    }

    function showEmpty(message) {
      app.panes.clear();
      el.title.textContent = passes.length ? "No pass selected" : "No passes";
      el.counts.textContent = "";
      app.functions.clear();
      el.warnings.hidden = true;
      el.diff.hidden = true;
      el.notes.replaceChildren();
      el.empty.hidden = false;
      el.empty.textContent = message;
    }

    /** The function selector for pass p, and the notes on what the panes show. */
    function fillFunctions(p, picked = false) {
      const notes = app.functions.fill(p, picked).concat(app.level.notes(p));
      const pass = app.shown(p);
      if (state.base !== null) notes.unshift(["info", compareNote(p)]);
      else if (!passes.some(x => x.changed)) notes.unshift(["info", "The pipeline changed nothing: every pass printed the text of its predecessor."]);
      else if (!pass.changed) notes.unshift(["info", "No-op: this pass printed exactly the text of its predecessor."]);
      else if (!pass.ins && !pass.del) notes.unshift(["info", "Only the line endings changed in this pass."]);
      el.notes.replaceChildren(...notes.map(([kind, text]) => app.make("p", "note " + kind, text)));
    }

    function pickFunction(key) {
      state.wantedKey = key;
      app.passList.markHistory(key);
      fillFunctions(state.selected, true);
      app.panes.show(true);
      writeLink();
    }

    /** The pass's .log text; a warning that names a line of the snapshot is a button that shows it. */
    function showWarnings(pass) {
      el.warnings.hidden = !pass.warnings;
      const target = new Map(pass.anchors.map(anchor => [anchor.log, anchor.line]));
      const lines = pass.warnings.split("\n");
      el.warningsText.replaceChildren(...lines.map((text, index) => {
        const ending = index < lines.length - 1 ? "\n" : "";
        if (!target.has(index)) return doc.createTextNode(text + ending);
        const button = app.make("button", "warning-line", text);
        button.type = "button";
        button.title = `Show line ${target.get(index) + 1} of ${pass.file}`;
        button.addEventListener("click", () => showAfterLine(target.get(index)));
        const row = app.make("span");
        row.append(button, ending);
        return row;
      }));
    }

    /** Show an after line: in the current view if it has it, else in the whole file. */
    function showAfterLine(line) {
      if (app.panes.rowOfAfterLine(line) < 0 && state.key !== null) {
        state.wantedKey = null;
        app.passList.markHistory(null);
        fillFunctions(state.selected);
        app.panes.show(true);
        writeLink();
      }
      app.panes.reveal(app.panes.rowOfAfterLine(line));
    }

    // ---- comparing with any snapshot ------------------------------------------------------------

    function fillBaseSelect() {
      const option = (value, label) => { const node = app.make("option", "", label); node.value = value; return node; };
      const input = `${IRTraceState.snapshotLabel(passes, 0)} ${pipeline.input.file.replace(/^00_|\.py$/g, "")}`;
      el.base.replaceChildren(option("", "its previous snapshot"), option("0", input),
        ...passes.map((pass, k) => option(String(k + 1), `${pass.label} ${pass.name}`)));
      el.base.disabled = passes.length === 0;
      el.base.addEventListener("change", () => {
        state.base = el.base.value === "" ? null : Number(el.base.value);
        if (state.selected >= 0) select(state.selected, true);
      });
    }

    function compareNote(p) {
      const from = snapshotFile(state.base), to = passes[p].file;
      if (state.base === p + 1) return `Comparing ${to} with itself: pick another snapshot in \u201cCompare with\u201d.`;
      if (state.base > p + 1) return `Comparing ${from} with the earlier ${to}: the diff runs backwards.`;
      const span = state.base === p ? `pass ${passes[p].label} alone` : `passes ${passes[state.base].label}\u2013${passes[p].label}`;
      return `Comparing ${from} with ${to}: the changes of ${span}.`;
    }

    // ---- layout, links, status ------------------------------------------------------------------

    function setLayout(layout) {
      app.panes.relayout(() => {
        state.layout = layout;
        el.diff.classList.toggle("split", layout === "split");
        el.diff.classList.toggle("stacked", layout === "stacked");
        el.split.setAttribute("aria-pressed", String(layout === "split"));
        el.stacked.setAttribute("aria-pressed", String(layout === "stacked"));
      });
      writeLink();
    }

    /** Apply a link's fragment; false when it names no pass of this report. */
    function followLink() {
      const link = IRTraceState.parse(win.location.hash, passes);
      if (link.pass < 0) return false;
      if (link.layout) setLayout(link.layout);
      state.wantedKey = link.fn;
      state.base = link.base;
      el.base.value = state.base === null ? "" : String(state.base);
      app.passList.markHistory(state.wantedKey);
      if (!app.passList.isVisible(link.pass)) app.passList.showAll();
      select(link.pass, true);
      return true;
    }

    // Long enough to read a sentence; the next message replaces it at once.
    let announceTimer = 0;
    function announce(text) {
      el.status.textContent = text;
      clearTimeout(announceTimer);
      announceTimer = setTimeout(() => { el.status.textContent = ""; }, 10000);
    }

    // ---- help and theme -------------------------------------------------------------------------

    function toggleHelp(show) {
      const open = show === undefined ? el.help.hidden : show;
      el.help.hidden = !open;
      el.helpToggle.setAttribute("aria-expanded", String(open));
    }

    const systemDark = () => Boolean(win.matchMedia && win.matchMedia("(prefers-color-scheme: dark)").matches);
    const currentTheme = () => doc.documentElement.dataset.theme || (systemDark() ? "dark" : "light");
    function setTheme(theme, remember) {
      doc.documentElement.dataset.theme = theme;
      el.theme.setAttribute("aria-pressed", String(theme === "dark"));
      if (remember) try { win.localStorage.setItem(THEME_KEY, theme); } catch (err) { /* storage may be off for file:// */ }
    }

    function startTheme() {
      let saved = null;
      try { saved = win.localStorage.getItem(THEME_KEY); } catch (err) { saved = null; }
      if (saved === "light" || saved === "dark") setTheme(saved, false);
      else el.theme.setAttribute("aria-pressed", String(currentTheme() === "dark"));
      // Without an explicit choice the page follows the system live; keep the toggle's state true to it.
      if (win.matchMedia) {
        win.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
          el.theme.setAttribute("aria-pressed", String(currentTheme() === "dark"));
        });
      }
      el.theme.addEventListener("click", () => setTheme(currentTheme() === "dark" ? "light" : "dark", true));
    }

    // ---- wiring ---------------------------------------------------------------------------------

    startTheme();
    app.passList.build();
    fillBaseSelect();
    el.split.addEventListener("click", () => setLayout("split"));
    el.stacked.addEventListener("click", () => setLayout("stacked"));
    IRTraceKeys.fillHelp(el.helpKeys);
    el.helpToggle.addEventListener("click", () => toggleHelp());
    doc.addEventListener("click", event => {  // the help is a popover: a click elsewhere closes it
      if (!el.help.hidden && !el.help.contains(event.target) && !el.helpToggle.contains(event.target)) toggleHelp(false);
    });
    IRTraceKeys.bind(doc, "page", {
      next: () => app.passList.step(1),
      previous: () => app.passList.step(-1),
      search: () => app.search.focus(),
      help: () => toggleHelp(),
      closeHelp: () => (el.help.hidden ? false : toggleHelp(false)),
      ...app.following.actions,
    });
    IRTraceKeys.bind(el.search, "search", {
      nextCountChange: () => app.search.jumpToChange(1),
      previousCountChange: () => app.search.jumpToChange(-1),
      clearSearch: () => app.search.clear(),
    });
    win.addEventListener("hashchange", followLink);
    if (!followLink()) {
      const firstChanged = passes.findIndex(pass => pass.changed);
      select(passes.length ? Math.max(firstChanged, 0) : -1);
    }
    return app;
  }

  return { start };
})();
