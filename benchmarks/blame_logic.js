"use strict";
/*
 * The line history's own work, under Node, for benchmarks/blame.py --logic: the viewer's pure scripts (named on
 * the command line) run as the page runs them, on a report's data (a JSON file). Prints one JSON object:
 * milliseconds of chain() per line (each in a fresh engine: its block tables built again) and of origin() for a
 * screen of 66 consecutive lines (each screen in a fresh engine: nothing remembered), at the last pass.
 */
const fs = require("fs");
const vm = require("vm");

const [data, ...scripts] = process.argv.slice(2);
for (const file of scripts) vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
const Model = vm.runInThisContext("IRTraceModel");
const Blame = vm.runInThisContext("IRTraceBlame");

const report = Model.read(JSON.parse(fs.readFileSync(data, "utf8")));
const pipeline = report.pipelines[0];
const last = pipeline.passes.length - 1;
const engine = () => Blame.create({ passes: pipeline.passes, diffOf: p => pipeline.passes[p], ids: pipeline.ids,
  lines: report.lines, inputText: pipeline.input.text });
let t = performance.now();
const length = pipeline.ids(pipeline.passes[last].after).length;
const idsMs = performance.now() - t;
const SAMPLES = 20, SCREEN = 66;
const chain = [], screen = [], steps = [];
for (let i = 0; i < SAMPLES; i++) {
  const line = Math.floor((length - 1) * i / (SAMPLES - 1));
  const fresh = engine();
  t = performance.now();
  steps.push(fresh.chain(last, line).length);
  chain.push(performance.now() - t);
  const other = engine(), top = Math.min(line, length - SCREEN);
  t = performance.now();
  for (let k = 0; k < SCREEN; k++) other.origin(last, top + k);
  screen.push(performance.now() - t);
}
process.stdout.write(JSON.stringify({ lines: length, passes: last + 1, idsMs, chain, screen, steps }) + "\n");
