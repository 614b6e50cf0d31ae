"use strict";
/* The viewer's bootstrap: inflate the report data, start the viewer, say so if the data cannot be read. */
(async () => {
  let data;
  try {
    data = await loadReportData(document.getElementById("report-data"));
    IRTraceModel.check(data);
  } catch (err) {
    showUnreadable("data", err);
    return;
  }
  IRTraceViewer.start(document, data);
  document.body.dataset.ready = "true";
})();
