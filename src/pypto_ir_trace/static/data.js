"use strict";
/*
 * The report travels compressed: its data as JSON and the viewer's code, each gzip-compressed and
 * base64-encoded in a script element of type application/octet-stream (data-encoding gzip+base64).
 * The browser inflates them natively (DecompressionStream): no network, no library.
 */
async function inflateElement(element) {
  const binary = atob(element.textContent.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(inflated).text();
}

async function loadReportData(element) {
  return JSON.parse(await inflateElement(element));
}

/** Instead of the diff: why the report cannot be shown. */
function showUnreadable(what, err) {
  const empty = document.getElementById("empty-state");
  empty.hidden = false;
  empty.textContent = err.name === "SchemaError" ? `This report cannot be shown: ${err.message}.`
    : `This report's ${what} could not be read (${err.message}). ` +
      "It needs a current browser (Chromium 80+, Firefox 113+, Safari 16.4+).";
  document.getElementById("diff").hidden = true;
}
