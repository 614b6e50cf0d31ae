"use strict";
/*
 * A function's whole lowering on one page (views.js): the picked function's diff at every pass that changes
 * it, in pipeline order, each under its pass's heading (the function's counts, and the pass's Ops line as the
 * pass heading shows them); a heading is a link to that pass in the pass view. Opened by the Lowering button
 * beside Map, `l`, or the map's row header of the picked function; `view=lowering` in links. With no function
 * picked, the page is every pass that changes the IR. The pass list, the Function selector, search and the
 * counts are the single-run view's (this view extends its source); the layout, wrapping and eliding apply to
 * every diff on the page, and n / p step through their changes in order.
 *
 * Each section's diff is a set of panes (panes.js) on a copy of the page's diff markup, each scroller as tall
 * as its rows up to the page's height (a longer diff scrolls inside). Sections are built as they come within a
 * screen of the page's view (IntersectionObserver), one a frame, the nearest first, sized until then from their
 * counts; of those farther away at most KEEP stay built, the farthest given back (their height kept): a pipeline
 * of hundreds of passes costs what a few screens of it cost, and a scroll waits for one diff at most (a whole-file
 * diff of a large IR costs what a pass switch does).
 */
(() => {
  const KEEP = 12;          // sections built beyond a screen of the view, at most
  const NEAR = "100% 0px";  // how far beyond the page's view a section is built: a screen above and below
  const ROW = IRTraceHeights.ROW_HEIGHT, HEAD = 30;  // a row, and a pane's head with its borders, in px

  IRTraceViews.register({ name: "lowering", button: "lowering-toggle", toggles: true, applies: report => !report.runs, create });

  // eslint-disable-next-line max-lines-per-function -- a view's closure: the page's sections share the page shown, its observer and the ui
  function create(app) {
    const first = IRTraceViews.of(app.report)[0].create(app);  // the pass view: what the list and selector read
    const { passes, state } = app;
    const root = app.el.root, $ = id => root.querySelector("#" + id);
    const ui = { panel: $("lowering"), title: $("lowering-title"), summary: $("lowering-summary"), list: $("lowering-sections"),
      head: root.querySelector(".lowering-head"), main: root.querySelector(".main") };
    const blank = blankDiff(app.el.diff);
    const toggle = $("lowering-toggle");
    toggle.disabled = passes.length === 0;  // the dump holds only its input
    if (toggle.disabled) toggle.title = "No pass to show: the dump holds only its input";
    const win = ui.panel.ownerDocument.defaultView;
    let page = null;  // the page shown: {signature, named, sections, observer, sized, cursor}
    const pending = new Set();  // the sections near the view not built yet
    let frame = 0;  // the frame that builds the next of them

    /** After the viewer showed pass p: the page of the function picked there (built again for another one). */
    function show(p) {
      ui.main.classList.add("lowering-open");
      ui.panel.hidden = ui.title.hidden = false;
      const named = state.wantedKey === null ? null : IRTraceFollowing.names(app);  // its name in every pass
      const signature = JSON.stringify([named, state.ignoreRenumbering]);
      if (!page || page.signature !== signature) {
        drop();
        page = build(named, signature);
        const at = page.sections.findIndex(section => section.p >= p);  // the pass shown, else the next that changes it
        reveal(at < 0 ? page.sections.length - 1 : at);
      } else {
        reveal(page.sections.findIndex(section => section.p === p));  // j / k over passes that leave it alone: the page stays
      }
    }

    function hide() {
      ui.main.classList.remove("lowering-open");
      ui.panel.hidden = ui.title.hidden = true;
      drop();
    }

    /** The sections of the passes that change the function (named: its name in each pass; null: the whole file). */
    function build(named, signature) {
      const chosen = passes.map((_, p) => p).filter(p => (named ? IRTraceFollowing.changes(app, named, p) : app.diffOf(p).changed));
      const key = named ? named[Math.max(state.selected, 0)] : null;
      ui.title.textContent = key === null ? "Lowering of the whole file" : `Lowering of ${key}`;
      ui.title.title = ui.title.textContent;
      ui.summary.textContent = summary(key, chosen);
      const sections = chosen.map((p, i) => section(p, i, named ? named[p] : null));
      ui.list.replaceChildren(...sections.map(s => s.el));
      const observer = new (win.IntersectionObserver)(entries => {
        for (const entry of entries) {
          const s = sections[Number(entry.target.dataset.section)];
          s.near = entry.isIntersecting;
          if (s.near && !s.panes) pending.add(s);
          else pending.delete(s);
        }
        later();
      }, { root: ui.panel, rootMargin: NEAR });
      sections.forEach(s => observer.observe(s.el));
      const sized = new (win.ResizeObserver)(entries => {
        refit([...new Set(entries.map(entry => sections[Number(entry.target.closest(".lowering-pass").dataset.section)]))]);
      });
      return { signature, named, sections, observer, sized, cursor: { at: 0, hunk: -1 }, expanded: null, pinned: -1, assigned: 0 };
    }

    /** The sections that came near the view, built one a frame, the nearest the view first. */
    function later() {
      if (!frame && pending.size) frame = win.requestAnimationFrame(buildNearest);
    }
    function buildNearest() {
      frame = 0;
      if (!page || !pending.size) return;
      const top = ui.head.getBoundingClientRect().bottom;
      const distance = s => Math.abs(s.el.getBoundingClientRect().top - top);
      open([...pending].reduce((best, s) => (distance(s) < distance(best) ? s : best)));
      later();
    }

    function summary(key, chosen) {
      const what = key === null ? "the IR" : "it";
      if (!chosen.length) return key === null ? "No pass changes the IR." : `No pass changes ${key}.`;
      const listed = chosen.length > 12 ? chosen.slice(0, 12).map(p => passes[p].label).join(", ") + ", \u2026"
        : chosen.map(p => passes[p].label).join(", ");
      return `${chosen.length} of ${passes.length} passes change ${what} (${listed}): each heading opens its pass; n / p step through the changes.`;
    }

    /** One pass's section: its heading and Ops line now, its diff when it comes near (open). */
    function section(p, i, key) {
      const pass = app.counted(p);
      const el = app.make("section", "lowering-pass");
      el.dataset.section = String(i);
      el.setAttribute("aria-label", `${pass.label} ${pass.name}`);
      const heading = app.make("h3", "lowering-heading");
      const link = app.make("a", "lowering-link", `${pass.label} ${pass.name}`);
      // the pass view's link, with the layout and wrapping as they are when it is followed (or copied)
      const href = () => { link.href = "#" + IRTraceState.fragment({ ...state, selected: p, wantedKey: key, base: null, extra: {}, panels: { ...state.panels, map: false } }, passes); };
      href();
      for (const event of ["click", "focus", "pointerenter", "contextmenu"]) link.addEventListener(event, href);
      link.title = `Open ${pass.label} ${pass.name} in the pass view`;
      heading.append(link, " ", app.make("span", "pass-counts", IRTraceViews.counts(pass, key)));
      const tag = key === null ? "" : tagOf(pass, key);
      if (tag) heading.append(" ", app.make("span", "lowering-tag", tag));
      el.append(heading);
      const [label, tip] = first.ops;
      if (pass.ops && pass.ops.length) {
        const ops = app.make("p", "pass-ops", `${label}: ${IRTraceMap.opsText(pass.ops)}`);
        ops.title = `${tip}:\n${IRTraceMap.opsText(pass.ops, Infinity).split(", ").join("\n")}`;
        el.append(ops);
      }
      const body = app.make("div", "lowering-body");
      body.style.height = estimate(pass, key) + "px";
      el.append(body);
      return { p, key, el, body, panes: null, diff: null, near: false, known: 0 };  // known: its height as last laid out
    }

    /** What the pass did to the function as a whole: added it, removed it, or paired it with another by content. */
    function tagOf(pass, key) {
      const before = app.pipeline.texts[pass.before].byKey, after = app.pipeline.texts[pass.after].byKey;
      const was = [...IRTraceFollowing.pairsOf(pass)].find(([, fresh]) => fresh === key);
      if (was) return `renamed from ${was[0]} (paired by content)`;
      if (!before.has(key) && after.has(key)) return "adds it";
      if (before.has(key) && !after.has(key)) return "removes it";
      return "";
    }

    /** A section's height before it is built: its changed rows and their context, within the page's height. */
    function estimate(pass, key) {
      const counts = key === null ? pass : pass.byRegion.get(key) || { inserted: 0, deleted: 0 };
      const rows = (state.layout === "split" ? Math.max(counts.inserted, counts.deleted) : counts.inserted + counts.deleted) + 2 * app.report.context + 2;
      return Math.min(rows * ROW + HEAD, most());
    }
    const most = () => Math.max(6 * ROW, ui.panel.clientHeight - 3 * HEAD);  // a diff's height at most: the page's, less its heading

    /** Build section s's diff (once), and give back the farthest built ones beyond KEEP. */
    function open(s) {
      pending.delete(s);
      if (s.panes) return;
      const diff = blank.cloneNode(true);
      const panes = IRTracePanes.create({
        el: { diff, panes: [...diff.querySelectorAll(".scroller")] }, report: app.report, pipeline: app.pipeline, make: app.make,
        announce: app.announce,
        search: { marks: id => app.panels.marks(id, app.search.marks(id)), shown: () => app.search.shown() || app.panels.marking() },  // as the pass view's
      });
      const pass = app.counted(s.p), beforeFile = first.beforeFile(s.p);
      const [before, after, unified] = diff.querySelectorAll(".pane-file");
      [before.textContent, after.textContent, unified.textContent] = [beforeFile, pass.file, `${beforeFile} \u2192 ${pass.file}`];
      [before.title, after.title, unified.title] = [before.textContent, after.textContent, unified.textContent];
      // the gutter is as wide as this diff's line numbers (the page's other diffs may have more digits)
      const digits = String(Math.max(app.pipeline.ids(pass.before).length, app.pipeline.ids(pass.after).length, 1)).length;
      diff.style.setProperty("--gutter-chars", String(Math.max(digits, 3)));
      s.known = s.known || s.el.offsetHeight;  // as a placeholder
      s.body.replaceChildren(diff);
      s.body.style.height = "";
      panes.relayout({ layout: state.layout, wrap: state.wrap, elide: app.el.elide.checked });
      panes.show({ pass, key: s.key, beforeFile }, true);
      if (page.expanded !== null) panes.setAllFolds(page.expanded);  // as Expand all / Collapse all left the others
      Object.assign(s, { panes, diff });
      refit([s]);
      diff.querySelectorAll(".sizer").forEach(sizer => page.sized.observe(sizer));  // layout and wrapping change their rows
      const far = page.sections.filter(other => other.panes && !other.near && other !== s);
      far.sort((x, y) => Math.abs(y.p - s.p) - Math.abs(x.p - s.p)).slice(0, Math.max(0, far.length - KEEP)).forEach(close);
    }

    /** Give a section's diff back, keeping its height (the page does not move). */
    function close(s) {
      s.body.style.height = s.body.offsetHeight + "px";
      s.diff.querySelectorAll(".sizer").forEach(sizer => page.sized.unobserve(sizer));
      s.body.replaceChildren();
      Object.assign(s, { panes: null, diff: null });
    }

    /**
     * Each scroller of the sections shown as tall as its rows (and its scrollbar), up to the page's height, the split
     * panes alike; the page stays where the reader is, so a section wholly above the view moves it by as much as the
     * section's height changed (since last known: a layout switch changes it before this is called). Every position
     * is read before any height is written, and once after: one layout for all of them.
     */
    function refit(list) {
      const cap = most(), top = ui.head.getBoundingClientRect().bottom, split = state.layout === "split";
      const plans = list.filter(s => s.diff).map(s => {
        const shown = [...s.diff.querySelectorAll(".scroller")].filter(scroller => !scroller.parentElement.hidden);
        const want = shown.map(scroller => parseFloat(scroller.querySelector(".sizer").style.height || "0") + scroller.offsetHeight - scroller.clientHeight);
        const before = s.known || s.el.offsetHeight;
        return { s, shown, want, before, above: s.el.getBoundingClientRect().top + before <= top };
      });
      for (const { shown, want } of plans) {
        shown.forEach((scroller, i) => {
          const height = `${Math.ceil(Math.min(split ? Math.max(...want) : want[i], cap))}px`;
          if (scroller.style.height !== height) scroller.style.height = height;
        });
      }
      let shift = 0;
      for (const plan of plans) {
        plan.s.known = plan.s.el.offsetHeight;
        if (plan.above) shift += plan.s.known - plan.before;
      }
      if (page.pinned >= 0) pin();
      else if (shift) ui.panel.scrollTop += shift;
    }

    function drop() {
      pending.clear();
      if (!page) return;
      page.observer.disconnect();
      page.sized.disconnect();
      page.sections.filter(s => s.panes).forEach(close);
      ui.list.replaceChildren();
      page = null;
    }

    /**
     * Section i's heading at the top of the page, under its head (-1: none, the page stays); n steps on from there.
     * It stays there while the sections around it are built (the page below may be too short for it at first),
     * until the reader scrolls.
     */
    function reveal(i) {
      if (i < 0) return;
      page.cursor = { at: i, hunk: -1 };
      page.pinned = i;
      pin();
    }
    function pin() {
      ui.panel.scrollTop = page.sections[page.pinned].el.offsetTop - ui.head.offsetHeight;
      page.assigned = ui.panel.scrollTop;  // as clamped: its scroll event is ours, not the reader's
    }
    ui.panel.addEventListener("scroll", () => {
      if (page && page.pinned >= 0 && Math.abs(ui.panel.scrollTop - page.assigned) > 1) page.pinned = -1;
    }, { passive: true });

    /** n / p: the next (1) or previous (-1) change on the page, from one section's last to the next one's first. */
    function step(delta) {
      const sections = page ? page.sections : [];
      if (!sections.length) { app.announce("No change on this page", "pass"); return true; }
      let { at, hunk } = page.cursor;
      open(sections[at]);
      hunk += delta;
      while (hunk < 0 || hunk >= sections[at].panes.changeCount()) {
        const next = at + (hunk < 0 ? -1 : 1);
        if (next < 0 || next >= sections.length) {
          app.announce(delta > 0 ? "No later change on this page" : "No earlier change on this page", "pass");
          return true;
        }
        at = next;
        open(sections[at]);
        hunk = delta > 0 ? 0 : sections[at].panes.changeCount() - 1;
      }
      const s = sections[at], box = s.el.getBoundingClientRect(), view = ui.panel.getBoundingClientRect();
      if (box.top < view.top + ui.head.offsetHeight || box.bottom > view.bottom) reveal(at);  // its diff whole on screen
      page.cursor = { at, hunk };
      s.panes.showChange(hunk);
      app.announce(`${passes[s.p].label} ${passes[s.p].name}: change ${hunk + 1} of ${s.panes.changeCount()}`, "pass");
      return true;
    }

    // Expand all / Collapse all reach the sections built so far (they are the view's panes); those built later follow
    for (const [button, expanded] of [[app.el.expand, true], [app.el.collapse, false]]) {
      button.addEventListener("click", () => { if (page) page.expanded = expanded; });
    }

    return {
      ...first,
      get panes() { return page ? page.sections.filter(s => s.panes).map(s => s.panes) : []; },
      show, hide, step,
      hasFolds: () => Boolean(page && page.sections.length),
    };
  }

  /** The page's diff markup as it was made (no rows, no ids), for each section's panes. */
  function blankDiff(diff) {
    const copy = diff.cloneNode(true);
    for (const node of [copy, ...copy.querySelectorAll("[id]")]) node.removeAttribute("id");
    copy.querySelectorAll(".rows").forEach(node => node.remove());
    copy.querySelectorAll(".pane-file").forEach(node => { node.textContent = ""; });
    copy.querySelectorAll(".sizer").forEach(node => node.removeAttribute("style"));
    copy.hidden = false;
    return copy;
  }
})();
