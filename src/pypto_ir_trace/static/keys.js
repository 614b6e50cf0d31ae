"use strict";
/*
 * Keyboard shortcuts, declared once: the table below, with each panel's own where it says so (panels.js: a
 * panel registers its keys), wires the keys and builds the help dialog.
 */
const IRTraceKeys = (() => {
  /**
   * Each row: the keys (as event.key, "Shift+" for a named key with Shift) and the action each
   * runs, where they work ("page": anywhere but while typing; "search": in the search box), and
   * the help text. An action that returns false leaves the key to the browser.
   */
  const SHORTCUTS = [
    { keys: { j: "next", ArrowDown: "next" }, scope: "page", help: "Next visible pass (on a focused selector, \u2193 / \u2191 step its options)" },
    { keys: { k: "previous", ArrowUp: "previous" }, scope: "page", help: "Previous visible pass" },
    { keys: { n: "nextChange" }, scope: "page", help: "Next change in this pass, brought on screen" },
    { keys: { p: "previousChange" }, scope: "page", help: "Previous change in this pass" },
    { keys: { J: "nextForFunction" }, scope: "page", help: "Next pass that changes the picked function (\u25cf)" },
    { keys: { K: "previousForFunction" }, scope: "page", help: "Previous pass that changes the picked function (\u25cf)" },
    { keys: { PageDown: "pageDown", PageUp: "pageUp" }, scope: "page", help: "Scroll the code a page down / up" },
    { keys: { Home: "top", End: "bottom" }, scope: "page", help: "Scroll the code to its first / last line" },
    { keys: { "Alt+ArrowDown": "lineDown", "Alt+ArrowUp": "lineUp" }, scope: "page", help: "Scroll the code a line down / up" },
    { keys: { "Alt+ArrowLeft": "left", "Alt+ArrowRight": "right" }, scope: "page", help: "Scroll the code sideways" },
    { panels: true },  // the panels' keys (panels.js), in the order they register
    { keys: { "/": "search" }, scope: "page", help: "Search all passes (text or /regex/)" },
    { keys: { l: "lowering" }, scope: "page", help: "The picked function's whole lowering: its diff at every pass that changes it, on one page; again: back to the pass" },
    { keys: { Enter: "nextCountChange", "Shift+Enter": "previousCountChange" }, scope: "search",
      help: "In the search: next / previous pass that changes the match count" },
    { keys: { Escape: "clearSearch" }, scope: "search", help: "In the search: clear it" },
    { keys: { "?": "help" }, scope: "page", help: "Show or hide this help" },
    { keys: { Escape: "closeHelp" }, scope: "page", help: "Close this help" },
  ];
  const SHOWN = {
    ArrowDown: "\u2193", ArrowUp: "\u2191", Escape: "Esc", "Shift+Enter": "\u21e7 Enter", J: "Shift+J", K: "Shift+K",
    "Alt+ArrowDown": "Alt+\u2193", "Alt+ArrowUp": "Alt+\u2191", "Alt+ArrowLeft": "Alt+\u2190", "Alt+ArrowRight": "Alt+\u2192",
  };
  const NOT_TYPING = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);
  // The keys a focused closed select steps its options with (Chromium fires "change" for each): a keyboard
  // user picks a function that way. Alt with any key opens its list.
  const SELECT_KEYS = new Set(["ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"]);

  /**
   * Keys belong to text fields; a focused checkbox or select is not typing. A focused select keeps the
   * keys it steps its options with (SELECT_KEYS) and Alt+key, while letters stay shortcuts (its find-as-
   * you-type gives way), so j / k change pass right after picking; an open select's popup gets the keys first.
   */
  function isTyping(target) {
    if (!target || target.nodeType !== 1) return false;
    if (target.isContentEditable || target.tagName === "TEXTAREA") return true;
    return target.tagName === "INPUT" && !NOT_TYPING.has(target.type);
  }

  const selectOwns = event => event.target.tagName === "SELECT" && (event.altKey || SELECT_KEYS.has(event.key));

  const keyName = event => (event.altKey ? "Alt+" : "") + (event.shiftKey && event.key.length > 1 ? "Shift+" + event.key : event.key);

  /** The whole table: the panels' rows where it lists them. */
  const rows = () => SHORTCUTS.flatMap(row => (row.panels ? IRTracePanels.shortcuts() : [row]));

  /** Run `actions[name]` for the shortcuts of `scope` pressed in `target`. */
  function bind(target, scope, actions) {
    const table = new Map();
    for (const row of rows()) {
      if (row.scope === scope) for (const [key, action] of Object.entries(row.keys)) table.set(key, action);
    }
    target.addEventListener("keydown", event => {
      if (event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      if (scope === "page" && (isTyping(event.target) || selectOwns(event))) return;
      const action = table.get(keyName(event));
      if (action && actions[action](event) !== false) event.preventDefault();
    });
  }

  /** The help's list (a <dl>), built from the table. */
  function fillHelp(list) {
    const doc = list.ownerDocument;
    for (const row of rows()) {
      const term = doc.createElement("dt");
      Object.keys(row.keys).forEach((key, i) => {
        if (i) term.append(" / ");
        const kbd = doc.createElement("kbd");
        kbd.textContent = SHOWN[key] || key;
        term.append(kbd);
      });
      const text = doc.createElement("dd");
      text.textContent = row.help;
      list.append(term, text);
    }
  }

  return { rows, bind, fillHelp, isTyping };
})();
