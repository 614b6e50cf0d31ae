// Is the current change on screen, at column 0? For each visible pane: its sideways scroll; the change's first
// row (some of it: a row shown whole may be taller than the pane) near the top; its changed words (<del>/<ins>)
// on the rows the screen shows, each checked against the pane's visible rectangle right of its sticky gutter
// (every line box of a word that wraps); its rows changed as a whole (data-changed="line": no word marks) that
// the right edge cuts; and, unless lines wrap, its unchanged rows taller than one row. Used by test_reading.py,
// test_first_sight.py and benchmarks/reading.py.
() => {
  const panes = [...document.querySelectorAll(".pane")].filter(p => !p.hidden);
  return panes.map(pane => {
    const scroller = pane.querySelector(".scroller");
    const box = scroller.getBoundingClientRect();
    const rows = [...scroller.querySelectorAll(".rows > .row.current")];
    const marker = scroller.querySelector(".row:not(.fold-row) .mk");
    const left = marker ? marker.getBoundingClientRect().right : box.left;
    const right = box.left + scroller.clientWidth, bottom = box.top + scroller.clientHeight;
    const across = r => r.left >= left - 0.5 && r.right <= right + 0.5;  // horizontally inside the code column
    const down = r => r.bottom > box.top + 0.5 && r.top < bottom - 0.5;  // some of it within the visible height
    const first = rows.length ? rows[0].getBoundingClientRect() : null;
    const shown = rows.filter(row => down(row.getBoundingClientRect()));
    // a changed word on screen: each of its line boxes within the visible height lies inside the code column
    const words = shown.flatMap(row => [...row.querySelectorAll("del, ins")])
      .map(mark => [...mark.getClientRects()].filter(r => r.width > 0 && down(r)))
      .filter(rects => rects.length);
    const firstMark = shown.map(row => row.querySelector("del, ins")).find(Boolean) || null;
    const whole = shown.filter(row => row.dataset.changed === "line");  // inserted, deleted, or without word marks
    const wrap = scroller.closest(".diff").classList.contains("wrap");  // Wrap lines: every row may be taller
    const equal = wrap ? [] : [...scroller.querySelectorAll(".rows > .row.eq")].filter(row => down(row.getBoundingClientRect()));
    return {
      pane: pane.getAttribute("aria-label"),
      rows: rows.length,
      // a pane without a line of the change (stacked Before of a pure insertion) has nothing to show
      rowOnScreen: first === null ? rows.length === 0 : down(first),
      // the change starts in the top half (with a few rows of context above it), or the pane ends below it
      rowNearTop: first === null ? rows.length === 0 : first.top >= box.top - 0.5 &&
        (first.top < box.top + scroller.clientHeight / 2 || scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1),
      marked: firstMark !== null,
      markOnScreen: firstMark !== null && [...firstMark.getClientRects()].some(r => r.width > 0 && down(r) && across(r)),
      words: words.length,
      wordsOnScreen: words.filter(rects => rects.every(across)).length,
      // rows of the change with no word marks (inserted, deleted, or too different for word marks) cut at the edge
      changedRowsCut: whole.filter(row => row.classList.contains("cut")).length,
      taller: equal.filter(row => row.getBoundingClientRect().height > 20.5).length,
      scrollLeft: scroller.scrollLeft, scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth,
    };
  });
}
