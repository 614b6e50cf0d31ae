"use strict";
/*
 * The pass list's window: of the passes listed, only those near the list's scroll position are in the DOM,
 * the rest stand in as room of their height above and below them (viewer.css: the list's ::before and ::after;
 * measured once seen, estimated before). An LLVM dump lists 10,000 passes; laying them all out cost its report
 * 3 s before it showed (and the same on every filter change).
 */
const IRTracePassWindow = (() => {
  const ESTIMATE = 26;  // an unseen entry's height: one line (viewer.css .pass min-height)
  const OVERSCAN = 200;  // entries kept in the DOM beyond the list's height on each side: a list of a few hundred is whole

  /** list: the <ol>; itemOf(p): pass p's <li>, built by the pass list. */
  function create(list, itemOf) {
    let shown = [];  // the passes listed, in order
    let offsets = [0];  // offsets[i]: the top of shown[i] below the list's first entry; offsets[n]: all of them
    let first = 0, last = 0;  // shown[first, last) are in the DOM
    const heights = new Map();  // pass -> its entry's measured height
    let frame = 0;
    list.addEventListener("scroll", () => {
      if (!frame) frame = list.ownerDocument.defaultView.requestAnimationFrame(() => { frame = 0; render(); });
    });

    /** The offsets of the entries listed: an entry not yet seen is as tall as the mean of those seen. */
    function measureAll() {
      let sum = 0;
      heights.forEach(h => { sum += h; });
      const estimate = heights.size ? sum / heights.size : ESTIMATE;
      offsets = [0];
      shown.forEach(p => offsets.push(offsets[offsets.length - 1] + (heights.get(p) || estimate)));
    }

    /** The index of the entry at y (below the first entry's top): the last whose top is at or above it. */
    function indexAt(y) {
      let low = 0, high = shown.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (offsets[mid] <= y) low = mid;
        else high = mid - 1;
      }
      return Math.max(low, 0);
    }

    /** List these passes (the filters changed), where the list was scrolled; the same passes: the DOM stays. */
    function show(passes) {
      if (passes.length === shown.length && passes.every((p, i) => p === shown[i])) return render();
      shown = passes;
      measureAll();
      list.replaceChildren();
      first = last = 0;
      render();
    }

    /** Bring the entries near the scroll position into the DOM, and measure them. */
    function render() {
      const top = list.scrollTop, height = list.clientHeight, atEnd = top > 0 && top + height >= list.scrollHeight - 1;
      const from = Math.max(0, indexAt(top) - OVERSCAN);
      const to = Math.min(shown.length, indexAt(top + height) + 1 + OVERSCAN);
      place(from, to);
      remeasure(top, atEnd);
    }

    /**
     * shown[from, to) in the DOM, keeping the entries already there in place (a focused button stays focused
     * while the list scrolls). Each says its place in the whole list, for a screen reader.
     */
    function place(from, to) {
      const items = (a, b) => shown.slice(a, b).map((p, k) => numbered(itemOf(p), a + k + 1, shown.length));
      if (to <= first || from >= last) list.replaceChildren(...items(from, to));
      else {
        items(first, Math.min(from, last)).forEach(item => item.remove());
        items(Math.max(to, first), last).forEach(item => item.remove());
        if (from < first) list.prepend(...items(from, first));
        if (last < to) list.append(...items(Math.max(last, from), to));
      }
      [first, last] = [from, to];
    }

    /**
     * The heights of the entries in the DOM as laid out; the entry at the top stays where the reader saw it, and
     * a list scrolled to its end (`atEnd`) stays at its end.
     */
    function remeasure(top, atEnd) {
      const anchor = indexAt(top), into = top - offsets[anchor];
      let moved = false;
      for (let i = first; i < last; i++) {
        const h = itemOf(shown[i]).offsetHeight;
        if (h && h !== heights.get(shown[i])) { heights.set(shown[i], h); moved = true; }
      }
      if (moved) measureAll();
      list.style.setProperty("--above", `${offsets[first]}px`);
      list.style.setProperty("--below", `${offsets[shown.length] - offsets[last]}px`);
      if (!moved || !shown.length) return;
      if (atEnd) list.scrollTop = list.scrollHeight;
      else if (Math.abs(list.scrollTop - (offsets[anchor] + into)) >= 1) list.scrollTop = offsets[anchor] + into;
    }

    /** Pass p's entry in the DOM (the list scrolled near it when it was far); false if p is not listed. */
    function bring(p) {
      const i = shown.indexOf(p);
      if (i < 0) return false;
      if (i < first || i >= last) {
        list.scrollTop = offsets[i] - list.clientHeight / 2;
        render();
      }
      return true;
    }

    /** The passes whose entries are in the DOM, in order. */
    const placed = () => shown.slice(first, last);

    return { show, bring, placed };
  }

  /** The entry, saying it is the position-th of size. */
  function numbered(item, position, size) {
    item.setAttribute("aria-posinset", String(position));
    item.setAttribute("aria-setsize", String(size));
    return item;
  }

  return { create };
})();
