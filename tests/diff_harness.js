"use strict";
/*
 * The viewer's diff scripts under Node, for tests/test_diff_node.py: the scripts named on the command line
 * run unchanged as classic scripts sharing one global scope, as the page's <script> elements do. Then each
 * line of stdin is one JSON request [operation, cases] and gets one JSON line back: {result: [...]}, one
 * answer per case, or {error, message} when the code threw.
 */
const fs = require("fs");
const readline = require("readline");
const vm = require("vm");

for (const file of process.argv.slice(2)) vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
const Linediff = vm.runInThisContext("IRTraceLinediff");
const Compare = vm.runInThisContext("IRTraceCompare");

const OPERATIONS = {
  diff: ([b, a, limits]) => Linediff.diff(b, a, limits),
  compareIds: ([beforeIds, beforeText, afterIds, afterText, limits]) =>
    Compare.compareIds(beforeIds, beforeText, afterIds, afterText, limits),
};

readline.createInterface({ input: process.stdin }).on("line", line => {
  const [operation, cases] = JSON.parse(line);
  let reply;
  try {
    reply = { result: cases.map(OPERATIONS[operation]) };
  } catch (error) {
    reply = { error: error.name, message: error.message };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
