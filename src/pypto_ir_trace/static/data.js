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
  // A stream of the bytes themselves, not of a Blob: a Blob is read back through the browser process, which
  // cost a report a quarter of a second before it showed (more on a busy machine).
  const source = new ReadableStream({ start(controller) { controller.enqueue(bytes); controller.close(); } });
  return new Response(source.pipeThrough(new DecompressionStream("gzip"))).text();
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
