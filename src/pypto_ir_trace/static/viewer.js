"use strict";
/*
 * The viewer's one entry point: IRTraceViewer.start(root, data) reads the data through model.js and owns
 * what the whole page shares (theme, help, keys, links); through pipelines.js it shows the chosen pipeline
 * with the viewer of one pipeline (app.js). A report of two runs shows its aligned rows as its one pipeline,
 * seen in the views of two runs (runs.js) instead of the single-run view (onerun.js).
 */
const IRTraceViewer = (() => {
  const THEME_KEY = "pypto-ir-trace-theme";

  /** root: the document (or element) holding the report's markup; data: the inflated JSON. */
  function start(root, data) {
    const read = IRTraceModel.read(data);
    const report = read.runs ? { ...read, pipelines: [read.runs.pipeline] } : read;  // two runs: the rows alone
    const doc = root.ownerDocument || root;
    const win = doc.defaultView;
    const $ = id => root.querySelector("#" + id);
    const el = { help: $("help"), helpKeys: $("help-keys"), helpToggle: $("help-toggle"), theme: $("theme-toggle") };
    const linked = win.location.hash;  // before any view rewrites it
    const pipelines = IRTracePipelines.create(root, report, (index, carried, rebuild) => IRTraceApp.create(root, report, index, carried, rebuild));
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
      lowering: () => app().toggleView("lowering"),
      nextChange: () => app().stepChange(1),
      previousChange: () => app().stepChange(-1),
      ...Object.fromEntries(IRTraceFollowing.ACTIONS.map(name => [name, () => app().following.actions[name]()])),
      ...IRTracePanels.actions(app),  // the panels' keys (panels.js)
      help: () => toggleHelp(),
      closeHelp: () => (el.help.hidden ? false : toggleHelp(false)),
    });
    // The address bar's hash, not the event's: Back may have moved past a link's navigation before its event came
    // (a delayed link write never replaces a hash the page has not followed yet: app.js, writeLink).
    win.addEventListener("hashchange", () => pipelines.follow(win.location.hash));
    if (!pipelines.follow(linked)) app().selectFirst();
    app().opened();
  }

  return { start };
})();
