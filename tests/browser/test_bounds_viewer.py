"""The viewer's bounds (benchmarks/bounds_viewer.py, figures in the README's bounds section): each case's input is
what its figure says it is, and each act the benchmark times does in the page what it claims, at a small size."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import bounds_viewer  # noqa: E402
import run  # noqa: E402

# case -> (size, the last pass's label or "", what the act must find on screen)
SMALL = {
    "blame": (400, "08", "a screen of"),
    "history": (12, "12", "13 steps shown"),  # the line changed by each of 12 passes, and its input form
    "name": (400, "02", "passes listed (Passes changing t__tile)"),
    "map": (20, "", "21 rows x 61 columns"),  # a row per function, a column per pass (headers included)
}


@pytest.mark.parametrize("case", SMALL)
def test_each_bounded_act_does_what_its_figure_says(open_report, tmp_path, case):
    size, last, said = SMALL[case]
    bounds_viewer.CASES[case][0](tmp_path / "dump", size)
    fragment = f"#pass={last}" if last else ""
    page = open_report(str(tmp_path / "dump" / "passes_dump"), fragment=fragment, init_script=run.INIT_SCRIPT).page
    page.wait_for_function("() => window.__afterPaint !== undefined")
    found = page.evaluate(bounds_viewer.ACTS[case][0])
    assert said in found["detail"] and found["ms"] >= 0
    if case == "name":
        marks = int(found["detail"].split()[0])  # every occurrence on screen marked: 4 a line
        assert marks > 0 and marks % 4 == 0 and "; 2 passes listed" in found["detail"]
    if case == "blame":
        assert page.locator("#scroll-after .bl").count() > 0


def test_the_cases_inputs_have_the_sizes_their_figures_name(tmp_path):
    bounds_viewer.blame(tmp_path / "blame", 1_000)
    texts = sorted((tmp_path / "blame" / "passes_dump").glob("*.py"))
    assert len(texts) == 9 and all(text.read_text().count("pl.add") == 900 for text in texts)  # 20 functions x 45
    bounds_viewer.name(tmp_path / "name", 1_000)
    last = sorted((tmp_path / "name" / "passes_dump").glob("*.py"))[-1].read_text()
    assert last.count("t__tile") == 1_000
    bounds_viewer.pipeline_map(tmp_path / "map", 30)
    assert len(list((tmp_path / "map" / "passes_dump").glob("*_after_*.py"))) == 60
