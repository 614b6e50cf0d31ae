"""Structure: regions of a snapshot and the rules that decide how far they can be trusted."""

from __future__ import annotations

import pytest

from pypto_ir_trace import grammar, structure
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.incremental import IncrementalParser
from pypto_ir_trace.languages import PYTHON

PROGRAM = """\
# pypto.program: demo
import pypto.language as pl

@pl.program
class Demo:
    @pl.function(type=pl.FunctionType.InCore)
    def add_one(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        t: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [64, 64])
        u: pl.Tile[[64, 64], pl.FP32] = pl.add(t, 1.0)
        return u

    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        t: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [64, 64])
        u: pl.Tile[[64, 64], pl.FP32] = pl.mul(t, 2.0)
        return u

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        a: pl.Tensor[[64, 64], pl.FP32] = self.add_one(x)
        b: pl.Tensor[[64, 64], pl.FP32] = self.scale(a)
        return b
"""
LINES = PROGRAM.split("\n")


def analyze(text: str) -> structure.Structure:
    lines, _ = split_lines(text)
    return PYTHON.analyze(structure.parse(lines, PYTHON), lines)


def spans(found: structure.Structure) -> dict[str, tuple[int, int, str | None]]:
    """key -> (first line, last line, error), 1-based as an editor shows them."""
    return {r.key: (r.start + 1, r.end, r.error) for r in found.regions}


def edit(line: int, new: str | None = None, insert: str | None = None) -> str:
    """PROGRAM with line (1-based) replaced by `new`, or with `insert` put before it."""
    lines = list(LINES)
    if insert is not None:
        lines.insert(line - 1, insert)
    else:
        lines[line - 1] = new
    return "\n".join(lines)


CLEAN = {"Demo.add_one": (6, 10, None), "Demo.scale": (12, 16, None), "Demo.main": (18, 22, None)}


def test_clean_program():
    found = analyze(PROGRAM)
    assert found.trusted and found.reason is None
    assert spans(found) == CLEAN
    assert [r.kind for r in found.regions] == ["method"] * 3
    assert [r.def_line + 1 for r in found.regions] == [7, 13, 19]


def test_queries_compile_and_name_their_captures():
    for name, captures in [("members", {"member", "member.free"}), ("layout", {"free"})]:
        query = grammar.query(PYTHON.grammar, "python", name)
        assert {query.capture_name(i) for i in range(query.capture_count)} == captures


def test_top_level_functions_classes_and_nested_defs():
    found = analyze(
        "def f():\n    def inner():\n        pass\n    return inner\n\nclass C:\n    x = 1\n    def m(self):\n        pass\n"
    )
    assert spans(found) == {"f": (1, 4, None), "C.m": (8, 9, None)}
    assert found.trusted


def test_decorators_belong_to_their_function_and_async_defs_count():
    text = (
        "@pl.jit\n@cache(size=2)\nasync def fetch(x):\n    return await x\n\n"
        "@pl.program\nclass P:\n    @staticmethod\n    @pl.function(type=pl.FunctionType.InCore)\n"
        "    async def run(x):\n        async def helper():\n            pass\n        return x\n"
    )
    found = analyze(text)
    assert spans(found) == {"fetch": (1, 4, None), "P.run": (8, 13, None)}
    assert [r.kind for r in found.regions] == ["function", "method"]
    assert [r.def_line + 1 for r in found.regions] == [3, 10]
    assert found.trusted


# ---- rule: an error inside one body marks only that function ---------------------------------------


@pytest.mark.parametrize(
    "text, line",
    [
        (edit(9, "        u: pl.Tile[[64, 64], pl.FP32] = pl.add(t, 1.0))"), 9),  # extra bracket
        (edit(9, '        u = "abc'), 9),  # unclosed string
        (edit(9, '        u = """abc'), 9),  # unclosed triple-quoted string
        (edit(9, insert="        DEBUG visiting add_one"), 9),  # a debug line, indented like the body
        (edit(9, insert="        print("), 9),  # a debug print cut short
    ],
)
def test_error_in_a_body_is_local(text, line):
    found = analyze(text)
    assert found.trusted
    assert list(spans(found)) == list(CLEAN)
    assert spans(found)["Demo.add_one"][2] == f"syntax error at line {line}"
    assert spans(found)["Demo.scale"][2] is None and spans(found)["Demo.main"][2] is None


def test_truncated_last_function_is_local():
    text = "\n".join(LINES[:20]) + "\n        b: pl.Tensor[[64, 64], pl.FP32] = self.scale(a, "
    found = analyze(text)
    assert found.trusted
    assert spans(found) == {**CLEAN, "Demo.main": (18, 21, "syntax error at line 21")}


def test_a_comment_at_column_0_inside_a_broken_body_is_not_a_boundary():
    found = analyze(edit(9, "        u = pl.add(t, 1.0))\n# a comment the printer put at column 0"))
    assert found.trusted and spans(found)["Demo.add_one"][:2] == (6, 11)


def test_nul_in_a_comment_is_not_the_end_of_the_file():
    found = analyze(edit(9, "        u = pl.add(t, 1.0)  # a\x00b"))
    assert found.trusted and spans(found) == CLEAN


# ---- rule: errors must not hide where a region ends ----------------------------------------------


def test_unclosed_bracket_that_swallows_the_next_method_is_untrusted():
    found = analyze(edit(9, "        u: pl.Tile[[64, 64], pl.FP32] = pl.add(t, 1.0"))
    assert not found.trusted
    assert "hides where Demo.add_one ends (line 12 is not inside it)" in found.reason
    # what tree-sitter saw: scale swallowed into add_one; the verdict keeps anyone from using it
    assert "Demo.scale" not in spans(found)


def test_broken_def_line_is_untrusted():
    found = analyze(edit(13, "    def scale(self, x: pl.Tensor[[64, 64], pl.FP32] -> pl.Tensor[[64, 64], pl.FP32]:"))
    assert not found.trusted and "hides where Demo.scale ends" in found.reason


# ---- rule: errors outside every region, or above a def, are untrusted ---------------------------------


@pytest.mark.parametrize(
    "text, reason",
    [
        (edit(12, "    @pl.function(type=pl.FunctionType.InCore"), "outside any function"),
        (edit(12, "    @pl.function(type=pl.FunctionType.InCore))"), "syntax error at line 12 outside any function"),
        (edit(5, "class Demo(:"), "syntax error at line 5 outside any function"),
        (edit(5, "class Demo"), "syntax error at line 5 before the def of add_one"),
        (edit(9, insert="DEBUG pass state: ok"), "syntax error at line 9 outside any function"),
    ],
)
def test_errors_in_decorators_headers_and_between_definitions_are_untrusted(text, reason):
    found = analyze(text)
    assert not found.trusted
    assert reason in found.reason


# ---- rule: statements of one block start at one column ------------------------------------------------


@pytest.mark.parametrize(
    "text, line",
    [
        (edit(15, insert="[dbg] visiting: scale"), 15),  # parses without error; main became top-level
        (edit(14, "    t: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [64, 64])"), 15),  # stray dedent
        (edit(13, "    def scale(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]"), 15),
    ],
)
def test_misaligned_blocks_are_untrusted(text, line):
    found = analyze(text)
    assert not found.trusted
    assert found.reason.startswith(f"line {line} starts at column ")
    assert "the indentation hides where definitions begin and end" in found.reason


def test_comments_may_sit_at_any_column_between_methods():
    found = analyze(edit(11, "# a comment at column 0 between methods\n  # and one at column 3"))
    assert found.trusted and list(spans(found)) == list(CLEAN)


# ---- odd names and odd files ---------------------------------------------------------------------------


def test_repeated_names_are_numbered_in_file_order():
    text = PROGRAM + "\n    def main(self):\n        return 1\n\ndef main():\n    pass\n"
    found = analyze(text)
    assert list(spans(found)) == ["Demo.add_one", "Demo.scale", "Demo.main", "Demo.main#2", "main"]


@pytest.mark.parametrize("text", ["", "\n", "   \n\t\n", "\x00", "\ufeff", "(((((", "def", "class C:", "\u2028"])
def test_degenerate_texts(text):
    found = analyze(text)
    assert found.regions == () or all(r.end > r.start for r in found.regions)


def test_overlapping_definitions_cannot_happen_silently():
    # Tabs and spaces mixed: each def must still own only its own lines.
    found = analyze(PROGRAM.replace("        return u", "\t\treturn u"))
    if found.trusted:
        starts = [r.start for r in found.regions]
        assert starts == sorted(starts)
        assert all(a.end <= b.start for a, b in zip(found.regions, found.regions[1:]))


def test_incremental_parse_gives_the_same_verdicts():
    parser = IncrementalParser(PYTHON)
    table: dict[str, int] = {}
    texts = [PROGRAM, edit(9, "        u = pl.add(t, 1.0"), PROGRAM, edit(5, "class Demo"), "", PROGRAM]
    for text in texts:
        lines, _ = split_lines(text)
        tree = parser.parse(lines, [table.setdefault(line, len(table)) for line in lines])
        assert PYTHON.analyze(tree, lines) == analyze(text)
