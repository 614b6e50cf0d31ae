"use strict";
/*
 * The pass list: one button per pass, the Changed / No-op filters, stepping through visible passes,
 * and the marks other features put on passes (selection, function history, search counts).
 */
const IRTracePassList = (() => {
  function create(app) {
    const { el, passes } = app;
    const buttons = [];  // buttons[p]: the button of pass p

    function build() {
      const fragment = el.list.ownerDocument.createDocumentFragment();
      passes.forEach((pass, p) => {
        const item = app.make("li");
        const button = app.make("button", "pass" + (pass.changed ? " changed" : " noop") + (pass.failed ? " failed" : ""));
        button.type = "button";
        button.dataset.index = String(p);
        button.title = titleOf(pass);
        // Spaces between the parts make the accessible name read "04 ConvertToSSA +10 −9".
        const meta = app.make("span", "pass-meta");
        meta.append(app.make("span", "count ins", "+" + pass.ins), " ", app.make("span", "count del", "\u2212" + pass.del));
        if (!pass.changed) {
          meta.title = "No-op: printed exactly the text of its predecessor";
          meta.prepend(app.make("span", "noop-tag", "no-op"), " ");
        }
        if (pass.warnings) meta.append(" ", warningBadge());
        if (pass.failed) meta.append(" ", failedBadge());
        button.append(app.make("span", "pass-label", pass.label), " ", passName(pass.name), " ", meta);
        button.addEventListener("click", () => app.select(p));
        item.append(button);
        fragment.append(item);
        buttons.push(button);
      });
      el.list.append(fragment);
      const changed = passes.filter(pass => pass.changed).length;
      const warned = passes.filter(pass => pass.warnings).length;
      el.summary.textContent = `${changed} of ${passes.length} passes changed the IR` +
        (warned ? ` \u00b7 ${warned} with warnings` : "");
      el.filterCount.textContent = `${passes.length}/${passes.length}`;
      el.changed.addEventListener("change", applyFilters);
      el.noop.addEventListener("change", applyFilters);
    }

    /** The name with break opportunities between its words ("Materialize|Semantic|Aliases"): it wraps, never cut. */
    function passName(name) {
      const node = app.make("span", "pass-name");
      name.split(/(?<=[a-z0-9])(?=[A-Z])/).forEach((word, i) => {
        if (i) node.append(app.make("wbr"));
        node.append(word);
      });
      return node;
    }

    /** A badge read out by its name: "warning", or "failed" (the pipeline stopped there). */
    function badge(className, glyph, name, title) {
      const node = app.make("span", className, glyph);
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", name);
      node.title = title;
      return node;
    }
    function warningBadge() {
      return badge("badge", "!", "warning", "This pass emitted warnings");
    }

    function failedBadge() {
      return badge("badge failed", "\u2716", "failed", "This pass failed: the pipeline stopped here");
    }

    const titleOf = pass => (pass.detail ? `${pass.file}\n${pass.detail}` : pass.file);

    /** The +/− counts of each pass as `countOf(p)` gives them ({ins, del, renamedCount}). */
    function showCounts(countOf) {
      buttons.forEach((button, p) => {
        const pass = countOf(p);
        button.querySelector(".count.ins").textContent = "+" + pass.ins;
        button.querySelector(".count.del").textContent = "\u2212" + pass.del;
        button.classList.toggle("has-renamed", Boolean(pass.renamedCount));
        button.querySelector(".count.del").title = pass.renamedCount ? `${pass.renamedCount} renamed lines not counted` : "";
      });
    }

    const isVisible = p => (passes[p].changed ? el.changed.checked : el.noop.checked);
    const visible = () => passes.map((_, p) => p).filter(isVisible);

    function applyFilters() {
      const shown = visible();
      buttons.forEach((button, p) => { button.parentElement.hidden = !isVisible(p); });
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

    /** Scroll the selected button into the list's view; keyboard users in the list stay on it. Reads layout: call last. */
    function revealSelected() {
      if (!current) return;
      current.scrollIntoView({ block: "nearest" });
      if (el.list.contains(el.list.ownerDocument.activeElement)) current.focus({ preventScroll: true });
    }

    /** With a function picked, mark the passes that change it. */
    function markHistory(key) {
      buttons.forEach((button, p) => {
        const touched = key !== null && passes[p].regions.has(key);
        button.classList.toggle("touches", touched);
        button.title = touched ? `${titleOf(passes[p])}: changes ${key}` : titleOf(passes[p]);
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
        const before = hits[passes[p].before], after = hits[passes[p].after];
        badge.textContent = (after > before ? "\u25b2" : after < before ? "\u25bc" : "") + after;
        badge.className = "hits" + (after !== before ? " moved" : "") + (after ? "" : " none");
        badge.title = `${after} matching line${after === 1 ? "" : "s"} after this pass (${before} before)`;
      });
    }

    return { build, isVisible, visible, applyFilters, showAll, step, markSelected, revealSelected, markHistory, showHits, showCounts };
  }

  return { create };
})();
