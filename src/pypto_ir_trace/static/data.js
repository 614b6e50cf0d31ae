"use strict";
/*
 * The report data travels as JSON, gzip-compressed and base64-encoded, in the script element
 * #report-data (type application/octet-stream, data-encoding gzip+base64).
 * The browser inflates it natively (DecompressionStream): no network, no library.
 */
async function loadReportData(element) {
  const binary = atob(element.textContent.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(inflated).text());
}
