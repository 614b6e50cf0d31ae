"""The index's programs x passes grid data (programs_grid.py): passes merged in order, a pass that runs twice two
columns, each program's rows placed in their columns, labels and differences kept compactly."""

from __future__ import annotations

from pypto_ir_trace.programs import Program
from pypto_ir_trace.programs_grid import data


def program(name, steps):
    return Program(name, "differs", f"{name}.html", steps=tuple(steps))


def test_columns_merge_every_pipeline_and_a_repeated_pass_is_two_columns():
    a = program(
        "a",
        [
            ("01", "Inline", True, 0, 0),
            ("02", "Simplify", False, 3, 1),
            ("03", "Lower", False, 2, 0),
            ("04", "Simplify", False, 1, 1),
        ],
    )
    b = program("b", [("01", "Inline", True, 0, 0), ("02", "Extra", True, 0, 0), ("03", "Simplify", True, 0, 0)])
    identical_alone = Program("c", "this-run-only", "c.html")  # one run only: not in the grid
    grid = data([a, b, identical_alone])
    assert grid["columns"] == ["Inline", "Extra", "Simplify", "Lower", "Simplify"]  # Extra after the pass before it
    names = [entry["name"] for entry in grid["programs"]]
    assert names == ["a", "b"]
    entry_a, entry_b = grid["programs"]
    columns_a = [c for first, count in entry_a["spans"] for c in range(first, first + count)]
    columns_b = [c for first, count in entry_b["spans"] for c in range(first, first + count)]
    assert [grid["columns"][c] for c in columns_a] == ["Inline", "Simplify", "Lower", "Simplify"]
    assert [grid["columns"][c] for c in columns_b] == ["Inline", "Extra", "Simplify"]
    assert columns_b[2] == columns_a[1]  # b's Simplify is a's first one
    assert entry_a["differs"] == [[1, 4], [2, 2], [3, 2]]  # rows after which the runs differ, and by how much
    assert entry_b["differs"] == []
    # labels: a column's label is the first program's; another program's own label where it differs
    assert grid["labels"][columns_b[1]] == "02" and entry_b["labels"] == {"2": "03"}
