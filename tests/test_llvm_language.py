"""LLVM as a language (languages/llvm.py, grammars/llvm/*.tokens): functions by LLVM's column-0 layout, highlighting,
value names and ops by the tokenizer; and what a report shows of them."""

from __future__ import annotations

import pytest

from dumptools import FIXTURES
from pypto_ir_trace import builder, highlight
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.formats import load
from pypto_ir_trace.languages import LLVM, llvm
from pypto_ir_trace.linetable import LineTable

MODULE = """\
; ModuleID = 'x.c'
@g = global i32 0, align 4

; Function Attrs: nounwind uwtable
define dso_local i32 @f(i32 noundef %0) #0 {
  %2 = add nsw i32 %0, 1
  ret i32 %2
}

declare i32 @h(i32)

define internal void @"a b"() {
entry:
  ret void
}

attributes #0 = { nounwind }
"""


def _regions(text):
    found = LLVM.structure_of(split_lines(text)[0])
    return [(r.key, r.kind, r.start, r.end) for r in found.regions], found.trusted, found.reason


def test_a_function_runs_from_the_comments_above_its_define_to_its_closing_brace():
    regions, trusted, _ = _regions(MODULE)
    assert regions == [("f", "function", 3, 8), ("a b", "function", 11, 15)]  # declarations are outside
    assert trusted


def test_a_function_whose_end_is_not_printed_makes_the_text_untrusted():
    text = "define void @f() {\n  ret void\ndefine void @g() {\n  ret void\n}\n"
    regions, trusted, reason = _regions(text)
    assert [key for key, *_ in regions] == ["f", "g"]
    assert not trusted and reason == "f (line 1) has no closing }"


def test_machine_functions_are_regions_too():
    path = FIXTURES / "llvm" / "version-llc-O2-filtered.txt"
    (dump,) = load(path)
    isel = next(s for s in dump.snapshots if s.name == "x86-isel")
    regions, _, _ = _regions(isel.text)
    assert [(key, kind) for key, kind, *_ in regions] == [("library_version_number", "machine function")]


def _classes(line):
    return [(line[start:end], name) for start, end, name in llvm.tokens(line)]


def test_tokens_give_each_word_its_class():
    assert _classes("  %5 = load i32, ptr %3, align 4, !tbaa !8") == [
        ("%5", "variable"),
        ("load", "keyword"),
        ("i32", "type"),
        ("ptr", "type"),
        ("%3", "variable"),
        ("align", "keyword"),
        ("4", "number"),
        ("!tbaa", "constant"),
        ("!8", "constant"),
    ]
    assert _classes("364:    ; preds = %2, %7") == [
        ("364", "label"),
        ("; preds = ", "comment"),
        ("%2", "variable"),
        ("%7", "variable"),
    ]
    assert _classes('  call void @"a b"(ptr @.str) ; a comment') == [
        ("call", "keyword"),
        ("void", "type"),
        ('@"a b"', "function"),
        ("ptr", "type"),
        ("@.str", "function"),
        ("; a comment", "comment"),
    ]


def test_every_token_class_is_a_highlight_class_and_spans_use_utf16_columns():
    assert set(llvm.classes()) <= set(highlight.classes())
    line = '  store ptr @"\U0001f600", ptr %x'
    spans = highlight.token_spans(line, llvm.tokens(line))
    index = highlight.classes().index("function")
    assert spans[6:9] == (1, 5, index)  # `@"😀"`: the emoji is two UTF-16 units


@pytest.mark.parametrize(
    "line, names",
    [
        ("  %5 = getelementptr inbounds i8, ptr %0, i64 16, !dbg !12", ["%5", "%0", "!12"]),
        ("define void @f(ptr %0) #3 {", ["%0", "#3"]),
        ("364:   ; preds = %2", ["364", "%2"]),
        ("  %2:gr32 = COPY $eax", ["%2"]),
        ('  %"x y" = add i32 1, 2', ['%"x y"']),
    ],
)
def test_names_are_what_a_printer_numbers(line, names):
    assert [line[start:end] for start, end in llvm.names(line)] == names


def _ops(line: str) -> tuple[str, ...]:
    """The ops a line runs, as their text."""
    return tuple(line[start:end] for start, end in llvm.op_spans(line))


@pytest.mark.parametrize(
    "line, ops",
    [
        ("  %5 = load i32, ptr %3", ("load",)),
        ("  tail call void @f()", ("call",)),
        ("  br label %4", ("br",)),
        ("define void @f() {", ()),
        ("  dead $eax = XOR32rr undef $eax, undef $eax", ("XOR32rr",)),
        ("  successors: %bb.1(0x40000000)", ()),
    ],
)
def test_ops_are_instruction_opcodes(line, ops):
    assert _ops(line) == ops


def test_a_pass_says_which_ops_it_changed():
    (dump,) = load(FIXTURES / "llvm" / "lz4-renorm-O2.txt")
    model = builder.build((dump,), 3).pipelines[0]
    sroa = next(p for p in model.passes if p.name == "SROAPass")
    assert dict(sroa.ops)["alloca"] == -5 and dict(sroa.ops)["load"] == -21
    assert model.renumbering  # Ignore renumbering applies


def test_cpp_functions_are_shown_demangled_and_keyed_by_their_symbol():
    path = FIXTURES / "llvm" / "double-conversion-cached-powers-O1.txt"
    model = builder.build(load(path), 3).pipelines[0]
    labels = dict(model.labels)
    key = "_ZN17double_conversion16PowersOfTenCache32GetCachedPowerForDecimalExponentEiPNS_5DiyFpEPi"
    assert labels[key] == (
        "double_conversion::PowersOfTenCache::GetCachedPowerForDecimalExponent(int, double_conversion::DiyFp*, int*)"
    )
    assert key in model.pipeline_map.functions  # the key (and the summaries) keep the symbol


@pytest.mark.parametrize(
    "key, name",
    [
        ("_ZN3foo3barEv#2", "foo::bar()#2"),
        ("_RNvCs1234_7mycrate3foo", "mycrate::foo"),
        ("$s4main3FooV3baryyF", "main.Foo.bar() -> ()"),
        ("LZ4_compress", None),
        ("_Zfoo", None),
    ],
)
def test_cpp_rust_and_swift_symbols_are_demangled(key, name):
    assert llvm.demangled(key) == name


def test_lines_are_kept_for_a_reindent_only_where_the_language_reindents(monkeypatch):
    """A line met again at another indent takes the facts of the line it was (MLIR's local scope prints an op at
    column 0 and inside the module): each line read is kept for that. LLVM prints every function at column 0 in
    every dump, so none of its lines is kept (lz4: 513,477 lines, 48 MB of the build's peak)."""
    settled: list[int] = []
    monkeypatch.setattr(LineTable, "settle", lambda self, ids, rows: settled.append(len(ids)))
    builder.build(load(FIXTURES / "llvm" / "lz4-renorm-O2.txt"), 3)
    assert settled == []
    builder.build(load(FIXTURES / "mlir" / "multi_func" / "stream_no_module_scope.txt"), 3)
    assert settled


def _real_llvm_lines() -> list[str]:
    """Every distinct line of the LLVM fixtures (clang, opt and llc dumps of real C), in order."""
    seen: dict[str, None] = {}
    for path in sorted((FIXTURES / "llvm").glob("*.txt")):
        seen.update(dict.fromkeys(path.read_text(encoding="utf-8").split("\n")))
    return list(seen)


def test_a_line_of_a_shape_read_before_takes_exactly_the_facts_reading_it_gives():
    """A line's facts are read once per shape (lines that differ only in digits other than 0): on every distinct
    line of the real fixtures, the spans, names and ops are those the tokenizer gives the line itself."""
    reader, shapes = LLVM.lines, {}
    lines = _real_llvm_lines()
    taken = 0
    for line in lines:
        taken += reader.shape(line) in shapes
        tokens = reader.tokens(line)
        alone = (highlight.token_spans(line, tokens), tuple(reader.names(line, tokens)), _ops(line))
        assert builder._line_facts(reader, shapes, line) == alone, line
    assert len(lines) > 5_000 and taken > len(lines) // 2  # most lines are of a shape met before


def test_lines_of_one_shape_differ_only_in_digits_but_0():
    """0 stays apart: `0x1F` is a hex number, `1x1F` is not; an op keeps its own digits (`MOV32rr`, `MOV64rr`)."""
    shape = LLVM.lines.shape
    assert shape("  %12 = add nsw i32 %11, 7, !dbg !5") == shape("  %13 = add nsw i32 %19, 9, !dbg !8")
    assert shape("  %2 = add i32 %1, 0x1F") != shape("  %2 = add i32 %1, 1x1F")
    assert shape("  %12 = add i32 %1, 1") != shape("  %123 = add i32 %1, 1")  # another length
    shapes: dict = {}
    for line in ("  $eax = MOV32rr $ecx", "  $eax = MOV64rr $ecx"):
        assert builder._line_facts(LLVM.lines, shapes, line)[2] == (line.split()[2],)
    assert len(shapes) == 1
