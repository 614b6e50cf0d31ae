"use strict";
/*
 * The viewer's one entry point: IRTraceViewer.start(root, data) reads the data through model.js, owns
 * what the whole page shares (theme, help, keys, links) and, through pipelines.js, the view of the
 * chosen pipeline: `view` builds the modules (pass list, function selector, panes, search) around one
 * `app` object for one pipeline and owns what ties them together: selecting a pass, the compare base,
 * Ignore renumbering, layout and wrapping. A report of two runs shows its aligned rows as its one pipeline,
 * with runs.js's views on it.
 */
const IRTraceViewer = (() => {
  const THEME_KEY = "pypto-ir-trace-theme";
  const LINK_DELAY_MS = 200;
  const WRAP_KEY = "pypto-ir-trace-wrap";
  const LAYOUTS = ["split", "stacked", "unified"];

  /** root: the document (or element) holding the report's markup; data: the inflated JSON. */
  function start(root, data) {
    const read = IRTraceModel.read(data);
    const report = read.runs ? { ...read, pipelines: [read.runs.pipeline] } : read;  // two runs: the rows alone
    const doc = root.ownerDocument || root;
    const win = doc.defaultView;
    const $ = id => root.querySelector("#" + id);
    const el = { help: $("help"), helpKeys: $("help-keys"), helpToggle: $("help-toggle"), theme: $("theme-toggle") };
    const linked = win.location.hash;  // before any view rewrites it
    const pipelines = IRTracePipelines.create(root, report, (index, carried) => view(root, report, index, carried));
    const app = () => pipelines.current();

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
      if (remember) try { win.localStorage.setItem(THEME_KEY, theme); } catch { /* storage may be off for file:// */ }
    }

    function startTheme() {
      let saved = null;
      try { saved = win.localStorage.getItem(THEME_KEY); } catch { /* storage may be off for file:// */ }
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

    // ---- wiring: once for the page; the keys act on the pipeline shown ------------------------------

    startTheme();
    IRTraceKeys.fillHelp(el.helpKeys);
    el.helpToggle.addEventListener("click", () => toggleHelp());
    doc.addEventListener("click", event => {  // the help is a popover: a click elsewhere closes it
      if (!el.help.hidden && !el.help.contains(event.target) && !el.helpToggle.contains(event.target)) toggleHelp(false);
    });
    IRTraceKeys.bind(doc, "page", {
      next: () => app().passList.step(1),
      previous: () => app().passList.step(-1),
      search: () => app().search.focus(),
      nextChange: () => app().panes.stepChange(1),
      previousChange: () => app().panes.stepChange(-1),
      ...Object.fromEntries(IRTraceFollowing.ACTIONS.map(name => [name, () => app().following.actions[name]()])),
      help: () => toggleHelp(),
      closeHelp: () => (el.help.hidden ? false : toggleHelp(false)),
    });
    // The hash the reader went to (event.newURL), not location.hash: a delayed link write may have replaced it.
    win.addEventListener("hashchange", event => pipelines.follow(new URL(event.newURL).hash));
    if (!pipelines.follow(linked)) app().selectFirst();
    if (read.runs) IRTraceRuns.create(root, app(), read.runs, linked);  // inlined into two-run reports only
  }

  /** The view of report.pipelines[index] on fresh markup; `carried`: what the reader chose in the one before. */
  function view(root, report, index, carried) {
    const pipeline = report.pipelines[index];
    const passes = pipeline.passes;
    const doc = root.ownerDocument || root;
    const win = doc.defaultView;
    const $ = id => root.querySelector("#" + id);
    const el = {
      list: $("pass-list"), listEmpty: $("pass-list-empty"),
      changed: $("filter-changed"), noop: $("filter-noop"), filterCount: $("filter-count"),
      title: $("pass-title"), counts: $("pass-counts"), summary: $("summary"), detail: $("pass-detail"),
      renumber: $("ignore-renumbering"), dumpNotes: $("dump-notes"), dumpNotesList: $("dump-notes-list"),
      select: $("function-select"), notes: $("notes"), status: $("status"),
      warnings: $("warnings"), warningsText: $("warnings-text"),
      diff: $("diff"), empty: $("empty-state"),
      split: $("layout-split"), stacked: $("layout-stacked"), unified: $("layout-unified"), wrap: $("wrap-lines"),
      paneBefore: $("pane-before"), paneAfter: $("pane-after"), paneUnified: $("pane-unified"), unifiedFile: $("unified-file"),
      sidebar: root.querySelector(".sidebar"), resizer: $("sidebar-resizer"),
      expand: $("expand-all"), collapse: $("collapse-all"),
      copyBefore: $("copy-before"), copyAfter: $("copy-after"),
      beforeFile: $("before-file"), afterFile: $("after-file"),
      panes: [$("scroll-before"), $("scroll-after"), $("scroll-unified")],
      help: $("help"), helpKeys: $("help-keys"), helpToggle: $("help-toggle"), theme: $("theme-toggle"),
      search: $("search"), searchSummary: $("search-summary"), base: $("compare-base"),
    };
    const state = IRTraceState.create(pipeline.input.label);
    if (report.pipelines.length > 1) state.pipe = pipeline.name;
    const comparisons = new Map();  // "base:pass" -> the pass compared with that base
    const renumbered = new Map();  // pass -> the pass seen with Ignore renumbering

    const app = {
      el, report, pipeline, passes, state, select, pickFunction, announce, followLink, selectFirst,
      /** What the next pipeline's view keeps: layout, search text, Ignore renumbering (kept through a pipeline without it). */
      carry: () => ({
        layout: state.layout, search: el.search.value,
        ignoreRenumbering: pipeline.renumbering ? state.ignoreRenumbering : Boolean(carried && carried.ignoreRenumbering),
      }),
      /** An element with a class and text. */
      make(tag, className, text) {
        const node = doc.createElement(tag);
        if (className) node.className = className;
        if (text !== undefined) node.textContent = text;
        return node;
      },
      /**
       * What the panes show for pass p: the pass itself, or its snapshot against the chosen base. A
       * comparison takes the pass's name, file and warnings, and everything about the diff (sides,
       * counts, pieces, changed) from the compared pair alone: never the pass's own diff.
       */
      shown(p) {
        if (state.base === null && !state.ignoreRenumbering) return passes[p];
        if (state.base === null) return app.ignoring(p);
        const key = `${state.base}:${p}`;
        if (!comparisons.has(key)) {
          const pass = passes[p], diff = pipeline.compare(snapshotText(state.base), pass.after);
          comparisons.set(key, { ...pass, ...diff, changed: diff.before !== diff.after });
        }
        return comparisons.get(key);
      },
      beforeFile: p => (state.base === null ? passes[p].beforeFile || snapshotFile(p) : snapshotFile(state.base)),
      ignoring,  // runs.js puts its own here: a row's diff depends on the view it is seen in
    };
    app.passList = IRTracePassList.create(app);
    app.functions = IRTraceFunctions.create(app);
    app.panes = IRTracePanes.create(app);
    app.search = IRTraceSearch.create(app);
    app.warnings = IRTraceWarnings.create(app);
    app.following = IRTraceFollowing.create(app);
    app.level = IRTraceLevel.create(app);
    app.print = IRTracePrint.create(app);
    app.sidebar = IRTraceSidebar.create(app);

    /** Pass p with its renamed lines as unchanged (Ignore renumbering). */
    function ignoring(p) {
      if (!renumbered.has(p)) renumbered.set(p, IRTraceRenumber.ignoring(passes[p]));
      return renumbered.get(p);
    }

    const snapshotFile = s => (s === 0 ? pipeline.input.file : passes[s - 1].file);
    const snapshotText = s => (s === 0 ? pipeline.input.text : passes[s - 1].after);
    // The address bar follows once the reader pauses: history.replaceState is a synchronous call to the
    // browser process (10-30 ms on a busy machine) and Chromium throttles pages that call it too often.
    let linkTimer = 0;
    function writeLink() {
      win.clearTimeout(linkTimer);
      linkTimer = win.setTimeout(() => {
        if (el.diff.isConnected) IRTraceState.write(state, passes);  // a pipeline no longer shown keeps quiet
      }, LINK_DELAY_MS);
    }

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
      el.title.title = pass.detail ? `${pass.file}\n${pass.detail}` : pass.file;
      el.detail.textContent = el.detail.title = pass.detail;  // the title shows a long one whole
      el.beforeFile.textContent = el.beforeFile.title = app.beforeFile(p);  // the title shows a truncated name whole
      el.afterFile.textContent = el.afterFile.title = pass.file;
      el.unifiedFile.textContent = el.unifiedFile.title = `${app.beforeFile(p)} \u2192 ${pass.file}`;
      app.warnings.show(pass);
      fillFunctions(p, picked);
      app.panes.show(true);
      app.passList.revealSelected();  // last, once the DOM is all written: its layout read lays out the new rows too
      writeLink();
    }

    function showEmpty(message) {
      app.panes.clear();
      el.title.textContent = passes.length ? "No pass selected" : "No passes";
      el.counts.textContent = el.detail.textContent = "";
      app.functions.clear();
      app.warnings.clear();
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
      else if (!pass.changed) notes.unshift(["info", pass.beforeFile  // an MLIR op's own text, not the dump before
        ? `No-op: this pass printed exactly the text it is diffed against (${pass.beforeFile}).`
        : "No-op: this pass printed exactly the text of its predecessor."]);
      else if (!pass.ins && !pass.del && pass.renamedCount) notes.unshift(["info", "Only value names changed in this pass (Ignore renumbering is on)."]);
      else if (!pass.ins && !pass.del) notes.unshift(["info", "Only the line endings changed in this pass."]);
      if (pass.failed) notes.unshift(["warn", IRTracePipelines.failedNote(pass)]);
      if (state.base !== null && pipeline.renumbering) notes.push(["info", IRTracePipelines.RENUMBER_COMPARE]);
      el.notes.replaceChildren(...notes.map(([kind, text]) => app.make("p", "note " + kind, text)));
      showCounts(pass);
    }

    /** Beside the heading: the counts of the diff the panes show (the picked function's, else the whole file's). */
    function showCounts(pass) {
      const pieces = (pass.pieces || []).filter(piece => state.key === null || piece.key === state.key);
      const sum = field => pieces.reduce((total, piece) => total + (piece[field] || 0), 0);
      const renamed = sum("renamed") ? `, ${sum("renamed")} renamed` : "";  // Ignore renumbering is on
      const since = state.base !== null ? ` since ${snapshotFile(state.base)}` : "";
      el.counts.textContent = state.base === null && !pass.changed ? "no-op" : `+${sum("ins")} \u2212${sum("del")}${renamed}${since}`;
      el.counts.title = state.key === null ? "Lines inserted and deleted in the whole file" : `Lines inserted and deleted in ${state.key}`;
    }

    function pickFunction(key) {
      state.wantedKey = key;
      app.passList.markHistory(key);
      fillFunctions(state.selected, true);
      app.panes.show(true);
      writeLink();
    }

    // ---- comparing with any snapshot ------------------------------------------------------------

    function fillBaseSelect() {
      const option = (value, label) => { const node = app.make("option", "", label); node.value = value; return node; };
      const input = `${pipeline.input.label} ${pipeline.input.file.replace(/^00_|\.py$/g, "")}`;
      // two runs whose inputs differ open on a row labelled like the input: the input itself, listed once
      el.base.replaceChildren(option("", "its previous snapshot"), option("0", input),
        ...passes.flatMap((pass, k) => (pass.label === pipeline.input.label ? []
          : [option(String(k + 1), `${pass.label} ${pass.name}`)])));
      el.base.disabled = passes.length === 0;
      el.base.addEventListener("change", () => {
        state.base = el.base.value === "" ? null : Number(el.base.value);
        IRTracePipelines.renumberAvailable(app);
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
        for (const name of LAYOUTS) {
          el.diff.classList.toggle(name, layout === name);
          el[name === "split" ? "split" : name].setAttribute("aria-pressed", String(layout === name));
        }
        el.paneBefore.hidden = el.paneAfter.hidden = layout === "unified";
        el.paneUnified.hidden = layout !== "unified";
      });
      writeLink();
    }

    /** Long lines wrap inside the panes (no horizontal scrolling); the choice is kept in the page and the link. */
    function setWrap(on, remember) {
      el.wrap.checked = on;
      app.panes.relayout(() => {
        state.wrap = on;
        el.diff.classList.toggle("wrap", on);
      });
      if (remember) try { win.localStorage.setItem(WRAP_KEY, on ? "on" : "off"); } catch { /* storage may be off for file:// */ }
      writeLink();
    }

    function savedWrap() {
      try { return win.localStorage.getItem(WRAP_KEY) === "on"; } catch { return false; }
    }

    /** Apply a link's fragment; false when it names no pass of this pipeline. */
    function followLink(hash) {
      const link = IRTraceState.parse(hash, passes, pipeline.input.label);
      if (link.pass < 0) return false;
      if (link.layout) setLayout(link.layout);
      if (link.wrap !== null && link.wrap !== state.wrap) setWrap(link.wrap, false);
      state.wantedKey = link.fn;
      state.base = link.base;
      el.base.value = state.base === null ? "" : String(state.base);
      IRTracePipelines.renumberAvailable(app);
      app.passList.markHistory(state.wantedKey);
      if (!app.passList.isVisible(link.pass)) app.passList.showAll();
      select(link.pass, true);
      return true;
    }

    let announceTimer = 0;
    function announce(text) {
      el.status.textContent = text;
      clearTimeout(announceTimer);
      announceTimer = setTimeout(() => { el.status.textContent = ""; }, 10000);  // long enough to read a sentence
    }

    /** The first pass that changed the IR (else the first pass). */
    function selectFirst() {
      const firstChanged = passes.findIndex(pass => pass.changed);
      select(passes.length ? Math.max(firstChanged, 0) : -1);
    }

    function setIgnoreRenumbering(on) {
      state.ignoreRenumbering = on;
      el.renumber.checked = on;
      app.passList.showCounts(p => (on ? app.ignoring(p) : passes[p]));
      if (state.selected >= 0) select(state.selected, true);
    }

    // ---- wiring ---------------------------------------------------------------------------------

    app.passList.build();
    IRTracePipelines.decorate(app);
    fillBaseSelect();
    el.split.addEventListener("click", () => setLayout("split"));
    el.stacked.addEventListener("click", () => setLayout("stacked"));
    el.unified.addEventListener("click", () => setLayout("unified"));
    el.wrap.addEventListener("change", () => setWrap(el.wrap.checked, true));
    if (savedWrap()) setWrap(true, false);
    IRTraceKeys.bind(el.search, "search", {
      nextCountChange: () => app.search.jumpToChange(1),
      previousCountChange: () => app.search.jumpToChange(-1),
      clearSearch: () => app.search.clear(),
    });
    el.renumber.addEventListener("change", () => setIgnoreRenumbering(el.renumber.checked));
    if (carried) {
      if (carried.layout !== state.layout) setLayout(carried.layout);
      if (pipeline.renumbering && carried.ignoreRenumbering) setIgnoreRenumbering(true);
      el.search.value = carried.search;
      if (carried.search) app.search.run();
    }
    return app;
  }

  return { start };
})();
