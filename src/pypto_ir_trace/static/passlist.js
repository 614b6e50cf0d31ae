"use strict";
/*
 * The pass list: one button per pass, the Changed / No-op filters, stepping through visible passes,
 * and the marks other features put on passes (selection, function history, search counts). Each pass's
 * counts are the shown view's (app.listed, views.js); its diff for the marks too (app.diffOf).
 */
const IRTracePassList = (() => {
  // eslint-disable-next-line max-lines-per-function -- a module's closure: a dozen short functions share the buttons, the marked one and the view's tooltips
  function create(app) {
    const { el, passes } = app;
    const buttons = [];  // buttons[p]: the button of pass p (in its <li>; in the DOM while the window shows it)
    const listed = IRTracePassWindow.create(el.list, p => buttons[p].parentElement);

    function build() {
      passes.forEach((pass, p) => {
        const item = app.make("li");
        const button = app.make("button", "pass" + (pass.changed ? " changed" : " noop") + (pass.failed ? " failed" : ""));
        button.type = "button";
        button.dataset.index = String(p);
        // Spaces between the parts make the accessible name read "04 ConvertToSSA +10 −9".
        const meta = app.make("span", "pass-meta");
        if (pass.warnings) meta.append(" ", warningBadge(app.make, (pass.errorLines || []).length));
        if (pass.failed) meta.append(" ", failedBadge(app.make));
        // A Before dump (--print-before-all) beside its pass's After dump, both named by the pass: "before" tells them apart
        const when = pass.printedBefore ? [app.make("span", "pass-when", "before"), " "] : [];
        button.append(app.make("span", "pass-label", pass.label), " ", passName(app.make, pass.name), " ", ...when, meta);
        button.addEventListener("click", () => app.select(p));
        item.append(button);
        buttons.push(button);
      });
      showCounts();
      listed.show(visible());
      el.filterCount.textContent = `${passes.length}/${passes.length}`;
      el.changed.addEventListener("change", applyFilters);
      el.noop.addEventListener("change", applyFilters);
    }

    const titleOf = pass => [pass.file, pass.header, pass.detail].filter(Boolean).join("\n");
    const tipOf = p => tips[p] || titleOf(passes[p]);

    /** Each pass's counts as the view tells them (app.listed), between its search count and its badges. */
    function showCounts() {
      buttons.forEach((button, p) => {
        const { parts, title, classes, tip } = app.listed(p);
        const meta = button.querySelector(".pass-meta");
        const marks = [...meta.querySelectorAll(".hits, .op-delta")], badges = [...meta.querySelectorAll(".badge")];  // the search's stay
        meta.replaceChildren(...marks, ...parts, ...badges.flatMap(badge => [" ", badge]));
        if (title) meta.title = title;
        else meta.removeAttribute("title");
        for (const [name, on] of Object.entries(classes)) button.classList.toggle(name, on);
        tips[p] = tip;
      });
      markHistory(app.state.wantedKey);  // a tooltip says what the pass is, then what the view adds
    }
    const tips = [];  // tips[p]: what the view says of pass p in its tooltip ("" for nothing)

    const isVisible = p => (passes[p].changed ? el.changed.checked : el.noop.checked);
    const visible = () => passes.map((_, p) => p).filter(isVisible);

    function applyFilters() {
      const shown = visible();
      listed.show(shown);
      el.filterCount.textContent = `${shown.length}/${passes.length}`;
      el.listEmpty.hidden = shown.length > 0 || passes.length === 0;
      const { selected, anchor } = app.state;
      if (!shown.length) return app.select(-1);
      if (selected < 0 || !isVisible(selected)) {
        const from = Math.max(selected >= 0 ? selected : anchor, 0);
        app.select(shown.reduce((best, p) => (Math.abs(p - from) < Math.abs(best - from) ? p : best)));
      }
    }

    /** Show every pass (a link named a hidden one). */
    function showAll() {
      el.changed.checked = el.noop.checked = true;
      applyFilters();
    }

    function step(delta) {
      const shown = visible();
      if (!shown.length) return;
      const at = shown.indexOf(app.state.selected);
      const next = at < 0 ? shown[0] : shown[Math.min(Math.max(at + delta, 0), shown.length - 1)];
      if (next !== app.state.selected) app.select(next);
    }

    let current = null;  // the button marked aria-current

    function markSelected(p) {
      if (current) current.removeAttribute("aria-current");
      current = p >= 0 ? buttons[p] : null;
      if (current) current.setAttribute("aria-current", "true");
    }

    /** Scroll the selected pass whole into the list's view, below the filters; keyboard users in the list stay
     * on it. Reads layout: call last. */
    function revealSelected() {
      if (!current || !listed.bring(app.state.selected)) return;
      const item = current.parentElement, { top, bottom } = scrollport();
      const box = item.getBoundingClientRect();
      if (box.top < top || box.bottom > bottom) {
        item.scrollIntoView({ block: "nearest" });
        wholeTopRow(item);
        settled(() => { if (current && current.parentElement === item && item.isConnected) wholeTopRow(item); });
      }
      if (el.list.contains(el.list.ownerDocument.activeElement)) current.focus({ preventScroll: true });
    }

    /**
     * f() once the rows laid out in this frame have their real heights: rows not yet seen are sized by estimate
     * (passwindow.js), which moves the list as they are measured; a row cut under the filters then needs
     * wholeTopRow again.
     */
    function settled(f) {
      const win = el.list.ownerDocument.defaultView;
      win.requestAnimationFrame(() => win.requestAnimationFrame(f));
    }

    /** The list's visible box, inside its border (its padding scrolls with the rows). */
    function scrollport() {
      const top = el.list.getBoundingClientRect().top + el.list.clientTop;
      return { top, bottom: top + el.list.clientHeight };
    }

    /**
     * A row cut in half under the filters looks like a fault (stepping down leaves one there: rows differ in
     * height): scroll on to the next row's top while the selected row stays whole. At the list's end there is
     * nothing further to scroll.
     */
    function wholeTopRow(item) {
      const { top } = scrollport();
      const row = firstBelow(top);
      if (!row) return;
      const cut = row.getBoundingClientRect();
      if (cut.top >= top - 0.5 || row === item) return;
      const by = cut.bottom - top;
      if (item.getBoundingClientRect().top - by >= top) el.list.scrollTop += by;
    }

    /** The first row in the DOM whose bottom lies below y (a binary search: only a few rows' layout read). */
    function firstBelow(y) {
      const shown = listed.placed();
      let low = 0, high = shown.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (buttons[shown[mid]].parentElement.getBoundingClientRect().bottom > y) high = mid;
        else low = mid + 1;
      }
      return low < shown.length ? buttons[shown[low]].parentElement : null;
    }

    /** With a function picked, mark the passes that change it, under the name it has in each (following.js). */
    function markHistory(key) {
      const named = key === null ? [] : IRTraceFollowing.names(app);
      buttons.forEach((button, p) => {
        const touched = key !== null && IRTraceFollowing.changes(app, named, p);
        button.classList.toggle("touches", touched);
        button.title = touched ? `${tipOf(p)}: changes ${named[p]}` : tipOf(p);
      });
    }

    /** The count of matching lines after each pass; ▲ / ▼ where the pass changed that count. hits: per text, or null. */
    function showHits(hits) {
      buttons.forEach((button, p) => {
        let badge = button.querySelector(".hits");
        if (!hits) { if (badge) badge.remove(); return; }
        if (!badge) {
          badge = app.make("span", "hits");
          button.querySelector(".pass-meta").prepend(badge);
        }
        const diff = app.diffOf(p);
        const before = hits[diff.before], after = hits[diff.after];
        badge.textContent = (after > before ? "\u25b2" : after < before ? "\u25bc" : "") + after;
        badge.className = "hits" + (after !== before ? " moved" : "") + (after ? "" : " none");
        badge.title = `${after} matching line${after === 1 ? "" : "s"} after this pass (${before} before)`;
      });
    }

    /** op:NAME in the search (opsearch.js): each pass that changes the count of the ops asked marked with its deltas;
     * moves: per pass its [[op, delta]], or null to drop the marks. */
    function showOps(moves) {
      buttons.forEach((button, p) => {
        const deltas = moves ? moves[p] : [];
        let badge = button.querySelector(".op-delta");
        button.classList.toggle("op-moves", deltas.length > 0);
        if (!deltas.length) { if (badge) badge.remove(); return; }
        if (!badge) {
          badge = app.make("span", "op-delta");
          button.querySelector(".pass-meta").prepend(badge);
        }
        badge.textContent = IRTraceOpSearch.deltaText(deltas);
        badge.title = `${IRTraceOpSearch.named(deltas).split(", ").join("\n")}\n(the change in their count in this pass)`;
      });
    }

    return { build, isVisible, visible, applyFilters, showAll, step, markSelected, revealSelected, markHistory, showHits, showOps, showCounts };
  }

  /** The name with break opportunities between its words ("Materialize|Semantic|Aliases"): it wraps, never cut. */
  function passName(make, name) {
    const node = make("span", "pass-name");
    name.split(/(?<=[a-z0-9])(?=[A-Z])/).forEach((word, i) => {
      if (i) node.append(make("wbr"));
      node.append(word);
    });
    return node;
  }

  /** A badge read out by its name: "warning", "error", or "failed" (the pipeline stopped there). */
  function badge(make, className, glyph, name, title) {
    const node = make("span", className, glyph);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", name);
    node.title = title;
    return node;
  }
  function warningBadge(make, errors) {
    if (!errors) return badge(make, "badge", "!", "warning", "This pass emitted warnings");
    return badge(make, "badge error", "!", "error", `This pass reported ${errors} error${errors === 1 ? "" : "s"}`);
  }

  function failedBadge(make) {
    return badge(make, "badge failed", "\u2716", "failed", "This pass failed: the pipeline stopped here");
  }

  return { create };
})();
