"use strict";
/* Copying a text byte for byte (the Clipboard API, else the copy command), and the confirmation on its button. */
const IRTraceClipboard = (() => {
  function create(doc) {
    /** Whether the text reached the clipboard. */
    async function copy(text) {
      const clipboard = doc.defaultView.navigator.clipboard;
      if (clipboard && clipboard.writeText) {
        try {
          await clipboard.writeText(text);
          return true;
        } catch {
          // e.g. permission refused for file://: the copy command below still works
        }
      }
      return copyWithEvent(text);
    }

    /**
     * The copy command with our own data: unlike copying a selected textarea, whose value turns \r\n
     * into \n, the copy event's clipboardData takes the text byte for byte.
     */
    function copyWithEvent(text) {
      let handled = false;
      const onCopy = event => {
        event.clipboardData.setData("text/plain", text);
        event.preventDefault();
        handled = true;
      };
      doc.addEventListener("copy", onCopy, true);
      try {
        doc.execCommand("copy");
      } catch {
        handled = false;
      } finally {
        doc.removeEventListener("copy", onCopy, true);
      }
      return handled;
    }

    /** A short confirmation on the button itself; its accessible name (aria-label) stays the same. */
    const flashTimers = new WeakMap();
    function flash(button, text) {
      clearTimeout(flashTimers.get(button));
      button.textContent = text;
      button.classList.add("done");
      flashTimers.set(button, setTimeout(() => {
        button.textContent = button.dataset.text;
        button.classList.remove("done");
      }, 1800));
    }

    return { copy, flash };
  }

  return { create };
})();
