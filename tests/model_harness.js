"use strict";
/*
 * model.js under Node, for tests/test_model_node.py: which fields of the report data the page's reader reads.
 * The scripts named on the command line run unchanged as classic scripts sharing one global scope, as the
 * page's <script> elements do. Each line of stdin is one JSON request [schema, data]; every JSON object of the
 * data that the schema declares properties for is handed to IRTraceModel.read behind a proxy that notes each
 * field read ("pass.beforeFile": the $defs entry, or the path from the one enclosing it), then everything the
 * reader defers is read too (each text's lines and source, each pass's diff, each line's spans). The reply is
 * {result: [field, ...]}, or {error, message} when the reader threw.
 */
const fs = require("fs");
const readline = require("readline");
const vm = require("vm");

for (const file of process.argv.slice(2)) vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
const Model = vm.runInThisContext("IRTraceModel");

/** value, with each object the schema (at `kind`) declares properties for behind a proxy that notes reads. */
function watched(value, schema, kind, root, read) {
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop();
    return watched(value, root.$defs[name], name, root, read);
  }
  if (Array.isArray(value)) {
    return schema.items && typeof schema.items === "object" ? value.map(item => watched(item, schema.items, kind, root, read)) : value;
  }
  if (value === null || typeof value !== "object" || !schema.properties) return value;
  const copy = {};
  for (const [key, item] of Object.entries(value)) {
    const declared = schema.properties[key];
    copy[key] = declared ? watched(item, declared, `${kind}.${key}`, root, read) : item;
  }
  return new Proxy(copy, {
    get(target, key) {
      if (typeof key === "string") read.add(`${kind}.${key}`);
      return target[key];
    },
  });
}

/** Read everything model.js defers to first use. */
function readAll(report) {
  report.lines.forEach((_, id) => { report.highlights(id); report.elisions(id); });
  const pipelines = report.pipelines.concat(report.runs ? [report.runs.pipeline] : []);
  for (const pipeline of pipelines) {
    pipeline.texts.forEach((_, t) => pipeline.source(t));
    for (const pass of pipeline.passes) [pass.pieces, pass.insertedIds, pass.byRegion, pass.paired].forEach(() => {});
  }
}

readline.createInterface({ input: process.stdin }).on("line", line => {
  const [schema, data] = JSON.parse(line);
  const read = new Set();
  let reply;
  try {
    readAll(Model.read(watched(data, schema, "report", schema, read)));
    reply = { result: [...read].sort() };
  } catch (error) {
    reply = { error: error.name, message: error.message };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
