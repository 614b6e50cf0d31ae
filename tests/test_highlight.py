"""Highlight spans from grammars/python/highlights.scm, as the viewer reads them."""

from __future__ import annotations

from modeltools import highlights
from pypto_ir_trace import highlight, structure
from pypto_ir_trace.languages import PYTHON


def spans_of(text: str) -> list[list[tuple[str, str]]]:
    """Per line: (highlighted text, class) pairs, decoded the way the viewer decodes them."""
    lines = text.split("\n")
    found = highlights(structure.parse(lines, PYTHON), lines, [(0, len(lines))], PYTHON)
    result = []
    for row, line in enumerate(lines):
        flat, at, pairs = found.get(row, []), 0, []
        for i in range(0, len(flat), 3):
            start = at + flat[i]
            at = start + flat[i + 1]
            units = line.encode("utf-16-le")[2 * start : 2 * at]  # JS strings index UTF-16 units
            pairs.append((units.decode("utf-16-le"), highlight.classes()[flat[i + 2]]))
        result.append(pairs)
    return result


def test_pypto_line_classes():
    lines = spans_of(
        "@pl.function(type=pl.FunctionType.AIV)\n"
        "def kernel(self, x):\n"
        "    # comment\n"
        "    t: pl.Tile[[64, 128], pl.FP32] = pl.tile.load(x, 'a', None)\n"
        "    return t"
    )
    assert lines[0][:2] == [("@", "decorator"), ("pl.function", "decorator")]
    assert ("AIV", "type") in lines[0]
    assert lines[1][:2] == [("def", "keyword"), ("kernel", "function")]
    assert ("self", "builtin") in lines[1]
    assert lines[2] == [("# comment", "comment")]
    assert [p for p in lines[3] if p[1] == "number"] == [("64", "number"), ("128", "number")]
    assert ("Tile", "type") in lines[3] and ("FP32", "type") in lines[3]
    assert ("load", "call") in lines[3] and ("'a'", "string") in lines[3] and ("None", "constant") in lines[3]
    # every other identifier is a name (@variable): the viewer follows a clicked one through the passes
    assert lines[4] == [("return", "keyword"), ("t", "variable")]
    assert ("t", "variable") in lines[3] and ("x", "variable") in lines[3] and ("pl", "variable") in lines[3]


def test_columns_are_utf16_units_after_non_ascii_text():
    line = "    x = f('ñ😀') + 7"
    (pairs,) = spans_of(line)
    assert ("'ñ😀'", "string") in pairs and ("7", "number") in pairs


def test_multi_line_string_is_highlighted_on_every_line():
    lines = spans_of('x = """first\nsecond\nthird"""')
    assert lines[1] == [("second", "string")]
    assert lines[2] == [('third"""', "string")]


def test_only_requested_rows_are_highlighted():
    lines = ["a = 1", "b = 2", "c = 3"]
    found = highlights(structure.parse(lines, PYTHON), lines, [(1, 2)], PYTHON)
    assert set(found) == {1}


def test_rows_inside_a_string_that_starts_above_them_are_string():
    """Only rows 1-2 are new (the rest of the text was seen before): the string that starts on row 0
    still colours them, and nothing past the requested rows is returned."""
    lines = ['x = """first', "second", 'third"""', "y = 1"]
    found = highlights(structure.parse(lines, PYTHON), lines, [(1, 3)], PYTHON)
    classes = highlight.classes()
    assert set(found) == {1, 2}
    assert found[1] == (0, len("second"), classes.index("string"))
    assert found[2] == (0, len('third"""'), classes.index("string"))
