"use strict";
/*
 * Two runs seen through the filters (filters.js; this file ships in reports of two runs only): both runs'
 * pipelines filtered as filtered.js filters one, then every row of the runs decided again on the filtered texts,
 * as runs.py decides it on the printed ones: whether the runs are identical after the row, their diff's counts
 * (by function, by op), and whether the row's pass made the same edit in both runs (effect.js). A row whose runs
 * differ only in what is hidden is identical; a pass whose edits differ only there has the same effect.
 * The value names renamed between the runs are the builder's pairs, kept where both lines still show.
 * Pure, and cut in steps as filtered.js is: start(...).step() until it returns true, then result().
 */
const IRTraceFilteredRuns = (() => {
  const KEPT = 4;  // texts of the runs diffed across, kept: a pass's input pair is the previous row's output pair
  const { filteredOps, sameIds } = IRTraceFiltered;

  /** The filters either run offers, once each by name. */
  function offered(runs) {
    const byName = new Map();
    for (const filter of [...runs.ours.filters, ...runs.theirs.filters]) if (!byName.has(filter.name)) byName.set(filter.name, filter);
    return [...byName.values()];
  }

  /** The work of filtering the two runs of `report` by the filters named: {total, done(), step(), result()}. */
  function start(report, names) {
    const { runs } = report;
    const table = IRTraceFiltered.lineTable(report, offered(runs).filter(f => names.includes(f.name)));
    const works = [runs.ours, runs.theirs].map(pipeline => IRTraceFiltered.filtering(report, pipeline, table, names));
    const order = [runs.decided.inputs, ...runs.decided.rows];  // as the builder decided them: the inputs' row first
    let tabled = false, piped = 0, deciding = null;
    const rows = [];
    return {
      total: 1 + works[0].total + works[1].total + order.length,
      done: () => (tabled ? 1 : 0) + works[0].done() + works[1].done() + rows.length,
      step() {
        if (!tabled) tabled = table.step();
        else if (piped < 2) { if (works[piped].step()) piped++; }
        else if (!deciding) deciding = decider(report, works[0].result(), works[1].result(), table.lines);
        else if (rows.length < order.length) rows.push(deciding(order[rows.length]));
        else return true;
        return false;
      },
      result() {
        const [inputs, ...decided] = rows;
        const first = decided.findIndex(row => !row.identical);
        const reconverged = decided.flatMap((row, r) => (row.identical && !(r ? decided[r - 1] : inputs).identical ? [r] : []));
        const filtered = IRTraceModel.runsOf(deciding.ours, deciding.theirs, inputs, decided, first < 0 ? null : first, reconverged, report.limits);
        return IRTraceFiltered.seen(report, table, names, { pipelines: [filtered.pipeline], runs: filtered });
      },
    };
  }

  /**
   * decide(row): a row of the runs as the builder decided it (model.js's reading; the inputs' row has neither
   * pass) decided again on the filtered pipelines `ours` and `theirs`. Rows are decided in order: each run's
   * text after a row is the one before it unless the row's pass runs in it.
   */
  function decider(report, ours, theirs, lines) {
    const { runs, limits } = report;
    const offset = ours.texts.length;
    const ids = t => (t < offset ? ours.ids(t) : theirs.ids(t - offset));
    const across = IRTraceModel.comparing(ids, [...ours.texts, ...theirs.texts], limits);
    const kept = new Map();  // "ours:theirs" -> {diff (null: identical), lineup}, the latest KEPT
    const words = new Map();
    const differ = (old, now) => {
      const key = `${old}:${now}`;
      if (!words.has(key)) words.set(key, IRTraceEffect.words(lines[old], lines[now], limits));
      return words.get(key);
    };
    let at = [0, 0];

    /** This run's text t_ours against the baseline's t_theirs. */
    function pair(tOurs, tTheirs) {
      const key = `${tOurs}:${tTheirs}`;
      if (!kept.has(key)) {
        const diff = sameIds(ours.ids(tOurs), theirs.ids(tTheirs)) ? null : across(offset + tTheirs, tOurs);
        kept.set(key, { diff, lineup: null });
        if (kept.size > KEPT) kept.delete(kept.keys().next().value);
      }
      const found = kept.get(key);
      if (!found.lineup) found.lineup = IRTraceEffect.lineup(found.diff && found.diff.pieces, ours.ids(tOurs).length);
      return found;
    }

    function effect(mine, other) {
      const own = ours.passes[mine], base = theirs.passes[other];
      if (!own.changed && !base.changed) return { same: true, facing: null, differing: [] };  // neither changed anything
      const [rawOwn, rawBase] = [runs.ours.passes[mine], runs.theirs.passes[other]];
      const side = (pipeline, pass, raw) => ({
        hunks: pass.changed ? IRTraceEffect.hunks(pass.pieces) : [], before: pipeline.ids(raw.before), after: pipeline.ids(raw.after),
      });
      const sides = [side(ours, own, rawOwn), side(theirs, base, rawBase)];
      if (sameIds(sides[0].before, sides[1].before) && sameIds(sides[0].after, sides[1].after)) {
        return { same: true, facing: null, differing: [] };  // the same text made into the same text
      }
      const inputs = pair(rawOwn.before, rawBase.before).lineup, outputs = pair(rawOwn.after, rawBase.after).lineup;
      return IRTraceEffect.compare(...sides, inputs, outputs, differ);
    }

    function decide(row) {
      if (row.this !== null) at = [runs.ours.passes[row.this].after, at[1]];
      if (row.baseline !== null) at = [at[0], runs.theirs.passes[row.baseline].after];
      const { diff } = pair(...at);
      const [mine, base] = [ours.kept(at[0]), theirs.kept(at[1])];
      const verdict = row.this !== null && row.baseline !== null ? effect(row.this, row.baseline) : null;
      return {
        this: row.this, baseline: row.baseline, identical: !diff,
        inserted: diff ? diff.inserted : 0, deleted: diff ? diff.deleted : 0,
        renamed: diff ? row.renamed.map(([b, a]) => [base.at[b], mine.at[a]]).filter(([b, a]) => b >= 0 && a >= 0) : [],
        sameEffect: verdict ? verdict.same : null, facing: verdict ? verdict.facing : null, differing: verdict ? verdict.differing : [],
        byRegion: diff ? diff.byRegion : new Map(), ops: diff ? filteredOps(row.ops, base, mine) : [],
      };
    }
    return Object.assign(decide, { ours, theirs });
  }

  return { start, offered };
})();
