"""LLVM numbers metadata afresh in each print (formats/llvm/metadata.py): a text made of one print is named as the
dump it is diffed against names its metadata, where their lines agree but for those numbers, and only then."""

from __future__ import annotations

from pathlib import Path

import pytest

from pypto_ir_trace import api, formats
from pypto_ir_trace.formats.llvm import program
from pypto_ir_trace.formats.llvm.metadata import renumbered

LLVM = Path(__file__).resolve().parents[1] / "fixtures" / "llvm"

MODULE_PRINT = """define i32 @f(ptr %0) !dbg !9 {
  %2 = load i32, ptr %0, align 4, !tbaa !5
  store i32 %2, ptr %0, align 4, !tbaa !5
  ret i32 %2, !dbg !12
}
"""


def test_a_function_printed_alone_names_the_module_prints_references_its_own_way():
    own = MODULE_PRINT.replace("!5", "!21").replace("!9", "!17").replace("!12", "!19")
    assert renumbered(MODULE_PRINT, own) == own


def test_the_lines_a_pass_changed_keep_their_references_and_the_others_are_renamed():
    own = MODULE_PRINT.replace("!5", "!21").replace("!9", "!17").replace("!12", "!19")
    changed = own.replace("  store i32 %2, ptr %0, align 4, !tbaa !21\n", "  store i32 0, ptr %0, align 4, !tbaa !30\n")
    made = renumbered(MODULE_PRINT, changed)
    assert made == own  # the store the pass rewrote is its change, diffed as such
    assert "!tbaa !30" not in made


def test_attribute_groups_are_numbered_per_print_too():
    """InlinerPass on (LZ4_renormDictT), a call-graph SCC's print: `#11` where the module's print said `#0`."""
    module = MODULE_PRINT.replace("!dbg !9 {", "#0 !dbg !9 {")
    own = module.replace("#0", "#11").replace("!5", "!21")
    assert renumbered(module, own) == own
    assert "#dbg_value" in renumbered("  #dbg_value(ptr %0, !5)\n", "  #dbg_value(ptr %0, !7)\n")


@pytest.mark.parametrize(
    "dump",
    [
        MODULE_PRINT.replace("!tbaa !5\n  store", "!tbaa !21\n  store").replace("!tbaa !5\n  ret", "!tbaa !22\n  ret"),
        MODULE_PRINT.replace("!5", "!12"),  # two nodes would share a name
        MODULE_PRINT.replace("!9 {", "!12 {"),  # !9 and !12 both become !12
    ],
    ids=["one-number-two-names", "two-numbers-one-name", "a-kept-number-taken"],
)
def test_what_is_not_one_consistent_renaming_is_kept_as_it_is(dump):
    assert renumbered(MODULE_PRINT, dump) is MODULE_PRINT


def test_a_pass_that_changed_nothing_but_the_prints_numbers_is_a_no_op():
    """lz4's LZ4_renormDictT at -O2 (-filter-print-funcs): the module passes print it with `!tbaa !9`, the function
    passes with `!tbaa !19`; EntryExitInstrumenterPass changes nothing, and its Before pane says what it is shown
    against."""
    pipeline = api.build_report(LLVM / "lz4-renorm-O2.txt").summary()["pipelines"][0]
    entry = next(p for p in pipeline["passes"] if p["label"] == "6")
    assert entry["name"] == "EntryExitInstrumenterPass" and entry["noOp"]
    (dump,) = formats.load(LLVM / "lz4-renorm-O2.txt")
    assert dump.snapshots[6].base_name == "5 CoroEarlyPass, its metadata numbered as here"
    assert dump.snapshots[5].text != dump.snapshots[6].text == dump.snapshots[6].base_text


def _module(f_ref: str, g_ref: str, g_body: str = "ret i32 0") -> str:
    return (
        "; ModuleID = 'm'\n\n"
        f"define i32 @f(ptr %0) {{\n  %2 = load i32, ptr %0, align 4, !tbaa {f_ref}\n  ret i32 %2\n}}\n\n"
        f"define i32 @g(ptr %0) {{\n  store i32 0, ptr %0, align 4, !tbaa {g_ref}\n  {g_body}\n}}\n"
    )


def test_a_module_put_together_from_function_dumps_is_renamed_function_by_function():
    """Each function put in keeps its own print's numbers: `!5` is one node in f's and another in g's, so no one
    renaming fits the whole text; each function is renamed against the dump's function of its name."""
    made, dump = _module("!5", "!5"), _module("!7", "!9")
    assert renumbered(made, dump) is made
    assert program.numbered(made, dump) == dump


def test_a_module_dump_is_renumbered_against_the_module_dump_before_it(tmp_path):
    """A module pass that drops a node from g moves the numbers of the rest: f, which it left alone, is no change."""
    before = _module("!43", "!44", "ret i32 1")
    after = _module("!42", "!44", "ret i32 2")
    path = tmp_path / "modules.txt"
    path.write_text(
        f"; *** IR Dump After IPSCCPPass on [module] ***\n{before}\n; *** IR Dump After GlobalOptPass on [module] ***\n"
        f"{after}\n",
        encoding="utf-8",
    )
    pipeline = api.build_report(path).summary()["pipelines"][0]
    changed = {f["name"]: [p["label"] for p in f["passes"]] for f in pipeline["functions"]}
    assert changed.get("f", []) == ["1"] and changed["g"] == ["1", "2"]  # f only where it first shows


def test_the_lines_outside_functions_are_renamed_against_the_dumps_own():
    """The module's metadata definitions follow the numbers of the text they come from: renamed as the dump's."""
    definitions = '\n!5 = !{!6, !6, i64 0}\n!6 = !{!"int", !7, i64 0}\n!7 = !{!"Simple C TBAA"}\n'
    made = _module("!5", "!5") + definitions
    dump = _module("!7", "!9") + definitions.replace("!7", "!8").replace("!6", "!7").replace("!5", "!6")
    assert program.numbered(made, dump) == dump
