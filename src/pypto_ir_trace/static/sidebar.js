"use strict";
/*
 * The pass list's width, chosen by the reader: a separator between the list and the diff, dragged with
 * the mouse or moved with the arrow keys (Home / End: narrowest / widest), remembered across reports.
 */
const IRTraceSidebar = (() => {
  const WIDTH_KEY = "pypto-ir-trace-sidebar-width";
  const MIN = 200, STEP = 16;

  function create(app) {
    const { el } = app;
    const handle = el.resizer;
    const doc = handle.ownerDocument, win = doc.defaultView;
    const max = () => Math.max(MIN, Math.round(win.innerWidth * 0.6));
    const width = () => Math.round(el.sidebar.getBoundingClientRect().width);

    function set(px, remember) {
      const value = Math.min(Math.max(Math.round(px), MIN), max());
      doc.documentElement.style.setProperty("--sidebar-width", value + "px");
      handle.setAttribute("aria-valuenow", String(value));
      handle.setAttribute("aria-valuemax", String(max()));
      if (remember) try { win.localStorage.setItem(WIDTH_KEY, String(value)); } catch { /* storage may be off for file:// */ }
    }

    function sync() {
      handle.setAttribute("aria-valuemin", String(MIN));
      handle.setAttribute("aria-valuemax", String(max()));
      handle.setAttribute("aria-valuenow", String(width()));
    }

    handle.addEventListener("keydown", event => {
      const moves = { ArrowLeft: width() - STEP, ArrowRight: width() + STEP, Home: MIN, End: max() };
      if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();  // Home / End here size the list, not scroll the code
      set(moves[event.key], true);
    });
    handle.addEventListener("pointerdown", event => {
      if (event.button !== 0) return;
      event.preventDefault();
      handle.setPointerCapture(event.pointerId);
      const start = event.clientX, from = width();
      const move = moved => set(from + moved.clientX - start, false);
      const end = () => {
        handle.removeEventListener("pointermove", move);
        set(width(), true);
        handle.focus({ preventScroll: true });
      };
      handle.addEventListener("pointermove", move);
      handle.addEventListener("lostpointercapture", end, { once: true });
    });
    win.addEventListener("resize", sync);

    let saved = null;
    try { saved = Number(win.localStorage.getItem(WIDTH_KEY)); } catch { /* storage may be off for file:// */ }
    if (saved) set(saved, false);
    else sync();
    return { set };
  }

  return { create };
})();
