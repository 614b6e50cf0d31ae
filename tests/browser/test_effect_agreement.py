"""Two runs decided twice, one answer: the page's filteredruns.js and effect.js, given no filter, decide every row of
real runs (whether the runs are identical after it, their diff's counts by function and by op, the renamed pairs,
whether its pass made the same edit in both runs and which hunks face which) exactly as runs.py and effect.py did
when the report was built. The page decides the rows again when filters hide lines (test_runs_filters.py); this
holds its decision to the builder's."""

from __future__ import annotations

import pytest

from dumptools import FIXTURES
from pagetools import pure_page
from pypto_ir_trace import model, programs
from pypto_ir_trace.formats import load

pytestmark = pytest.mark.browser

RUNS = FIXTURES / "runs"
CASES = {
    "pypto exp2": (RUNS / "exp2" / "this", RUNS / "exp2" / "baseline"),
    "pypto small": (RUNS / "small" / "this", RUNS / "small" / "baseline"),
    "pypto memory planners": (
        RUNS / "variants_memory_planner_dsa_rp__03_LlamaMiniProgram_explicit" / "passes_dump",
        RUNS / "variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit" / "passes_dump",
    ),
    "llvm O2 against O1": (FIXTURES / "llvm" / "lz4-renorm-O2.txt", FIXTURES / "llvm" / "lz4-renorm-O1.txt"),
    "llvm -g against none": (FIXTURES / "llvm" / "lz4-renorm-O2-g.txt", FIXTURES / "llvm" / "lz4-renorm-O2.txt"),
    "mlir tree against stream": (
        FIXTURES / "mlir" / "multi_func" / "tree_dir",
        FIXTURES / "mlir" / "multi_func" / "stream.txt",
    ),
}

DECIDE = """([data, names]) => {
  const report = IRTraceModel.read(data);
  const work = IRTraceFilteredRuns.start(report, names);
  while (!work.step()) {}
  const seen = runs => ({
    firstDivergent: runs.firstDivergent, reconverged: runs.reconverged,
    rows: runs.rows.map(({ row }) => ({
      this: row.this, baseline: row.baseline, identical: row.identical, inserted: row.inserted, deleted: row.deleted,
      renamed: row.renamed, sameEffect: row.sameEffect, facing: row.facing, differing: row.differing,
      byRegion: [...row.byRegion].map(([key, { inserted, deleted }]) => [key, inserted, deleted]).sort(),
      ops: row.ops,
    })),
  });
  return { built: seen(report.runs), decided: seen(work.result().runs) };
}"""


@pytest.fixture(scope="module")
def page(browser, pure_scripts):
    with pure_page(browser, pure_scripts, "effect agreement") as page:
        yield page


def runs_json(this, baseline) -> dict:
    return model.to_json(programs.build_pair(load(str(this)), load(str(baseline)), 3))


@pytest.mark.parametrize("case", CASES)
def test_the_page_decides_every_row_as_the_builder_did(page, case):
    found = page.evaluate(DECIDE, [runs_json(*CASES[case]), []])
    assert found["decided"] == found["built"]
    rows = found["built"]["rows"]
    assert any(not row["identical"] for row in rows)  # runs that differ somewhere: there is something to decide


def test_the_cases_hold_every_kind_of_verdict(page):
    """Between them: a different effect with hunks facing others than their own, the same effect on inputs that
    differ, renamed pairs, counts by op."""
    rows = [row for case in CASES.values() for row in page.evaluate(DECIDE, [runs_json(*case), []])["built"]["rows"]]
    assert any(row["sameEffect"] is False and row["facing"] for row in rows)
    assert any(row["sameEffect"] is True and not row["identical"] for row in rows)
    assert any(row["renamed"] for row in rows) and any(row["ops"] for row in rows)
