// Is the current change on screen? For each visible pane: its first row of the current change (some of
// it: a wrapped line may be taller than the pane), near the top, and
// the first changed word (<del>/<ins>) on the change's rows the screen shows, checked against the pane's visible rectangle
// right of its sticky gutter; the start of that word's line (its first character that is not a space) on
// screen with it; and whether the change's rows on screen show any of their text at this sideways scroll.
// Used by test_reading.py and benchmarks/reading.py.
() => {
  const panes = [...document.querySelectorAll(".pane")].filter(p => !p.hidden);
  // The box of a code element's first character that is not white space (null: a blank line).
  const lineStart = code => {
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.data.search(/\S/);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      return range.getBoundingClientRect();
    }
    return null;
  };
  const textBox = code => {
    const range = document.createRange();
    range.selectNodeContents(code);
    return range.getBoundingClientRect();
  };
  return panes.map(pane => {
    const scroller = pane.querySelector(".scroller");
    const box = scroller.getBoundingClientRect();
    const rows = [...scroller.querySelectorAll(".row.current")];
    const marker = scroller.querySelector(".row:not(.fold-row) .mk");
    const left = marker ? marker.getBoundingClientRect().right : box.left;
    const right = box.left + scroller.clientWidth, bottom = box.top + scroller.clientHeight;
    const inside = (r, wide) => r.top >= box.top - 0.5 && r.bottom <= bottom + 0.5 &&
      r.left >= left - 0.5 && r.left + Math.min(r.width, wide) <= right + 0.5;
    const first = rows.length ? rows[0].getBoundingClientRect() : null;
    const shown = rows.filter(row => {
      const r = row.getBoundingClientRect();
      return r.bottom > box.top + 0.5 && r.top < bottom - 0.5;
    });
    const mark = shown.map(row => row.querySelector("del, ins")).find(Boolean) || null;
    const start = mark ? lineStart(mark.closest(".code")) : null;
    const lines = rows.filter(row => !row.classList.contains("filler")).map(row => row.querySelector(".code")).filter(Boolean)
      .map(textBox).filter(r => r.bottom > box.top + 0.5 && r.top < bottom - 0.5 && r.width > 0);
    return {
      pane: pane.getAttribute("aria-label"),
      rows: rows.length,
      // a pane without a line of the change (stacked Before of a pure insertion) has nothing to show
      rowOnScreen: first === null ? rows.length === 0 : first.bottom > box.top + 0.5 && first.top < bottom - 0.5,
      // the change starts in the top half (with a few rows of context above it), or the pane ends below it
      rowNearTop: first === null ? rows.length === 0 : first.top >= box.top - 0.5 &&
        (first.top < box.top + scroller.clientHeight / 2 || scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1),
      marked: mark !== null,
      markOnScreen: mark !== null && inside(mark.getBoundingClientRect(), 8),
      startOnScreen: start !== null && inside(start, 1),
      // some text of the change's rows on screen shows right of the gutter: none means empty coloured bars
      changedTextShown: lines.length === 0 || lines.some(r => r.right > left + 0.5 && r.left < right - 0.5),
      // where the mark starts in the pane's content, and the width of code one screen shows
      markX: mark === null ? null : mark.getBoundingClientRect().left - box.left + scroller.scrollLeft,
      markWidth: mark === null ? null : mark.getBoundingClientRect().width,
      room: right - left,
      scrollLeft: scroller.scrollLeft, scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth,
    };
  });
}
