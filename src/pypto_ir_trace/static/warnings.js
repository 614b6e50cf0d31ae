"use strict";
/*
 * The warnings panel: the pass's .log text, built a chunk at a time as it scrolls into view (a log of
 * 20,000 lines costs a pass switch only its first chunk); a log line that names a line of the
 * snapshot is a button that shows that line, one that names a line past the end says so. Errors are told
 * apart from warnings (the format reads the severity: errorLines): named in the heading, each marked.
 */
const IRTraceWarnings = (() => {
  const PAST_ANY_SNAPSHOT = 2 ** 31;  // builder.py stores any larger line number a log names as this one
  const CHUNK = 200;  // log lines built at once; the panel shows about a dozen

  function create(app) {
    const { el, pipeline, state } = app;
    const doc = el.warnings.ownerDocument;
    const split = new Map();  // pass index -> its log's lines, split once
    const more = app.make("span", "warnings-more");  // at the end of what is built; in view, the next chunk follows
    const observer = new doc.defaultView.IntersectionObserver(
      entries => { if (entries.some(entry => entry.isIntersecting)) build(); },
      { root: el.warnings, rootMargin: "0px 0px 200px 0px" },
    );
    let shown = null;  // {pass, lines, target: Map(log line -> snapshot line), length, built}
    // Whether the reader scrolled the log: only then does the next one need scrolling back to its top
    // (assigning scrollTop lays the page out there and then, in the middle of a pass switch).
    let scrolled = false;
    el.warnings.addEventListener("scroll", () => { scrolled = el.warnings.scrollTop > 0; }, { passive: true });

    /** Show the log of a pass (or of a comparison: the warnings are its after snapshot's). */
    function show(pass) {
      observer.disconnect();
      more.remove();
      el.warningsText.replaceChildren();
      el.warnings.hidden = !pass.warnings;
      if (scrolled) el.warnings.scrollTop = 0;
      scrolled = false;
      shown = null;
      if (!pass.warnings) return;
      if (!split.has(pass.index)) split.set(pass.index, pass.warnings.split("\n"));
      const errors = new Set(pass.errorLines || []);
      title(el.warnings, errors.size);
      shown = {
        pass, lines: split.get(pass.index), built: 0, errors,
        target: new Map(pass.anchors.map(anchor => [anchor.logLine, anchor.line])),
        length: pipeline.ids(pass.after).length,
      };
      build();
    }

    function build() {
      if (!shown) return;
      const { lines } = shown;
      const end = Math.min(lines.length, shown.built + CHUNK);
      const fragment = doc.createDocumentFragment();
      for (let index = shown.built; index < end; index++) fragment.append(logLine(index, index < lines.length - 1 ? "\n" : ""));
      shown.built = end;
      observer.unobserve(more);
      more.remove();
      el.warningsText.append(fragment);
      if (end < lines.length) {
        el.warningsText.append(more);
        observer.observe(more);
      }
    }

    function logLine(index, ending) {
      const { pass, target, length } = shown;
      const text = shown.lines[index], error = shown.errors.has(index);
      if (!target.has(index) && !error) return doc.createTextNode(text + ending);
      const row = app.make("span", error ? "log-error" : "");
      const line = target.has(index) ? target.get(index) : -1;
      if (line < 0) {
        row.append(text);
      } else if (line >= length) {  // the log names a line the snapshot does not have: nothing to show
        row.append(text, app.make("span", "warning-missing",
          ` \u2014 ${line < PAST_ANY_SNAPSHOT ? `line ${line + 1}` : "that line"} is not in ${pass.file} ` +
          `(${length} line${length === 1 ? "" : "s"})`));
      } else {
        const button = app.make("button", "warning-line", text);
        button.type = "button";
        button.title = `Show line ${line + 1} of ${pass.file}`;
        button.addEventListener("click", () => showAfterLine(line));
        row.append(button);
      }
      row.append(ending);
      return row;
    }

    /** Show an after line: in the current view if it has it, else in the whole file. */
    function showAfterLine(line) {
      if (app.panes.rowOfAfterLine(line) < 0 && state.key !== null) app.pickFunction(null);
      app.panes.reveal(app.panes.rowOfAfterLine(line));
    }

    function clear() {
      observer.disconnect();
      shown = null;
      el.warnings.hidden = true;
      el.warningsText.replaceChildren();
    }

    return { show, clear };
  }

  /** The panel's heading and name: the errors counted, when the pass reported any. */
  function title(panel, errors) {
    panel.querySelector("h3").textContent = errors
      ? `${errors} error${errors === 1 ? "" : "s"} emitted by this pass` : "Warnings emitted by this pass";
    panel.classList.toggle("errors", errors > 0);
    panel.setAttribute("aria-label", errors ? "Errors" : "Warnings");
  }

  return { create };
})();
