"use strict";
/*
 * What is shown beside the diff: the one seam between the viewer and its panels, as views.js is for views.
 *
 * A view decides what each pass shows; a *panel* adds something of its own over whichever view is current:
 * the pipeline map (map.js, shown in place of the diff), the line history and the Blame gutter (blamepanel.js),
 * following a name (namepanel.js). A new panel is one file that calls register, listed in scripts.json with
 * its stylesheet ("css": render.py inlines it with the page's); its markup (its control and its element) is
 * the page's template's, found by id.
 *
 * IRTracePanels.register({name, button, keys, link, carries, create}), once per panel; the help lists their
 * keys in the order registered:
 *   name          what the panel is called: app.panels.get(name) is the one made for the pipeline shown (a panel
 *                 may use another's answers by name: the line history lists the names following a name takes)
 *   button        the id of its control in the page's markup (a toggle, a checkbox), or null: create gets it
 *   keys          [{keys: {KEY: action}, help}]: page shortcuts (keys.js' table, whose help lists them), each
 *                 running panel[action]() of the pipeline shown
 *   link          its name in links (NAME=1 while on), or null: state.panels[NAME] is what the panel keeps
 *                 there; follow(on) gets a link's, after the link's pass is shown
 *   carries       whether the viewer of the next pipeline chosen starts with it as this one has it (follow)
 *   create(app, button)  the panel of one pipeline's viewer (app.js). It reads the app (el, state, report,
 *                 pipeline, passes, make, shown, counted, source, beforeFile, panes, passList) and acts through its
 *                 verbs (select, open, pickFunction, setBase, announce, forgetStatus, writeLink, repaint,
 *                 allPanes); it writes only state.panels[link] of the app's own
 *
 * A panel answers, each answer optional:
 *   follow(on)    a link's state (or the one carried): on or off
 *   shown(p)      after the viewer showed pass p (-1: none)
 *   marks(id, marks)  the marks of line id in the panes, given those before it (the search's, null: none): its
 *                 own joined in. marking(): whether it marks anything now (the panes then paint marks)
 *   gutter(side, line)  the gutter's label of a line of the pass shown ({text, title, hue}), or null: the first
 *                 panel's answer that is not null
 *   and the actions its keys name.
 *
 * Why a seam: the viewer asks every panel the same questions at the moments it chooses, and a panel's key,
 * link and control are written once, here where it registers, not in the viewer, the keys, the state and the
 * template's scripts.
 */
const IRTracePanels = (() => {
  const registered = [];

  function register(panel) {
    registered.push(panel);
  }

  /** keys.js' rows of every panel's shortcuts: each action named "PANEL.action". */
  const shortcuts = () => registered.flatMap(({ name, keys }) => (keys || []).map(row => ({
    keys: Object.fromEntries(Object.entries(row.keys).map(([key, action]) => [key, `${name}.${action}`])),
    scope: "page", help: row.help,
  })));

  /** Those actions, each run on the panel of the viewer `current()` gives. */
  const actions = current => Object.fromEntries(registered.flatMap(({ name, keys }) => (keys || []).flatMap(row =>
    Object.values(row.keys).map(action => [`${name}.${action}`, () => current().panels.get(name)[action]()]))));

  /** Every panel made for one pipeline's viewer, and the questions the viewer asks them all. */
  function create(app) {
    const root = app.el.root;
    const made = registered.map(spec => {
      if (spec.link) app.state.panels[spec.link] = false;
      return { spec, panel: spec.create(app, spec.button ? root.querySelector("#" + spec.button) : null) };
    });
    const answering = question => made.filter(({ panel }) => panel[question]);
    return {
      get: name => made.find(({ spec }) => spec.name === name).panel,
      shown: p => answering("shown").forEach(({ panel }) => panel.shown(p)),
      marks: (id, marks) => answering("marks").reduce((found, { panel }) => panel.marks(id, found), marks),
      marking: () => answering("marking").some(({ panel }) => panel.marking()),
      gutter: (side, line) => {
        for (const { panel } of answering("gutter")) {
          const label = panel.gutter(side, line);
          if (label !== null) return label;
        }
        return null;
      },
      /** A link's fragment: each linked panel follows its NAME=1. */
      follow: hash => {
        const params = new URLSearchParams(hash.replace(/^#/, ""));
        for (const { spec, panel } of made) if (spec.link) panel.follow(params.get(spec.link) === "1");
      },
      /** What the next pipeline's viewer starts with: {link: on} of the panels that carry. */
      carry: () => Object.fromEntries(made.filter(({ spec }) => spec.link && spec.carries).map(({ spec }) => [spec.link, app.state.panels[spec.link]])),
      carried: carried => {
        for (const { spec, panel } of made) if (spec.link && carried[spec.link]) panel.follow(true);
      },
    };
  }

  return { register, shortcuts, actions, create };
})();
