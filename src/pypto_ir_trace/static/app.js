"use strict";
/*
 * The viewer of one pipeline (pipelines.js builds one each time a pipeline is shown, on fresh markup): the
 * `app` object every module is created with, the modules around it, and what ties them together: selecting
 * a pass, the view shown (views.js: what each pass shows, asked of the view's source), the panels beside it
 * (panels.js: the map, the line history, following a name), the compare base, Ignore renumbering, layout,
 * wrapping and eliding, links.
 */
const IRTraceApp = (() => {
  const LINK_DELAY_MS = 200;
  const WRAP_KEY = "pypto-ir-trace-wrap", ELIDE_KEY = "pypto-ir-trace-elide";
  const LAYOUTS = ["split", "stacked", "unified"];

  /**
   * The viewer of report.pipelines[index] in `root`; `carried`: what the reader chose in the one before (its
   * `report`: the report seen through the filters, filters.js); rebuild(extra): this pipeline's viewer anew.
   */
  function create(root, unfiltered, index, carried, rebuild) {
    const report = carried && carried.report ? carried.report : unfiltered;
    const pipeline = report.pipelines[index];
    const doc = root.ownerDocument || root;
    const state = IRTraceState.create(pipeline.input.label);
    if (report.pipelines.length > 1) state.pipe = pipeline.name;
    const app = { el: elements(root), report, pipeline, passes: pipeline.passes, state, make: maker(doc), index, rebuild };
    Object.assign(app, showing(app), selecting(app), switching(app), arranging(app));
    app.carry = () => ({  // what the next pipeline's viewer keeps (Ignore renumbering: through a pipeline without it)
      layout: state.layout, search: app.el.search.value, panels: app.panels.carry(),
      ignoreRenumbering: pipeline.renumbering ? state.ignoreRenumbering : Boolean(carried && carried.ignoreRenumbering),
      hide: app.filters.chosen(),
    });
    modules(app);
    app.startViews();
    wire(app, carried);
    return app;
  }

  function elements(root) {
    const $ = id => root.querySelector("#" + id);
    return {
      list: $("pass-list"), listEmpty: $("pass-list-empty"),
      changed: $("filter-changed"), noop: $("filter-noop"), filterCount: $("filter-count"),
      title: $("pass-title"), counts: $("pass-counts"), summary: $("summary"), detail: $("pass-detail"),
      dumpTitle: root.querySelector(".dump-title"),
      renumber: $("ignore-renumbering"), filters: $("filter-toggles"), dumpNotes: $("dump-notes"), dumpNotesList: $("dump-notes-list"),
      select: $("function-select"), notes: $("notes"), status: $("status"),
      warnings: $("warnings"), warningsText: $("warnings-text"),
      diff: $("diff"), empty: $("empty-state"),
      split: $("layout-split"), stacked: $("layout-stacked"), unified: $("layout-unified"), wrap: $("wrap-lines"),
      elide: $("elide-types"),
      unifiedFile: $("unified-file"),
      sidebar: root.querySelector(".sidebar"), resizer: $("sidebar-resizer"),
      expand: $("expand-all"), collapse: $("collapse-all"),
      beforeFile: $("before-file"), afterFile: $("after-file"),
      panes: [$("scroll-before"), $("scroll-after"), $("scroll-unified")],
      search: $("search"), searchSummary: $("search-summary"), base: $("compare-base"),
      root,
    };
  }

  /** make(tag, className, text): an element with a class and text. */
  function maker(doc) {
    return (tag, className, text) => {
      const node = doc.createElement(tag);
      if (className) node.className = className;
      if (text !== undefined) node.textContent = text;
      return node;
    };
  }

  /** The modules, each created once with the app. */
  function modules(app) {
    const { el } = app;
    app.passList = IRTracePassList.create(app);
    app.functions = IRTraceFunctions.create(app);
    app.search = IRTraceSearch.create(app);
    app.panes = IRTracePanes.create(paneHost(app, el));
    app.warnings = IRTraceWarnings.create(app);
    app.following = IRTraceFollowing.create(app);
    app.level = IRTraceLevel.create(app);
    app.print = IRTracePrint.create({ el, panes: app.panes, make: app.make });
    app.sidebar = IRTraceSidebar.create(app);
    app.together = IRTraceTogether.create(app);
    app.panels = IRTracePanels.create(app);
    app.filters = IRTraceFilters.create(app);
  }

  /** What a set of panes is created with (IRTracePanes.create): `el` holds their markup, {diff, panes}. */
  function paneHost(app, el) {
    // the marks: the search's, and the panels' joined in (the followed name's: namepanel.js)
    const search = { marks: id => app.panels.marks(id, app.search.marks(id)), shown: () => app.search.shown() || app.panels.marking() };
    return { el, report: app.report, pipeline: app.pipeline, make: app.make, announce: app.announce, search,
      lineOrigin: (side, line) => app.panels.gutter(side, line) };
  }

  // ---- what is shown: the view's source, with Compare with and Ignore renumbering on top ------------------

  function showing(app) {
    const { el, state, pipeline, passes } = app;
    const views = [];  // [{view, source}] the report offers, the first the one it opens on
    let current = null;  // the one shown
    const ignored = new Map();  // source -> Map(pass -> its diff with renamed lines as unchanged)
    const comparisons = new Map();  // "base:pass" -> the pass compared with that base

    const source = () => current.source;
    const diffOf = p => source().diff(p);
    /** Pass p's own diff in the view, with Ignore renumbering when it is on. */
    function counted(p) {
      if (!state.ignoreRenumbering) return diffOf(p);
      if (!ignored.has(source())) ignored.set(source(), new Map());
      const seen = ignored.get(source());
      if (!seen.has(p)) seen.set(p, IRTraceRenumber.ignoring(diffOf(p)));
      return seen.get(p);
    }
    /**
     * What the panes show for pass p: the view's diff, or its snapshot against the chosen base. A comparison
     * takes the pass's name, file and warnings, and everything about the diff from the compared pair alone.
     */
    function shown(p) {
      if (state.base === null) return counted(p);
      const key = `${state.base}:${p}`;  // a pass's after snapshot is the same in every view
      if (!comparisons.has(key)) {
        const diff = pipeline.compare(snapshotText(state.base), passes[p].after);
        comparisons.set(key, { ...diffOf(p), ...diff, changed: diff.before !== diff.after });
      }
      return comparisons.get(key);
    }
    const snapshotFile = s => (s === 0 ? pipeline.input.file : passes[s - 1].file);
    const snapshotText = s => (s === 0 ? pipeline.input.text : passes[s - 1].after);

    function startViews() {
      for (const view of IRTraceViews.of(app.report)) views.push({ view, source: view.create(app) });
      current = views[0];
      for (const { view } of views) {
        if (view.button) el.root.querySelector("#" + view.button).addEventListener("click", () => (view.toggles ? app.toggleView(view.name) : app.showView(view.name)));
      }
    }
    /** Make the view named `name` (else the first) the one shown; false if it already is. */
    function setView(name) {
      const next = views.find(({ view }) => view.name === name) || views[0];
      if (next === current) return false;
      current.source.hide();
      current = next;
      state.extra = next === views[0] ? {} : { view: next.view.name };  // links name any view but the first
      for (const { view } of views) {
        if (view.button) el.root.querySelector("#" + view.button).setAttribute("aria-pressed", String(view === next.view));
      }
      return true;
    }

    /** Whether the report offers the view named `name`. */
    const hasView = name => views.some(({ view }) => view.name === name);
    /** A view the reader opens and closes (`toggles`: the lowering page): shown, or back to the first; false if none. */
    function toggleView(name) {
      if (!hasView(name) || !passes.length) return false;
      app.panels.get("map").toggle(false);  // it shows in place of the map
      app.showView(current.view.name === name ? views[0].view.name : name);
      return true;
    }

    return {
      diffOf, counted, shown, snapshotFile, startViews, setView, source, hasView, toggleView,
      listed: p => source().listed(p),
      beforeFile: p => (state.base === null ? source().beforeFile(p) : snapshotFile(state.base)),
      afterFile: p => (state.base === null ? source().afterFile(p) : passes[p].file),
      /** The panes shown now: the viewer's, then the view's own. */
      activePanes: () => [app.panes, ...source().panes],
      /** Every set of panes, shown or not: each keeps the page's layout and wrapping. */
      allPanes: () => [app.panes, ...views.flatMap(({ source }) => source.panes)],
      repaint: () => app.activePanes().forEach(panes => panes.repaint()),
    };
  }

  // ---- selecting a pass ---------------------------------------------------------------------------------

  // eslint-disable-next-line max-lines-per-function -- one closure: select, its empty state, its panes and notes
  function selecting(app) {
    const { el, state, pipeline, passes } = app;

    /** Show pass p (-1: none), its diff, notes and link. */
    function select(p) {
      app.forgetPassStatus();
      state.selected = p;
      if (p >= 0) state.anchor = p;
      app.passList.markSelected(p);
      app.panels.shown(p);  // the map's marks and the op counts' line under the heading
      const named = box => `\u201c${box.labels[0].textContent.trim()}\u201d`;  // the filters' words: a report's kind says them
      if (p < 0) return showEmpty(passes.length
        ? `No pass matches the filters. Turn on ${named(el.changed)} or ${named(el.noop)} to see passes.`
        : `The dump holds only ${pipeline.input.file}: no pass snapshot follows it.`);
      el.empty.hidden = true;
      el.diff.hidden = false;
      const pass = app.shown(p);
      el.title.textContent = `${pass.label} ${pass.name}`;
      el.title.title = pass.detail ? `${pass.file}\n${pass.detail}` : pass.file;
      el.detail.textContent = el.detail.title = pass.detail;  // the title shows a long one whole
      el.beforeFile.textContent = el.beforeFile.title = app.beforeFile(p);  // the title shows a truncated name whole
      el.afterFile.textContent = el.afterFile.title = app.afterFile(p);
      el.unifiedFile.textContent = el.unifiedFile.title = `${app.beforeFile(p)} \u2192 ${pass.file}`;
      app.warnings.show(pass);
      fillFunctions(p);
      showPanes(p);
      app.passList.revealSelected();  // last, once the DOM is all written: its layout read lays out the new rows too
      app.writeLink();
    }

    function showEmpty(message) {
      app.panes.clear();
      app.source().show(-1);
      app.together.open(-1);
      syncFolds();
      el.title.textContent = passes.length ? "No pass selected" : "No passes";
      el.counts.textContent = el.detail.textContent = "";
      app.functions.clear();
      app.warnings.clear();
      el.diff.hidden = true;
      el.notes.replaceChildren();
      el.empty.hidden = false;
      el.empty.textContent = message;
    }

    /** The panes for pass p (the function in state.key), the view's own part, and the fold buttons for both. */
    function showPanes(p) {
      app.panes.show({ pass: app.shown(p), key: state.key, beforeFile: app.beforeFile(p) }, true);
      app.source().show(p);
      app.together.open(p);  // a view showing several diffs: each at its first change that differs
      syncFolds();
    }

    /** Expand all / Collapse all: usable when any diff shown has folds. */
    function syncFolds() {
      const later = app.source().hasFolds && app.source().hasFolds();  // a view whose diffs are built as they scroll in
      el.expand.disabled = el.collapse.disabled = !later && !app.activePanes().some(panes => panes.hasFolds());
    }

    /** The function selector for pass p, and the notes and counts on what the panes show. */
    function fillFunctions(p) {
      const notes = app.functions.fill(p).concat(app.level.notes(p));
      const pass = app.shown(p);
      notes.unshift(...(state.base !== null ? [["info", compareNote(p)]] : app.source().notes(p, pass)));
      if (pass.failed) notes.unshift(["warn", IRTracePipelines.failedNote(pass)]);
      if (state.base !== null && pipeline.renumbering) notes.push(["info", IRTracePipelines.RENUMBER_COMPARE]);
      el.notes.replaceChildren(...notes.map(([kind, text, extra]) => app.make("p", `note ${kind}${extra ? " " + extra : ""}`, text)));
      el.counts.textContent = state.base === null ? app.source().counts(p, pass)
        : `${IRTraceViews.counts(pass, state.key)} since ${app.snapshotFile(state.base)}`;
      el.counts.title = (state.key === null ? "Lines inserted and deleted in the whole file" : `Lines inserted and deleted in ${state.key}`) +
        ", counted function by function: a line moved from one function to another counts as deleted and inserted (git diff --numstat may count fewer)";
    }

    function compareNote(p) {
      const from = app.snapshotFile(state.base), to = passes[p].file;
      if (state.base === p + 1) return `Comparing ${to} with itself: pick another snapshot in \u201cCompare with\u201d.`;
      if (state.base > p + 1) return `Comparing ${from} with the earlier ${to}: the diff runs backwards.`;
      const span = state.base === p ? `pass ${passes[p].label} alone` : `passes ${passes[state.base].label}\u2013${passes[p].label}`;
      return `Comparing ${from} with ${to}: the changes of ${span}.`;
    }

    function pickFunction(key) {
      state.wantedKey = key;
      app.passList.markHistory(key);
      fillFunctions(state.selected);
      showPanes(state.selected);
      app.writeLink();
    }

    /** The first pass that changed the IR (else the first pass). */
    function selectFirst() {
      const firstChanged = passes.findIndex(pass => pass.changed);
      select(passes.length ? Math.max(firstChanged, 0) : -1);
    }

    /** Pass p shown with its own diff (Compare with off), the filters letting it through. */
    function open(p) {
      if (state.base !== null) app.setBase(null);
      if (!app.passList.isVisible(p)) app.passList.showAll();
      select(p);
    }

    return { select, selectFirst, pickFunction, open };
  }

  // ---- switching the view, stepping through changes, folds ---------------------------------------------

  function switching(app) {
    const { el, state } = app;

    /** Another view of the same passes: what the list and the panes show follows. */
    function showView(name) {
      if (!app.setView(name)) return;
      app.forgetPassStatus();
      app.passList.showCounts();  // and the passes that change the picked function, in this view
      app.search.relist();  // the counts' ▲ / ▼ compare the snapshots of this view
      app.passList.applyFilters();
      if (state.selected >= 0) app.select(state.selected);
      else app.writeLink();
    }

    /** n / p: the view's own stepping, or its steps through its diffs together, else the changes of the first diff shown that has some. */
    function stepChange(delta) {
      if ((app.source().step && app.source().step(delta)) || app.together.step(delta)) return;
      (app.activePanes().find(panes => panes.changeCount() > 0) || app.panes).stepChange(delta);
    }

    function setAllFolds(expanded) {
      if (el.expand.disabled) return;
      app.activePanes().forEach(panes => panes.setAllFolds(expanded));
      app.announce(expanded ? "All unchanged lines shown" : `Unchanged lines folded to ${app.report.context} lines of context`);
    }

    return { showView, stepChange, setAllFolds };
  }

  // ---- layout, wrapping, compare base, renumbering, links, status ---------------------------------------

  function arranging(app) {
    const { el, state, passes, pipeline } = app;
    const win = el.diff.ownerDocument.defaultView;

    // The address bar follows once the reader pauses: history.replaceState is a synchronous call to the
    // browser process (10-30 ms on a busy machine) and Chromium throttles pages that call it too often.
    // A pipeline no longer shown keeps quiet; and the write needs the address the view last followed or wrote: a
    // hash the reader went to meanwhile (Back, a link) has its hashchange still to come, and stands.
    let linkTimer = 0, address = null;
    function writeLink() {
      win.clearTimeout(linkTimer);
      linkTimer = win.setTimeout(() => {
        if (!el.diff.isConnected || (address !== null && win.location.hash !== address)) return;
        IRTraceState.write(state, passes);
        address = win.location.hash;
      }, LINK_DELAY_MS);
    }

    function setLayout(layout) {
      state.layout = layout;
      for (const name of LAYOUTS) el[name].setAttribute("aria-pressed", String(layout === name));
      app.allPanes().forEach(panes => panes.relayout({ layout }));
      writeLink();
    }

    /** Long lines wrap inside the panes (no horizontal scrolling); the choice is kept in the page and the link. */
    function setWrap(on, remember) {
      el.wrap.checked = on;
      state.wrap = on;
      app.allPanes().forEach(panes => panes.relayout({ wrap: on }));
      if (remember) try { win.localStorage.setItem(WRAP_KEY, on ? "on" : "off"); } catch { /* storage may be off for file:// */ }
      writeLink();
    }

    /** Unchanged long types show as "…" (the report names them: report.elides); the choice is kept in the page. */
    function setElide(on, remember) {
      el.elide.checked = on;
      app.allPanes().forEach(panes => panes.relayout({ elide: on }));
      if (remember) try { win.localStorage.setItem(ELIDE_KEY, on ? "on" : "off"); } catch { /* storage may be off for file:// */ }
    }

    function setIgnoreRenumbering(on) {
      state.ignoreRenumbering = on;
      el.renumber.checked = on;
      app.passList.showCounts();
      if (state.selected >= 0) app.select(state.selected);
    }

    function setBase(base) {
      state.base = base;
      el.base.value = base === null ? "" : String(base);
      IRTracePipelines.renumberAvailable(app);
    }

    /** Apply a link's fragment; false when it names no pass of this pipeline. */
    function followLink(hash) {
      const link = IRTraceState.parse(hash, passes, pipeline.input.label);
      if (link.pass < 0) return false;
      address = win.location.hash;
      if (link.layout) setLayout(link.layout);
      if (link.wrap !== null && link.wrap !== state.wrap) setWrap(link.wrap, false);
      state.wantedKey = link.fn !== null && pipeline.texts.some(text => text.byKey.has(link.fn)) ? link.fn : null;
      // A link's function that no snapshot defines is dropped: its text (any length) never reaches the page.
      if (link.fn !== null && state.wantedKey === null) {
        const named = link.fn.length > 60 ? `${link.fn.slice(0, 60)}\u2026` : link.fn;
        announce(`The link names a function this pipeline does not have (${named}): showing the whole file.`);
      }
      setBase(link.base);
      if (app.setView(new URLSearchParams(hash.replace(/^#/, "")).get("view"))) {
        app.passList.showCounts();  // and the function's history in this view
        app.search.relist();
      } else app.passList.markHistory(state.wantedKey);
      if (!app.passList.isVisible(link.pass)) app.passList.showAll();
      app.select(link.pass);
      app.panels.follow(hash);
      app.filters.follow(link.hide);  // last: it may build this viewer anew, on the filtered report
      return true;
    }

    let announceTimer = 0, said = { about: null, text: "" };
    /**
     * A message in the status, for 10 s; `about` what it speaks of, so that it goes with it: "pass", the pass shown
     * ("Change 3 of 43": another pass or view is shown), or "map" (the map closes).
     */
    function announce(text, about = null) {
      el.status.textContent = text;
      said = { about, text };
      win.clearTimeout(announceTimer);
      announceTimer = win.setTimeout(() => { el.status.textContent = ""; }, 10000);  // long enough to read a sentence
    }
    /** What a message spoke of is gone (`about`, as announce's): the message goes too, if it still shows. */
    function forgetStatus(about) {
      if (said.about === about && el.status.textContent === said.text) el.status.textContent = "";
      if (said.about === about) said = { about: null, text: "" };
    }
    const forgetPassStatus = () => forgetStatus("pass");  // another pass or view is shown

    return {
      writeLink, setLayout, setWrap, setElide, setIgnoreRenumbering, setBase, followLink, announce, forgetPassStatus, forgetStatus,
      opened: () => app.source().opened(),
    };
  }

  // ---- wiring -------------------------------------------------------------------------------------------

  function fillBaseSelect(app) {
    const { el, pipeline, passes, state } = app;
    const option = (value, label) => { const node = app.make("option", "", label); node.value = value; return node; };
    const input = `${pipeline.input.label} ${pipeline.input.name}`;
    // two runs whose inputs differ open on a row labelled like the input: the input itself, listed once
    el.base.replaceChildren(option("", "its previous snapshot"), option("0", input),
      ...passes.flatMap((pass, k) => (pass.label === pipeline.input.label ? []
        : [option(String(k + 1), `${pass.label} ${pass.name}`)])));
    el.base.disabled = passes.length === 0;
    el.base.addEventListener("change", () => {
      app.setBase(el.base.value === "" ? null : Number(el.base.value));
      if (state.selected >= 0) app.select(state.selected);
    });
  }

  function savedWrap(win) {
    try { return win.localStorage.getItem(WRAP_KEY) === "on"; } catch { return false; }
  }

  /** Eliding is on unless the reader turned it off. */
  function savedElide(win) {
    try { return win.localStorage.getItem(ELIDE_KEY) !== "off"; } catch { return true; }
  }

  function wire(app, carried) {
    const { el, state, pipeline } = app;
    app.passList.build();
    const { summary, title } = app.source().header();
    el.summary.textContent = el.summary.title = summary;  // cut when the bar is short: whole in its tooltip
    if (title && el.dumpTitle) [el.dumpTitle.textContent, el.dumpTitle.title] = title;
    IRTracePipelines.decorate(app);
    fillBaseSelect(app);
    for (const layout of LAYOUTS) el[layout].addEventListener("click", () => app.setLayout(layout));
    el.wrap.addEventListener("change", () => app.setWrap(el.wrap.checked, true));
    el.expand.addEventListener("click", () => app.setAllFolds(true));
    el.collapse.addEventListener("click", () => app.setAllFolds(false));
    if (savedWrap(el.diff.ownerDocument.defaultView)) app.setWrap(true, false);
    el.elide.parentElement.hidden = !app.report.elides;  // no type a report names: no switch
    el.elide.addEventListener("change", () => app.setElide(el.elide.checked, true));
    app.setElide(app.report.elides && savedElide(el.diff.ownerDocument.defaultView), false);
    IRTraceKeys.bind(el.search, "search", {
      nextCountChange: () => app.search.jumpToChange(1),
      previousCountChange: () => app.search.jumpToChange(-1),
      clearSearch: () => app.search.clear(),
    });
    el.renumber.addEventListener("change", () => app.setIgnoreRenumbering(el.renumber.checked));
    if (carried) {
      if (carried.layout !== state.layout) app.setLayout(carried.layout);
      app.panels.carried(carried.panels);
      if (pipeline.renumbering && carried.ignoreRenumbering) app.setIgnoreRenumbering(true);
      el.search.value = carried.search;
      if (carried.search) app.search.run();
      if (carried.hide && carried.hide.length) el.diff.ownerDocument.defaultView.setTimeout(() => app.filters.follow(carried.hide));
    }
  }

  return { create };
})();
