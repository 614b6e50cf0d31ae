"""MLIR structure: the functions of a snapshot, their keys, and when they are trusted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tree_sitter import QueryCursor

from modeltools import value_spans
from pypto_ir_trace import grammar
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.formats import mlir as mlir_format
from pypto_ir_trace.languages import MLIR, mlir
from pypto_ir_trace.structure import parse

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mlir"
# The independent oracle: a function definition as the printer writes it, one per line.
ORACLE = re.compile(r"^\s*(?:func\.func|llvm\.func|[a-z_]+\.func)\s+(?:(?:private|public|nested)\s+)?(@[\w$.-]+)")


def analyze(text: str):
    lines, _ = split_lines(text)
    return mlir.analyze(parse(lines, MLIR), lines)


def oracle_names(text: str) -> list[str]:
    return [m.group(1) for line in text.split("\n") if (m := ORACLE.match(line))]


def fixture_snapshots():
    for item in sorted(FIXTURES.glob("*/*")):
        if mlir_format.looks_like_tree(item):
            dump = mlir_format.read_tree(item)
        elif mlir_format.looks_like_stream(item) and "threading" not in item.name:
            dump = mlir_format.read_stream(item)
        else:
            continue
        for snapshot in dump.snapshots[1:]:
            yield f"{item.relative_to(FIXTURES)}:{snapshot.filename}", snapshot


SNAPSHOTS = list(fixture_snapshots())


@pytest.mark.parametrize("name", grammar.query_names("mlir"))
def test_query_compiles(name):
    assert mlir.query(name).pattern_count > 0


def capture_names(name):
    query = mlir.query(name)
    return {query.capture_name(i) for i in range(query.capture_count)}


def test_capture_names_are_the_contract():
    assert capture_names("regions") >= {"function", "function.name", "container", "container.name", "function.op"}
    assert capture_names("values") == {"value", "value.comment"}
    python = {"comment", "string", "keyword", "function", "type", "number", "constant", "call", "builtin"}
    assert capture_names("highlights") - python == {"variable", "label"}


def test_a_custom_function_op_takes_one_bare_word_before_its_symbol_and_nothing_else():
    """`util.func public @f` is a function; a `.func` op with a string, an attribute or a number before its symbol
    is not one (regions.scm reads any node there, languages/mlir.py keeps a bare word only)."""
    text = """module {
  util.func public @kept(%arg0: i32) -> i32 {
    util.return %arg0 : i32
  }
  foo.func "tag" @with_string(%arg0: i32) {
    foo.return
  }
  foo.func #foo.attr @with_attribute(%arg0: i32) {
    foo.return
  }
  foo.func 3 @with_number(%arg0: i32) {
    foo.return
  }
}
"""
    lines, _ = split_lines(text)
    tree = parse(lines, MLIR)
    assert not tree.root_node.has_error
    assert [(r.key, r.start, r.end) for r in mlir.analyze(tree, lines).regions] == [("@kept", 1, 4)]
    assert mlir.function_span(tree, 1) == (1, 4)
    assert [mlir.function_span(tree, row) for row in (4, 7, 10)] == [None, None, None]


def test_fixtures_cover_enough_snapshots():
    assert len(SNAPSHOTS) > 100


@pytest.mark.parametrize("name,snapshot", SNAPSHOTS, ids=[n for n, _ in SNAPSHOTS])
def test_every_fixture_snapshot_has_the_oracles_functions(name, snapshot):
    structure = analyze(snapshot.text)
    assert structure.trusted, structure.reason
    found = [r.key.rsplit("::", 1)[-1] for r in structure.regions]
    assert found == oracle_names(snapshot.text)
    lines, _ = split_lines(snapshot.text)
    for region in structure.regions:
        assert region.key.rsplit("::", 1)[-1] in lines[region.def_line]
        assert region.error is None


def test_named_module_qualifies_the_key():
    text = (
        FIXTURES
        / "affine_matmul/variant_tree_dir_before_and_after/builtin_module_affine_kernels/1_finalize-memref-to-llvm.mlir"
    ).read_text()
    assert [r.key for r in analyze(text).regions] == ["affine_kernels::@matmul", "affine_kernels::@transpose_scale"]


NESTED = """\
module @outer {
  module @kernel_a {
    func.func @f(%arg0: i32) -> i32 {
      return %arg0 : i32
    }
  }
  module {
    func.func private @decl(i32) -> i32
  }
  util.func public @g(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    util.return %arg0 : !hal.buffer_view
  }
  emitc.func @e(%arg0: i32) {
    emitc.return
  }
  gpu.module @gm {
    gpu.func @k(%arg0: f32) kernel {
      gpu.return
    }
  }
  llvm.func @l() attributes {sym_visibility = "private"} {
    llvm.return
  }
  func.func @f(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
}
"""


def test_keys_spans_and_other_dialects_functions():
    structure = analyze(NESTED)
    assert structure.trusted
    assert [(r.key, r.start, r.end, r.def_line, r.kind) for r in structure.regions] == [
        ("outer::kernel_a::@f", 2, 5, 2, "function"),
        ("outer::@decl", 7, 8, 7, "function"),
        ("outer::@g", 9, 12, 9, "function"),
        ("outer::@e", 12, 15, 12, "function"),
        ("outer::gm::@k", 16, 19, 16, "function"),
        ("outer::@l", 20, 23, 20, "function"),
        ("outer::@f", 23, 26, 23, "function"),
    ]


def test_unnamed_module_gives_bare_symbols_and_repeats_get_a_number():
    text = "module {\n  func.func @f() {\n    return\n  }\n  func.func @f() {\n    return\n  }\n}\n"
    assert [r.key for r in analyze(text).regions] == ["@f", "@f#2"]


IREE_BODY = """\
module {
  util.global private @dev : !hal.device
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = stream.cmd.execute with(%a as %b: !stream.resource<external>{%size}) {
      stream.cmd.dispatch @ex::@entry[%c1](%b[%c0 to %size for %size] : !stream.resource<external>{%size})
    } => !stream.timepoint
    util.return %arg0 : !hal.buffer_view
  }
  func.func @f(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
}
"""


def test_custom_assembly_errors_mark_their_function_only():
    structure = analyze(IREE_BODY)
    assert structure.trusted, structure.reason
    assert [(r.key, r.error) for r in structure.regions] == [("@main", "syntax error at line 4"), ("@f", None)]


IREE_MODULE = """\
#executable_target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", native_vector_size = 16 : i64}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#executable_target]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @entry workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = flow.dispatch.workgroup_count_from_slice %arg0
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @entry(%arg0: !stream.binding, %arg1: index) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !flow.dispatch.tensor<readonly:tensor<?x4xf32>>{%arg1}
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)"}} {
    %0 = stream.resource.size %arg0 : !stream.resource<*>
    %result, %result_timepoint = stream.resource.alloca uninitialized : !stream.resource<external>{%c16} => !stream.timepoint
    %1 = stream.cmd.execute await(%result_timepoint) => with(%0 as %arg1: !stream.resource<external>{%c16}, %result as %arg2: !stream.resource<external>{%c16}) {
      stream.cmd.dispatch @ex::@entry[%c4](%c4 : index) {
        ro %arg1[%c0 for %c16] : !stream.resource<external>{%c16},
        wo %arg2[%c0 for %c16] : !stream.resource<external>{%c16}
      }
    } => !stream.timepoint
    %2 = stream.timepoint.await %1 => %result : !stream.resource<external>{%c16}
    %3:2 = util.call @helper(%2) : (!stream.resource<external>) -> (index, index)
    cf.cond_br %cond, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    util.return %arg0 : !hal.buffer_view
  ^bb2:  // pred: ^bb0
    util.return %arg0 : !hal.buffer_view
  }
  util.initializer {
    %0 = hal.devices.get %c0 : !hal.device
    util.global.store %0, @__device_0 : !hal.device
    util.return
  }
  util.func private @helper(%arg0: !stream.resource<external>) -> (index, index) {
    util.return %c0, %c0 : index, index
  }
}
"""


def test_iree_style_module_keeps_its_functions():
    """Custom assembly outside and inside functions, block labels at the function's indentation; a function
    inside an executable is named by it, as one inside a named module is (regions.scm)."""
    structure = analyze(IREE_MODULE)
    assert structure.trusted, structure.reason
    assert [(r.key, r.start, r.end, r.error is not None) for r in structure.regions] == [
        ("ex::@entry", 10, 15, True),
        ("@main", 17, 34, True),
        ("@helper", 39, 42, False),
    ]
    assert [r.key.rsplit("::", 1)[-1] for r in structure.regions] == [n for n in oracle_names(IREE_MODULE)]


def test_error_outside_functions_is_tolerated():
    text = "module {\n  util.global private @x = #util.byte_pattern<1> : !stream.resource<constant>{%sz}\n  func.func @f() {\n    return\n  }\n}\n"
    structure = analyze(text)
    assert parse(split_lines(text)[0], MLIR).root_node.has_error
    assert structure.trusted, structure.reason
    assert [r.key for r in structure.regions] == ["@f"]


def test_a_swallowed_function_makes_the_snapshot_untrusted():
    text = """\
module {
  util.func public @c(%arg0: i32 -> i32 {
    util.return %arg0 : i32
  }
  func.func @d(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
}
"""
    structure = analyze(text)
    assert not structure.trusted
    assert "@d" not in [r.key for r in structure.regions]
    assert "line 5" in structure.reason


def test_an_error_that_hides_the_end_of_a_function_is_untrusted():
    text = 'module {\n  func.func @a() {\n    %0 = "x"() ({\n  }\n  func.func @b() {\n    return\n  }\n}\n'
    structure = analyze(text)
    assert not structure.trusted
    assert structure.reason


def test_a_body_error_with_sound_layout_is_marked():
    text = 'module {\n  func.func @a(%arg0: i32) -> i32 {\n    %0 = "x"(%arg0 : i32\n    return %arg0 : i32\n  }\n  func.func @d() {\n    return\n  }\n}\n'
    structure = analyze(text)
    assert structure.trusted, structure.reason
    assert [(r.key, r.error) for r in structure.regions] == [("@a", "syntax error at line 3"), ("@d", None)]


def test_local_scope_function_dump():
    text = (
        "// -----// IR Dump After CSE (cse) //----- //\nfunc.func @f(%arg0: i32) -> i32 {\n  return %arg0 : i32\n}\n\n"
    )
    assert [(r.key, r.start, r.end) for r in analyze(text).regions] == [("@f", 1, 4)]


def test_value_spans_cut_result_marks_and_skip_strings():
    lines = [
        "func.func @f(%arg0: i32) -> i32 {",
        '  %0:2 = "x.y"(%arg0) {s = "%9 here"} : (i32) -> (i32, i32)',
        "  cf.br ^bb1(%0#1 : i32)",
        "^bb1(%1: i32):",
        "  return %1 : i32",
        "}",
    ]
    names = [[line[s:e] for s, e in spans] for line, spans in zip(lines, value_spans(lines))]
    assert names == [["%arg0"], ["%0", "%arg0"], ["^bb1", "%0"], ["^bb1", "%1"], ["%1"], []]


def test_value_spans_count_characters_not_bytes():
    lines = ["func.func @f(%arg0: i32) {", '  %1 = x.op "é€", %arg0 : i32', '  x.use "ü"(%1, %1) : i32', "}"]
    names = [[line[s:e] for s, e in spans] for line, spans in zip(lines, value_spans(lines))]
    assert names == [["%arg0"], ["%1", "%arg0"], ["%1", "%1"], []]


def test_highlights_name_what_a_reader_looks_for():
    from tree_sitter import QueryCursor

    lines = [
        "// -----// IR Dump After CSE (cse) //----- //",
        "#map = affine_map<(d0) -> (d0)>",
        "func.func private @f(%arg0: i32) -> i1 attributes {m = #map} {",
        '  %0 = arith.constant {note = "x"} 42 : i32',
        "  %true = arith.constant true",
        "  cf.br ^bb1",
        "^bb1:  // pred: ^bb0",
        "  return %true : i1",
        "}",
    ]
    tree = parse(lines, MLIR)
    captured = {}
    for name, nodes in QueryCursor(mlir.query("highlights")).captures(tree.root_node).items():
        for node in nodes:
            captured.setdefault(node.text.decode(), set()).add(name)
    want = {
        "// -----// IR Dump After CSE (cse) //----- //": "comment",
        "func.func": "keyword",
        "private": "keyword",
        "@f": "function",
        "%arg0": "variable",
        "i32": "type",
        "arith.constant": "call",
        '"x"': "string",
        "42": "number",
        "true": "constant",
        "^bb1": "label",
        "#map": "constant",
    }
    for text, name in want.items():
        assert name in captured.get(text, set()), (text, captured.get(text))


def test_every_archive_snapshot_has_the_oracles_functions(mlir_dumps):
    checked = 0
    for item in sorted(mlir_dumps.glob("*/*")):
        if mlir_format.looks_like_tree(item):
            dump = mlir_format.read_tree(item)
        elif item.suffix == ".txt" and mlir_format.looks_like_stream(item) and "threading" not in item.name:
            dump = mlir_format.read_stream(item)
        else:
            continue
        for snapshot in dump.snapshots[1:]:
            structure = analyze(snapshot.text)
            assert structure.trusted, (snapshot.filename, structure.reason)
            assert [r.key.rsplit("::", 1)[-1] for r in structure.regions] == oracle_names(snapshot.text)
            checked += 1
    assert checked > 700


def test_a_function_the_parse_ends_early_ends_where_the_layout_closes_it():
    """The stray `}` closes @a at line 4 for the parser, and its `return` and `}` would fall outside every
    function; the printer's layout (every line deeper than the function's but its closing `}`) closes it at line
    6, before @b: @a is read so, marked, and the snapshot is trusted (tree-sitter-mlir misreads IREE's codegen
    functions so, on half the texts of a real compile)."""
    text = 'module {\n  func.func @a() {\n    "x"() : () -> ()\n    }\n    return\n  }\n  func.func @b() {\n    return\n  }\n}\n'
    structure = analyze(text)
    assert structure.trusted
    assert [(r.key, r.start, r.end) for r in structure.regions] == [("@a", 1, 6), ("@b", 6, 9)]
    assert structure.regions[0].error and structure.regions[1].error is None


def test_a_function_the_layout_cannot_close_is_untrusted():
    # @a's `return` is printed at the module's indentation: no `}` at the function's closes it before @b
    text = 'module {\n  func.func @a() {\n    "x"() : () -> ()\n    }\n  return\n  }\n  func.func @b() {\n    return\n  }\n}\n'
    structure = analyze(text)
    assert not structure.trusted
    assert structure.reason.startswith("a syntax error hides where @a ends")


def whole_tree_search(root):
    """What regions.scm matches when the whole tree is walked (languages/mlir.py walks only the lines that
    spell an op): each capture as (capture, start byte, end byte)."""
    cursor = QueryCursor(mlir.query("regions"))
    cursor.set_max_start_depth(mlir.MAX_FUNCTION_DEPTH)
    return {
        (name, n.start_byte, n.end_byte) for _, caps in cursor.matches(root) for name, ns in caps.items() for n in ns
    }


def searched(root):
    cursor = QueryCursor(mlir.query("regions"))
    cursor.set_max_start_depth(mlir.MAX_FUNCTION_DEPTH)
    return {
        (name, n.start_byte, n.end_byte)
        for caps in mlir._matches(cursor, root)
        for name, ns in caps.items()
        for n in ns
    }


NESTED_OPS = """// a comment that says func.func and module
module @outer {
  gpu.module @kernels {
    gpu.func @k(%arg0: i32) kernel {
      gpu.return
    }
  }
  util.func public @u() {
    util.return
  }
  func.func @f() {
    "test.op"() ({
      func.func @inner() {
        return
      }
    }) : () -> ()
    %0 = "test.s"() {note = "func.func @fake"} : () -> i32
    return
  }
  llvm.func @g() {
    llvm.return
  }
}
"""


def test_searching_the_op_lines_finds_what_the_whole_tree_holds(mlir_dumps):
    """Only the lines that spell an op are searched: the same captures as walking every node, on every real
    snapshot, on nested functions and modules, and where a string or comment only spells an op."""
    texts = [
        NESTED_OPS,
        "module {\n" + "".join(f"  func.func @f{k}() {{\n    return\n  }}\n" for k in range(300)) + "}\n",
    ]
    for item in sorted(mlir_dumps.glob("*/*")):
        if mlir_format.looks_like_tree(item):
            texts += [s.text for s in mlir_format.read_tree(item).snapshots[1:]]
    for text in texts:
        root = parse(split_lines(text)[0], MLIR).root_node
        assert searched(root) == whole_tree_search(root)
    assert len(texts) > 300
    assert [r.key for r in analyze(NESTED_OPS).regions] == ["outer::kernels::@k", "outer::@u", "outer::@f", "outer::@g"]
