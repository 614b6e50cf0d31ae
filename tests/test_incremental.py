"""Incremental parsing gives exactly the tree a fresh parse gives, snapshot after snapshot."""

from __future__ import annotations

import os
import tracemalloc
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tree_sitter import Tree

from dumptools import REAL
from modeltools import load_dump
from pypto_ir_trace import compare, linediff, structure
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.incremental import IncrementalParser, changed_blocks
from pypto_ir_trace.languages import LANGUAGES, MLIR, PYTHON
from pypto_ir_trace.structure import Region


@pytest.mark.parametrize("name", sorted(p.name for p in REAL.iterdir() if p.is_dir()))
def test_real_pipeline_parses_like_fresh_parses(name):
    parser = IncrementalParser(PYTHON)
    table: dict[str, int] = {}
    for snapshot in load_dump(REAL / name / "passes_dump").snapshots:
        lines, _ = split_lines(snapshot.text)
        tree = parser.parse(lines, [table.setdefault(line, len(table)) for line in lines])
        assert str(tree.root_node) == str(structure.parse(lines, PYTHON).root_node), snapshot.filename


def test_scattered_edits_with_indentation_changes():
    """Edits next to indents and dedents, insertions, deletions and a change of the last line."""
    base = ["class P:"] + [
        line
        for i in range(30)
        for line in (
            f"    def f{i}(self):",
            f"        for k in range({i}):",
            f"            x{i} = k",
            f"        return x{i}",
        )
    ]
    variants = [
        [*base[:5], "            y = 1", *base[5:]],
        [line.replace("return x1", "return 0") for line in base],
        base[:40] + base[44:],
        [*base[:-1], "        return None  # changed"],
        ["import os", *base],
        base,
    ]
    parser = IncrementalParser(PYTHON)
    table: dict[str, int] = {}
    for lines in [base, *variants]:
        tree = parser.parse(lines, [table.setdefault(line, len(table)) for line in lines])
        assert str(tree.root_node) == str(structure.parse(lines, PYTHON).root_node)


def test_an_edit_beside_comment_lines_reaches_past_them(monkeypatch):
    """The scanner reads past comment lines to find the next line's indentation: an edit that ended beside one
    would leave tree-sitter less of the old tree to re-use (a pass renaming values in every function of a
    20,000-line snapshot: 1.26 s against 0.53 s), so each edit ends between two code lines of one indentation."""
    body = [f"        x{i} = f(x{i - 1})" if i % 3 else f"        # stage {i}" for i in range(1, 40)]
    base = ["class P:", "    def f(self):", *body, "        return x38"]
    renamed = [line.replace("x5 ", "y5 ") for line in base]  # the line after a comment, before another
    _, ((start, _, end, _),) = _edits_given(monkeypatch, base, renamed)
    assert start <= base.index("        x5 = f(x4)") < end
    for row in (start - 1, start, end - 1, end):
        assert not base[row].lstrip().startswith("#"), base[row]


def test_a_changed_line_among_lines_of_its_indentation_is_all_the_edit_holds(monkeypatch):
    """Where a changed block's edges are calm in both texts, the edit is the block alone: tree-sitter re-reads
    the changed lines, not their neighbours (a pass renaming values in every function of a 20,000-line snapshot
    edits 3,867 lines, not 7,480)."""
    base = [
        "class P:",
        "    def f(self):",
        *[f"        x{i} = f(x{i - 1})" for i in range(1, 20)],
        "        return x19",
    ]
    renamed = [line.replace("x7 ", "y7 ") for line in base]
    row = base.index("        x7 = f(x6)")
    assert _edits_given(monkeypatch, base, renamed) == [[], [(row, 0, row + 1, 0)]]


BODY = ["class P:", "    def f(self):", *[f"        x{i} = f(x{i - 1})" for i in range(1, 20)], "        return x19"]
BROKEN = [line.replace("x9 = f(x8)", "x9 = f(x8") for line in BODY]  # a bracket left open: a syntax error


def test_the_text_after_one_broken_snapshot_is_parsed_from_its_tree(monkeypatch):
    """One broken snapshot costs no fresh parse of the clean text after it: that text is parsed from the broken
    one's tree (an edit given for it) and reads as a fresh parse (_edits_given compares each tree)."""
    fixed = [line.replace("x4 ", "y4 ") for line in BODY]
    assert structure.parse(BROKEN, PYTHON).root_node.has_error
    _, tried, from_broken = _edits_given(monkeypatch, BODY, BROKEN, fixed)
    assert tried and from_broken


def test_errors_that_stay_are_parsed_from_scratch(monkeypatch):
    """After two texts with errors in a row, the next is parsed from scratch (IREE's custom assembly has errors in
    every snapshot: a try from the tree before would be a second parse of each)."""
    still = [line.replace("x4 ", "y4 ") for line in BROKEN]
    again = [line.replace("x14 ", "y14 ") for line in still]
    _, tried, tried_again, fresh = _edits_given(monkeypatch, BODY, BROKEN, still, again)
    assert tried and tried_again and not fresh


def _edits_given(monkeypatch, *texts: list[str]) -> list[list[tuple[int, int, int, int]]]:
    """For each text, parsed in turn, the (start, old end) points of the edits tree-sitter was given (none: the
    text was parsed from scratch); each tree is checked against a fresh parse."""
    given: list[list[tuple[int, int, int, int]]] = []
    edit = Tree.edit

    def recorded(self, **where):
        given[-1].append(where["start_point"] + where["old_end_point"])
        edit(self, **where)

    monkeypatch.setattr(Tree, "edit", recorded)
    parser = IncrementalParser(PYTHON)
    table: dict[str, int] = {}
    for lines in texts:
        given.append([])
        tree = parser.parse(lines, [table.setdefault(line, len(table)) for line in lines])
        assert str(tree.root_node) == str(structure.parse(lines, PYTHON).root_node)
    return given


PIECES = [
    "def f0():",
    "def f1():",
    "    x = '''",
    "    y = 1",
    "'''",
    "    '''",
    "    return 2",
    "    z = (",
    "    )",
    "x = 1",
    "class C:",
    "    def m(self):",
    "        pass",
    '    s = """',
    '"""',
    "    # c",
    "@pl.function",
    "]",
]
EDIT = st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 40), st.sampled_from(PIECES))


def _apply(lines: list[str], edits) -> list[str]:
    lines = list(lines)
    for kind, at, piece in edits:
        at = min(at, len(lines))
        if kind == "insert":
            lines.insert(at, piece)
        elif lines:
            at = min(at, len(lines) - 1)
            if kind == "delete":
                del lines[at]
            else:
                lines[at] = piece
    return lines


def _check_sequence(texts: list[list[str]], language=PYTHON) -> None:
    """Each text's structure, found incrementally after the ones before it, is the one a fresh parse gives
    (compared with the real language record: `language` may count its calls)."""
    parser = IncrementalParser(language)
    reference = LANGUAGES[language.name]
    table: dict[str, int] = {}
    for lines in texts:
        tree = parser.parse(lines, [table.setdefault(line, len(table)) for line in lines])
        assert parser.structure(tree, lines) == reference.analyze(structure.parse(lines, reference), lines), lines


RANDOM_EDITS = settings(
    max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@RANDOM_EDITS
@given(
    st.lists(st.sampled_from(PIECES), min_size=3, max_size=12),
    st.lists(st.lists(EDIT, min_size=1, max_size=2), min_size=1, max_size=3),
)
def test_structure_is_a_function_of_the_text_alone(base, passes):
    """Whatever was parsed before it (strings and brackets that open or close across edits included),
    a snapshot gets the structure a fresh parse gives: the same text never gets two structures."""
    texts = [base]
    for edits in passes:
        texts.append(_apply(texts[-1], edits))
    _check_sequence(texts)


def test_a_string_closed_by_a_later_pass_reads_as_in_a_fresh_parse():
    """Found by random edits: incrementally the third text was untrusted for another reason than fresh."""
    first = [
        "    def m(self):",
        "class C:",
        "    return 2",
        "    x = '''",
        "    y = 1",
        "x = 1",
        "x = 1",
        "    # c",
        '"""',
        "    )",
        "class C:",
        '"""',
    ]
    second = [*first[:-1], "    )", "    '''"]
    third = [*second[:10], "    z = (", "    # c", *second[10:]]
    _check_sequence([first, second, third])


# MLIR: where only function bodies change, the structure is the previous one moved (Language.function_span).
MLIR_BASE = [
    "module {",
    *(
        line
        for i in range(4)
        for line in (
            f"  func.func @f{i}(%arg0: i32) -> i32 {{",
            "    %0 = arith.addi %arg0, %arg0 : i32",
            "    %1 = arith.muli %0, %0 : i32",
            "    return %1 : i32",
            "  }",
        )
    ),
    "}",
]
MLIR_PIECES = [
    "    %2 = arith.constant 3 : i32",
    "    %3 = arith.addi %2, %2 : i32",
    "  }",
    "}",
    "{",
    "  func.func @g() {",
    "    func.func @nested() {",
    "    return",
    "^bb1:",
    '    "test.op"() ({',
    "    }) : () -> ()",
    "  module @inner {",
    "  llvm.func @h()",
    "    // a comment",
    "",
]
MLIR_EDIT = st.tuples(
    st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 24), st.sampled_from(MLIR_PIECES)
)


@RANDOM_EDITS
@given(st.lists(st.lists(MLIR_EDIT, min_size=1, max_size=3), min_size=1, max_size=4))
def test_a_moved_mlir_structure_is_the_one_a_fresh_analysis_gives(passes):
    """Edits anywhere (in bodies, on headers and closing lines, between functions; braces, nested functions
    and modules, generic ops that open regions) never give a structure other than the text's own."""
    texts = [MLIR_BASE]
    for edits in passes:
        texts.append(_apply(texts[-1], edits))
    _check_sequence(texts, MLIR)


def test_only_edits_outside_function_bodies_are_analysed_again():
    analysed: list[int] = []

    def counted(tree, lines):
        analysed.append(len(lines))
        return MLIR.analyze(tree, lines)

    in_body = [*MLIR_BASE[:3], "    %9 = arith.constant 9 : i32", *MLIR_BASE[3:]]  # inside @f0
    on_header = [line.replace("@f2(", "@f2b(") for line in in_body]
    # Body lines that close @f1 early and open a function that takes the rest: a clean tree, @f1 shorter
    split = [*on_header[:8], "  }", "  func.func @split() {", *on_header[8:]]
    texts = [MLIR_BASE, in_body, on_header, split]
    _check_sequence(texts, replace(MLIR, analyze=counted))
    assert not structure.parse(split, MLIR).root_node.has_error
    assert analysed == [len(MLIR_BASE), len(on_header), len(split)]


# The re-parse's line diff: a region of the previous text at a time, the pass diff reading the same diffs.
REGION_LINES = st.lists(st.sampled_from(["a", "b", "c", "d", "e", ""]), max_size=6)


@RANDOM_EDITS
@given(
    st.lists(st.tuples(st.sampled_from(["f", "g", "h"]), REGION_LINES, st.sampled_from(["", "x"])), max_size=5),
    st.lists(st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 40), st.sampled_from("abfgx"))),
)
def test_the_changed_blocks_match_every_other_line_with_an_equal_one(functions, edits):
    """Whatever the edits (a region's head changed or gone, regions moved, repeated heads), what lies outside
    the changed blocks is matched line for line, in order, with equal lines: tree-sitter is told the truth."""
    old, regions = [], []
    for name, body, outside in functions:
        start = len(old)
        old += [f"@{name}", f"def {name}", *body]
        regions.append(Region(name, "function", start, len(old), start + 1))
        old += [outside] if outside else []
    new = _apply(old, edits)
    table: dict[str, int] = {}
    old_ids, new_ids = ([table.setdefault(line, len(table)) for line in text] for text in (old, new))
    b = a = 0
    for b_start, b_len, a_start, a_len in changed_blocks(old_ids, new_ids, tuple(regions), {}):
        assert b_start - b == a_start - a >= 0 and old[b:b_start] == new[a:a_start]
        assert b_len or a_len
        b, a = b_start + b_len, a_start + a_len
    assert old[b:] == new[a:]


def test_the_pass_diff_reads_the_line_diffs_the_parse_made(monkeypatch):
    """Each text is diffed against the one before it once: the re-parse diffs the functions a pass changed,
    and the pass diff of the two texts finds those diffs made."""
    base = ["class P:"] + [
        line for i in range(6) for line in (f"    def f{i}(self):", f"        x = {i}", f"        return x{i}", "")
    ]
    changed = [line.replace("x = 2", "x = 20").replace("return x4", "return y4") for line in base]
    parser = IncrementalParser(PYTHON)
    table: dict[str, int] = {}
    found = []
    for lines in (base, changed):
        ids = [table.setdefault(line, len(table)) for line in lines]
        found.append((ids, parser.structure(parser.parse(lines, ids), lines)))
    diffed: list[list] = []
    original = linediff.diff
    monkeypatch.setattr(linediff, "diff", lambda b, a, *rest: diffed.append(list(b)) or original(b, a, *rest))
    (old, old_structure), (new, new_structure) = found
    result = compare.diff_pass(old, old_structure, new, new_structure, memo=parser.diffs)
    assert result.by_region == {"P.f2": (1, 1), "P.f4": (1, 1)}
    assert diffed and not any(old[r.start : r.end] in diffed for r in old_structure.regions)  # tokens only
    assert result == compare.diff_pass(old, old_structure, new, new_structure)


def test_a_text_a_pass_rewrote_is_parsed_without_the_old_tree_alive():
    """A pass that rewrote most of a big text (MLIR's convert-to-llvm) would keep the old tree beside the new
    one for little gain: the parse holds about one tree, not two (IREE mlp: 14 MB of tree at once, not 24)."""

    def module(op: str, count: int = 1500) -> list[str]:
        body = [f"    %{i} = {op} %arg0, %arg0 : i32" for i in range(count)]
        return ["module {", "  func.func @f(%arg0: i32) {", *body, "    return", "  }", "}"]

    table: dict[str, int] = {}
    ids = lambda lines: [table.setdefault(line, len(table)) for line in lines]
    old, new = module("arith.addi"), module("llvm.add")
    tracemalloc.start()
    try:
        fresh = IncrementalParser(MLIR)
        base = tracemalloc.get_traced_memory()[0]
        kept = fresh.parse(new, ids(new))
        one_tree = tracemalloc.get_traced_memory()[0] - base
        del kept, fresh
        parser = IncrementalParser(MLIR)
        parser.parse(old, ids(old))
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        tree = parser.parse(new, ids(new))
        held = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert str(tree.root_node) == str(structure.parse(new, MLIR).root_node)
    assert held < 0.5 * one_tree, (held, one_tree)  # the old tree went first: the new one takes its room
