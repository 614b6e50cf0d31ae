"""What the viewer may elide of a line (grammars/python/elide.scm, highlight.elisions_of): long types, and the
arguments of the calls inside them, as the page reads them."""

from __future__ import annotations

from dumptools import FIXTURES
from modeltools import build, load_dump
from pypto_ir_trace import grammar, highlight, structure
from pypto_ir_trace.languages import PYTHON


def elided(text: str) -> list[list[str]]:
    """Per line, the texts of its elisions in the order the page reads them (UTF-16 columns decoded)."""
    lines = text.split("\n")
    offsets = structure.source(lines)[1]
    query = grammar.query(PYTHON.grammar, PYTHON.name, "elide")
    found = {
        row: flat
        for first, stop, captures in highlight.walk(structure.parse(lines, PYTHON), [(0, len(lines))], query)
        for row, flat in highlight.elisions_of(captures, lines, offsets, first, stop)
    }
    result = []
    for row, line in enumerate(lines):
        flat, start, texts = found.get(row, ()), 0, []
        units = line.encode("utf-16-le")
        for i in range(0, len(flat), 2):
            start += flat[i]
            texts.append(units[2 * start : 2 * (start + flat[i + 1])].decode("utf-16-le"))
        result.append(texts)
    return result


TILE = "pl.Tile[[16, 256], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 16384), pl.Mem.Vec]"


def test_long_types_and_the_calls_inside_them_may_be_elided_short_ones_not():
    lines = elided(
        f"def f(x: {TILE}, n: pl.Scalar[pl.INDEX]) -> {TILE}:\n"
        f"    t: {TILE} = pl.tile.add(x, x)\n"
        "    s: pl.Scalar[pl.INDEX] = n\n"
        "    return t"
    )
    inner = "(mem_vec_3, pl.const(0, pl.INT64), 16384)"
    assert lines[0] == [TILE, inner, TILE, inner]  # a parameter's and the return type; pl.Scalar[pl.INDEX] is short
    assert lines[1] == [TILE, inner]  # an enclosing range comes before those inside it
    assert lines[2] == lines[3] == []


def test_columns_are_utf16_units_and_a_type_over_two_lines_is_not_elided():
    lines = elided(f"def 缩放(x: {TILE}) -> None:\n    y: pl.Tile[[16, 256],\n        pl.FP32] = x\n    # 𝔘 {TILE}")
    assert lines[0] == [TILE, "(mem_vec_3, pl.const(0, pl.INT64), 16384)"]
    assert lines[1] == lines[2] == lines[3] == []


def test_the_model_names_the_elisions_of_an_explicit_dump_and_none_of_an_mlir_one():
    data = build(load_dump(FIXTURES / "real" / "advanced_01_split_k_explicit"))
    line_elisions = data["lineElisions"]
    assert len(line_elisions) == len(data["lines"]) and list(data["elisions"][0]) == []
    assert sum(1 for index in line_elisions if index) > len(data["lines"]) / 3
    assert "elisions" not in build(load_dump(FIXTURES / "mlir" / "multi_func" / "tree_dir"))
