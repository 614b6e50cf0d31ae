"""MLIR discovery: trees and streams become ordered snapshots, with bases, warnings and notes."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest

from modeltools import build
from pypto_ir_trace import formats
from pypto_ir_trace.errors import DumpError
from pypto_ir_trace.formats import mlir
from pypto_ir_trace.formats.mlir import ops, scope, snapshots

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mlir"
# the six programs' forms (real/ holds the corpus of test_mlir_real.py, its cases' dumps packed)
TREES = sorted(
    p.relative_to(FIXTURES).as_posix() for p in FIXTURES.glob("*/*") if p.is_dir() and p.parent.name != "real"
)
STREAMS = sorted(p.relative_to(FIXTURES).as_posix() for p in FIXTURES.glob("*/stream*.txt"))
HEADER = "// -----// IR Dump "


def whole(snapshot) -> str:
    """The dump as the compiler wrote it, header line included (Snapshot.text leaves the header out)."""
    return snapshot.source.dumped() if snapshot.source is not None else snapshot.text


def test_the_header_line_is_not_part_of_the_text():
    """The header differs on every dump: kept in the text, no MLIR pass could ever be a no-op."""
    for dump in (
        mlir.read_tree(FIXTURES / "multi_func" / "tree_dir"),
        mlir.read_stream(FIXTURES / "multi_func" / "stream.txt"),
    ):
        for snapshot in dump.snapshots[1:]:
            assert whole(snapshot).startswith(mlir.HEADER_PREFIX)
            assert snapshot.text == whole(snapshot).split("\n", 1)[1]


def header(pass_arg="canonicalize", cls="Canonicalizer", op=None, when="After", failed=False):
    where = f" ('{op.split()[0]}' operation{': ' + op.split()[1] if ' ' in op else ''})" if op else ""
    return f"// -----// IR Dump {when} {cls}{' Failed' if failed else ''} ({pass_arg}){where} //----- //"


FUNC = "func.func @{name}(%arg0: i32) -> i32 {{\n  {body}\n  return %arg0 : i32\n}}\n"


def module(*names, body="%0 = arith.addi %arg0, %arg0 : i32", sym=""):
    funcs = "".join(FUNC.format(name=n, body=body) for n in names)
    indented = "".join(f"  {line}\n" if line else "\n" for line in funcs.splitlines())
    return f"module{' @' + sym if sym else ''} {{\n{indented}}}\n"


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    return root


def counters(filename: str) -> tuple[int, ...]:
    name = filename.rsplit("/", 1)[-1]
    return tuple(int(c) for c in re.match(r"^(\d+(?:_\d+)*)_", name).group(1).split("_"))


# --- headers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line,want",
    [
        (
            "// -----// IR Dump After Canonicalizer (canonicalize) ('func.func' operation: @axpb_exp) //----- //",
            (False, False, "Canonicalizer", "canonicalize", "func.func", "@axpb_exp"),
        ),
        (
            "// -----// IR Dump After Inliner (inline) ('builtin.module' operation) //----- //",
            (False, False, "Inliner", "inline", "builtin.module", None),
        ),
        (
            "// -----// IR Dump After Canonicalizer (canonicalize) //----- //",
            (False, False, "Canonicalizer", "canonicalize", None, None),
        ),
        (
            "// -----// IR Dump Before AffineLoopTiling (affine-loop-tile) ('func.func' operation: @matmul) //----- //",
            (True, False, "AffineLoopTiling", "affine-loop-tile", "func.func", "@matmul"),
        ),
        (
            "// -----// IR Dump After OneShotBufferize Failed (one-shot-bufferize) ('builtin.module' operation) //----- //",
            (False, True, "OneShotBufferize", "one-shot-bufferize", "builtin.module", None),
        ),
        (
            "// -----// IR Dump After CanonicalizerPass: canonicalize{cse-between-iterations=false    max-iterations=10 "
            "region-simplify=normal} ('func.func' operation: @f) //----- //",
            (False, False, "CanonicalizerPass", "canonicalize", "func.func", "@f"),
        ),
        ("// -----// IR Dump After CSEPass: cse //----- //", (False, False, "CSEPass", "cse", None, None)),
        ("// -----// IR Dump After CSEPass Failed: cse //----- //", (False, True, "CSEPass", "cse", None, None)),
        (
            "// -----// IR Dump After ConvertToLLVMPass: convert-to-llvm{filter-dialects= } ('builtin.module' operation: @k) //----- //",
            (False, False, "ConvertToLLVMPass", "convert-to-llvm", "builtin.module", "@k"),
        ),
    ],
)
def test_header_forms(line, want):
    h = mlir.parse_header(line)
    assert (h.before, h.failed, h.cls, h.arg, h.op, h.sym) == want


def test_not_a_header():
    assert mlir.parse_header("// some comment") is None
    assert mlir.parse_header("module {") is None


# --- every fixture form ------------------------------------------------------------------------


@pytest.mark.parametrize("name", TREES)
def test_every_fixture_tree_discovers(name):
    root = FIXTURES / name
    assert mlir.looks_like_tree(root) and not mlir.looks_like_stream(root)
    dump = mlir.read_tree(root)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.mlir"))
    assert dump.format == "mlir-tree"
    first = dump.snapshots[0]
    given = first.path is not None  # the whole IR printed before the first pass is the input
    assert sorted(s.filename for s in dump.snapshots[0 if given else 1 :]) == files
    assert [s.index for s in dump.snapshots] == list(range(len(files) + (not given)))
    assert [s.label for s in dump.snapshots] == [str(i) for i in range(len(files) + (not given))]
    if given:
        head = mlir.parse_header(whole(first).split("\n", 1)[0])
        assert first.name == "input" and head.before and whole(first).split("\n", 2)[1].startswith("module")
        assert dump.notes[0].startswith("the pipeline's input (snapshot 0) is the IR printed before its first pass")
    else:
        assert (first.name, whole(first), first.path) == (mlir.INPUT_NAME, "", None)
        assert "no copy" in dump.notes[0]
    for s in dump.snapshots[1:]:
        assert s.content is None and s.path is not None  # read when asked
        head = mlir.parse_header(whole(s).split("\n", 1)[0])
        assert s.name == head.arg and s.failed == head.failed
        assert ("Before" in s.detail) == head.before
        assert s.detail.startswith(head.cls)
        assert s.base is None or 0 <= s.base < s.index


@pytest.mark.parametrize("name", TREES)
def test_tree_order_follows_the_integer_tuple_rule(name):
    """Within an op's folder the counters increase; a nested dump k_j comes after its parent's dump k."""
    dump = mlir.read_tree(FIXTURES / name)
    position = {s.filename: s.index for s in dump.snapshots[1:]}
    files = list(position)
    for a in files:
        for b in files:
            ca, cb = counters(a), counters(b)
            folder_a, folder_b = a.rsplit("/", 1)[0], b.rsplit("/", 1)[0]
            if folder_a == folder_b and ca < cb:
                assert position[a] < position[b], (a, b)
            if folder_b.startswith(folder_a + "/") and len(ca) < len(cb):  # a: an enclosing op's dump
                depth = len(ca)
                if cb[:depth] >= ca:
                    assert position[a] < position[b], (a, b)
                else:
                    assert position[b] < position[a], (a, b)


def test_fixture_tree_matches_the_stream_of_the_same_run():
    """A single-function program has no sibling ambiguity: the tree order is the stream's order."""
    tree = mlir.read_tree(FIXTURES / "failing_bufferize/tree_dir")
    stream = mlir.read_stream(FIXTURES / "failing_bufferize/stream.txt")
    by_text = sorted(whole(s) for s in tree.snapshots[1:])
    assert by_text == sorted(whole(s) for s in stream.snapshots[1:])  # the stream is the tree's files
    module_level = lambda d: [whole(s) for s in d.snapshots[1:] if "builtin.module" in s.detail]
    assert module_level(tree) == module_level(stream)


@pytest.mark.parametrize("name", STREAMS)
def test_every_fixture_stream_discovers(name):
    path = FIXTURES / name
    assert mlir.looks_like_stream(path) and not mlir.looks_like_tree(path)
    dump = mlir.read_stream(path)
    text = path.read_text()
    headers = [i for i, line in enumerate(text.split("\n")) if line.startswith(HEADER)]
    assert dump.format == "mlir-stream"
    assert [s.filename for s in dump.snapshots[1:]] == [f"{path.name}:{i + 1}" for i in headers]
    # Nothing is lost or invented: each dump's diagnostics came just before it in the file.
    assert "".join((s.warnings or "") + whole(s) for s in dump.snapshots[1:]) == text
    for s in dump.snapshots[1:]:
        assert whole(s).startswith(HEADER)
        assert not re.search(r"^\S+:\d+:\d+: (error|note|warning|remark): ", whole(s), re.M)


def test_stream_diagnostics_go_to_the_pass_that_failed():
    dump = mlir.read_stream(FIXTURES / "failing_bufferize/stream.txt")
    failed = [s for s in dump.snapshots if s.failed]
    assert len(failed) == 1 and failed[0] is dump.snapshots[-1]
    assert failed[0].name == "one-shot-bufferize" and "failed" in failed[0].detail
    assert failed[0].warnings.startswith("input.mlir:5:3: error: cannot bufferize bodiless function")
    assert failed[0].warnings.count("error:") == 2
    assert all(s.warnings is None for s in dump.snapshots[:-1])
    assert "input.mlir:5:3" not in whole(failed[0])


def test_threading_error_instead_of_ir():
    path = FIXTURES / "multi_func/variant_module_scope_with_threading.stderr.txt"
    assert mlir.looks_like_stream(path)
    with pytest.raises(DumpError, match="--mlir-disable-threading") as err:
        mlir.read_stream(path)
    assert "\n" not in str(err.value)


# --- bases: what each snapshot is diffed against -------------------------------------------------


@pytest.fixture
def alone(monkeypatch):
    """Local dumps shown alone, as they are past the whole view's bound (and before the first whole dump): the
    splice's rules for what each is diffed against."""
    monkeypatch.setattr(snapshots, "WHOLE_VIEW_RATIO", 0)
    monkeypatch.setattr(snapshots, "WHOLE_VIEW_FLOOR", 0)


def base_of(dump, s):
    return dump.snapshots[s.base if s.base is not None else s.index - 1]


def test_after_dump_is_diffed_against_its_before_dump():
    dump = mlir.read_tree(FIXTURES / "affine_matmul/variant_tree_dir_before_and_after")
    afters = [s for s in dump.snapshots[1:] if "Before" not in s.detail]
    assert len(afters) == 24
    for s in afters:
        before = base_of(dump, s)
        if before.index == 0:  # the first pass's Before dump, the whole IR: the pipeline's input
            assert s.index == 1 and before.name == "input" and "Before" in whole(before).split("\n", 1)[0]
            before = dataclasses.replace(before, name=s.name, detail="Before")
        assert "Before" in before.detail and before.name == s.name
        assert before.filename.rsplit("/", 1)[0] == s.filename.rsplit("/", 1)[0]
        assert counters(before.filename)[-1] == counters(s.filename)[-1] - 1


def test_module_scope_dumps_are_diffed_against_the_previous_dump():
    dump = mlir.read_tree(FIXTURES / "multi_func/tree_dir")
    assert all(s.base is None and s.base_text is None for s in dump.snapshots[1:])
    assert not any("local scope" in s.detail for s in dump.snapshots)
    assert dump.snapshots[1].detail == "Canonicalizer on func.func @expf_ext"  # the first function in the IR


def steps(dump, tree: bool) -> list[tuple[str, str]]:
    """(pass, function or "" for the module) of each dump, leaving out the canonicalize runs the inliner
    made while it worked (tree files 0_2/0_3, stream dumps 11-16): no name or IR order records those."""
    out = []
    for s in dump.snapshots[1:]:
        if tree:
            if re.search(r"/0_[23]_canonicalize", s.filename):
                continue
            folder = s.filename.split("/")[-2]
            out.append((s.name, re.sub(r"^(func|llvm)_func_", "", folder) if "_func_" in folder else ""))
        elif not 11 <= s.index <= 16:
            sym = mlir.parse_header(whole(s).split("\n", 1)[0]).sym
            out.append((s.name, sym.removeprefix("@") if sym and "func" in s.detail.split(" on ")[1] else ""))
    return out


def test_sibling_ops_follow_the_ir_like_the_stream_of_the_same_run():
    """The stream is the true order; the module-scope tree of the same run matches it."""
    stream = steps(mlir.read_stream(FIXTURES / "multi_func/stream.txt"), tree=False)
    assert steps(mlir.read_tree(FIXTURES / "multi_func/tree_dir"), tree=True) == stream
    # Local scope: functions the inliner removed are in no top-level dump, so their group falls back
    # to folder names; the later groups follow the IR.
    local = steps(mlir.read_tree(FIXTURES / "multi_func/tree_dir_no_module_scope"), tree=True)
    inline = local.index(("inline", ""))
    assert local[inline:] == stream[stream.index(("inline", "")) :]


def test_local_scope_dumps_are_diffed_against_their_own_op(alone):
    dump = mlir.read_tree(FIXTURES / "multi_func/tree_dir_no_module_scope")
    assert any("local-scope dumps" in note for note in dump.notes)
    cut = 0
    for s in dump.snapshots[1:]:
        folder = s.filename.rsplit("/", 1)[0]
        if folder.count("/") == 0:  # the module itself: against the previous module dump (with the local
            assert "local scope" not in s.detail  # dumps since put in), or the empty input
            base = base_of(dump, s)
            assert s.base_text is not None or base.index == 0 or base.filename.rsplit("/", 1)[0] == folder
            continue
        assert s.detail.endswith("local scope") and folder.rsplit("/", 1)[-1] in s.detail
        if s.base_text is not None:
            cut += 1
            own = whole(s).split("\n")[1]  # the op's line, at column 0 in a local dump
            first = s.base_text.split("\n")
            assert first[0].split("(")[0] == own.split("(")[0]  # no header line: a snapshot's text has none
            assert not first[0].startswith(" ")
            assert s.base_text.rstrip("\n").endswith("}") or "{" not in first[0]
        else:
            base = base_of(dump, s)
            assert base.index == 0 or base.filename.rsplit("/", 1)[0] == folder, (s.filename, base.filename)
    # The three llvm.func ops' first dumps are cut out of 5_reconcile-unrealized-casts, and the three functions'
    # first dumps after 2_symbol-dce out of that (a module pass may have changed them).
    assert cut == 6
    assert any("no enclosing dump" in note for note in dump.notes)


def test_a_pass_that_left_a_local_op_alone_is_a_no_op_on_its_first_dump(alone):
    """The op cut out of the enclosing dump is compared with the snapshot's text, which has no header line:
    a canonicalize that changed nothing (the llvm.func declaration @expf_ext) must not delete one."""
    dump = mlir.read_tree(FIXTURES / "multi_func/tree_dir_no_module_scope")
    (s,) = [s for s in dump.snapshots if s.filename.endswith("llvm_func_expf_ext/5_0_canonicalize.mlir")]
    assert s.base_text == s.text


def before_text(dump, s) -> str:
    return s.base_text if s.base_text is not None else base_of(dump, s).text


@pytest.mark.parametrize(
    "local,scoped", [("tree_dir_no_module_scope", "tree_dir"), ("stream_no_module_scope.txt", "stream.txt")]
)
def test_a_whole_dump_after_local_ones_gets_the_ir_its_pass_received(local, scoped):
    """Oracle: the module-scope run of the same pipeline prints the whole IR before every pass. A dump of
    the whole module in a local-scope run must be diffed against that same IR (the previous module dump
    with the functions' local dumps since put in), not the previous module dump: else a no-op module pass
    shows what the function passes before it changed."""
    read = mlir.read_stream if local.endswith(".txt") else mlir.read_tree
    checked = 0
    for program in ("multi_func", "failing_bufferize"):
        ours, theirs = read(FIXTURES / program / local), read(FIXTURES / program / scoped)
        scoped_by = {s.filename if s.path else s.index: s for s in theirs.snapshots}
        wholes = [s for s in ours.snapshots[1:] if "local scope" not in s.detail]
        for s in wholes[1:]:  # the first has no whole dump before it: against the empty input
            twin = scoped_by[s.filename if s.path else s.index]
            assert twin.text == s.text
            assert before_text(ours, s) == base_of(theirs, twin).text, (program, local, s.filename)
            checked += 1
    assert checked == 4


def test_a_splice_drops_the_aliases_no_op_uses_any_more(tmp_path, alone):
    """A local dump prints attributes in full (no #map aliases); the module printer prints only the aliases
    the IR uses, so after a function pass removed the last use of #map, the module's Before has none."""
    m = "builtin_module_no-symbol-name"
    aliases = "#map = affine_map<(d0) -> (d0 + 1)>\n#map1 = affine_map<(d0) -> (d0 * 2)>\n"
    files = {  # @f uses #map1, @g uses #map; canonicalize rewrites @g without it
        f"{m}/0_cse.mlir": header("cse", "CSE")
        + "\n"
        + aliases
        + module("f", "g", body="%0 = affine.apply #map(%arg0)").replace("#map(", "#map1(", 1),
        f"{m}/func_func_g/0_0_canonicalize.mlir": header()
        + "\n"
        + FUNC.format(name="g", body="%0 = arith.addi %arg0, %arg0 : i32"),
        f"{m}/1_symbol-dce.mlir": header("symbol-dce", "SymbolDCE")
        + "\n"
        + "#map = affine_map<(d0) -> (d0 * 2)>\n"
        + module("f", "g", body="%0 = arith.addi %arg0, %arg0 : i32").replace(
            "%0 = arith.addi %arg0, %arg0 : i32", "%0 = affine.apply #map(%arg0)", 1
        ),
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    _first, g, dce = dump.snapshots[1:]
    assert g.base_text is not None and "%0 = affine.apply" in g.base_text  # @g cut out of the module dump
    received = dce.base_text.split("\n")
    # @f still uses (d0 * 2), nothing uses (d0 + 1) now: named as the dump after prints it, #map
    assert received[0] == "#map = affine_map<(d0) -> (d0 * 2)>" and "#map1" not in dce.base_text
    assert "  func.func @g(%arg0: i32) -> i32 {" in received and "    %0 = arith.addi %arg0, %arg0 : i32" in received
    assert dce.base_text == dce.text  # symbol-dce changed nothing: the aliases MLIR renumbered are not a change
    assert not any("not found" in n for n in dump.notes)


def test_a_whole_dump_after_a_local_op_it_cannot_place_says_so(tmp_path):
    m = "builtin_module_no-symbol-name"
    files = {
        f"{m}/0_cse.mlir": header("cse", "CSE") + "\n" + module("f"),
        f"{m}/func_func_h/0_0_canonicalize.mlir": header() + "\n" + FUNC.format(name="h", body=""),
        f"{m}/1_inline.mlir": header("inline", "Inliner") + "\n" + module("f"),
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    inline = dump.snapshots[3]
    assert inline.base == 1 and inline.base_text is None
    assert any(n.startswith("1 dump(s) of the whole IR follow a local dump whose op was not found") for n in dump.notes)


def test_local_scope_stream_tells_functions_apart(alone):
    dump = mlir.read_stream(FIXTURES / "multi_func/stream_no_module_scope.txt")
    for s in dump.snapshots[1:]:
        base = base_of(dump, s)
        if "local scope" in s.detail:
            symbol = re.search(r"@\w+", whole(s).split("\n")[1]).group()
            assert base.index == 0 or symbol in whole(base).split("\n")[1] or s.base_text
        else:
            assert s.base_text is not None or base.index == 0 or "local scope" not in base.detail


def test_a_stream_says_when_its_local_dumps_name_a_function_two_modules_define(tmp_path):
    """Without module scope a stream's header names no op, and `func.func @f` alone cannot say whether it
    is kernel_a's or kernel_b's: reported, not guessed silently. A tree's folders tell them apart."""
    both = "module {\n" + module("f", sym="kernel_a") + module("f", sym="kernel_b") + "}\n"
    local = FUNC.format(name="f", body="%0 = arith.muli %arg0, %arg0 : i32")
    stream = tmp_path / "stream.txt"
    stream.write_text(
        "\n".join(
            [
                header("inline", "Inliner"),
                both,
                header("cse", "CSE"),
                local,
                header("cse", "CSE"),
                local,
                header("symbol-dce", "SymbolDCE"),
                both,
            ]
        )
    )
    notes = [n for n in mlir.read_stream(stream).notes if "cannot be told apart" in n]
    assert len(notes) == 1 and "@f" in notes[0]
    alone = "module {\n" + module("f", sym="kernel_a") + module("g", sym="kernel_b") + "}\n"
    stream.write_text("\n".join([header("inline", "Inliner"), alone, header("cse", "CSE"), local, ""]))
    assert not any("cannot be told apart" in n for n in mlir.read_stream(stream).notes)
    m = "builtin_module_no-symbol-name"
    tree = write_tree(
        tmp_path / "tree",
        {
            f"{m}/0_inline.mlir": header("inline", "Inliner") + "\n" + both,
            f"{m}/builtin_module_kernel_a/func_func_f/0_0_0_cse.mlir": header("cse", "CSE") + "\n" + local,
            f"{m}/builtin_module_kernel_b/func_func_f/0_0_0_cse.mlir": header("cse", "CSE") + "\n" + local,
        },
    )
    assert not any("cannot be told apart" in n for n in mlir.read_tree(tree).notes)


# --- odd cases, synthetic ----------------------------------------------------------------------


def test_empty_tree(tmp_path):
    (tmp_path / "tree" / "builtin_module_no-symbol-name").mkdir(parents=True)
    with pytest.raises(DumpError, match=r"^no MLIR dump files under .*tree"):
        mlir.read_tree(tmp_path / "tree")


def test_a_tree_of_misnamed_files_names_one_not_the_threading_error(tmp_path):
    """Only an empty tree is what the threading error leaves; misnamed .mlir files are named instead."""
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "out.mlir").write_text(module("f"), encoding="utf-8")
    with pytest.raises(
        DumpError, match=r"^no MLIR dump files under .*\(1 \.mlir file not named .*, e\.g\. out\.mlir\)$"
    ):
        mlir.read_tree(tmp_path / "tree")


def test_a_file_without_a_header(tmp_path):
    root = write_tree(tmp_path / "t", {"builtin_module_no-symbol-name/0_cse.mlir": module("f")})
    with pytest.raises(DumpError, match=r"0_cse\.mlir .*no IR Dump header line"):
        mlir.read_tree(root)


def test_files_found_at_any_depth_and_ordered_numerically(tmp_path):
    m, k = "builtin_module_no-symbol-name", "builtin_module_kernel_a"
    files = {
        f"{m}/10_cse.mlir": header("cse", "CSE") + "\n" + module("f"),
        f"{m}/2_inline.mlir": header("inline", "Inliner") + "\n" + module("f"),
        f"{m}/{k}/2_0_canonicalize.mlir": header() + "\n" + module("f", sym="kernel_a"),
        f"{m}/{k}/func_func_f/2_0_3_symbol-dce.mlir": header("symbol-dce", "SymbolDCE")
        + "\n"
        + FUNC.format(name="f", body=""),
        f"{m}/{k}/func_func_f/2_0_12_sccp.mlir": header("sccp", "SCCP") + "\n" + FUNC.format(name="f", body=""),
        f"{m}/{k}/func_func_f/2_1_13_cse.mlir": header("cse", "CSE") + "\n" + FUNC.format(name="f", body=""),
        f"{m}/{k}/10_1_cse.mlir": header("cse", "CSE") + "\n" + module("f", sym="kernel_a"),
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    assert [s.filename.rsplit("/", 1)[-1] for s in dump.snapshots[1:]] == [
        "2_inline.mlir",
        "2_0_canonicalize.mlir",
        "2_0_3_symbol-dce.mlir",
        "2_0_12_sccp.mlir",
        "2_1_13_cse.mlir",
        "10_cse.mlir",
        "10_1_cse.mlir",
    ]
    # The first local dump of @f is cut out of the enclosing module @kernel_a's dump, dedented.
    first_f = dump.snapshots[3]
    assert first_f.base_text == FUNC.format(name="f", body="%0 = arith.addi %arg0, %arg0 : i32") + "\n"
    assert dump.snapshots[4].base is None and dump.snapshots[5].base is None


def test_sibling_ops_are_kept_together_and_the_unknown_order_is_said(tmp_path):
    m = "builtin_module_no-symbol-name"
    files = {}
    for f in ("zeta", "alpha"):
        for j, arg in enumerate(("canonicalize", "cse")):
            files[f"{m}/func_func_{f}/0_{j}_{arg}.mlir"] = (
                header(arg, arg.upper(), f"func.func @{f}") + "\n" + module("alpha", "zeta")
            )
    files[f"{m}/1_inline.mlir"] = header("inline", "Inliner", "builtin.module") + "\n" + module("alpha", "zeta")
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    assert [s.filename.split("/", 1)[1] for s in dump.snapshots[1:]] == [
        "func_func_alpha/0_0_canonicalize.mlir",
        "func_func_alpha/0_1_cse.mlir",
        "func_func_zeta/0_0_canonicalize.mlir",
        "func_func_zeta/0_1_cse.mlir",
        "1_inline.mlir",
    ]
    assert any("sibling ops" in n and "func_func_alpha, func_func_zeta" in n for n in dump.notes)


def test_a_single_op_per_level_gives_no_sibling_note(tmp_path):
    m = "builtin_module_no-symbol-name"
    files = {
        f"{m}/func_func_f/0_0_cse.mlir": header("cse", "CSE", "func.func @f") + "\n" + module("f"),
        f"{m}/1_inline.mlir": header("inline", "Inliner", "builtin.module") + "\n" + module("f"),
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    assert dump.notes == dump.notes[:1]  # only the one about the input


def test_counters_that_restart(tmp_path):
    dump = mlir.read_tree(FIXTURES / "matmul_bias_relu/variant_tree_dir_two_runs")
    assert any("counters restart" in n for n in dump.notes)
    assert any("overwrite" in n for n in dump.notes)
    names = [s.filename.rsplit("/", 1)[-1] for s in dump.snapshots[1:]]
    # Equal counters: by file name, documented.
    assert names.index("1_expand-strided-metadata.mlir") + 1 == names.index("1_one-shot-bufferize.mlir")


def test_missing_numbers_are_reported(tmp_path):
    m = "builtin_module_no-symbol-name"
    files = {f"{m}/{k}_cse.mlir": header("cse", "CSE", "builtin.module") + "\n" + module("f") for k in (0, 1, 4)}
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    assert any("missing in 1 op folder" in n and f"{m}: numbers 2, 3" in n for n in dump.notes)


def test_counters_need_not_start_at_zero(tmp_path):
    # The module counter starts at 1 when a nested pass printed first; an op renamed by a pass
    # continues its counter in its new folder (here @g from 2).
    m = "builtin_module_no-symbol-name"
    files = {f"{m}/{k}_cse.mlir": header("cse", "CSE", "builtin.module") + "\n" + module("f") for k in (1, 2)}
    files[f"{m}/func_func_f/0_0_cse.mlir"] = header("cse", "CSE", "func.func @f") + "\n" + module("f")
    files[f"{m}/func_func_f/0_1_cse.mlir"] = header("cse", "CSE", "func.func @f") + "\n" + module("f")
    files[f"{m}/func_func_g/2_2_cse.mlir"] = header("cse", "CSE", "func.func @g") + "\n" + module("g")
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    assert not any("missing" in n for n in dump.notes)


def test_local_scope_first_dump_without_an_enclosing_dump_is_against_the_empty_input(tmp_path):
    m = "builtin_module_no-symbol-name"
    files = {
        f"{m}/func_func_f/0_0_cse.mlir": header("cse", "CSE") + "\n" + FUNC.format(name="f", body=""),
        f"{m}/func_func_f/0_1_canonicalize.mlir": header() + "\n" + FUNC.format(name="f", body=""),
        f"{m}/1_inline.mlir": header("inline", "Inliner") + "\n" + module("f"),
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    first, second, inline = dump.snapshots[1:]
    assert first.base in (None, 0) and first.base_text is None and "local scope" in first.detail
    assert first.detail == "CSE on func_func_f, local scope"
    assert second.base is None
    assert inline.base == 0 and "local scope" not in inline.detail  # never against a function's text
    assert any("no enclosing dump" in n for n in dump.notes)


def test_ignored_files_are_noted(tmp_path):
    m = "builtin_module_no-symbol-name"
    files = {f"{m}/0_cse.mlir": header("cse", "CSE", "builtin.module") + "\n" + module("f"), "output.mlir": module("f")}
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    assert len(dump.snapshots) == 2
    assert any("ignored 1" in n and "output.mlir" in n for n in dump.notes)


def test_iree_headers_in_a_tree(tmp_path):
    m = "builtin_module_no-symbol-name"
    files = {
        f"{m}/0_cse.mlir": "// -----// IR Dump After CSEPass: cse ('builtin.module' operation) //----- //\n"
        + module("f"),
        f"{m}/util_func_f/0_0_canonicalize.mlir": "// -----// IR Dump After CanonicalizerPass: canonicalize{max-iterations=10 "
        "region-simplify=normal} ('util.func' operation: @f) //----- //\n" + module("f"),
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    assert [(s.name, s.detail) for s in dump.snapshots[1:]] == [
        ("cse", "CSEPass on builtin.module"),
        ("canonicalize", "CanonicalizerPass on util.func @f"),
    ]


def test_stream_with_a_warning_between_dumps_and_trailing_diagnostics(tmp_path):
    text = (
        header("cse", "CSE", "builtin.module") + "\n" + module("f") + "\n"
        "input.mlir:3:5: warning: something odd\n  %0 = arith.addi\n  ^\n"
        + header("inline", "Inliner", "builtin.module")
        + "\n"
        + module("f")
        + "\n"
        "<unknown>:0: error: late trouble\n"
    )
    path = tmp_path / "stream.txt"
    path.write_text(text)
    dump = mlir.read_stream(path)
    cse, inline = dump.snapshots[1:]
    assert cse.warnings is None
    assert inline.warnings.startswith("input.mlir:3:5: warning: something odd\n  %0 = arith.addi\n  ^\n")
    assert inline.warnings.endswith("<unknown>:0: error: late trouble\n")
    assert any("after its last dump" in n for n in dump.notes)
    assert "warning" not in whole(cse) and "error" not in whole(inline)


def test_stream_without_headers(tmp_path):
    path = tmp_path / "stream.txt"
    path.write_text(module("f"))
    assert not mlir.looks_like_stream(path)
    with pytest.raises(DumpError, match="no IR Dump header line"):
        mlir.read_stream(path)


def test_anchors_only_name_lines_of_the_snapshot_itself():
    warnings = "input.mlir:5:3: error: cannot bufferize\n  func.func\n  ^\n0_cse.mlir:4:1: warning: here\n"
    assert mlir.anchors(warnings, "stream.txt:120") == []
    assert mlir.anchors(warnings, "builtin_module_no-symbol-name/0_cse.mlir") == [(3, 3, "warning: here")]
    assert mlir.anchors(warnings, "input.mlir") == [(0, 4, "error: cannot bufferize")]


def test_errors_are_the_diagnostics_of_error_severity():
    """Not notes, remarks or warnings, nor an `error:` inside a diagnostic's following lines."""
    warnings = (
        "input.mlir:5:3: error: cannot bufferize\n  error: in the source line\n  ^\n"
        "input.mlir:5:3: note: see current operation\n<unknown>:0: error: failed\nx.mlir:1: warning: w\n"
    )
    assert mlir.errors(warnings) == [0, 4]
    assert mlir.errors("x.mlir:1: remark: r\n") == []


def test_discovery_reads_only_header_lines_of_module_scope_trees(tmp_path, monkeypatch):
    m = "builtin_module_no-symbol-name"
    files = {f"{m}/{k}_cse.mlir": header("cse", "CSE", "builtin.module") + "\n" + module("f") for k in range(5)}
    root = write_tree(tmp_path / "t", files)
    opened = []
    real_open = Path.open

    def spy(self, mode="r", *args, **kwargs):
        handle = real_open(self, mode, *args, **kwargs)
        opened.append(self.name)
        return handle

    monkeypatch.setattr(Path, "open", spy)
    reads = []
    monkeypatch.setattr(Path, "read_bytes", lambda self: reads.append(self) or b"")
    dump = mlir.read_tree(root)
    assert sorted(opened) == sorted(p.rsplit("/", 1)[-1] for p in files) and reads == []
    assert all(s.content is None for s in dump.snapshots[1:])


def test_a_nested_module_first_local_dump_is_cut_out_of_the_top_module(tmp_path, alone):
    m, k = "builtin_module_no-symbol-name", "builtin_module_kernel_a"
    top = "module {\n" + "".join(f"  {line}\n" for line in module("f", "g", sym="kernel_a").splitlines()) + "}\n"
    files = {
        f"{m}/0_inline.mlir": header("inline", "Inliner") + "\n" + top,
        f"{m}/{k}/0_0_cse.mlir": header("cse", "CSE") + "\n" + module("f", "g", sym="kernel_a"),
        f"{m}/{k}/func_func_g/0_1_0_canonicalize.mlir": header() + "\n" + FUNC.format(name="g", body=""),
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    _inline, kernel, g = dump.snapshots[1:]
    assert kernel.base_text == module("f", "g", sym="kernel_a") + "\n"
    assert kernel.detail == "CSE on builtin_module_kernel_a, local scope"
    # @g's first dump: cut out of the latest enclosing dump, kernel_a's.
    assert g.base_text == FUNC.format(name="g", body="%0 = arith.addi %arg0, %arg0 : i32") + "\n"
    assert not any("no enclosing dump" in n for n in dump.notes)


def test_two_ops_sharing_a_folder_are_told_apart(tmp_path):
    m, u = "builtin_module_no-symbol-name", "util_initializer_no-symbol-name"
    init = "util.initializer {\n  util.return\n}\n"
    files = {
        f"{m}/0_cse.mlir": header("cse", "CSE") + "\n" + "module {\n  util.initializer {\n    util.return\n  }\n}\n",
        f"{m}/{u}/0_0_canonicalize.mlir": header() + "\n" + init,
        f"{m}/{u}/0_1_cse.mlir": header("cse", "CSE") + "\n" + init,
        f"{m}/{u}/1_0_canonicalize.mlir": header() + "\n" + init,
        f"{m}/1_inline.mlir": header("inline", "Inliner") + "\n" + "module {\n}\n",
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    names = [s.filename.rsplit("/", 1)[-1] for s in dump.snapshots[1:]]
    assert names == ["0_cse.mlir", "0_0_canonicalize.mlir", "0_1_cse.mlir", "1_inline.mlir", "1_0_canonicalize.mlir"]
    second_op = dump.snapshots[5]
    assert second_op.base == 0 and second_op.base_text is None  # not against the other initializer's dump
    assert any("counter starts again" in n and "1_0_canonicalize.mlir" in n for n in dump.notes)


def test_the_first_pass_is_not_hidden():
    dump = mlir.read_tree(FIXTURES / "multi_func/tree_dir")
    first = dump.snapshots[1]
    assert first.base is None and first.base_text is None  # diffed against snapshot 0, the empty input
    assert whole(dump.snapshots[0]) == "" and whole(first)


def test_every_archive_form_discovers(mlir_dumps):
    count = 0
    for item in sorted(mlir_dumps.glob("*/*")):
        if mlir.looks_like_tree(item):
            dump = mlir.read_tree(item)
        elif item.suffix == ".txt" and mlir.looks_like_stream(item) and "threading" not in item.name:
            dump = mlir.read_stream(item)
        else:
            continue
        assert len(dump.snapshots) > 5
        count += 1
    assert count == 32  # 6 programs x 4 standard forms, and 8 variants


def test_a_folder_above_or_inside_the_tree(tmp_path):
    m = "builtin_module_no-symbol-name"
    files = {
        f"unit_a/{m}/func_func_f/0_0_cse.mlir": header("cse", "CSE", "func.func @f") + "\n" + module("f"),
        f"unit_a/{m}/1_inline.mlir": header("inline", "Inliner", "builtin.module") + "\n" + module("f"),
    }
    root = write_tree(tmp_path / "out", files)
    above = mlir.read_tree(root)
    assert [s.filename for s in above.snapshots[1:]] == [
        f"unit_a/{m}/func_func_f/0_0_cse.mlir",
        f"unit_a/{m}/1_inline.mlir",
    ]
    assert any("unit_a" in n for n in above.notes)
    inside = mlir.read_tree(root / "unit_a" / m)
    assert [s.filename for s in inside.snapshots[1:]] == ["func_func_f/0_0_cse.mlir", "1_inline.mlir"]
    assert any("inside a dump tree" in n for n in inside.notes)
    write_tree(root, {f"unit_b/{m}/0_cse.mlir": header("cse", "CSE", "builtin.module") + "\n" + module("f")})
    with pytest.raises(DumpError, match="several dump trees"):
        mlir.read_tree(root)
    write_tree(root, {"unit_b/0_cse.mlir": header("cse", "CSE", "builtin.module") + "\n" + module("f")})
    with pytest.raises(DumpError, match="one folder deep per counter"):
        mlir.read_tree(root)


# --- the order rule against a simulated pass manager --------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PASSES = ["canonicalize", "cse", "sccp", "inline", "loop-invariant-code-motion"]
step = st.one_of(
    st.tuples(st.just("module"), st.sampled_from(PASSES)),
    st.tuples(st.just("nest"), st.lists(st.sampled_from(PASSES), min_size=1, max_size=3)),
)


def simulate(functions: list[str], pipeline, module_scope: bool) -> tuple[dict[str, str], list[str]]:
    """The files a single-threaded pass manager writes, and the order it writes them in.

    Counters as the README observed them: one per op, a new entry starts at 0 (created as an ancestor
    prefix, or by the op's first dump), and each of the op's own dumps after that adds one.
    """
    counters: dict[str, int] = {}

    def number(op: str, own: bool) -> int:
        if op not in counters:
            counters[op] = 0
        elif own:
            counters[op] += 1
        return counters[op]

    m = "builtin_module_no-symbol-name"
    text = module(*functions)
    files, order = {}, []
    merged = []  # the pass manager merges adjacent nested pipelines: func.func(a),func.func(b) runs as func.func(a,b)
    for kind, arg in pipeline:
        if kind == "nest" and merged and merged[-1][0] == "nest":
            merged[-1] = ("nest", merged[-1][1] + arg)
        else:
            merged.append((kind, arg))
    for kind, arg in merged:
        if kind == "module":
            rel = f"{m}/{number(m, True)}_{arg}.mlir"
            files[rel] = header(arg, "P", "builtin.module" if module_scope else None) + "\n" + text
            order.append(rel)
            continue
        for f in functions:  # in IR order, the nested pipeline to its end on each
            for a in arg:
                prefix = number(m, False)
                rel = f"{m}/func_func_{f}/{prefix}_{number(f, True)}_{a}.mlir"
                body = text if module_scope else FUNC.format(name=f, body="")
                files[rel] = header(a, "P", f"func.func @{f}" if module_scope else None) + "\n" + body
                order.append(rel)
    return files, order


@settings(max_examples=40, deadline=None)
@given(
    functions=st.lists(st.text("abcxyz_", min_size=1, max_size=5), min_size=1, max_size=4, unique=True),
    pipeline=st.lists(step, min_size=1, max_size=5),
    module_scope=st.booleans(),
)
def test_tree_order_is_the_pass_managers_order(tmp_path_factory, functions, pipeline, module_scope):
    if not module_scope:
        # Local dumps name no op: the IR order comes from a module-level dump, so there must be one.
        pipeline = [*pipeline, ("module", "cse")]
    files, order = simulate(functions, pipeline, module_scope)
    dump = mlir.read_tree(write_tree(tmp_path_factory.mktemp("tree"), files))
    assert [s.filename for s in dump.snapshots[1:]] == order
    assert not any("folder names decide" in n or "restart" in n or "missing" in n for n in dump.notes)


def test_special_files_are_never_opened(tmp_path):
    m = "builtin_module_no-symbol-name"
    root = write_tree(tmp_path / "t", {f"{m}/0_cse.mlir": header("cse", "CSE", "builtin.module") + "\n" + module("f")})
    os.mkfifo(root / m / "1_canonicalize.mlir")  # reading it would block
    assert mlir.looks_like_tree(root)
    dump = mlir.read_tree(root)
    assert [s.filename for s in dump.snapshots[1:]] == [f"{m}/0_cse.mlir"]
    assert any("1_canonicalize.mlir" in n and "ignored 1" in n for n in dump.notes)
    only_fifo = tmp_path / "u" / m
    only_fifo.mkdir(parents=True)
    os.mkfifo(only_fifo / "0_cse.mlir")
    assert not mlir.looks_like_tree(tmp_path / "u")
    assert not mlir.looks_like_stream(only_fifo / "0_cse.mlir")


def test_a_pypto_dump_is_not_mlir():
    real = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "advanced_01_split_k_concise" / "passes_dump"
    assert not mlir.looks_like_tree(real)
    assert not any(mlir.looks_like_stream(p) for p in real.iterdir())


def test_a_first_whole_dump_after_local_dumps_only_is_said_to_be_against_the_empty_input(tmp_path):
    """Its counts are the whole module's, not the pass's: the reader is told why."""
    m = "builtin_module_no-symbol-name"
    files = {
        f"{m}/func_func_f/0_0_cse.mlir": header("cse", "CSE") + "\n" + FUNC.format(name="f", body=""),
        f"{m}/1_inline.mlir": header("inline", "Inliner") + "\n" + module("f"),
        f"{m}/2_cse.mlir": header("cse", "CSE") + "\n" + module("f"),
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    assert dump.snapshots[2].base == 0
    assert any(
        n.startswith("the first dump of the whole IR (2 inline) comes after local dumps only") for n in dump.notes
    )
    scoped = mlir.read_tree(FIXTURES / "multi_func/tree_dir")  # module scope: every dump is whole
    assert not any("the first dump of the whole IR" in n for n in scoped.notes)


def test_each_pass_names_what_it_is_diffed_against(alone):
    """The Before pane names its file: for a pass diffed against anything but the snapshot before it (its
    op's own previous dump, its Before dump, an op cut out of a module dump, a module with local dumps put
    in), that is not the previous snapshot's file."""
    from modeltools import build

    for dump in (
        mlir.read_tree(FIXTURES / "multi_func/tree_dir_no_module_scope"),
        mlir.read_stream(FIXTURES / "multi_func/stream_no_module_scope.txt"),
    ):
        passes = build(dump)["passes"]
        named = 0
        for s, p in zip(dump.snapshots[1:], passes):
            if s.base_text is not None:
                assert p["beforeFile"] == s.base_name and re.search(
                    r" (cut out of|with the \d+ local dump\(s\) after it)", s.base_name
                )
            elif s.base is not None and s.base != s.index - 1:
                assert p["beforeFile"] == dump.snapshots[s.base].filename
            else:
                assert "beforeFile" not in p
                continue
            named += 1
        assert named >= 10, dump.title


def test_a_local_dump_after_a_whole_dump_starts_from_its_op_as_the_whole_dump_shows_it(tmp_path, alone):
    """A module pass changes functions too: the next local dump of a function is diffed against the function
    in that module dump (aliases written out, as a local dump prints them), not its own older dump, which
    would show the module pass's changes as the function pass's."""
    m = "builtin_module_no-symbol-name"
    after_module = FUNC.format(name="f", body="%0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%arg0)")
    files = {
        f"{m}/0_cse.mlir": header("cse", "CSE") + "\n" + module("f"),
        f"{m}/func_func_f/0_0_canonicalize.mlir": header()
        + "\n"
        + FUNC.format(name="f", body="%0 = arith.addi %arg0, %arg0 : i32"),
        f"{m}/1_lower.mlir": header("lower", "Lower")
        + "\n"
        + "#map = affine_map<(d0) -> (d0 + 1)>\n"
        + module("f", body="%0 = affine.apply #map(%arg0)"),
        f"{m}/func_func_f/1_1_canonicalize.mlir": header() + "\n" + after_module,  # changed nothing
    }
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    last = dump.snapshots[4]
    assert last.base_text == last.text == after_module + "\n"
    assert last.base_name == f"func_func_f cut out of {m}/1_lower.mlir"


@pytest.mark.parametrize(
    "local,scoped", [("tree_dir_no_module_scope", "tree_dir"), ("stream_no_module_scope.txt", "stream.txt")]
)
def test_local_dumps_change_what_the_module_scope_run_says_they_change(local, scoped):
    """Oracle: the module-scope run of the same pipeline. Every function-level pass after a function's first
    dump (its first is against the empty input in local scope) makes the same numbers of changes in both,
    leaving out the canonicalize runs the inliner made while it worked (the module scope shows the
    inliner's half-done work in them)."""
    from modeltools import build

    read = mlir.read_stream if local.endswith(".txt") else mlir.read_tree
    ours, theirs = read(FIXTURES / "multi_func" / local), read(FIXTURES / "multi_func" / scoped)
    our_passes, their_passes = build(ours)["passes"], build(theirs)["passes"]
    position = {s.filename if s.path else s.index: k for k, s in enumerate(theirs.snapshots[1:])}
    seen: set[str] = set()
    compared = 0
    for k, s in enumerate(ours.snapshots[1:]):
        op = s.detail.split(" on ")[-1].split(",")[0]
        first, _ = op not in seen, seen.add(op)
        inliner = re.search(r"/0_[23]_canonicalize", s.filename) if s.path else 11 <= s.index <= 16
        if "local scope" not in s.detail or first or inliner:
            continue
        twin = their_passes[position[s.filename if s.path else s.index]]
        assert (our_passes[k]["inserted"], our_passes[k]["deleted"]) == (twin["inserted"], twin["deleted"]), (
            local,
            s.filename,
        )
        compared += 1
    assert compared >= 15


def test_after_change_dumps_leave_no_gaps_and_every_pass_changed_something():
    """--mlir-print-ir-after-change prints only passes that changed the IR, with no gaps in the numbers."""
    from modeltools import build

    dump = mlir.read_tree(FIXTURES / "affine_matmul/variant_tree_dir_after_change")
    assert not any("missing" in n for n in dump.notes)
    passes = build(dump)["passes"]
    assert len(passes) == 15 and all(p["before"] != p["after"] for p in passes)


def test_flat_flags_put_the_inliners_canonicalize_before_the_inline_dump():
    """`--inline --canonicalize ...`: every pass on builtin.module; the only function folders are the canonicalize
    the inliner ran inside itself, numbered under the module's entry 0 (created, never dumped), so they come
    first, and the module counter starts at 1 without a missing-dump note."""
    dump = mlir.read_tree(FIXTURES / "multi_func/variant_tree_dir_flat_flags")
    names = [(s.name, s.detail.split(" on ")[1]) for s in dump.snapshots[1:]]
    nested = [n for n in names if n[1].startswith("func.func")]
    assert len(nested) == 6 and names[:6] == nested and all(name == "canonicalize" for name, _ in nested)
    assert [name for name, _ in names[6:]] == [
        "inline",
        "canonicalize",
        "cse",
        "convert-scf-to-cf",
        "convert-to-llvm",
        "reconcile-unrealized-casts",
    ]
    assert not any("missing" in n for n in dump.notes)
    assert any("sibling ops" in n for n in dump.notes)


def test_file_times_do_not_order_a_tree(tmp_path):
    """mtimes match the true order only when a copy kept them: the names and the IR decide, never the times."""
    import shutil

    source = FIXTURES / "multi_func/tree_dir"
    copy = tmp_path / "tree_dir"
    shutil.copytree(source, copy)
    files = sorted(p for p in copy.rglob("*.mlir"))
    for k, path in enumerate(files):  # the reverse of any order, a second apart
        os.utime(path, (1_000_000 + (len(files) - k), 1_000_000 + (len(files) - k)))
    assert [s.filename for s in mlir.read_tree(copy).snapshots] == [
        s.filename for s in mlir.read_tree(source).snapshots
    ]


def test_the_iree_threading_error_is_read_as_the_same_error(tmp_path):
    """iree-compile prints the threading error plus a line of its own, and exits 0: still no IR, said so."""
    stderr = tmp_path / "iree.stderr.txt"
    stderr.write_text(
        "<unknown>:0: error: IR print for module scope can't be setup on a pass-manager without disabling "
        "multi-threading first.\nFailed to apply pass manager CL options\n",
        encoding="utf-8",
    )
    assert mlir.looks_like_stream(stderr)
    with pytest.raises(DumpError, match="--mlir-disable-threading"):
        mlir.read_stream(stderr)


def local_scope_copy(tree: Path, out: Path) -> Path:
    """The tree a run without --mlir-print-ir-module-scope prints: headers name no op, a function's dump holds
    the function alone (dedented), the module's dumps are unchanged."""
    for path in sorted(tree.rglob("*.mlir")):
        lines = path.read_text(encoding="utf-8").split("\n")
        head = re.sub(r" \('[^']+' operation(: @\S+)?\)", "", lines[0])
        if path.parent.name.startswith("func_func_"):
            name = path.parent.name.removeprefix("func_func_")
            start = next(i for i, line in enumerate(lines) if line.startswith(f"  func.func @{name}("))
            end = lines.index("  }", start)
            text = "\n".join([head, *(line[2:] for line in lines[start : end + 1])]) + "\n\n"
        else:
            text = "\n".join([head, *lines[1:]])
        target = out / path.relative_to(tree)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_local_scope_run_shows_each_pass_the_changes_the_module_scope_run_shows(tmp_path, seed):
    """Oracle on generated pipelines (benchmarks/gen_mlir.py: module passes between nested function pipelines
    that leave functions alone, renumber them or change them): read without module scope, every pass makes
    exactly the changes it makes with module scope."""
    import sys

    from modeltools import build

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import gen_mlir

    scoped = gen_mlir.generate(tmp_path / "scoped", functions=4, rounds=3, seed=seed).path
    local = local_scope_copy(scoped, tmp_path / "local")
    ours, theirs = build(mlir.read_tree(local))["passes"], build(mlir.read_tree(scoped))["passes"]
    assert [p["file"] for p in ours] == [p["file"] for p in theirs]
    assert [(p["inserted"], p["deleted"]) for p in ours] == [(p["inserted"], p["deleted"]) for p in theirs]
    assert sum(p["before"] != p["after"] for p in ours) >= 5


def test_local_dumps_are_put_in_the_module_once_per_whole_dump(tmp_path, monkeypatch, alone):
    """N functions each dumped locally, then a whole dump: the module with every local dump put in is built
    once, when the whole dump needs it (it was rebuilt after each local dump: time quadratic in N), and it is
    exactly the IR the whole dump's pass received (that pass changes nothing here: it is a no-op)."""
    names = [f"f{i}" for i in range(6)]
    m = "builtin_module_no-symbol-name"
    changed = "%0 = arith.muli %arg0, %arg0 : i32"
    files = {f"{m}/0_cse.mlir": header("cse", "CSE") + "\n" + module(*names)}
    for name in names:
        files[f"{m}/func_func_{name}/0_0_canonicalize.mlir"] = header() + "\n" + FUNC.format(name=name, body=changed)
    files[f"{m}/1_inline.mlir"] = header("inline", "Inliner") + "\n" + module(*names, body=changed)
    built = []
    real = scope._finish  # called once per module built
    monkeypatch.setattr(scope, "_finish", lambda lines, like: built.append(1) or real(lines, like))
    data = build(mlir.read_tree(write_tree(tmp_path / "t", files)))
    assert len(built) == 1
    passes = {p["name"]: p for p in data["passes"]}
    assert passes["inline"]["before"] == passes["inline"]["after"]  # nothing left for the whole dump to show
    assert all(p["inserted"] == p["deleted"] == 1 for p in data["passes"] if p["name"] == "canonicalize")


def functions_dumped_one_by_one(root: Path, count: int) -> Path:
    """A module of `count` functions, each then rewritten by a local canonicalize, then a whole inline dump."""
    names = [f"f{i}" for i in range(count)]
    m, changed = "builtin_module_no-symbol-name", "%0 = arith.muli %arg0, %arg0 : i32"
    files = {f"{m}/0_cse.mlir": header("cse", "CSE") + "\n" + module(*names)}
    for name in names:
        files[f"{m}/func_func_{name}/0_0_canonicalize.mlir"] = header() + "\n" + FUNC.format(name=name, body=changed)
    files[f"{m}/1_inline.mlir"] = header("inline", "Inliner") + "\n" + module(*names, body=changed)
    return write_tree(root, files)


def test_a_local_dump_after_a_whole_one_is_shown_as_the_module_as_it_stands(tmp_path):
    """After a whole dump, each local dump is shown as the whole module with its function put in, diffed against
    the dump before it: the module with the functions before it rewritten, and itself not yet. The whole dump
    after them received exactly the last one's IR: its pass is a no-op against it, and lines are followed."""
    dump = mlir.read_tree(functions_dumped_one_by_one(tmp_path / "t", 3))
    _cse, *local, inline = dump.snapshots[1:]
    changed, kept = "%0 = arith.muli %arg0, %arg0 : i32", "%0 = arith.addi %arg0, %arg0 : i32"
    for k, s in enumerate(local):
        assert s.detail == f"Canonicalizer on func_func_f{k}, local scope, shown in the whole IR"
        assert (s.base, s.base_text) == (None, None)  # against the dump before it
        rewritten = [FUNC.format(name=f"f{i}", body=changed if i <= k else kept) for i in range(3)]
        shown = "module {\n" + "".join(f"  {line}\n" for f in rewritten for line in f.splitlines()) + "}"
        assert s.text.rstrip("\n") == shown
        assert s.source.read() == FUNC.format(name=f"f{k}", body=changed) + "\n"  # as printed, kept
    assert (inline.base, inline.base_text) == (None, None) and inline.text.rstrip("\n") == local[-1].text.rstrip("\n")
    assert not any("shown alone" in note for note in dump.notes)


def test_past_the_whole_views_bound_local_dumps_are_shown_alone_and_the_notes_say_from_where(tmp_path, monkeypatch):
    """Showing each local dump in the whole IR costs the program once per dump: 2,000 one-function dumps of a
    2,000-function module would print it 2,000 times. Past the bound (here two modules' worth), local dumps are
    shown alone: the first of them against its function cut out of the dump before it, which showed it whole."""
    root = functions_dumped_one_by_one(tmp_path / "t", 4)
    size = len(module(*[f"f{i}" for i in range(4)]))
    monkeypatch.setattr(snapshots, "WHOLE_VIEW_RATIO", 0)
    monkeypatch.setattr(snapshots, "WHOLE_VIEW_FLOOR", 2 * size + 10)
    dump = mlir.read_tree(root)
    local = dump.snapshots[2:6]
    assert ["shown in the whole IR" in s.detail for s in local] == [True, True, False, False]
    third = local[2]
    assert third.base_name == f"func_func_f2 cut out of {local[1].filename}"
    assert third.base_text == FUNC.format(name="f2", body="%0 = arith.addi %arg0, %arg0 : i32") + "\n"
    assert third.text == third.source.read()
    (note,) = [note for note in dump.notes if "shown alone" in note]
    assert note.startswith("2 local-scope dump(s) are shown alone") and "from 4 canonicalize on" in note


def test_each_local_dump_shown_whole_builds_the_module_once(tmp_path, monkeypatch):
    """The module is built once per local dump shown (its text), and once more for the whole dump after them,
    named by that dump's aliases: linear in the dumps, each a module's worth (the bound above caps the sum)."""
    built = []
    real = scope._finish  # called once per module built
    monkeypatch.setattr(scope, "_finish", lambda lines, like: built.append(1) or real(lines, like))
    data = build(mlir.read_tree(functions_dumped_one_by_one(tmp_path / "t", 6)))
    assert len(built) == 6 + 1
    passes = {p["name"]: p for p in data["passes"]}
    assert passes["inline"]["before"] == passes["inline"]["after"]  # nothing left for the whole dump to show
    assert all(p["inserted"] == p["deleted"] == 1 for p in data["passes"] if p["name"] == "canonicalize")


def test_sibling_dumps_of_one_function_each_under_module_scope_headers_are_read_in_the_ir_order(tmp_path):
    """A header that names its op says module scope, where every dump holds the whole IR; dumps that hold their
    function alone under such headers (a tool's own, or edited) cannot be ordered by their content, and the IR's
    order stands (they ended the CLI with an internal error, an IndexError)."""
    m, names = "builtin_module_no-symbol-name", ["f0", "f1", "f2"]
    files = {f"{m}/0_canonicalize.mlir": header(op="builtin.module") + "\n" + module(*names)}
    for name in names:
        body = FUNC.format(name=name, body="%0 = arith.muli %arg0, %arg0 : i32")
        files[f"{m}/func_func_{name}/0_0_cse.mlir"] = header("cse", "CSE", op=f"func.func @{name}") + "\n" + body
    dump = mlir.read_tree(write_tree(tmp_path / "t", files))
    assert [s.filename.split("/")[-2] for s in dump.snapshots[2:]] == [f"func_func_{name}" for name in names]
    assert any("the content could not decide, and the IR order stands" in note for note in dump.notes)


def test_a_huge_counter_is_a_label_not_a_size(tmp_path):
    """Counters may be any number: the note on missing dumps costs what the files are, not what they count."""
    root = write_tree(
        tmp_path / "t",
        {
            "builtin_module/0_canonicalize.mlir": header(op="builtin.module") + "\n" + module("f"),
            "builtin_module/30000000000000_cse.mlir": header("cse", "CSE", op="builtin.module") + "\n" + module("g"),
        },
    )
    dump = mlir.read_tree(root)
    assert [s.name for s in dump.snapshots] == [mlir.INPUT_NAME, "canonicalize", "cse"]
    assert any("numbers 1, 2, 3, 4, 5 ..." in note for note in dump.notes)


def test_an_unlistable_op_folder_fails_naming_it(tmp_path, monkeypatch):
    """Skipping a folder the walk cannot list would leave an op's passes out of the report with exit 0.
    Root reads any folder (CI runs as root), so the refusal is simulated where os.walk lists folders."""
    root = write_tree(
        tmp_path / "t",
        {
            "builtin_module/0_canonicalize.mlir": header(op="builtin.module") + "\n" + module("f"),
            "builtin_module/func_func_f/0_0_cse.mlir": header("cse", "CSE") + "\n" + FUNC.format(name="f", body=""),
        },
    )
    real = os.scandir
    locked = root / "builtin_module" / "func_func_f"

    def scandir(path="."):
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(DumpError, match=r"cannot list .*func_func_f: Permission denied"):
        mlir.read_tree(root)


def test_a_function_lowered_to_another_dialect_is_put_in_where_the_function_stood(tmp_path, monkeypatch):
    """IREE prints a dispatch's export and its function under one symbol; a local dump of the function lowered to
    `llvm.func` matches neither opener's signature. It is put in by the printer's layout where the function (an op
    of its kind in the old dialect) stood, the export kept, without parsing the program to find it."""
    program = "\n".join(
        [
            "module {",
            "  hal.executable.variant public @v {",
            "    hal.executable.export public @f ordinal(0) {",
            "      hal.return",
            "    }",
            "    builtin.module {",
            "      func.func @f() {",
            "        return",
            "      }",
            "    }",
            "  }",
            "}",
        ]
    )
    lowered = "llvm.func @f() {\n  llvm.return\n}"
    stream = tmp_path / "stream.txt"
    stream.write_text(
        "\n".join(
            [header("cse", "CSEPass"), program, "", header("iree-convert-to-llvm", "ConvertToLLVMPass"), lowered, ""]
        )
        + "\n"
    )
    parsed = []
    real = scope.ops_of
    monkeypatch.setattr(scope, "ops_of", lambda text: parsed.append(text) or real(text))
    _first, local = mlir.read_stream(stream).snapshots[1:]
    assert local.text.rstrip("\n") == program.replace(
        "func.func @f() {\n        return", "llvm.func @f() {\n        llvm.return"
    )
    assert parsed == []


H = "// -----// IR Dump After CSEPass (cse) //----- //"


@pytest.mark.parametrize(
    "text,key",
    [
        (f"{H}\nfunc.func @f() {{\n  return\n}}\n\n", "@f"),
        (f"{H}\n\n  \nfunc.func @f() {{\n^bb1:\n  return\n}}\n", "@f"),  # blank lines first, a block label
        (f"{H}\nfunc.func private @g(i32)\n", "@g"),  # a declaration: one line
        (f"{H}\nfunc.func @f() {{\n  return\n}}\nfunc.func @g() {{\n  return\n}}\n", None),  # two ops
        (f"{H}\nmodule {{\n  func.func @f() {{\n  }}\n}}\n", None),  # the unnamed top module: a whole dump
        (f"{H}\n#map = affine_map<(d0) -> (d0)>\nfunc.func @f() {{\n}}\n", None),  # aliases: a whole dump
        (f"{H}\nutil.initializer {{\n  util.return\n}}\n", None),  # an op the language names no region for
        (H, None),
    ],
)
def test_a_local_dump_is_read_as_its_one_op_by_the_printers_layout(text, key):
    assert ops.single_op(text) == key


@pytest.mark.parametrize(
    "body,signature",
    [
        ("#map = affine_map<(d0) -> (d0)>\n\nutil.initializer {\n  util.return\n}\n", "util.initializer"),
        (
            "hal.executable.variant public @v target(#t) {\n  builtin.module {\n  }\n}\n",
            "hal.executable.variant public @v",
        ),
        ("module {\n  a\n}\nb\n", None),  # not closed last
        ("util.initializer {\nfoo\n}\n", None),  # a line at column 0 inside it
        ("  util.initializer {\n  }\n", None),  # indented: not a dump's top op
    ],
)
def test_a_told_dump_is_read_as_the_signature_of_its_one_op(body, signature):
    assert ops.opened_op(f"{H}\n{body}", len(H) + 1) == signature


def test_a_local_scope_stream_whose_first_dump_is_the_whole_ir_before_its_pass_takes_it_as_input(tmp_path):
    """MLIR 19's local headers name no op: the first dump, a module printed before its pass, is told the whole IR
    by its text, and is the input; an op no dump held since (a pass made it) is shown against nothing, not that
    module."""
    made = FUNC.format(name="g", body="%0 = arith.muli %arg0, %arg0 : i32")
    stream = tmp_path / "stream.txt"
    stream.write_text(
        f"{header(when='Before')}\n{module('f')}\n{header()}\n{module('f')}\n{header('cse', 'CSE')}\n{made}\n",
        encoding="utf-8",
    )
    (dump,) = formats.load(stream)
    given, canonicalize, cse = dump.snapshots
    assert (given.name, given.filename, given.text) == ("input", "stream.txt:1", module("f") + "\n")
    assert dump.notes[0] == "the pipeline's input (snapshot 0) is the IR printed before its first pass, canonicalize"
    assert canonicalize.base is None and canonicalize.base_text is None  # against the input: a no-op
    assert (cse.base_text, cse.base_name) == ("", "(nothing: no earlier dump holds it)")
