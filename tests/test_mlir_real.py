"""The repository's own corpus of real MLIR dumps (fixtures/mlir/real/, written by mlir-opt 19, iree-compile and
clang 19 from public inputs) against an oracle computed from the dump files alone (mlir_oracle.py, GNU diff):
every pass of every stream, its name, place and counts; a module-scope tree tells what the stream of the same run
tells; a --split-input-file stream is a pipeline per chunk of its input; C++ pass names; an LLVM IR dump."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import mlir_oracle as oracle
from modeltools import load_dump, model_json, report_of, with_and_without_shapes
from pypto_ir_trace import build_report, builder, cli, formats

# Module-scope streams: every dump holds the whole IR, so the oracle diffs each against the one before it.
STREAMS = [
    "sparsifier/stream_module_scope.txt",
    "sparsifier/stream_generic.txt",
    "iree_abs/stream_module_scope.txt",
    "transform_narrow_types/stream_module_scope.txt",
    "split_tile_and_fuse/stream_module_scope.txt",
    "split_tile_and_fuse/stream_flat_flags.txt",
    "split_bufferize_failed/stream_module_scope.txt",
    "split_bufferize_failed/stream_timing.txt",
]
# Passes whose diff is longer than the minimal one by more than the oracle's slack, each checked to the line:
# patience anchors on the few lines that occur once, and in a function that repeats the same loop nests with
# every value renumbered those are the wrong ones; the generic form prints more lines alike (`}) : () -> ()`), so
# it has fewer such lines still (`@_sparse_partition_0_1_i8_coo_0_i32`, 668 lines, 527 of them renumbered: 4 and 7
# lines more). (stream, pipeline, pass label) -> (inserted, deleted)
GENERIC = "sparsifier/stream_generic.txt"
LONGER_THAN_MINIMAL = {
    ("split_tile_and_fuse/stream_module_scope.txt", "chunk 8: @mlp", "14"): (193, 195),
    (GENERIC, GENERIC, "25"): (959, 960),
    (GENERIC, GENERIC, "26"): (1004, 981),
}


@functools.cache
def _summary(path: Path) -> dict:
    return build_report(path).summary()


def summary(real_mlir: Path, form: str) -> dict:
    return _summary(real_mlir / form)


def passes(real_mlir: Path, form: str) -> list[tuple[str, int, int]]:
    """What the report says of each pass, all pipelines one after the other: (name, inserted, deleted)."""
    return [
        (p["name"], p["inserted"], p["deleted"])
        for pipe in summary(real_mlir, form)["pipelines"]
        for p in pipe["passes"]
    ]


@pytest.mark.parametrize("form", STREAMS)
def test_every_pass_of_a_stream_is_what_the_oracle_computes(real_mlir, form):
    dumps = oracle.stream(real_mlir / form)
    pipelines = summary(real_mlir, form)["pipelines"]
    assert sum(len(pipe["passes"]) for pipe in pipelines) == len(dumps)
    wrong, longer, k = [], {}, 0
    for pipe in pipelines:
        before = ""  # MLIR prints no input: each pipeline's first dump is shown against nothing
        for p in pipe["passes"]:
            dump = dumps[k]
            k += 1
            assert (p["name"], p["failed"]) == (dump.arg, dump.failed), (pipe["name"], p["label"])
            assert p["noOp"] == (dump.text == before), (pipe["name"], p["label"])
            why = oracle.check_counts(before, dump.text, p["inserted"], p["deleted"])
            if (form, pipe["name"], p["label"]) in LONGER_THAN_MINIMAL:
                longer[form, pipe["name"], p["label"]] = (p["inserted"], p["deleted"])
            elif why is not None:
                wrong.append(f"{pipe['name']} {p['label']} {p['name']}: {why}")
            before = dump.text
    assert wrong == []
    assert longer == {key: counts for key, counts in LONGER_THAN_MINIMAL.items() if key[0] == form}


def test_the_whole_ir_printed_before_the_first_pass_is_the_input(real_mlir):
    """--mlir-print-ir-before-all at module scope: each chunk's first dump, the whole IR before its first pass, is
    its pipeline's input (snapshot 0, no pass); every later dump, Before or After, is a pass against the dump before
    it (its pass's Before dump, for an After), its counts GNU diff's. The same run without Before dumps shows its
    first pass as adding the whole IR."""
    form = "split_bufferize_failed/stream_before_and_after.txt"
    dumps = oracle.stream(real_mlir / form)
    pipelines = summary(real_mlir, form)["pipelines"]
    assert len(pipelines) == 9 and sum(len(pipe["passes"]) + 1 for pipe in pipelines) == len(dumps)
    wrong, k = [], 0
    for pipe in pipelines:
        given = dumps[k]
        assert given.before and given.text.startswith("module") and pipe["input"]["name"] == "input"
        before, k = given.text, k + 1
        for p in pipe["passes"]:
            dump = dumps[k]
            assert (p["name"], p["failed"]) == (dump.arg, dump.failed), (pipe["name"], p["label"])
            assert p["noOp"] == (dump.text == before), (pipe["name"], p["label"])
            why = oracle.check_counts(before, dump.text, p["inserted"], p["deleted"])
            if why is not None:
                wrong.append(f"{pipe['name']} {p['label']} {p['name']}: {why}")
            before, k = dump.text, k + 1
    assert wrong == []
    first = summary(real_mlir, "split_bufferize_failed/stream_module_scope.txt")["pipelines"][0]
    assert first["input"]["name"] == "(input not dumped)" and first["passes"][0]["deleted"] == 0
    assert pipelines[0]["passes"][0]["deleted"] > 0  # canonicalize: what it removed shows once the input is known


LOCAL_CASES = ["sparsifier", "transform_narrow_types", "split_bufferize_failed", "split_tile_and_fuse"]


SHOWN_WHOLE = "shown in the whole IR"  # what a local dump's detail says when the report shows it in the whole IR


def local_snapshots(real_mlir: Path, form: str) -> list:
    """The snapshots of a local-scope stream's passes, all pipelines one after the other."""
    return [s for dump in formats.load(real_mlir / form) for s in dump.snapshots[1:]]


def local_pairs(real_mlir: Path, case: str) -> Iterator[tuple[str, dict, str, str]]:
    """(pipeline, pass, before, after) of each pass of a local-scope stream. A local dump after the pipeline's
    first whole dump is shown in the whole IR: its two texts are the ones the report shows, which the test
    below holds to the IR the module-scope run of the same compile prints. A whole dump: the module-scope run's
    two texts. A local dump before any whole one is shown alone: the module-scope run's function before and
    after (aliases written out, as a local dump prints attributes), its first dump against nothing."""
    form = f"{case}/stream_local_scope.txt"
    local, scoped = oracle.stream(real_mlir / form), oracle.stream(real_mlir / case / "stream_module_scope.txt")
    snapshots = local_snapshots(real_mlir, form)
    k = 0
    for pipe in summary(real_mlir, form)["pipelines"]:
        seen: set[str] = set()
        whole_seen = False
        for at, p in enumerate(pipe["passes"]):
            now, before = scoped[k].text, scoped[k - 1].text if at else ""
            assert p["name"] == scoped[k].arg == local[k].arg, (pipe["name"], p["label"])
            op, sym = oracle.op_of(scoped[k].header)
            if op != "builtin.module" and sym is not None:
                assert (SHOWN_WHOLE in snapshots[k].detail) == whole_seen, (pipe["name"], p["label"])
                if whole_seen:
                    pair = (snapshots[k - 1].text, snapshots[k].text)
                elif sym not in seen:
                    pair = ("", local[k].text)
                else:
                    pair = (oracle.function_text(before, sym), oracle.function_text(now, sym))
                seen.add(sym)
            else:
                pair, whole_seen = (before if whole_seen else "", now), True
            yield pipe["name"], p, *pair
            k += 1
    assert k == len(local) == len(scoped) == len(snapshots)


def reported_ops(real_mlir: Path, form: str) -> list[dict[str, int]]:
    """Each pass's op counts as the report gives them, all pipelines one after the other: dotted names only (the
    oracle's), no function or module."""
    report = builder.build(formats.load(real_mlir / form), 3)
    return [
        {op: n for op, n in p.ops if "." in op and not op.endswith((".func", ".module"))}
        for pipe in report.pipelines
        for p in pipe.passes
    ]


def _without(counts: dict[str, int], names: set[str]) -> dict[str, int]:
    return {op: n for op, n in counts.items() if op not in names}


@pytest.mark.parametrize("form", STREAMS)
def test_every_pass_of_a_stream_counts_the_ops_the_oracle_counts(real_mlir, form):
    """A pass's op counts (`arith.constant +3`) are its after text's ops less its before text's, by the oracle's
    own count of each op where the printer starts it; generic-form ops aside (mlir_oracle.py says why)."""
    dumps, reported = oracle.stream(real_mlir / form), reported_ops(real_mlir, form)
    pipelines = summary(real_mlir, form)["pipelines"]
    assert len(reported) == len(dumps)
    wrong, k = [], 0
    for pipe in pipelines:
        before = ""
        for p in pipe["passes"]:
            after = dumps[k].text
            generic = oracle.generic_ops(before, after)
            if _without(reported[k], generic) != _without(oracle.op_counts(before, after), generic):
                wrong.append(f"{pipe['name']} {p['label']} {p['name']}")
            before, k = after, k + 1
    assert wrong == []


def test_the_compiler_s_reports_between_dumps_are_left_out_the_diagnostics_after_them_kept(real_mlir):
    """--mlir-timing with --split-input-file: a time report after each chunk, before the next chunk's diagnostics.
    They were the text of each chunk's last dump; now the run reads as it does without them, and the note counts
    the lines left out."""
    timed, plain = "split_bufferize_failed/stream_timing.txt", "split_bufferize_failed/stream_module_scope.txt"
    lines = (real_mlir / timed).read_text(encoding="utf-8").split("\n")
    banners = [row for row, line in enumerate(lines) if line.startswith("===---")]
    assert len(banners) == 18  # nine reports, each title between two banners
    assert passes(real_mlir, timed) == passes(real_mlir, plain)
    dumps, without = formats.load(real_mlir / timed), formats.load(real_mlir / plain)
    assert [[(s.text, s.warnings) for s in d.snapshots] for d in dumps] == [
        [(s.text, s.warnings) for s in d.snapshots] for d in without
    ]
    assert any(
        note.endswith(
            "line(s) the compiler printed besides its dumps (reports such as --mlir-timing's, a pass's own "
            "dumps such as Triton's SoftwarePipeliner internal IR Dump): no pass's IR, left out"
        )
        for note in dumps[0].notes
    )


BEFORE_ONLY = ["sparsifier/stream_before_only.txt", "triton_add/stream_before_only.txt"]


@pytest.mark.parametrize("form", BEFORE_ONLY)
def test_a_stream_printed_only_before_each_pass_charges_each_change_to_the_pass_that_made_it(real_mlir, form):
    """--mlir-print-ir-before-all alone (Triton's MLIR_ENABLE_DUMP too): dump k is the IR the pass printed before
    dump k - 1 left, so the change from one dump to the next is listed as that pass's (it was listed as the next
    pass's, printed before it); the first dump is the input, the last pass's result is never printed; every count
    is what the oracle computes between the two dumps."""
    dumps = oracle.stream(real_mlir / form)
    assert all(dump.before for dump in dumps)
    (pipe,) = summary(real_mlir, form)["pipelines"]
    assert pipe["input"]["name"] == "input" and len(pipe["passes"]) == len(dumps) - 1
    wrong = []
    for p, ran, dump in zip(pipe["passes"], dumps[:-1], dumps[1:], strict=True):
        assert p["name"] == ran.arg and not p.get("printedBefore"), p["label"]
        assert p["noOp"] == (dump.text == ran.text), p["label"]
        if (why := oracle.check_counts(ran.text, dump.text, p["inserted"], p["deleted"])) is not None:
            wrong.append(f"{p['label']} {p['name']}: {why}")
    assert wrong == []
    (dump,) = formats.load(real_mlir / form)
    assert any(f"the last pass, {dumps[-1].arg}, ran after the last dump" in note for note in dump.notes)


def test_a_before_only_stream_shows_what_the_after_stream_of_the_same_run_shows(real_mlir):
    """The sparsifier printed before each pass and after each pass: outside the nested pipeline of
    sparsification-and-bufferization (whose own work after its last inner pass only an After dump shows) every
    pass changes the same lines either way; the after stream shows its first pass against nothing."""
    before = summary(real_mlir, "sparsifier/stream_before_only.txt")["pipelines"][0]["passes"]
    after = summary(real_mlir, "sparsifier/stream_module_scope.txt")["pipelines"][0]["passes"]
    changed = lambda passes: Counter((p["name"], p["inserted"], p["deleted"]) for p in passes if not p["noOp"])
    nested = {"sparsification-and-bufferization", "sparse-buffer-rewrite"}
    mine, theirs = changed(before[1:]), changed(after[1:-1])
    assert {k: n for k, n in mine.items() if k[0] not in nested} == {
        k: n for k, n in theirs.items() if k[0] not in nested
    }
    assert len(mine) >= 30


def test_triton_s_own_dumps_inside_a_pass_are_left_out_and_lowering_to_llvm_is_charged_to_its_pass(real_mlir):
    """Triton's software pipeliner prints IR of its own inside its run (`// -----// SoftwarePipeliner internal IR
    Dump After: LowerLoops`): no pass's dump, left out and counted; the pass that adds the most lines, the lowering of
    Triton's GPU dialect to LLVM, is listed as convert-triton-gpu-to-llvm's, not as the pass after it."""
    form = "triton_add/stream_before_only.txt"
    lines = (real_mlir / form).read_text(encoding="utf-8").split("\n")
    own = [row for row, line in enumerate(lines) if line.startswith("// -----// SoftwarePipeliner internal")]
    assert len(own) == 2
    (dump,) = formats.load(real_mlir / form)
    assert not any("SoftwarePipeliner" in s.text for s in dump.snapshots)
    passes = summary(real_mlir, form)["pipelines"][0]["passes"]
    largest = max(passes, key=lambda p: p["inserted"])
    assert largest["name"] == "convert-triton-gpu-to-llvm" and largest["inserted"] > 500
    assert largest["header"] == (  # the tooltip: the pass and its options, not the dump printed before the next
        "ConvertTritonGPUToLLVM: convert-triton-gpu-to-llvm{compute-capability=80 ptx-version=88} ('builtin.module' "
        "operation)"
    )
    lowered = dump.snapshots[int(largest["label"])]
    assert lowered.detail == (
        "ConvertTritonGPUToLLVM on builtin.module: its result as printed before initialize-ws-cluster-barriers (with any "
        "pass not printed between)"
    )


def test_a_stream_of_mlir_then_llvm_dumps_is_a_pipeline_each_as_each_part_read_alone(real_mlir, tmp_path):
    """Triton with MLIR_ENABLE_DUMP and LLVM_IR_ENABLE_DUMP prints its MLIR dumps, then LLVM's: the LLVM dumps were
    read as the last MLIR dump's text; now each compiler's part is a pipeline of its own, named by the compiler, the
    same as that part of the file read alone (its passes named by their lines in the whole file), and the MLIR part
    shows what the run without LLVM's dumps shows."""
    path = real_mlir / "triton_add/stream_mlir_and_llvm.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    cut = next(row for row, line in enumerate(lines) if line.startswith("; *** IR Dump "))
    assert lines[cut - 1] == "Running pass: MemProfRemoveInfo on [module]"  # LLVM's log of it opens its part
    cut -= 1
    parts = [tmp_path / "mlir.txt", tmp_path / "llvm.txt"]
    parts[0].write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    parts[1].write_text("\n".join(lines[cut:]), encoding="utf-8")
    both = build_report(path).summary()["pipelines"]
    assert [(p["name"], p["format"]) for p in both] == [("MLIR", "mlir-stream"), ("LLVM IR", "llvm")]
    counts = lambda pipe: [(p["name"], p["inserted"], p["deleted"], p["noOp"]) for p in pipe["passes"]]
    rows = lambda pipe: [int(p["file"].rsplit(":", 1)[1]) for p in pipe["passes"]]
    for found, part, offset in zip(both, parts, (0, cut), strict=True):
        alone = build_report(part).summary()["pipelines"][0]
        assert counts(found) == counts(alone) and found["functions"] == alone["functions"]
        assert rows(found) == [row + offset for row in rows(alone)]
    assert counts(both[0]) == counts(summary(real_mlir, "triton_add/stream_before_only.txt")["pipelines"][0])
    assert len(both[1]["passes"]) == 192


def test_two_kernels_compiled_one_after_the_other_are_four_pipelines_the_first_two_as_one_kernel_alone(real_mlir):
    """Triton compiling two kernels prints each one's MLIR dumps, then LLVM's: four parts, a pipeline each, named by
    the compiler and their place; the file starts with the one-kernel run's bytes, and its first two pipelines show
    what that run's two show."""
    two, one = real_mlir / "triton_add/stream_two_kernels.txt", real_mlir / "triton_add/stream_mlir_and_llvm.txt"
    assert two.read_bytes().startswith(one.read_bytes())
    pipelines = build_report(two).summary()["pipelines"]
    assert [p["name"] for p in pipelines] == ["MLIR (1)", "LLVM IR (1)", "MLIR (2)", "LLVM IR (2)"]
    counts = lambda pipe: [(p["name"], p["inserted"], p["deleted"], p["file"]) for p in pipe["passes"]]
    alone = build_report(one).summary()["pipelines"]
    assert [counts(p) for p in pipelines[:2]] == [
        [(name, added, removed, file.replace(one.name, two.name)) for name, added, removed, file in counts(p)]
        for p in alone
    ]
    assert [f["name"] for f in pipelines[2]["functions"]] == ["@scale_kernel"]


def test_the_generic_form_finds_the_functions_the_custom_form_finds(real_mlir):
    """--mlir-print-op-generic prints `"func.func"() <{..., sym_name = "f"}> ({`: the same functions, by the same
    keys (a symbol the custom form quotes, quoted), at every pass. From convert-vector-to-llvm on, a whole parse of
    the generic text loses the functions after tree-sitter-mlir's first error (`!llvm.vec<2 x ptr>`): read an op at a
    time, none is lost; and a generic op's name read by the recovery with the blank before it is still its name."""
    custom, generic = summary(real_mlir, "sparsifier/stream_module_scope.txt"), summary(real_mlir, GENERIC)
    names = [f["name"] for f in custom["pipelines"][0]["functions"]]
    assert len(names) == 25 and [f["name"] for f in generic["pipelines"][0]["functions"]] == names
    assert '@"_insert_dense_compressed_-9223372036854775808_-9223372036854775808_i32_8_8"' in names
    model = report_of(load_dump(real_mlir / GENERIC)).pipelines[0]
    last = model.texts[model.passes[-1].after]
    assert {region.key for region in last.regions} == {region.key for region in _last_regions(real_mlir)}
    assert all(" " not in op and '"' not in op for p in model.passes for op, _ in p.ops)


def _last_regions(real_mlir: Path):
    model = report_of(load_dump(real_mlir / "sparsifier/stream_module_scope.txt")).pipelines[0]
    return model.texts[model.passes[-1].after].regions


@pytest.mark.parametrize("case", LOCAL_CASES)
def test_every_pass_of_a_local_scope_stream_counts_the_ops_of_the_module_scope_run(real_mlir, case):
    """A local dump's ops are counted against the op's text as it stood: the same counts as the module-scope run's
    for the same pass, whichever dump first printed each line (the dump after a pass can be read before the
    pass's own before text is made) and at whatever indent."""
    reported = reported_ops(real_mlir, f"{case}/stream_local_scope.txt")
    wrong = []
    for k, (pipe, p, before, after) in enumerate(local_pairs(real_mlir, case)):
        generic = oracle.generic_ops(before, after)
        if _without(reported[k], generic) != _without(oracle.op_counts(before, after), generic):
            wrong.append(f"{pipe} {p['label']} {p['name']}")
    assert wrong == []


@pytest.mark.parametrize(
    "case, scope",
    [(case, scope) for case in ("sparsifier", "transform_narrow_types") for scope in ("module_scope", "local_scope")]
    + [("sparsifier", "generic")],
)
def test_a_tree_tells_what_the_stream_of_the_same_run_tells(real_mlir, case, scope):
    """PyPTO's form (--mlir-print-ir-module-scope --mlir-print-ir-tree-dir), the tree without module scope, and
    the module-scope tree in the generic form: the same passes, order and counts as the run's stream, whose every
    pass the oracle checks above. The sparsifier's tree holds sibling functions the file names cannot order, one
    with a symbol the IR quotes (@"_insert_dense_compressed_-9223372036854775808_..."); in the generic form, from
    convert-vector-to-llvm on, the functions its content orders them by are found only in a text read an op at a
    time (a whole parse loses those after tree-sitter-mlir's first error), its first line a tree file's header."""
    tree, stream = passes(real_mlir, f"{case}/tree_{scope}"), passes(real_mlir, f"{case}/stream_{scope}.txt")
    assert tree == stream
    if case == "sparsifier" and scope != "local_scope":  # was 46 changed, 31 of 172 passes unlike the stream
        assert len(tree) == 172 and sum(bool(inserted or deleted) for _, inserted, deleted in tree) == 43


def test_an_iree_tree_holds_its_stream_but_the_files_that_overwrote_each_other(real_mlir):
    """IREE's unnamed util.initializer ops share one folder and overwrite each other's files (the note says so):
    every file left is one of the stream's dumps, the named ops' in the stream's order, and each pass is diffed
    against the dump before it in the tree."""
    root = real_mlir / "iree_abs" / "tree_module_scope"
    shown = summary(real_mlir, "iree_abs/tree_module_scope")["pipelines"][0]["passes"]
    texts = [oracle.tree_file(root / p["file"]).text for p in shown]
    dumps = [dump.text for dump in oracle.stream(real_mlir / "iree_abs" / "stream_module_scope.txt")]
    assert all(text in dumps for text in texts) and 680 < len(texts) < len(dumps) == 714
    stream = iter(dumps)
    named = [text for p, text in zip(shown, texts) if "util_initializer_no-symbol-name" not in p["file"]]
    assert all(any(text == dump for dump in stream) for text in named)  # a subsequence of the stream
    before, wrong = "", []
    for p, text in zip(shown, texts):
        if (why := oracle.check_counts(before, text, p["inserted"], p["deleted"])) is not None:
            wrong.append(f"{p['label']} {p['name']}: {why}")
        before = text
    assert wrong == []


@pytest.mark.parametrize(
    ("form", "given"),
    [
        ("split_tile_and_fuse/stream_module_scope.txt", "split_tile_and_fuse/tile-and-fuse.mlir"),
        ("split_tile_and_fuse/stream_local_scope.txt", "split_tile_and_fuse/tile-and-fuse.mlir"),
        ("split_tile_and_fuse/stream_flat_flags.txt", "split_tile_and_fuse/tile-and-fuse.mlir"),
        (
            "split_bufferize_failed/stream_module_scope.txt",
            "split_bufferize_failed/one-shot-module-bufferize-invalid.mlir",
        ),
        (
            "split_bufferize_failed/stream_local_scope.txt",
            "split_bufferize_failed/one-shot-module-bufferize-invalid.mlir",
        ),
    ],
)
def test_a_split_input_stream_is_a_pipeline_per_chunk_of_its_input(real_mlir, form, given):
    """Read from the stream alone: one pipeline per `// -----` chunk of the input, named by its first function
    (two chunks of tile-and-fuse.mlir both define @matmul_sequence_fusion)."""
    chunks = oracle.input_chunks(real_mlir / given)
    pipelines = summary(real_mlir, form)["pipelines"]
    assert [pipe["name"] for pipe in pipelines] == [f"chunk {k}: {names[0]}" for k, names in enumerate(chunks, 1)]
    for pipe in pipelines:  # a chunk starts over: its first pass shows its IR as added
        assert pipe["passes"][0]["deleted"] == 0 and pipe["passes"][0]["inserted"] > 0
    if "bufferize" in form:  # 7 of its 9 chunks fail one-shot-bufferize, each with its error
        failed = [pipe["name"] for pipe in pipelines if any(p["failed"] for p in pipe["passes"])]
        assert len(failed) == 6 and all(p["errors"] == 1 for pipe in pipelines for p in pipe["passes"] if p["failed"])


@pytest.mark.parametrize("form", ["sparsifier/stream_module_scope.txt", "iree_abs/stream_module_scope.txt"])
def test_a_stream_that_is_not_split_is_one_pipeline(real_mlir, form):
    """Passes that run again (a nested pipeline's first pass on each function, canonicalize many times) on IR
    of the same program do not start a chunk."""
    assert len(summary(real_mlir, form)["pipelines"]) == 1


@pytest.mark.parametrize(
    "form", ["transform_narrow_types/stream_module_scope.txt", "transform_narrow_types/tree_module_scope"]
)
def test_a_pass_class_in_a_cxx_namespace_is_named_by_its_argument(real_mlir, form):
    named = [
        p
        for p in summary(real_mlir, form)["pipelines"][0]["passes"]
        if p["name"] == "test-transform-dialect-erase-schedule"
    ]
    assert len(named) == 1
    assert named[0]["header"] == (
        "IR Dump After (anonymous namespace)::TestTransformDialectEraseSchedulePass "
        "(test-transform-dialect-erase-schedule) ('builtin.module' operation)"
    )


def test_iree_passes_are_named_by_their_argument_the_header_kept_whole(real_mlir):
    stream = real_mlir / "iree_abs" / "stream_local_scope.txt"
    shown = summary(real_mlir, "iree_abs/stream_local_scope.txt")["pipelines"][0]["passes"]
    headers = [dump.header for dump in oracle.stream(stream)]
    assert [p["header"] for p in shown] == [f"IR Dump After {h}" for h in headers]
    assert all(p["name"] == dump.arg for p, dump in zip(shown, oracle.stream(stream)))
    adaptors = [p for p in shown if p["header"].startswith("IR Dump After mlir::iree_compiler::detail::")]
    assert len(adaptors) > 40 and {p["name"] for p in adaptors} == {"iree-op-pipeline-adaptor"}


def test_an_llvm_ir_dump_is_read_as_llvm_and_refused_as_mlir_saying_what_it_is(real_mlir, tmp_path, capsys):
    dump = real_mlir / "llvm_ir" / "print-after-all.txt"
    assert "; *** IR Dump After " in dump.read_text(encoding="utf-8")[:200]
    assert cli.main([str(dump), "-o", str(tmp_path / "r.html")]) == 0
    assert "LLVM" in capsys.readouterr().err
    assert cli.main([str(dump), "--format", "mlir-stream", "-o", str(tmp_path / "m.html")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "LLVM pass dump" in err[0] and "--format llvm" in err[0] and "mlir-print-ir" not in err[0]
    assert not (tmp_path / "m.html").exists()


def test_an_iree_local_dump_of_an_executable_is_diffed_against_that_executable(real_mlir):
    """IREE's local-scope headers name no op: a dump of `flow.executable @abs_dispatch_0` alone is that op (a named
    op around functions, regions.scm), diffed against it as it stood, with the counts the module-scope run of the
    same compile gives that pass; before, it was diffed against the last whole dump (+17 -30 for a pass that
    changed nothing), and the map's IR size fell below nothing."""
    stream = real_mlir / "iree_abs" / "stream_local_scope.txt"
    scoped = report_of(load_dump(real_mlir / "iree_abs" / "stream_module_scope.txt")).pipelines[0].passes
    report = report_of(load_dump(stream))
    model_json(report)  # held to the schema: every figure of the map at least 0
    checked = 0
    for printed, p, q in zip(oracle.stream(stream), report.pipelines[0].passes, scoped):
        if re.match(r"(?:flow|stream)\.executable (?:private )?@", printed.text.lstrip("\n")):
            assert (p.inserted, p.deleted) == (q.inserted, q.deleted), (p.label, p.name)
            checked += 1
    assert checked == 2  # iree-util-strip-debug-ops, iree-stream-encode-device-tensors


TOLD = re.compile(r"(?:util|vm)\.initializer \{")  # ops IREE's local dumps print with no name
# IREE's fixed-point iterator's module attributes (`iree.fixedpoint.iteration = 1 : index`, `iree.fixedpoint.modified`)
FIXEDPOINT = re.compile(r"iree\.fixedpoint\.\w+(?: = \d+ : index)?(?:, )?")


def test_an_iree_local_dump_of_an_op_with_no_name_is_told_by_its_text(real_mlir):
    """IREE's local headers name no op, and `util.initializer` has no symbol: the program holds up to four of
    them, and each dump is that initializer as it stood (the one whose symbols and lines differ least), with the
    counts of the module-scope run of the same compile. Before, such a dump was taken for the whole IR: canonicalize
    on an initializer showed +6 -128, and the whole dump after it +126 -6. The module-scope run charges a pass
    that changed its initializer alone with the module's `iree.fixedpoint.*` attributes, set between two dumps by
    no pass that prints: the oracle diffs the module-scope dumps without them."""
    stream = real_mlir / "iree_abs" / "stream_local_scope.txt"
    local, printed = load_dump(stream), oracle.stream(stream)
    dumps = oracle.stream(real_mlir / "iree_abs" / "stream_module_scope.txt")
    report = report_of(local)
    told, wrong = 0, []
    for k, (snapshot, p) in enumerate(zip(local.snapshots[1:], report.pipelines[0].passes)):
        if not TOLD.match(printed[k].text.lstrip("\n")):
            continue
        told += 1
        assert "initializer" in snapshot.detail and "local scope" in snapshot.detail, snapshot.detail
        before, after = (FIXEDPOINT.sub("", dumps[j].text).replace(" attributes {}", "") for j in (k - 1, k))
        why = oracle.check_counts(before, after, p.inserted, p.deleted)
        if why is not None:
            wrong.append(f"{p.label} {p.name}: {why}")
    assert told == 101 and wrong == []


# How IREE prints an attribute some ops type (`layout(#hal.pipeline.layout<...>`, written out from an alias) and
# how those ops print it alone (`layout(<...>`): the same IR
SHORT_FORM = re.compile(r"\(#hal\.[\w.]+<")


def _as_printed_alike(text: str) -> str:
    """An IREE text without what local and module scope print differently for the same IR: the fixed-point
    iterator's module attributes, aliases (written out), and attributes in their short form."""
    return SHORT_FORM.sub("(<", oracle.written_out(FIXEDPOINT.sub("", text).replace(" attributes {}", "")))


# Passes after which the module-scope run printed other IR than the local run's: IREE's second canonicalize of
# `@abs` (or `@mlp_invocation`) runs inside the inliner, which holds `@_abs`'s body while it runs, so the module
# printed then shows `@_abs` without one; the local run prints `@abs` alone, and `@_abs` stands as it was printed.
PRINTED_OTHERWISE = {("iree_abs", "10"), ("iree_mlp", "10")}


@pytest.mark.parametrize("case", [*LOCAL_CASES, "iree_abs", "iree_mlp"])
def test_a_local_dump_after_a_whole_one_is_shown_as_the_ir_the_module_scope_run_prints(real_mlir, case):
    """A local dump holds its op alone; after the pipeline's first whole dump the report shows it put into the
    IR as it stands, which is what the module-scope run of the same compile prints after the same pass, line for
    line once aliases are written out (the report names the attributes a local pass made in full, where the
    module-scope run gives them new aliases) and IREE's printing differences are left out. So local and module
    scope show, store and diff the same IR."""
    form = f"{case}/stream_local_scope.txt"
    scoped, snapshots = oracle.stream(real_mlir / case / "stream_module_scope.txt"), local_snapshots(real_mlir, form)
    assert len(scoped) == len(snapshots)
    shown, wrong = 0, set()
    for snapshot, dump in zip(snapshots, scoped):
        if SHOWN_WHOLE in snapshot.detail:
            shown += 1
            if _as_printed_alike(snapshot.text).rstrip("\n") != _as_printed_alike(dump.text).rstrip("\n"):
                wrong.add((case, snapshot.label))
    assert shown > 0 and wrong == {key for key in PRINTED_OTHERWISE if key[0] == case}


@pytest.mark.parametrize("case", ["iree_abs", "iree_mlp"])
def test_every_iree_local_dump_whose_pass_changed_nothing_is_diffed_against_itself(real_mlir, case):
    """Where the module-scope run of the same compile shows a pass changed nothing, the local dump is diffed
    against the same IR. That takes every op found again: ops with no name (told by their text), a function
    tree-sitter-mlir does not parse (`iree.abi.stub`, found by the printer's layout), a module after the
    functions inside it and a function after the module around it (each cut out of the program as it stands,
    not taken from its own last dump: `iree-op-pipeline-adaptor` after codegen showed +2,649 -55)."""
    local = load_dump(real_mlir / case / "stream_local_scope.txt")
    dumps = oracle.stream(real_mlir / case / "stream_module_scope.txt")
    snapshots = local.snapshots
    checked, wrong = 0, []
    for k, snapshot in enumerate(snapshots[1:], start=1):
        before = dumps[k - 2].text if k > 1 else ""
        if _as_printed_alike(before) != _as_printed_alike(dumps[k - 1].text):
            continue
        checked += 1
        at = snapshot.base if snapshot.base is not None else k - 1
        base = snapshot.base_text if snapshot.base_text is not None else snapshots[at].text
        if _as_printed_alike(base) != _as_printed_alike(snapshot.text):
            wrong.append(f"{snapshot.label} {snapshot.name}: against {snapshot.base_name or at}")
    assert checked > 400 and wrong == []


def test_the_splice_parses_each_whole_dump_from_the_one_before_and_finds_the_ops_a_fresh_parse_finds(real_mlir):
    """The splice asks where ops lie in whole dumps, one after the other, each much like the one before: each is
    parsed from the tree of the one before (the sparsifier's: 0.27 s of whole parses) and its ops are those a fresh
    parse finds."""
    from pypto_ir_trace import structure
    from pypto_ir_trace.dump import split_lines
    from pypto_ir_trace.formats.mlir import ops
    from pypto_ir_trace.languages import MLIR

    texts = [dump.text for dump in oracle.stream(real_mlir / "sparsifier" / "stream_module_scope.txt")]
    ops.forget()
    incremental = 0
    try:
        for text in texts:
            found = ops.ops_of(text).regions
            incremental += ops._WHOLE.parser._edits is not None
            lines = split_lines(text)[0]
            assert found == tuple(MLIR.op_regions(structure.parse(lines, MLIR), lines))
    finally:
        ops.forget()
    assert incremental > len(texts) / 2, (incremental, len(texts))


@pytest.mark.parametrize("form", ["sparsifier/stream_module_scope.txt", "split_tile_and_fuse/stream_module_scope.txt"])
def test_a_line_of_a_shape_read_before_takes_its_facts_as_its_own_tree_gives_them(real_mlir, form, monkeypatch):
    """A pass that renumbers values prints lines that differ from lines read before only by their digits (`%12` for
    `%11`): they take those lines' facts, moved to their columns and names (linetable.LineTable.derived), and are not
    read from a tree. The report is the one that reads every new line from its tree: each line's highlighting,
    every pass's diff, renamed pairs and op counts."""
    dump = load_dump(real_mlir / form)
    derived, derived_read, read, all_read = with_and_without_shapes(monkeypatch, lambda: model_json(report_of(dump)))
    assert derived == read
    assert derived_read < all_read / 3, (derived_read, all_read)
