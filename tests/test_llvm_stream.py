"""LLVM pass dump streams (fixtures/llvm: real clang-19, opt-19 and llc-19 output): detection, one pass per dump in
order, what each dump is diffed against, and the report checked against an oracle computed from the dump alone."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pypto_ir_trace as irt
from dumptools import FIXTURES
from llvmoracle import changes, dumps, labelled, numbered_by_order
from mlir_oracle import gnu_counts
from pypto_ir_trace import builder, cli, render
from pypto_ir_trace.errors import DumpError
from pypto_ir_trace.formats import load

LLVM = FIXTURES / "llvm"
ALL = sorted(LLVM.glob("*.txt"))


def _summary(path):
    return irt.build_report(path).summary()["pipelines"][0]


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_every_stream_is_detected_and_every_dump_is_a_pass_in_order(path):
    pipelines = load(path)
    assert {dump.format for dump in pipelines} == {"llvm"}
    headers = [re.sub(r"\s+", " ", header) for label, _, header, _ in labelled(path) if label]  # 0: the input
    passes = [snapshot for dump in pipelines for snapshot in dump.snapshots[1:]]
    assert len(passes) == len(headers)
    for snapshot, header in zip(passes, headers):
        printed_before = re.search(r"its result as printed before (\S+) \(", snapshot.detail)  # a Before-only stream
        assert (printed_before[1] if printed_before else snapshot.header or snapshot.name) in header, (snapshot, header)


def test_a_template_pass_is_listed_by_its_class_and_first_argument_its_whole_name_kept():
    """LLVM's header names a pass by its C++ class, template arguments and all: the list shows the class and the
    analysis (`RequireAnalysisPass<GlobalsAA>`, as LLVM's pipeline text says `require<globals-aa>`), the tooltip
    and the summary the name as printed."""
    passes = _summary(LLVM / "lz4-renorm-O2.txt")["passes"]
    names = {p["name"]: p.get("header") for p in passes if "<" in p["name"]}
    assert names["RequireAnalysisPass<GlobalsAA>"] == (
        "RequireAnalysisPass<llvm::GlobalsAA, llvm::Module, llvm::AnalysisManager<Module>>"
    )
    assert names["InvalidateAnalysisPass<AAManager>"] == "InvalidateAnalysisPass<llvm::AAManager>"
    assert all("::" not in name and name.count("<") == 1 for name in names)
    assert all("header" not in p for p in passes if "<" not in p["name"])


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_the_report_agrees_with_the_oracle_on_which_pass_changed_which_function(path):
    """Every pipeline (one per compilation) against the oracle, a pass known by its header's line in the file."""
    label_of = {row: label for label, row, _, _ in labelled(path)}
    changed, no_op, names = set(), {}, set()
    for found in irt.build_report(path).summary()["pipelines"]:
        at = {p["label"]: label_of[int(p["file"].rsplit(":", 1)[1])] for p in found["passes"]}
        changed |= {(at[p["label"]], f["name"]) for f in found["functions"] for p in f["passes"]}
        no_op |= {at[p["label"]]: p["noOp"] for p in found["passes"]}
        names |= {f["name"] for f in found["functions"]}
    oracle = changes(path)
    assert oracle, "the oracle compares some pairs"
    for (label, function), differs in oracle.items():
        if function in names:
            assert ((label, function) in changed) == differs, (label, function, differs)
        else:  # a loop's fragment holds no function: the pass as a whole
            assert (not no_op[label]) == differs, (label, function, differs)


def test_format_llvm_reads_it_and_the_cli_says_so(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert cli.main([str(LLVM / "lz4-renorm-O2.txt"), "--format", "llvm", "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().err
    assert cli.main([str(LLVM / "lz4-renorm-O2.txt"), "-o", str(out)]) == 0
    assert "reading an LLVM pass dump stream" in capsys.readouterr().err
    data = render.decode_data(out.read_text(encoding="utf-8"))
    assert data["pipelines"][0]["format"] == "llvm"


def test_a_file_of_another_format_named_llvm_says_what_it_is(tmp_path):
    with pytest.raises(DumpError, match="looks like an MLIR after-all stream"):
        load(FIXTURES / "mlir" / "multi_func" / "stream.txt", "llvm")
    empty = tmp_path / "stderr.txt"
    empty.write_text("lz4.c:3:1: warning: nothing\n", encoding="utf-8")
    with pytest.raises(DumpError, match="no LLVM IR Dump header line"):
        load(empty, "llvm")


def test_function_scc_module_and_loop_dumps_are_diffed_against_what_their_pass_received():
    (dump,) = load(LLVM / "lz4-renorm-O2.txt")
    details = [s.detail for s in dump.snapshots]
    loop = next(s for s in dump.snapshots if " on loop " in s.detail)
    assert loop.detail.startswith("LoopInstSimplifyPass on loop %<unnamed loop> in function LZ4_renormDictT")
    assert "its part of LZ4_renormDictT" in loop.base_name  # the first dump of a loop: its blocks, cut out
    following = dump.snapshots[loop.index + 1]
    assert following.base is None and following.base_text is None  # the same loop: its previous dump
    assert any(d.startswith("InlinerPass on (LZ4_renormDictT)") for d in details)
    model = builder.build((dump,), 3).pipelines[0]
    inliner = next(p for p in model.passes if p.name == "InlinerPass")
    # its one function against the module dump before it: a module and an SCC print number metadata and attribute
    # groups apart (!8 / !5, #0 / #11), which is all that differs: the module dump is numbered as it numbers them
    assert inliner.diff is None and inliner.before_file.endswith(", its metadata numbered as here")


def test_scc_dumps_are_each_functions_previous_text_joined():
    (dump,) = load(LLVM / "sj-scc-inline-O2.txt")
    second, third = dump.snapshots[2], dump.snapshots[3]
    assert second.base is None and third.base is None  # the same two functions, printed by the dump before
    summary = _summary(LLVM / "sj-scc-inline-O2.txt")
    assert [f["name"] for f in summary["functions"]] == ["_parse_array_unicode", "_parse_object_unicode"]
    lines = dump.snapshots[1].text.count("\n")
    assert (summary["passes"][0]["inserted"], summary["passes"][0]["deleted"]) == (lines, 0)
    assert 0 < summary["passes"][1]["inserted"] < lines  # function-attrs changed the attributes, not every line


def test_print_changed_lists_every_pass_and_says_which_changed_nothing():
    path = LLVM / "version-print-changed-O2.txt"
    (dump,) = load(path)
    assert dump.snapshots[0].text.startswith("; ModuleID = 'version-O0.ll'")  # At Start is the input
    summary = _summary(path)
    passes = summary["passes"]
    omitted = [p for p, s in zip(passes, dump.snapshots[1:]) if "omitted because no change" in s.detail]
    ignored = [s for s in dump.snapshots if s.detail.endswith(", ignored")]
    assert len(omitted) == 249 and all(p["noOp"] for p in omitted)
    assert len(ignored) == 64 and ignored[0].detail == "PassManager<Function> on PyInit__version, ignored"
    printed = [p for p, s in zip(passes, dump.snapshots[1:]) if s.detail.count(",") == 0]
    assert len(printed) == 16 and all(not p["noOp"] for p in printed)


def test_before_and_after_dumps_pair_up():
    (dump,) = load(LLVM / "version-before-after-O1.txt")
    befores = [s for s in dump.snapshots if "Before" in s.detail]
    assert len(befores) == 213  # and the first, the module before the first pass: the pipeline's input
    given, first = dump.snapshots[0], dump.snapshots[1]
    assert given.filename == "version-before-after-O1.txt:1" and given.text.startswith("; ModuleID")
    assert first.name == "Annotation2MetadataPass" and first.base is None  # its After: diffed against it
    after = dump.snapshots[befores[3].index + 1]
    assert "Before" not in after.detail and after.name == befores[3].name
    assert after.base in (None, befores[3].index)  # diffed against the Before dump of its pass


def test_module_scope_dumps_are_whole_and_diffed_against_each_other():
    (dump,) = load(LLVM / "version-module-scope-O1.txt")
    assert all(s.text.startswith("; ModuleID") for s in dump.snapshots[1:])
    assert all(s.base is None and s.base_text is None for s in dump.snapshots[2:])


def test_module_scope_codegen_headers_name_their_unit_after_the_header():
    """With -print-module-scope the legacy pass manager says a function or loop pass's unit after the header's
    closing stars; each such header is a pass of its own, not a line of the dump before it."""
    (dump,) = load(LLVM / "functions-module-scope-O1.txt")
    arc, *loops = dump.snapshots[-6], *dump.snapshots[-3:]
    assert (arc.name, arc.detail) == ("objc-arc-contract", "ObjC ARC contraction on simple_mul_workgroup")
    assert [s.detail for s in loops] == [f"Loop Strength Reduction on loop %{n}" for n in (18, 15, 27)]
    for snapshot in dump.snapshots[1:]:
        assert snapshot.text.startswith("; ModuleID") and "*** IR Dump" not in snapshot.text


def test_a_module_scope_pass_on_one_function_changes_no_other_by_moving_metadata_numbers():
    """SROA on simple_mul_workgroup drops metadata nodes only it used: the module's print numbers the other
    functions' `!tbaa` nodes lower, which the two dumps of that one function (each the whole module) show apart."""
    path = LLVM / "functions-module-scope-O1.txt"
    raw = [body for _, body in dumps(path)]
    others = [line for line in set(raw[1]) ^ set(raw[0]) if "!tbaa !" in line and "%" in line]
    assert len(others) > 10  # the raw dumps differ in the other functions' metadata numbers
    (dump,) = load(path)
    assert dump.snapshots[2].base_name == "1 SimplifyCFGPass, its metadata numbered as here"
    summary = _summary(path)
    changed = {f["name"] for f in summary["functions"] for p in f["passes"] if p["label"] == "2"}
    assert changed == {"simple_mul_workgroup"}


def test_a_remark_printed_between_dumps_is_the_next_pass_s_warning_not_ir():
    """-Rpass prints a pass's remark (and the source line under it) before that pass's dump, after the IR of the
    dump before: it is the pass's warning, and no dump's text; those after the last dump go with the last."""
    path = LLVM / "functions-remarks-O2.txt"
    (dump,) = load(path)
    vectorize = next(s for s in dump.snapshots if s.name == "LoopVectorizePass")
    before = dump.snapshots[vectorize.index - 1]
    assert vectorize.warnings is not None and vectorize.warnings.startswith("functions.c:47:3: remark: vectorized loop")
    assert "   47 |   for (size_t i = tid; i < end; ++i) {" in vectorize.warnings
    assert "remark" not in before.text and before.text.rstrip("\n").endswith("}")
    last = dump.snapshots[-1]
    assert last.warnings is not None and [line for line in last.warnings.split("\n") if "remark:" in line] == [
        "functions.c:64:3: remark: vectorized loop (vectorization width: 4, interleaved count: 2) [-Rpass=loop-vectorize]",
        "functions.c:90:3: remark: vectorized loop (vectorization width: 4, interleaved count: 2) [-Rpass=loop-vectorize]",
    ]
    assert "remark" not in last.text
    assert any("ends with diagnostics after its last dump" in note for note in dump.notes)
    passes = _summary(path)["passes"]
    assert [p["warnings"] for p in passes] == [p["name"] == "LoopVectorizePass" or p is passes[-1] for p in passes]


def test_the_pass_manager_s_log_between_dumps_is_left_out_not_shown_as_a_change():
    """-debug-pass-manager logs each pass and analysis (`Running pass: SROAPass on f`) between the dumps: every
    pass showed as changed by the log lines before the next one; now none is IR, none a warning, and the note says
    how many were left out. The same run without the log changes the IR in 15 of its 20 dumps (fixtures README)."""
    path = LLVM / "functions-debug-pass-manager-O1.txt"
    logged = [line for line in path.read_text(encoding="utf-8").split("\n") if line.startswith(_LOGGED)]
    assert len(logged) == 554
    (dump,) = load(path)
    assert not any(line.startswith(_LOGGED) for s in dump.snapshots[1:] for line in s.text.split("\n"))
    assert f"{len(logged)} line(s) of the pass manager's log (-debug-pass-manager) between dumps: not IR, left out" in (
        dump.notes
    )
    passes = _summary(path)["passes"]
    assert len(passes) == 20 and sum(not p["noOp"] for p in passes) == 15
    assert not any(p["warnings"] for p in passes)


def test_the_compiler_s_reports_after_the_last_dump_are_left_out_not_read_as_its_ir():
    """-ftime-report prints its timing reports when the compiler ends, after the last dump: they were the last
    dump's lines (379 lines it seemed to add); now left out, and the note counts them."""
    path = LLVM / "functions-time-report-O1.txt"
    lines = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
    banner = next(row for row, line in enumerate(lines) if line.startswith("===---"))
    (dump,) = load(path)
    last = dump.snapshots[-1]
    assert last.text.rstrip("\n").endswith("}") and "Time" not in last.text and last.warnings is None
    assert f"{len(lines) - banner} line(s) of the compiler's reports (-ftime-report, -stats): not IR, left out" in (
        dump.notes
    )
    sroa = _summary(path)["passes"][-1]
    assert (sroa["inserted"], sroa["deleted"]) == (3, 3)  # GNU diff's count between the two dumps' IR


def test_statistics_after_the_last_dump_are_left_out_with_the_blank_line_above_them():
    """clang's `-print-stats` (opened by a blank line and `STATISTICS:`) and a release build's answer to `-mllvm
    -stats` follow the last dump: they were its IR (136 lines it seemed to add); now left out and counted, and the
    last SROA shows what GNU diff counts between the two dumps' IR."""
    path = LLVM / "functions-stats-O1.txt"
    lines = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
    opened = lines.index("STATISTICS:")
    assert lines[opened - 1] == "" and lines[-1].startswith("Statistics are disabled.")
    (dump,) = load(path)
    last = dump.snapshots[-1]
    assert last.text.endswith("}\n") and "Stats" not in last.text and last.warnings is None
    assert f"{len(lines) - opened} line(s) of the compiler's reports (-ftime-report, -stats): not IR, left out" in (
        dump.notes
    )
    bodies = ["\n".join(body).strip("\n") + "\n" for _, body in dumps(path)[-2:]]
    sroa = _summary(path)["passes"][-1]
    assert (sroa["inserted"], sroa["deleted"]) == gnu_counts(*bodies)


def test_two_compilations_in_one_stream_are_two_pipelines_each_as_its_output_alone(tmp_path):
    """clang given two sources prints one compilation's dumps after the other's: a pipeline each, named by its
    module, each the same as that compilation's output read alone. The fixture is the two outputs one after the
    other (its README): the first 663 lines are functions.c's. _version.c's first dumps, SROA on its functions,
    come before any of its dumps names its module."""
    path = LLVM / "functions-version-two-sources-O1.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[663].startswith("; *** IR Dump After SROAPass on ")
    both = _each_as_read_alone(
        path, [_written(tmp_path / "functions.txt", lines[:663]), _written(tmp_path / "version.txt", lines[663:])]
    )
    assert [pipeline["name"] for pipeline in both] == ["functions.c", "_version.c"]
    (dump, _) = load(path)
    assert any(note.startswith("2 compilations in one stream") for note in dump.notes)


def test_cuda_s_host_and_device_compilations_of_one_file_are_told_apart_by_their_target(tmp_path):
    """clang compiles a .cu file twice, for the host and for the device, both modules named `axpy.cu`: a pipeline
    each, named with its target triple, each the same as that compilation alone (the fixture is --cuda-host-only's
    output, then --cuda-device-only's but for the driver's warning both print first: its README). The device's
    first dumps (SROA on its kernel) come before its first module dump."""
    path = LLVM / "axpy-cuda-host-device-O1.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[902] == "; *** IR Dump After SROAPass on _Z4axpyfPKfPfi ***"
    host, device = (
        _written(tmp_path / "host.txt", lines[:902]),
        _written(tmp_path / "device.txt", [lines[0], *lines[902:]]),
    )
    both = _each_as_read_alone(path, [host, device])
    assert [pipeline["name"] for pipeline in both] == ["axpy.cu (x86_64-pc-linux-gnu)", "axpy.cu (nvptx64-nvidia-cuda)"]
    assert [f["name"] for f in both[1]["functions"]] == ["_Z4axpyfPKfPfi", "_ZL3tidv"]


def test_a_function_s_attribute_groups_renumbered_by_the_module_are_no_change_of_its_pass():
    """Two prints of one function name its attribute groups by the module's numbering, which moves when other
    functions come or go (rustc, LLVM 22: the inliner deleted `scale`'s callees, and `#13` became `#1`). Each pass
    counts what GNU diff counts between the two dumps with their numbers read as the oracle reads them."""
    path = LLVM / "rust-scale-instcombine-O2.txt"
    bodies = ["\n".join(body).strip("\n") + "\n" for *_, body in labelled(path)]
    assert "unnamed_addr #13 {" in bodies[4] and "unnamed_addr #1 {" in bodies[5]
    passes = _summary(path)["passes"]
    for before, after, found in zip(bodies[:-1], bodies[1:], passes[1:], strict=True):
        assert (found["inserted"], found["deleted"]) == gnu_counts(numbered_by_order(before), numbered_by_order(after))


def test_a_stream_printed_only_before_its_passes_lists_each_change_as_the_pass_before_it():
    """-print-before alone: each dump is the function as the passes since the dump before it left it, so that
    change is listed as that dump's pass, the text printed before the next (the input is not dumped: the first dump
    shows as added, under its own name); each count is GNU diff's between the two dumps."""
    path = LLVM / "functions-before-only-O1.txt"
    found = list(labelled(path))
    assert all(" Before " in header for _, _, header, _ in found)
    bodies = ["\n".join(body).strip("\n") + "\n" for *_, body in found]
    passes = _summary(path)["passes"]
    names = [re.search(r"Before (\S+)", header)[1] for _, _, header, _ in found]
    assert [p["name"] for p in passes] == [names[0], *names[:-1]]
    assert passes[0]["printedBefore"] and not any(p.get("printedBefore") for p in passes[1:])
    for before, after, p in zip(bodies[:-1], bodies[1:], passes[1:], strict=True):
        assert (p["inserted"], p["deleted"]) == gnu_counts(numbered_by_order(before), numbered_by_order(after))
    (dump,) = load(path)
    assert dump.snapshots[2].detail == (
        "SROAPass on simple_mul_workgroup: its result as printed before InstCombinePass (with any pass not printed "
        "between)"
    )
    assert any("the last pass, InstCombinePass, ran after the last dump" in note for note in dump.notes)


def _written(path, lines: list[str]):
    """A file of the lines (a stream's part, as its compiler printed it alone)."""
    path.write_text("\n".join(lines) + ("\n" if lines[-1] else ""), encoding="utf-8")
    return path


def _each_as_read_alone(path, parts) -> list[dict]:
    """The stream's pipelines, each checked to be what its part of the file reads as, alone."""
    pipelines = irt.build_report(path).summary()["pipelines"]
    for found, part in zip(pipelines, parts, strict=True):
        expected = _summary(part)
        assert [_counts(p) for p in found["passes"]] == [_counts(p) for p in expected["passes"]]
        assert found["functions"] == expected["functions"]
    return pipelines


def _counts(found: dict) -> tuple:
    return found["name"], found["inserted"], found["deleted"], found["noOp"]


_LOGGED = ("Running pass: ", "Running analysis: ", "Invalidating analysis: ", "Clearing all analysis results for: ")


def test_a_pass_the_loop_pipeline_runs_twice_does_not_start_another_loop_when_its_header_is_the_same():
    """-print-after=licm,loop-rotate: LICM, LoopRotate, LICM on one loop (header block 18: after the rotation). The
    second LICM is the loop pipeline's second LICM, not the next loop's first pass: diffed against the loop as the
    dump before printed it, it changed nothing (it was shown against its blocks cut out of no function)."""
    path = LLVM / "functions-licm-rotate-O1.txt"
    passes = _summary(path)["passes"]
    assert [(p["name"], p["noOp"]) for p in passes] == [
        ("LICMPass", False),
        ("LoopRotatePass", False),
        ("LICMPass", True),
        ("LoopRotatePass", False),
        ("LICMPass", True),
    ]


def test_machine_code_dumps_are_machine_functions():
    path = LLVM / "version-llc-O2-filtered.txt"
    (dump,) = load(path)
    isel = next(s for s in dump.snapshots if s.name == "x86-isel")
    assert isel.detail == "X86 DAG->DAG Instruction Selection, machine code"
    legacy = dump.snapshots[1]
    assert (legacy.name, legacy.detail) == ("pre-isel-intrinsic-lowering", "Pre-ISel Intrinsic Lowering")
    summary = _summary(path)
    (function,) = summary["functions"]
    assert function["name"] == "library_version_number"
    assert any(p["label"] == isel.label for p in function["passes"])


def test_two_builds_compare_pass_by_pass(tmp_path):
    same = irt.build_report(LLVM / "lz4-renorm-O3.txt", baseline=LLVM / "lz4-renorm-O2.txt")
    assert not same.differs  # -O3 runs two more passes on this function, which change nothing
    report = irt.build_report(LLVM / "lz4-renorm-O2.txt", baseline=LLVM / "lz4-renorm-O1.txt")
    summary = report.summary()
    assert summary["kind"] == "runs" and report.differs
    assert summary["firstDivergent"]["pass"]
    out = tmp_path / "runs.html"
    report.write(out)
    data = render.decode_data(out.read_text(encoding="utf-8"))
    assert data["runs"]["rows"]


def test_many_programs_a_file_per_translation_unit(tmp_path):
    new, old = tmp_path / "new", tmp_path / "old"
    new.mkdir(), old.mkdir()
    (new / "lz4.txt").write_bytes((LLVM / "lz4-renorm-O2.txt").read_bytes())
    (old / "lz4.txt").write_bytes((LLVM / "lz4-renorm-O1.txt").read_bytes())
    for root in (new, old):
        (root / "version.txt").write_bytes((LLVM / "version-module-scope-O1.txt").read_bytes())
    result = irt.compare_programs(new, old, tmp_path / "reports", jobs=1)
    statuses = {p.name: p.status for p in result.programs}
    assert statuses == {"lz4.txt": "differs", "version.txt": "identical"}
    assert (tmp_path / "reports" / "index.html").is_file()


_PIECES = [
    "; *** IR Dump After SROAPass on f ***\n",
    "; *** IR Dump Before SROAPass on f ***\n",
    "; *** IR Dump After LICMPass on loop %x in function f ***\n",
    "; *** IR Dump After InlinerPass on (f, g) ***\n",
    "; *** IR Dump After GlobalOptPass on [module] ***\n",
    "*** IR Dump After X on f omitted because no change ***\n",
    "# *** IR Dump After X86 DAG->DAG Instruction Selection (x86-isel) ***:\n",
    "*** IR Dump After ObjC ARC contraction (objc-arc-contract) *** (function: f)\n",
    "*** IR Dump After Loop Strength Reduction (loop-reduce) *** (loop: %3)\n",
    "; ModuleID = 'x'\n",
    "define void @f() {\n",
    "define void @g(i32 %0) {\n",
    "}\n",
    "; Loop:\n",
    "3:   ; preds = %2\n",
    "  %4 = add i32 %0, 1\n",
    "  br label %3\n",
    "\n",
    "# Machine code for function f: IsSSA\n",
    "# End machine code for function f.\n",
    "\u202e\0\ud7ff😀\r",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=40))
def test_odd_streams_give_a_report_or_a_one_line_error(tmp_path, pieces):
    path = tmp_path / "odd.txt"
    path.write_text("".join(pieces), encoding="utf-8", errors="surrogatepass")
    try:
        dumps_read = load(path, "llvm")
    except DumpError as err:
        assert "\n" not in str(err)
        return
    builder.build(dumps_read, 3)


def test_a_stream_of_diffs_is_refused_saying_what_to_run_instead(tmp_path, capsys):
    """-print-changed=diff (and cdiff, diff-quiet) prints each change as a diff against the unit's text before, not
    as IR: one line and exit 1, no report, where a report of diffs of diffs was written."""
    path = LLVM / "refused" / "functions-print-changed-diff-O1.txt"
    assert any(line.startswith(("-", "+")) for line in path.read_text(encoding="utf-8").split("\n"))
    out = tmp_path / "r.html"
    assert cli.main([str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == (
        f"pypto-ir-trace: error: {path} holds diffs, not IR (-print-changed=diff, cdiff or diff-quiet): run again "
        "with -print-changed or -print-after-all"
    )
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_the_interleaved_output_of_several_threads_is_refused_saying_how_to_run_on_one(tmp_path, capsys):
    """rustc runs its codegen units' LLVM pipelines on several threads, whose prints cut into each other's lines
    (`%12 = load i64, ptr %4, align 8; *** IR Dump After ...`): no dump can be read whole, so one line and exit 1,
    no report, where a report of the fragments was written."""
    path = LLVM / "refused" / "rust-interleaved-codegen-units.txt"
    inside = [line for line in path.read_text(encoding="utf-8").split("\n") if "; *** IR Dump " in line[1:]]
    assert inside
    out = tmp_path / "r.html"
    assert cli.main([str(path), "-o", str(out)]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"pypto-ir-trace: error: {path}: {len(inside)} IR Dump header(s) start inside a line: the output of several "
        "threads is interleaved (rustc's parallel codegen units, a parallel LTO backend), so no dump can be read "
        "whole: run it again on one thread (rustc: -C codegen-units=1)"
    )
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_function_no_earlier_dump_held_is_diffed_against_nothing_not_the_dumped_input(tmp_path):
    """print-changed's At Start (or a module printed before the first pass) is the input; a function a pass makes
    (an outliner's) is shown whole as added, not against the whole input module."""
    module = "; ModuleID = 'm'\ndefine i32 @f() {\n  ret i32 0\n}\n"
    made = "define internal i32 @f.outlined() {\n  ret i32 1\n}\n"
    path = tmp_path / "made.txt"
    path.write_text(
        f"*** IR Dump At Start ***\n{module}\n*** IR Dump After OutlinerPass on f.outlined ***\n{made}\n",
        encoding="utf-8",
    )
    (dump,) = load(path)
    outlined = dump.snapshots[1]
    assert dump.snapshots[0].text.startswith("; ModuleID") and outlined.base_text == ""
    assert outlined.base_name == "(nothing: no earlier dump holds it)"
    (p,) = _summary(path)["passes"]
    assert (p["inserted"], p["deleted"]) == (len(outlined.text.splitlines()), 0)  # all of it added, nothing deleted
