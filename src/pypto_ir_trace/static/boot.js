"use strict";
/* The page's bootstrap: inflate the report data, start the viewer, say so if the data cannot be read. */
(async () => {
  let data;
  try {
    data = await loadReportData(document.getElementById("report-data"));
  } catch (err) {
    const empty = document.getElementById("empty-state");
    empty.hidden = false;
    empty.textContent = `This report's data could not be read (${err.message}). ` +
      "It needs a current browser (Chromium 80+, Firefox 113+, Safari 16.4+).";
    document.getElementById("diff").hidden = true;
    return;
  }
  IRTraceViewer.start(document, data);
  document.body.dataset.ready = "true";
})();
