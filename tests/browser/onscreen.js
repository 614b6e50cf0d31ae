// Is the current change on screen? For each visible pane: its first row of the current change (some of
// it: a wrapped line may be taller than the pane), and
// the first changed word (<del>/<ins>) in that change, checked against the pane's visible rectangle
// right of its sticky gutter. Used by test_reading.py and benchmarks/reading.py.
() => {
  const panes = [...document.querySelectorAll(".pane")].filter(p => !p.hidden);
  return panes.map(pane => {
    const scroller = pane.querySelector(".scroller");
    const box = scroller.getBoundingClientRect();
    const rows = [...scroller.querySelectorAll(".row.current")];
    const marker = scroller.querySelector(".row:not(.fold-row) .mk");
    const left = marker ? marker.getBoundingClientRect().right : box.left;
    const right = box.left + scroller.clientWidth, bottom = box.top + scroller.clientHeight;
    const inside = (r, wide) => r.top >= box.top - 0.5 && r.bottom <= bottom + 0.5 &&
      r.left >= left - 0.5 && r.left + Math.min(r.width, wide) <= right + 0.5;
    const mark = rows.map(row => row.querySelector("del, ins")).find(Boolean) || null;
    const first = rows.length ? rows[0].getBoundingClientRect() : null;
    return {
      pane: pane.getAttribute("aria-label"),
      rows: rows.length,
      // a pane without a line of the change (stacked Before of a pure insertion) has nothing to show
      rowOnScreen: first === null ? rows.length === 0 : first.bottom > box.top + 0.5 && first.top < bottom - 0.5,
      marked: mark !== null,
      markOnScreen: mark !== null && inside(mark.getBoundingClientRect(), 8),
      // where the mark starts in the pane's content, and the width of code one screen shows
      markX: mark === null ? null : mark.getBoundingClientRect().left - box.left + scroller.scrollLeft,
      room: right - left,
      scrollLeft: scroller.scrollLeft, scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth,
    };
  });
}
