"""MLIR texts with syntax errors read an op at a time (chunked.py, languages/mlir.py's cuts): where a piece starts
and what it is parsed with; a clean text's pieces read exactly as its whole parse; a text with errors reads the
same wherever it stands in a pipeline, its functions keyed by the modules around them."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from tree_sitter import Parser

from pypto_ir_trace import builder, chunked, formats, structure
from pypto_ir_trace.formats import FORMATS
from pypto_ir_trace.languages import MLIR, mlir
from pypto_ir_trace.linefacts import LineFacts
from pypto_ir_trace.structure import Cut

RECORD = FORMATS["mlir-stream"]
FACTS = [fact.name for fact in dataclasses.fields(LineFacts)]
HEADER = "// -----// IR Dump After {} ({}) //----- //"


def function(name: str, body: int, indent: str) -> list[str]:
    lines = [f"{indent}func.func @{name}(%arg0: i32) -> i32 {{"]
    lines += [f"{indent}  %{k} = arith.addi %arg0, %arg0 : i32" for k in range(body)]
    return [*lines, f"{indent}  return %arg0 : i32", f"{indent}}}"]


def program() -> list[str]:
    """A module of IREE's shape: aliases, globals, an executable holding a variant holding a module of functions,
    a host function."""
    lines = ["#map = affine_map<(d0) -> (d0)>", "module @example attributes {hal.device.targets = []} {"]
    lines += [f"  util.global private @g{k} = 0 : i32" for k in range(6)]
    lines += ["  hal.executable private @dispatch {", "    hal.executable.variant public @x86 target(#map) {"]
    lines += ["      hal.executable.export public @f0 ordinal(0) layout(#map) {", "        hal.return", "      }"]
    lines += ["      builtin.module {"]
    for k in range(6):
        lines += function(f"f{k}", 12, "        ")
    lines += ["      }", "    }", "  }"]
    lines += function("main", 20, "  ")
    return [*lines, "}"]


def test_a_module_is_cut_at_its_ops_and_inside_the_symbol_tables_it_holds():
    lines = program()
    pieces = mlir.cuts(lines, 8)
    assert pieces[0].first == 0 and pieces[-1].stop == len(lines)
    assert all(before.stop == after.first for before, after in pairwise(pieces))  # every line, in order
    opener = {row: line for row, line in enumerate(lines) if line.rstrip().endswith("{")}
    assert any(lines[first].lstrip().startswith("func.func @f") for first, *_ in pieces)  # inside builtin.module
    parser = Parser(MLIR.grammar)
    for first, stop, context, closing in pieces:
        assert first == 0 or not lines[first].lstrip().startswith(("%", "}", "return"))  # an op starts it
        assert all(row in opener for row in context) and all(lines[row].strip() == "}" for row in closing)
        text = [lines[row] for row in context] + lines[first:stop] + [lines[row] for row in closing]
        assert not parser.parse(structure.source(text)[0]).root_node.has_error, (first, stop)


def test_a_function_body_is_never_cut():
    lines = ["module {", *function("big", 300, "  "), "}"]
    assert [first for first, *_ in mlir.cuts(lines, 8)] == [0, 1]  # the module's opening line, then the function


def test_a_local_dump_shown_alone_is_one_piece():
    lines = function("alone", 40, "")  # no module around its op
    assert one_piece(mlir.cuts(lines, 8), lines)


def test_no_cut_falls_past_an_op_the_layout_does_not_close():
    lines = ["module {", *function("f", 40, "  "), "  func.func @open() {", "    %0 = arith.constant 0 : i32", "}"]
    unclosed = lines.index("  func.func @open() {")
    assert [first for first, *_ in mlir.cuts(lines, 8)] == [0, 1] and unclosed > 1


def one_piece(pieces: list[Cut], lines: list[str]) -> bool:
    return [(first, stop, list(context), list(closing)) for first, stop, context, closing in pieces] == [
        (0, len(lines), [], [])
    ]


def whole(lines: list[str]):
    tree = structure.parse(lines, MLIR)
    facts = builder._facts(RECORD, tree, lines, [(0, len(lines))], structure.source(lines)[1])
    return MLIR.analyze(tree, lines), LineFacts(*(sorted(getattr(facts, fact)) for fact in FACTS))


def in_pieces(lines: list[str], size: int = 8):
    """The text read in pieces (tables looked into from `size` lines), as after a text with syntax errors:
    (structure, facts), or None when a piece was refused."""
    language = dataclasses.replace(MLIR, pieces=(0, size))
    handed: list[LineFacts] = []
    with chunked.PieceReader(language, functools.partial(builder._facts, RECORD), workers=1) as reader:
        reading = reader.after_errors(lines, list(range(len(lines))), [(0, len(lines))], handed.append)
        found = reading.structure() if reading is not None else None
    if found is None:  # refused: the text is parsed whole
        return None
    return found, LineFacts(*(sorted(pair for piece in handed for pair in getattr(piece, fact)) for fact in FACTS))


@functools.cache
def texts(path: Path) -> tuple[str, ...]:
    """The distinct texts of a real stream, in pipeline order."""
    return tuple(dict.fromkeys(snapshot.text for dump in formats.load(path) for snapshot in dump.snapshots))


def biggest(path: Path, errors: bool) -> list[str]:
    """The longest of the stream's texts whose parse has (or has not) syntax errors, as lines."""
    found = [text.split("\n")[:-1] for text in texts(path)]
    parsed = [(lines, structure.parse(lines, MLIR).root_node.has_error) for lines in found]
    return max((lines for lines, has in parsed if has == errors), key=len)


@pytest.mark.parametrize(
    "form", ["sparsifier/stream_module_scope.txt", "split_tile_and_fuse/stream_module_scope.txt", None]
)
def test_a_clean_text_reads_in_pieces_exactly_as_its_whole_parse(real_mlir, form):
    """So a clean text may be parsed whole (re-using the tree before it) whichever way the texts before it went."""
    lines = biggest(real_mlir / form, errors=False) if form else program()
    assert not structure.parse(lines, MLIR).root_node.has_error
    assert in_pieces(lines) == whole(lines)


def test_a_function_with_syntax_errors_keeps_the_module_around_it(real_mlir):
    """IREE's host function after a dispatch of custom assembly: tree-sitter's recovery from an error in the
    dispatch ends the module early when the text is parsed whole, and the function is keyed `@mlp_invocation`
    in some dumps, `example::@mlp_invocation` in others; read an op at a time, the error stays in its op. A piece
    whose own reading is untrusted has its text parsed whole (one of mlp's 43 such texts)."""
    found = list(swallowed(real_mlir / "iree_mlp/stream_module_scope.txt"))
    read = [(lines, pieces) for lines in found if (pieces := in_pieces(lines, mlir.PIECE_LINES)) is not None]
    assert len(found) > 10 and len(read) >= len(found) - 2
    for lines, (structure_, facts) in read:
        keys = {r.key for r in structure_.regions}
        assert "example::@mlp_invocation" in keys and "@mlp_invocation" not in keys
        for region in structure_.regions:  # an error names a line of the whole text, inside its function
            assert region.error is None or region.start <= region.problem_row < region.end
        # what the whole parse reads of a line, the pieces read too; they also read the ops its recovery lost
        # (the executable's and its variant's opening lines)
        parsed = whole(lines)[1]
        for fact in FACTS:
            assert set(map(repr, getattr(parsed, fact))) <= set(map(repr, getattr(facts, fact))), fact


def swallowed(path: Path) -> Iterator[list[str]]:
    """The big texts of IREE mlp's stream whose whole parse keys its host function outside the module (found as
    they are asked for: each costs a whole parse)."""
    for lines in (text.split("\n")[:-1] for text in texts(path)):
        if len(lines) >= mlir.PIECES_FROM and "@mlp_invocation" in {r.key for r in regions(lines)}:
            yield lines


def regions(lines: list[str]):
    return MLIR.analyze(structure.parse(lines, MLIR), lines).regions


def stream(path: Path, texts: list[list[str]]) -> Path:
    """A stream of these texts, one dump each."""
    dumps = [f"{HEADER.format(f'Pass{k}', f'pass-{k}')}\n" + "\n".join(lines) + "\n\n" for k, lines in enumerate(texts)]
    path.write_text("".join(dumps), encoding="utf-8")
    return path


def test_a_text_with_errors_reads_the_same_wherever_it_stands_in_a_pipeline(real_mlir, tmp_path):
    """Whether it is the first text, follows a clean one (parsed whole, then read in pieces) or follows another
    with errors (sent in pieces as it comes): its structure is a function of its text alone."""
    mlp = real_mlir / "iree_mlp/stream_module_scope.txt"
    text = next(swallowed(mlp))
    clean = biggest(real_mlir / "sparsifier/stream_module_scope.txt", errors=False)
    other = next(lines for lines in (t.split("\n")[:-1] for t in texts(mlp)) if len(lines) >= 1000 and lines != text)
    read = []
    for k, before in enumerate([[], [clean], [other]]):
        (dump,) = formats.load(stream(tmp_path / f"{k}.txt", [*before, text]))
        report = builder.build((dump,), 3)
        read.append(report.pipelines[0].texts[-1].regions)
    assert read[0] == read[1] == read[2]
    assert "example::@mlp_invocation" in {region.key for region in read[0]}
