"""Incremental parsing gives exactly the tree a fresh parse gives, snapshot after snapshot."""

from __future__ import annotations

import pytest

from pypto_ir_trace import structure
from pypto_ir_trace.dump import load_dump, split_lines
from pypto_ir_trace.incremental import IncrementalParser
from dumptools import REAL


@pytest.mark.parametrize("name", sorted(p.name for p in REAL.iterdir() if p.is_dir()))
def test_real_pipeline_parses_like_fresh_parses(name):
    parser = IncrementalParser()
    table: dict[str, int] = {}
    for snapshot in load_dump(REAL / name / "passes_dump").snapshots:
        lines, _ = split_lines(snapshot.text)
        tree = parser.parse(lines, [table.setdefault(line, len(table)) for line in lines])
        assert str(tree.root_node) == str(structure.parse(lines).root_node), snapshot.filename


def test_scattered_edits_with_indentation_changes():
    """Edits next to indents and dedents, insertions, deletions and a change of the last line."""
    base = ["class P:"] + [
        line
        for i in range(30)
        for line in (f"    def f{i}(self):", f"        for k in range({i}):", f"            x{i} = k", f"        return x{i}")
    ]
    variants = [
        base[:5] + ["            y = 1"] + base[5:],
        [line.replace("return x1", "return 0") for line in base],
        base[:40] + base[44:],
        base[:-1] + ["        return None  # changed"],
        ["import os"] + base,
        base,
    ]
    parser = IncrementalParser()
    table: dict[str, int] = {}
    for lines in [base, *variants]:
        tree = parser.parse(lines, [table.setdefault(line, len(table)) for line in lines])
        assert str(tree.root_node) == str(structure.parse(lines).root_node)
