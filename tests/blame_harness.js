"use strict";
/*
 * The page's line history under Node, for tests/test_blame_node.py: the viewer's pure scripts named on the
 * command line run unchanged as classic scripts sharing one global scope, as the page's <script> elements do.
 * Each line of stdin is one JSON request {report, pipeline, renumber} (a report's JSON, model.py's to_json) and
 * gets one JSON line back: for every snapshot of the pipeline (the input, then each pass's after), for every
 * line, its chain [[pass, how, text, renamed passes], ...] newest first and its gutter origin; or {error, message}.
 */
const fs = require("fs");
const readline = require("readline");
const vm = require("vm");

for (const file of process.argv.slice(2)) vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
const Model = vm.runInThisContext("IRTraceModel");
const Blame = vm.runInThisContext("IRTraceBlame");
const Renumber = vm.runInThisContext("IRTraceRenumber");

function histories({ report: raw, pipeline: index, renumber }) {
  const report = Model.read(raw);
  const pipeline = report.pipelines[index || 0];
  const seen = new Map();
  const diffOf = p => {
    if (!renumber) return pipeline.passes[p];
    if (!seen.has(p)) seen.set(p, Renumber.ignoring(pipeline.passes[p]));
    return seen.get(p);
  };
  const blame = Blame.create({ passes: pipeline.passes, diffOf, ids: pipeline.ids, lines: report.lines, inputText: pipeline.input.text });
  const snapshots = [pipeline.input.text, ...pipeline.passes.map(pass => pass.after)];
  return snapshots.map((t, s) => Array.from(pipeline.ids(t), (_, line) => ({
    chain: blame.chain(s - 1, line).map(step => [step.pass, step.how, report.lines[step.id], step.renamed]),
    origin: blame.origin(s - 1, line),
  })));
}

readline.createInterface({ input: process.stdin }).on("line", line => {
  let reply;
  try {
    reply = { result: histories(JSON.parse(line)) };
  } catch (error) {
    reply = { error: error.name, message: error.stack };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
